/** Stable error codes: match on these, never on messages. */
export type AgentStoreErrorCode = keyof AgentStoreErrorDetailsByCode

/** The details of a code that carries nothing besides its message. */
export type NoDetails = Record<never, never>

/** A patch or value beyond one of the store's limits. */
export type AgentStoreLimit = 'maxDepth' | 'maxOpsPerDelta' | 'maxStateBytes' | 'maxEventBytes'

// `| undefined` on every optional field: with exactOptionalPropertyTypes, a consumer's tsc checks our
// .d.ts with skipLibCheck off, and the fields are written from details that may hold undefined.
/**
 * What each code carries besides its message, keyed by code: `switch (error.code)` narrows an
 * error to its own fields. Every `reason` is a short slug to match on; the prose is the message.
 */
export interface AgentStoreErrorDetailsByCode {
  /** A JSON Patch (STATE_DELTA, ACTIVITY_DELTA) failed: which op, where; why is in the message. */
  PATCH_FAILED: { eventType?: string | undefined; opIndex?: number | undefined; op?: string | undefined; path?: string | undefined }
  /** An event the protocol or the conversation refuses. `orphan-result`: a tool result for a call the store never saw. */
  INVALID_EVENT: { eventType?: string | undefined; reason?: 'orphan-result' | undefined }
  /** A state that is not plain JSON, or a step the store failed to apply. */
  INVALID_STATE: { path?: string | undefined; eventType?: string | undefined }
  /** The agent ended the run with RUN_ERROR; its own code, when it sent one. */
  RUN_ERROR: { serverCode?: string | undefined }
  /** The request failed: `http` (with `status`), `timeout` (nothing for `timeoutMs`), `incomplete` (the stream ended before the run did), `network` (anything else). */
  TRANSPORT: { reason: 'http' | 'timeout' | 'incomplete' | 'network'; status?: number | undefined }
  /** The state validator or schema refused a state. */
  VALIDATION: NoDetails
  /** Which limit was exceeded, and where when known. */
  LIMIT_EXCEEDED: {
    limit: AgentStoreLimit
    path?: string | undefined
    eventType?: string | undefined
    opIndex?: number | undefined
    op?: string | undefined
  }
  RUN_ACTIVE: NoDetails
  /** `run()`, `edit()` or `regenerate()` on a store with neither `agent` nor `url`; thrown by createAgentStore given both. */
  NO_AGENT: NoDetails
  /** A listener threw; the store went on. */
  LISTENER: NoDetails
  PENDING_CONFIRMATION: NoDetails
  NO_CONFIRMATION: NoDetails
  EXPIRED: NoDetails
  /**
   * The user's edit at `path` was not applied; `value` is what they set there (absent for a removal),
   * so the UI can offer it again. `changed`: the agent changed what the user changed or removed;
   * `removed`: the agent removed what the user changed.
   */
  EDIT_CONFLICT: { path: string; value?: unknown; reason: 'changed' | 'removed' }
  /** An answer that is not plain JSON within the limits (`path` says where), or of the wrong shape. */
  INVALID_ANSWER: { path?: string | undefined }
  /** A saved thread that cannot be restored: an unknown format, damaged, or another app version without a working migrate. */
  RESTORE: { reason: 'unknown-version' | 'damaged' | 'not-a-thread' | 'no-migrate' | 'migrate-failed' }
  /**
   * The persist storage failed (a quota, a closed database); the store goes on. `read`, `write`,
   * `remove`: what failed; `late`: the saved thread arrived after the store had changed.
   */
  PERSIST: { reason: 'read' | 'write' | 'remove' | 'late' }
  /**
   * edit(), regenerate() or switchBranch() named no message of the current branch, a message of the
   * wrong role, one without versions, or a version that does not exist; or there is no answer to regenerate
   * (`messageId` is the one named, '' when none was). With `branching: 'langgraph'`, `server-branch`:
   * the request would reach another branch than the one the server's thread holds (`messageId`: the
   * message that is not on it).
   */
  BRANCH: {
    reason: 'unknown-message' | 'wrong-role' | 'no-versions' | 'no-such-version' | 'nothing-to-regenerate' | 'server-branch'
    messageId: string
  }
  /** reconnect() could not re-attach: the agent cannot connect, nothing was dropped, or the server no longer has the run. */
  RECONNECT: { reason: 'not-supported' | 'nothing-to-rejoin' | 'not-found' }
}

/** The details of one code (of any of several codes, for a union). */
export type AgentStoreErrorDetails<C extends AgentStoreErrorCode = AgentStoreErrorCode> = AgentStoreErrorDetailsByCode[C]

type Cause = { cause?: unknown }
/** The details argument: optional where a code has no required field. */
type DetailsArgument<C extends AgentStoreErrorCode> =
  NoDetails extends AgentStoreErrorDetails<C> ? [details?: AgentStoreErrorDetails<C> & Cause] : [details: AgentStoreErrorDetails<C> & Cause]

// Named AgentStoreError at runtime too (constructor.name, stack traces), as before the union.
const StoreError = class AgentStoreError extends Error {
  readonly code: AgentStoreErrorCode

  constructor(code: AgentStoreErrorCode, message: string, { cause, ...rest }: object & Cause = {}) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'AgentStoreError'
    this.code = code
    Object.assign(this, rest)
  }
}

type AnyDetailKey = { [K in AgentStoreErrorCode]: keyof AgentStoreErrorDetailsByCode[K] }[AgentStoreErrorCode]

/**
 * One code's error: an Error with that code and its details as fields. The other codes' fields read
 * as `undefined`, so code that has not narrowed may still read `error.path` without a cast.
 */
export type AgentStoreErrorOf<C extends AgentStoreErrorCode> = Error & { readonly code: C } & Readonly<AgentStoreErrorDetails<C>> & {
    readonly [K in Exclude<AnyDetailKey, keyof AgentStoreErrorDetails<C>>]?: undefined
  }

/**
 * The store's error. Without a type argument it is the union over every code, so
 * `switch (error.code)` narrows `error` to the fields its code carries.
 */
export type AgentStoreError<C extends AgentStoreErrorCode = AgentStoreErrorCode> = { [K in C]: AgentStoreErrorOf<K> }[C]

/** Every error the store reports, as a union keyed by `code` (the same as `AgentStoreError`). */
export type AnyAgentStoreError = AgentStoreError

/**
 * The type of the `AgentStoreError` class: `new AgentStoreError(code, message, details)` takes the
 * details `code` carries (optional when none is required) and makes an `AgentStoreError` of that code.
 */
export interface AgentStoreErrorConstructor {
  new <C extends AgentStoreErrorCode>(code: C, message: string, ...details: DetailsArgument<C>): AgentStoreError<C>
  readonly prototype: AgentStoreError
}

/**
 * The error class: `new AgentStoreError(code, message, details)`, and `instanceof` works. One class at
 * runtime; the constructor's type ties the details to the code.
 */
export const AgentStoreError = StoreError as unknown as AgentStoreErrorConstructor

/** Whether a value is an error of this store (`AgentStoreError`), from any of its codes. */
export const isAgentStoreError = (value: unknown): value is AgentStoreError => value instanceof StoreError

/** What was thrown, as a short message: an Error's message, anything else as a string. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
