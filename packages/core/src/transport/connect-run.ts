// The adapter for `createAgentStore({ agent })`: any @ag-ui/client agent, read through the
// Observable its `run` (or `connect`) returns, with the contract of the built-in transport. It
// loads nothing from @ag-ui/client, @ag-ui/core or rxjs: an app that passes an agent has them
// already, and one that passes `url` never pays for them.
import type { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { defaultLimits } from '../limits'
import type { ConnectOptions, RunConnection, RunHandlers } from './run-contract'
import { type FetchFn, type SseOptions, wrapFetch } from './sse'
import { LifecycleVerifier } from './verify-lifecycle'

export type { ConnectOptions, RunConnection, RunHandlers }

/** What the adapter reads of an agent: `run`, and `connect`, which AbstractAgent declares protected. */
type Streaming = {
  run(input: RunAgentInput): EventStream
  connect(input: RunAgentInput): EventStream
  /** HttpAgent's, and any agent shaped like it: it fetches `url` through this public field. */
  fetch?: FetchFn
  url?: unknown
  abortController?: AbortController
}

/** The part of an rxjs Observable the adapter uses, whichever copy of rxjs made it. */
type EventStream = {
  subscribe(observer: { next(event: BaseEvent): void; error(error: unknown): void; complete(): void }): { unsubscribe(): void }
}

/** AbstractAgent's `connect` throws this error, with this fixed message; its class sets no `name` to tell it by. */
const CONNECT_NOT_IMPLEMENTED = 'Connect not implemented. This method is not supported by the current agent.'

/**
 * Streams one run from the agent. Uses `agent.run(input)`, the plain event stream every
 * AbstractAgent implements, not `runAgent()`, whose apply pipeline clones state and messages per event.
 * One call is one run: nothing after its first RUN_FINISHED or RUN_ERROR is handed on. The
 * response is then drained, not cut: a server closing it within `drainMs` leaves a completed
 * request (not a failed one in the browser's network panel); one that keeps it open, or keeps
 * sending, is cancelled. Events are handed on as the agent emits them, their lifecycle order
 * verified; chunks are not expanded, as the store expands them itself.
 */
export function connectRun(agent: AbstractAgent, input: RunAgentInput, handlers: RunHandlers, options: ConnectOptions = {}): RunConnection {
  let open = true
  let ended = false
  let subscription: { unsubscribe(): void } | undefined
  const connect = options.connect === true
  // HttpAgent keeps one AbortController for its lifetime; a fresh one per run lets abort() cancel a
  // request still waiting for headers (unsubscribing alone only cancels the body reader).
  const controller = 'abortController' in agent ? new AbortController() : undefined
  // A `connect` stream that resumes mid-run from a cursor starts without RUN_STARTED: it is verified only if it replays from one.
  let verifier: LifecycleVerifier | undefined
  let firstEvent = true

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
  let lastEventId: string | undefined
  const sse: SseOptions = {
    maxEventBytes: options.maxEventBytes ?? defaultLimits.maxEventBytes,
    onActivity: touch,
    onError: (error) => {
      bodyError ??= toStoreError(error)
    },
    onEventId: (id) => {
      lastEventId = id === '' ? undefined : id
    },
  }

  function stop(error: AgentStoreError) {
    if (!open) return
    if (ended) return close()
    close()
    handlers.end(error, lastEventId)
  }

  // A stream that completes by itself needs no cancelling: the response was read to its end.
  const finish = () => {
    if (!ended) return stop(bodyError ?? new AgentStoreError('TRANSPORT', 'The stream ended before RUN_FINISHED or RUN_ERROR', { reason: 'incomplete' }))
    open = false
    clearTimeout(timer)
  }

  const next = (event: BaseEvent) => {
    if (!open) return
    // Anything after the run's end means the server is not closing: stop reading.
    if (ended) return close()
    touch()
    if (firstEvent) {
      firstEvent = false
      if (!connect || event.type === 'RUN_STARTED') verifier = new LifecycleVerifier()
    }
    let outOfOrder: string | undefined
    try {
      outOfOrder = verifier?.check(event as BaseEvent & Record<string, unknown>)
    } catch (error) {
      // As a failure inside the built-in transport's reader: the run ends, never an uncaught error.
      return stop(toStoreError(error))
    }
    if (outOfOrder !== undefined) return stop(new AgentStoreError('INVALID_EVENT', outOfOrder))
    handlers.event(event)
    if (open && !connect && (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR')) {
      ended = true
      clearTimeout(timer)
      timer = setTimeout(close, options.drainMs ?? 2_000)
      handlers.end(undefined)
    }
  }

  try {
    subscription = events(agent as unknown as Streaming, input, sse, controller, connect, options.lastEventId).subscribe({
      next,
      error: (error) => (ended ? finish() : stop(bodyError ?? toStoreError(error))),
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
  agent: Streaming,
  input: RunAgentInput,
  sse: SseOptions,
  controller: AbortController | undefined,
  connect: boolean,
  cursor: string | undefined,
) {
  const { fetch, abortController } = agent
  if (controller) agent.abortController = controller
  const fetching = typeof agent.url === 'string' && typeof fetch === 'function'
  if (fetching) {
    const resumeFrom = connect ? cursor : undefined
    agent.fetch = wrapFetch((url, init) => fetch.call(agent, url, resumeFrom === undefined ? init : withLastEventId(init, resumeFrom)), sse)
  }
  try {
    // connect() is the stream AbstractAgent's connectAgent() reads: called the same way.
    return connect ? agent.connect(input) : agent.run(input)
  } finally {
    if (controller) agent.abortController = abortController
    if (fetching) agent.fetch = fetch
  }
}

function withLastEventId(init: RequestInit, id: string): RequestInit {
  const headers = new Headers(init.headers)
  headers.set('Last-Event-ID', id)
  return { ...init, headers }
}

/**
 * Whether the agent implements AG-UI's `connect`: its `connect` is not the one of the base class
 * at the top of its prototype chain (AbstractAgent's, which throws), whichever copy of
 * @ag-ui/client that base came from.
 */
export function canConnect(agent: AbstractAgent | undefined): boolean {
  const own = (agent as Partial<Streaming> | undefined)?.connect
  let base: unknown
  for (let proto = agent && Object.getPrototypeOf(agent); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (Object.hasOwn(proto, 'connect')) base = proto.connect
  }
  return typeof own === 'function' && own !== base
}

/** Turns whatever the transport threw into an error with a stable code and a short message (never a response body dump). */
export function toStoreError(error: unknown): AgentStoreError {
  if (error instanceof AgentStoreError) return error
  const message = error instanceof Error ? error.message : String(error)
  if (message === CONNECT_NOT_IMPLEMENTED) {
    return new AgentStoreError('RECONNECT', 'The agent does not implement connect', { reason: 'not-supported', cause: error })
  }
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status === 'number') {
    return new AgentStoreError('TRANSPORT', `The agent answered HTTP ${status}`, { reason: 'http', status, cause: error })
  }
  if (error instanceof SyntaxError) {
    // A transport of another kind that parses JSON itself.
    return new AgentStoreError('INVALID_EVENT', `The agent sent data that is not JSON: ${message}`, { cause: error })
  }
  return new AgentStoreError('TRANSPORT', `The connection to the agent failed: ${message}`, { reason: 'network', cause: error })
}
