import type { BaseEvent } from '@ag-ui/core'
import { AgentStoreError, messageOf } from '../errors'
import type { ConnectOptions, RunHandlers } from './run-contract'
import { lifecycleVerifier } from './verify-lifecycle'

/**
 * One run's end-to-end rules, whatever carries its events (the built-in transport's readers, an
 * agent's Observable): the idle timer, the lifecycle order, the first terminal event, the drain,
 * and at most one `end`. The carrier reports events, activity, the end of its stream or why it
 * failed, and gives `onCancel` the way to stop its request.
 */
export interface RunGuard {
  /** Still reading: false once the run failed, was cancelled, or its drain is over. */
  readonly open: boolean
  /** Cancels the request: set by the carrier once it has one. */
  onCancel: () => void
  cancel(): void
  /** Bytes, headers or an event arrived: the agent is alive. */
  touch(): void
  /** The SSE last event ID whenever it changes: where a resume starts. */
  eventId(id: string): void
  event(event: BaseEvent | ({ type: string } & Record<string, unknown>)): void
  /** The stream ended by itself: read to its end, nothing to cancel. Before the run's end, it failed with `error` (or as incomplete). */
  complete(error?: AgentStoreError): void
  /** The request failed: after the run's end that is only the end of the drain. */
  fail(error: AgentStoreError): void
  /** The stream cannot go on: the run fails with `error`, or, after its end, the reading just stops. */
  stop(error: AgentStoreError): void
}

export function createRunGuard(handlers: RunHandlers, options: ConnectOptions): RunGuard {
  let open = true
  let ended = false
  let lastEventId: string | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastActivity = performance.now()
  /** A `connect` stream that resumes mid-run from a cursor starts without RUN_STARTED: it is verified only if it replays from one. */
  let verify: ReturnType<typeof lifecycleVerifier> | undefined
  let firstEvent = true

  const close = () => {
    open = false
    clearTimeout(timer)
    guard.onCancel()
  }

  const watch = (limit: number, delay: number) => {
    timer = setTimeout(() => {
      const idle = performance.now() - lastActivity
      if (idle < limit) return watch(limit, limit - idle)
      guard.stop(new AgentStoreError('TRANSPORT', `The agent sent nothing for ${limit} ms`, { reason: 'timeout' }))
    }, delay)
  }

  const guard: RunGuard = {
    get open() {
      return open
    },
    onCancel: () => {},
    cancel() {
      if (open) close()
    },
    touch() {
      lastActivity = performance.now()
    },
    eventId(id) {
      lastEventId = id === '' ? undefined : id
    },
    event(event) {
      if (!open) return
      // Anything after the run's end means the server is not closing: stop reading.
      if (ended) return close()
      if (firstEvent) {
        firstEvent = false
        if (!options.connect || event.type === 'RUN_STARTED') verify = lifecycleVerifier()
      }
      const outOfOrder = verify?.(event as { type: string } & Record<string, unknown>)
      if (outOfOrder !== undefined) return guard.stop(new AgentStoreError('INVALID_EVENT', outOfOrder))
      handlers.event(event as BaseEvent)
      if (open && !options.connect && (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR')) {
        ended = true
        clearTimeout(timer)
        timer = setTimeout(close, options.drainMs ?? 2_000)
        handlers.end(undefined)
      }
    },
    complete(error) {
      if (!open) return
      if (!ended) return guard.stop(error ?? new AgentStoreError('TRANSPORT', 'The stream ended before RUN_FINISHED or RUN_ERROR', { reason: 'incomplete' }))
      open = false
      clearTimeout(timer)
    },
    fail(error) {
      if (ended) guard.complete()
      else guard.stop(error)
    },
    stop(error) {
      if (!open) return
      close()
      if (!ended) handlers.end(error, lastEventId)
    },
  }
  const { timeoutMs } = options
  // One timer per run, re-armed only when it fires early: busy streams cost a clock read per chunk.
  if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) watch(timeoutMs, timeoutMs)
  return guard
}

/** Why an agent cannot re-attach to a run, as both transports and the store say it. */
export const NO_CONNECT = 'The agent does not implement connect'

/** RECONNECT `not-supported`, as both transports report it. */
export const connectNotSupported = (cause?: unknown) => new AgentStoreError('RECONNECT', NO_CONNECT, { reason: 'not-supported', cause })

/** An HTTP error status, as both transports report it: the status in the details, the body (if any) only in the cause. */
export const httpStatusError = (status: number, cause: unknown) =>
  new AgentStoreError('TRANSPORT', `The agent answered HTTP ${status}`, { reason: 'http', status, cause })

/** A failure to reach the agent, or to read from it, as both transports report it. */
export function networkError(error: unknown): AgentStoreError {
  if (error instanceof AgentStoreError) return error
  return new AgentStoreError('TRANSPORT', `The connection to the agent failed: ${messageOf(error)}`, { reason: 'network', cause: error })
}
