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

export interface AgentStoreErrorDetails {
  /** The server's own error code, from RUN_ERROR.code. */
  serverCode?: string
  /** The AG-UI event type that was rejected. */
  eventType?: string
  /** JSON Patch failures: which op, where, and why. */
  opIndex?: number
  op?: string
  path?: string
  reason?: string
  /** Which limit was exceeded. */
  limit?: 'maxDepth' | 'maxOpsPerDelta' | 'maxStateBytes' | 'maxEventBytes'
  /** HTTP status of a failed request, when known. */
  status?: number
  cause?: unknown
}

export class AgentStoreError extends Error implements AgentStoreErrorDetails {
  readonly code: AgentStoreErrorCode
  serverCode?: string
  eventType?: string
  opIndex?: number
  op?: string
  path?: string
  reason?: string
  limit?: AgentStoreErrorDetails['limit']
  status?: number

  constructor(code: AgentStoreErrorCode, message: string, details: AgentStoreErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'AgentStoreError'
    this.code = code
    const { cause: _cause, ...rest } = details
    Object.assign(this, rest)
  }
}

export const isAgentStoreError = (value: unknown): value is AgentStoreError => value instanceof AgentStoreError
