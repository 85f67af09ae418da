import { AbstractAgent, transformChunks, verifyEvents } from '@ag-ui/client'
import { AGUIConnectNotImplementedError, AGUIError, type BaseEvent, type RunAgentInput } from '@ag-ui/core'
import { type MonoTypeOperatorFunction, Observable, Subject, Subscription } from 'rxjs'
import { AgentStoreError } from '../errors'
import { EventType } from '../event-types'
import { defaultLimits } from '../limits'
import type { ConnectOptions, RunConnection, RunHandlers } from './run-contract'
import { type FetchFn, type SseOptions, wrapFetch } from './sse'

export type { ConnectOptions, RunConnection, RunHandlers }

/** An HttpAgent, or anything shaped like one: it fetches `url` through its public `fetch` field. */
type FetchingAgent = AbstractAgent & { url: string; fetch: FetchFn }

const isFetchingAgent = (agent: AbstractAgent): agent is FetchingAgent => {
  const { url, fetch } = agent as { url?: unknown; fetch?: unknown }
  return typeof url === 'string' && typeof fetch === 'function'
}

/**
 * Streams one run from the agent. Uses `agent.run(input)`, the plain event stream every
 * AbstractAgent implements, not `runAgent()`, whose apply pipeline clones state and messages per event.
 * One call is one run: nothing after its first RUN_FINISHED or RUN_ERROR is handed on. The
 * response is then drained, not cut: a server closing it within `drainMs` leaves a completed
 * request (not a failed one in the browser's network panel); one that keeps it open, or keeps
 * sending, is cancelled.
 */
export function connectRun(agent: AbstractAgent, input: RunAgentInput, handlers: RunHandlers, options: ConnectOptions = {}): RunConnection {
  let open = true
  let ended = false
  let subscription: { unsubscribe(): void } | undefined
  // HttpAgent keeps one AbortController for its lifetime; a fresh one per run lets abort() cancel a
  // request still waiting for headers (unsubscribing alone only cancels the body reader).
  const controller = 'abortController' in agent ? new AbortController() : undefined

  // Idle timeout: one timer per run, re-armed only when it fires early, so busy streams cost a clock read per chunk.
  const { timeoutMs } = options
  let lastActivity = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const touch = () => {
    lastActivity = performance.now()
  }
  const watch = (limit: number, delay: number) => {
    timer = setTimeout(() => {
      const idle = performance.now() - lastActivity
      if (idle < limit) return watch(limit, limit - idle)
      stop(new AgentStoreError('TRANSPORT', `The agent sent nothing for ${limit} ms`, { reason: 'timeout' }))
    }, delay)
  }
  if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) watch(timeoutMs, timeoutMs)

  function close() {
    open = false
    clearTimeout(timer)
    subscription?.unsubscribe()
    controller?.abort()
  }

  // Why the HTTP body stopped early, if it did: the stream itself then just ends. It matters only
  // if the run has not ended by then: garbage after RUN_FINISHED is never the run's failure.
  let bodyError: AgentStoreError | undefined
  const onBodyError = (error: unknown) => {
    bodyError ??= toStoreError(error)
  }
  let lastEventId: string | undefined
  const onEventId = (id: string) => {
    lastEventId = id === '' ? undefined : id
  }

  function stop(error: AgentStoreError) {
    if (!open) return
    if (ended) return close()
    close()
    handlers.end(error, lastEventId)
  }

  function drain() {
    ended = true
    clearTimeout(timer)
    timer = setTimeout(close, options.drainMs ?? 2_000)
  }

  // A stream that completes by itself needs no cancelling: the response was read to its end.
  const finish = () => {
    if (!ended) return stop(bodyError ?? new AgentStoreError('TRANSPORT', 'The stream ended before RUN_FINISHED or RUN_ERROR', { reason: 'incomplete' }))
    open = false
    clearTimeout(timer)
  }

  try {
    const sse = { maxEventBytes: options.maxEventBytes ?? defaultLimits.maxEventBytes, onActivity: touch, onError: onBodyError, onEventId }
    const connect = options.connect === true
    subscription = events(agent, input, sse, controller, connect ? { lastEventId: options.lastEventId } : undefined)
      .pipe(transformChunks(false), connect ? verifyUnlessContinued() : verifyEvents(false))
      .subscribe({
        next: (event) => {
          if (!open) return
          // Anything after the run's end means the server is not closing: stop reading.
          if (ended) return close()
          touch()
          handlers.event(event)
          if (open && !options.connect && (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR)) {
            drain()
            handlers.end(undefined)
          }
        },
        error: (error: unknown) => (ended ? finish() : stop(bodyError ?? toStoreError(error))),
        complete: finish,
      })
    // The stream may have ended while subscribe() ran, before there was a subscription to release.
    if (!open) subscription.unsubscribe()
  } catch (error) {
    stop(toStoreError(error))
  }
  return {
    cancel() {
      if (open) close()
    },
  }
}

/**
 * `agent.run(input)`, with an HttpAgent's responses read through our SSE framing and its request
 * tied to this run's controller. Both are swapped in only while run() executes: HttpAgent builds
 * and starts its request synchronously there, so other runs on the same agent (another store, a
 * direct call) never see this run's fetch wrapper or controller.
 */
function events(
  agent: AbstractAgent,
  input: RunAgentInput,
  sse: SseOptions,
  controller: AbortController | undefined,
  connect: { lastEventId: string | undefined } | undefined,
) {
  const target = agent as AbstractAgent & { fetch?: FetchFn; abortController?: AbortController }
  const { fetch, abortController } = target
  if (controller) target.abortController = controller
  if (isFetchingAgent(agent)) {
    const original = agent.fetch
    const cursor = connect?.lastEventId
    agent.fetch = wrapFetch((url, init) => original.call(agent, url, cursor === undefined ? init : withLastEventId(init, cursor)), sse)
  }
  try {
    // connect() is protected on AbstractAgent, but it is the stream connectAgent() reads: called the same way.
    return connect ? (agent as unknown as Connectable).connect(input) : agent.run(input)
  } finally {
    if (controller) target.abortController = abortController
    if (isFetchingAgent(agent)) target.fetch = fetch
  }
}

type Connectable = { connect(input: RunAgentInput): ReturnType<AbstractAgent['run']> }

function withLastEventId(init: RequestInit, id: string): RequestInit {
  const headers = new Headers(init.headers)
  headers.set('Last-Event-ID', id)
  return { ...init, headers }
}

/**
 * verifyEvents, for a `connect` stream that replays runs from their RUN_STARTED. A server resuming
 * from a cursor starts in the middle of the dropped run instead: the lifecycle of that run began
 * on the dropped stream, so verifyEvents (which wants RUN_STARTED first) cannot follow it, and the
 * store's own checks of each event against what it holds are the check.
 */
function verifyUnlessContinued(): MonoTypeOperatorFunction<BaseEvent> {
  return (source) =>
    new Observable<BaseEvent>((subscriber) => {
      let verified: Subject<BaseEvent> | undefined
      let first = true
      const checked = new Subscription()
      const into = (target: Subject<BaseEvent> | undefined) => target ?? subscriber
      checked.add(
        source.subscribe({
          next(event) {
            if (first) {
              first = false
              if (event.type === EventType.RUN_STARTED) {
                verified = new Subject<BaseEvent>()
                checked.add(verified.pipe(verifyEvents(false)).subscribe(subscriber))
              }
            }
            into(verified).next(event)
          },
          error: (error: unknown) => into(verified).error(error),
          complete: () => into(verified).complete(),
        }),
      )
      return checked
    })
}

/** Whether the agent implements AG-UI's `connect` (AbstractAgent's own throws AGUIConnectNotImplementedError). */
export const canConnect = (agent: AbstractAgent | undefined): boolean =>
  agent !== undefined && (agent as unknown as Connectable).connect !== (AbstractAgent.prototype as unknown as Connectable).connect

/** Turns whatever the transport threw into an error with a stable code and a short message (never a response body dump). */
export function toStoreError(error: unknown): AgentStoreError {
  if (error instanceof AgentStoreError) return error
  if (error instanceof AGUIConnectNotImplementedError) {
    return new AgentStoreError('RECONNECT', 'The agent does not implement connect', { reason: 'not-supported', cause: error })
  }
  const message = error instanceof Error ? error.message : String(error)
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status === 'number') {
    return new AgentStoreError('TRANSPORT', `The agent answered HTTP ${status}`, { reason: 'http', status, cause: error })
  }
  if (error instanceof AGUIError) {
    // verifyEvents: the server broke the protocol's lifecycle order.
    return new AgentStoreError('INVALID_EVENT', message, { cause: error })
  }
  if (error instanceof SyntaxError) {
    // A transport of another kind that parses JSON itself.
    return new AgentStoreError('INVALID_EVENT', `The agent sent data that is not JSON: ${message}`, { cause: error })
  }
  return new AgentStoreError('TRANSPORT', `The connection to the agent failed: ${message}`, { reason: 'network', cause: error })
}
