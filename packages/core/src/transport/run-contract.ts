// What the shell asks of a transport: one run's events handed on, one end, a way to cancel.
import type { BaseEvent } from '@ag-ui/core'
import type { AgentStoreError } from '../errors'

export interface RunHandlers {
  /** Each event as the agent streams it, its lifecycle order verified; chunks are handed on unexpanded (the store expands them). */
  event(event: BaseEvent): void
  /**
   * The stream ended. Without an error: right after its RUN_FINISHED or RUN_ERROR (never in a
   * `connect` stream, where terminal events end replayed runs). With one: it failed or stopped
   * early; `lastEventId` is the SSE id of the last event received, where a resume can start.
   */
  end(error: AgentStoreError | undefined, lastEventId?: string): void
}

export interface RunConnection {
  /** Stops listening and cancels the request; no handler is called afterwards. */
  cancel(): void
}

export interface ConnectOptions {
  /** Largest SSE event an HttpAgent may receive, in UTF-8 bytes of its data (default `defaultLimits.maxEventBytes`). */
  maxEventBytes?: number
  /** Ends the run with TRANSPORT (`reason: 'timeout'`) once the agent has sent nothing, not even a keep-alive, for this long. */
  timeoutMs?: number
  /** After RUN_FINISHED or RUN_ERROR, how long the server may take to close the response before it is cancelled (default 2,000 ms). */
  drainMs?: number
  /** Through the agent's `connect`: a replay of the thread's runs, each with its terminal event, then the live rest. */
  connect?: boolean
  /** Sent as `Last-Event-ID` with a `connect` request of an HttpAgent: a server that keeps a cursor sends only what came after it. */
  lastEventId?: string
}
