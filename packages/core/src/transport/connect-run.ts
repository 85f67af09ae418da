// The adapter for `createAgentStore({ agent })`: any @ag-ui/client agent, read through the
// Observable its `run` (or `connect`) returns, with the contract of the built-in transport. It
// loads nothing from @ag-ui/client, @ag-ui/core or rxjs: an app that passes an agent has them
// already, and one that passes `url` never pays for them.
import type { RunAgentInput } from '@ag-ui/core'
import { AgentStoreError, messageOf } from '../errors'
import { defaultLimits } from '../limits'
import type { AgUiAgent, AgUiEventStream } from '../types'
import type { ConnectOptions, RunConnection, RunHandlers } from './run-contract'
import { connectNotSupported, createRunGuard, httpStatusError, networkError } from './run-guard'
import { type FetchFn, type SseOptions, wrapFetch } from './sse'

export type { ConnectOptions, RunConnection, RunHandlers }

/** What the adapter reads of an agent: `run`, and `connect`, which AbstractAgent declares protected. */
type Streaming = {
  run(input: RunAgentInput): AgUiEventStream
  connect(input: RunAgentInput): AgUiEventStream
  /** HttpAgent's, and any agent shaped like it: it fetches `url` through this public field. */
  fetch?: FetchFn
  url?: unknown
  abortController?: AbortController
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
export function connectRun(agent: AgUiAgent, input: RunAgentInput, handlers: RunHandlers, options: ConnectOptions = {}): RunConnection {
  const run = createRunGuard(handlers, options)
  let subscription: { unsubscribe(): void } | undefined
  // HttpAgent keeps one AbortController for its lifetime; a fresh one per run lets abort() cancel a
  // request still waiting for headers (unsubscribing alone only cancels the body reader).
  const controller = 'abortController' in agent ? new AbortController() : undefined
  run.onCancel = () => {
    subscription?.unsubscribe()
    controller?.abort()
  }
  // Why the HTTP body stopped early, if it did: the stream itself then just ends, after the events
  // before the bad one. It matters only if the run has not ended by then: garbage after
  // RUN_FINISHED is never the run's failure.
  let bodyError: AgentStoreError | undefined
  const sse: SseOptions = {
    maxEventBytes: options.maxEventBytes ?? defaultLimits.maxEventBytes,
    onActivity: run.touch,
    onError: (error) => {
      bodyError ??= toStoreError(error)
    },
    onEventId: run.eventId,
  }
  try {
    subscription = events(agent as unknown as Streaming, input, sse, controller, options).subscribe({
      next(event) {
        run.touch()
        try {
          run.event(event)
        } catch (error) {
          // As a failure inside the built-in transport's reader: the run ends, never an uncaught error.
          run.fail(toStoreError(error))
        }
      },
      error: (error) => run.fail(bodyError ?? toStoreError(error)),
      complete: () => run.complete(bodyError),
    })
    // The stream may have ended while subscribe() ran, before there was a subscription to release.
    if (!run.open) subscription.unsubscribe()
  } catch (error) {
    run.fail(toStoreError(error))
  }
  return { cancel: run.cancel }
}

/**
 * `agent.run(input)`, with an HttpAgent's responses read through our SSE framing and its request
 * tied to this run's controller. Both are swapped in only while run() executes: HttpAgent builds
 * and starts its request synchronously there, so other runs on the same agent (another store, a
 * direct call) never see this run's fetch wrapper or controller.
 */
function events(agent: Streaming, input: RunAgentInput, sse: SseOptions, controller: AbortController | undefined, { connect, lastEventId }: ConnectOptions) {
  const { fetch, abortController } = agent
  if (controller) agent.abortController = controller
  const fetching = typeof agent.url === 'string' && typeof fetch === 'function'
  if (fetching) {
    const resumeFrom = connect ? lastEventId : undefined
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
export function canConnect(agent: AgUiAgent | undefined): boolean {
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
  const message = messageOf(error)
  if (message === CONNECT_NOT_IMPLEMENTED) return connectNotSupported(error)
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status === 'number') return httpStatusError(status, error)
  if (error instanceof SyntaxError) {
    // A transport of another kind that parses JSON itself.
    return new AgentStoreError('INVALID_EVENT', `The agent sent data that is not JSON: ${message}`, { cause: error })
  }
  return networkError(error)
}
