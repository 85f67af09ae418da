/** Stable error codes: match on these, never on messages. */
export type AgentStoreErrorCode =
  | 'PATCH_FAILED'
  | 'INVALID_EVENT'
  | 'INVALID_STATE'
  | 'RUN_ERROR'
  | 'TRANSPORT'
  | 'VALIDATION'
  | 'LIMIT_EXCEEDED'
  | 'RUN_ACTIVE'
  | 'NO_AGENT'
  | 'LISTENER'
  | 'PENDING_CONFIRMATION'
  | 'NO_CONFIRMATION'
  | 'EXPIRED'
  | 'EDIT_CONFLICT'
  | 'INVALID_ANSWER'
  /** A saved thread that cannot be restored: an unknown format, damaged, or another app version without a working migrate. */
  | 'RESTORE'
  /** The persist storage failed (a quota, a closed database); the store goes on. */
  | 'PERSIST'
  /** reconnect() could not re-attach: the agent cannot connect, or the server no longer has the run. */
  | 'RECONNECT'

// `| undefined` on every optional field: with exactOptionalPropertyTypes, the class must be able to
// implement the interface with the same types (a consumer's tsc checks our .d.ts with skipLibCheck off).
export interface AgentStoreErrorDetails {
  /** The server's own error code, from RUN_ERROR.code. */
  serverCode?: string | undefined
  /** The AG-UI event type that was rejected. */
  eventType?: string | undefined
  /** JSON Patch failures: which op, where, and why. */
  opIndex?: number | undefined
  op?: string | undefined
  path?: string | undefined
  reason?: string | undefined
  /** Which limit was exceeded. */
  limit?: 'maxDepth' | 'maxOpsPerDelta' | 'maxStateBytes' | 'maxEventBytes' | undefined
  /** HTTP status of a failed request, when known. */
  status?: number | undefined
  /** EDIT_CONFLICT: the value the user set there, so the UI can offer it again. */
  value?: unknown
  cause?: unknown
}

export class AgentStoreError extends Error implements AgentStoreErrorDetails {
  readonly code: AgentStoreErrorCode
  serverCode?: string | undefined
  eventType?: string | undefined
  opIndex?: number | undefined
  op?: string | undefined
  path?: string | undefined
  reason?: string | undefined
  limit?: AgentStoreErrorDetails['limit']
  status?: number | undefined
  value?: unknown

  constructor(code: AgentStoreErrorCode, message: string, details: AgentStoreErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'AgentStoreError'
    this.code = code
    const { cause: _cause, ...rest } = details
    Object.assign(this, rest)
  }
}

export const isAgentStoreError = (value: unknown): value is AgentStoreError => value instanceof AgentStoreError

/** What was thrown, as a short message: an Error's message, anything else as a string. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
