import type { BaseEvent } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import type { ConnectOptions, RunHandlers } from './run-contract'
import { LifecycleVerifier } from './verify-lifecycle'

/**
 * One run's end-to-end rules, whatever carries its events (the built-in transport's readers, an
 * agent's Observable): the idle timer, the lifecycle order, the first terminal event, the drain,
 * and at most one `end`. The carrier reports events, activity, the end of its stream or why it
 * failed, and gives `onCancel` the way to stop its request.
 */
export class RunGuard {
  open = true
  private ended = false
  private lastEventId: string | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private lastActivity = performance.now()
  /** A `connect` stream that resumes mid-run from a cursor starts without RUN_STARTED: it is verified only if it replays from one. */
  private verifier: LifecycleVerifier | undefined
  private firstEvent = true
  /** Cancels the request: set by the carrier once it has one. */
  onCancel: () => void = () => {}

  constructor(
    private readonly handlers: RunHandlers,
    private readonly options: ConnectOptions,
  ) {
    const { timeoutMs } = options
    // One timer per run, re-armed only when it fires early: busy streams cost a clock read per chunk.
    if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) this.watch(timeoutMs, timeoutMs)
  }

  cancel() {
    if (this.open) this.close()
  }

  /** Bytes, headers or an event arrived: the agent is alive. */
  touch() {
    this.lastActivity = performance.now()
  }

  /** The SSE last event ID whenever it changes: where a resume starts. */
  readonly eventId = (id: string) => {
    this.lastEventId = id === '' ? undefined : id
  }

  event(event: BaseEvent | ({ type: string } & Record<string, unknown>)) {
    if (!this.open) return
    // Anything after the run's end means the server is not closing: stop reading.
    if (this.ended) return this.close()
    if (this.firstEvent) {
      this.firstEvent = false
      if (!this.options.connect || event.type === 'RUN_STARTED') this.verifier = new LifecycleVerifier()
    }
    const outOfOrder = this.verifier?.check(event as { type: string } & Record<string, unknown>)
    if (outOfOrder !== undefined) return this.stop(new AgentStoreError('INVALID_EVENT', outOfOrder))
    this.handlers.event(event as BaseEvent)
    if (this.open && !this.options.connect && (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR')) {
      this.ended = true
      clearTimeout(this.timer)
      this.timer = setTimeout(() => this.close(), this.options.drainMs ?? 2_000)
      this.handlers.end(undefined)
    }
  }

  /** The stream ended by itself: read to its end, nothing to cancel. Before the run's end, it failed with `error` (or as incomplete). */
  complete(error?: AgentStoreError) {
    if (!this.open) return
    if (!this.ended) return this.stop(error ?? new AgentStoreError('TRANSPORT', 'The stream ended before RUN_FINISHED or RUN_ERROR', { reason: 'incomplete' }))
    this.open = false
    clearTimeout(this.timer)
  }

  /** The request failed: after the run's end that is only the end of the drain. */
  fail(error: AgentStoreError) {
    if (!this.open) return
    if (this.ended) return this.complete()
    this.stop(error)
  }

  /** The stream cannot go on: the run fails with `error`, or, after its end, the reading just stops. */
  stop(error: AgentStoreError) {
    if (!this.open) return
    if (this.ended) return this.close()
    this.close()
    this.handlers.end(error, this.lastEventId)
  }

  private watch(limit: number, delay: number) {
    this.timer = setTimeout(() => {
      const idle = performance.now() - this.lastActivity
      if (idle < limit) return this.watch(limit, limit - idle)
      this.stop(new AgentStoreError('TRANSPORT', `The agent sent nothing for ${limit} ms`, { reason: 'timeout' }))
    }, delay)
  }

  private close() {
    this.open = false
    clearTimeout(this.timer)
    this.onCancel()
  }
}

/** A failure to reach the agent, or to read from it, as both transports report it. */
export function networkError(error: unknown): AgentStoreError {
  if (error instanceof AgentStoreError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new AgentStoreError('TRANSPORT', `The connection to the agent failed: ${message}`, { reason: 'network', cause: error })
}
