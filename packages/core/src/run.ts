import { transformChunks, verifyEvents, type AbstractAgent } from '@ag-ui/client'
import { AGUIError, type BaseEvent, type RunAgentInput } from '@ag-ui/core'
import { AgentStoreError } from './errors'

export interface RunHandlers {
  /** Each event as the agent streams it, chunks expanded and lifecycle order verified. */
  event(event: BaseEvent): void
  /** The stream ended: cleanly (no error), or with a transport or protocol error. */
  end(error: AgentStoreError | undefined): void
}

export interface RunConnection {
  /** Stops listening and cancels the request; no handler is called afterwards. */
  cancel(): void
}

/**
 * Streams one run from the agent. Uses `agent.run(input)`, the plain event stream every
 * AbstractAgent implements, not `runAgent()`, whose apply pipeline clones state and messages per event.
 */
export function connectRun(agent: AbstractAgent, input: RunAgentInput, handlers: RunHandlers): RunConnection {
  let open = true
  // HttpAgent keeps one AbortController for its lifetime; a fresh one per run lets abort() cancel a
  // request still waiting for headers (unsubscribing alone only cancels the body reader).
  const controller = 'abortController' in agent ? new AbortController() : undefined
  if (controller) (agent as AbstractAgent & { abortController: AbortController }).abortController = controller
  let subscription: { unsubscribe(): void } | undefined
  try {
    subscription = agent
      .run(input)
      .pipe(transformChunks(false), verifyEvents(false))
      .subscribe({
        next: (event) => {
          if (open) handlers.event(event)
        },
        error: (error: unknown) => {
          if (!open) return
          open = false
          handlers.end(toStoreError(error))
        },
        complete: () => {
          if (!open) return
          open = false
          handlers.end(undefined)
        },
      })
  } catch (error) {
    open = false
    handlers.end(toStoreError(error))
  }
  return {
    cancel() {
      if (!open) return
      open = false
      subscription?.unsubscribe()
      controller?.abort()
    },
  }
}

/** Turns whatever the transport threw into an error with a stable code and a short message (never a response body dump). */
export function toStoreError(error: unknown): AgentStoreError {
  if (error instanceof AgentStoreError) return error
  const message = error instanceof Error ? error.message : String(error)
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status === 'number') {
    return new AgentStoreError('TRANSPORT', `The agent answered HTTP ${status}`, { status, cause: error })
  }
  if (error instanceof AGUIError) {
    // verifyEvents: the server broke the protocol's lifecycle order.
    return new AgentStoreError('INVALID_EVENT', message, { cause: error })
  }
  return new AgentStoreError('TRANSPORT', `The connection to the agent failed: ${message}`, { cause: error })
}
