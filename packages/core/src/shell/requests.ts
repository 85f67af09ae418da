import type { RunAgentInput } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import type { Effect, Input } from '../machine/transition'
import { canConnect, connectRun } from '../transport/connect-run'
import { connectHttpRun } from '../transport/http-transport'
import type { ConnectOptions, RunConnection, RunHandlers } from '../transport/run-contract'
import { NO_CONNECT } from '../transport/run-guard'
import type { AgentStoreOptions } from '../types'

// The request runner: it opens the requests the transition asks for (through the store's link to
// its agent: the built-in HTTP transport or an @ag-ui/client agent), feeds what they bring back in
// as inputs, cuts or lets them drain when the transition releases them, and settles the commands
// that wait on them.

/** How the store reaches its agent; both transports keep the contract of transport/run-contract.ts. */
export interface AgentLink {
  open(input: RunAgentInput, handlers: RunHandlers, options: ConnectOptions): RunConnection
  /** Why `reconnect()` cannot re-attach, when it cannot (RECONNECT `not-supported`). */
  readonly cannotConnect: string | undefined
}

/**
 * The built-in transport when `url` is set, the agent otherwise, none without either. Both at
 * once is a programming error, thrown at creation rather than guessed between.
 */
export function agentLink(options: AgentStoreOptions<unknown>): AgentLink | undefined {
  const { agent, url } = options
  if (agent !== undefined && url !== undefined) {
    throw new AgentStoreError('NO_AGENT', 'createAgentStore takes either agent or url, not both')
  }
  if (url !== undefined) {
    const { headers, fetch, reader, connectUrl } = options
    const endpoint = { url, headers, fetch, reader, connectUrl }
    return { open: connectHttpRun.bind(null, endpoint), cannotConnect: connectUrl === undefined ? 'reconnect() needs a connectUrl beside url' : undefined }
  }
  if (agent === undefined) return undefined
  return { open: connectRun.bind(null, agent), cannotConnect: canConnect(agent) ? undefined : NO_CONNECT }
}

export interface RequestRunner {
  /** A `start` or `connect` effect: the request opens, and its events and failure come back as inputs. */
  open(effect: Extract<Effect, { type: 'start' | 'connect' }>): void
  /** A `release` effect: the request is over for the store, and the commands waiting on it settle. */
  release(effect: Extract<Effect, { type: 'release' }>): void
  /** `settle` is called once the request is released. */
  awaitRelease(requestId: string, settle: () => void): void
  /** Cuts every connection and settles every waiting command (time travel): the model's request, if any, stays open in it. */
  cutAll(): void
}

export interface RequestRunnerOptions<S> {
  readonly link: AgentLink | undefined
  readonly maxEventBytes: number
  readonly dispatch: (input: Input<S>) => void
  /** The request the model has open now. */
  readonly openRequest: () => string | undefined
}

export function createRequestRunner<S>({ link, maxEventBytes, dispatch, openRequest }: RequestRunnerOptions<S>): RequestRunner {
  const connections = new Map<string, RunConnection>()
  // Opened through `connect`: a replay stream goes on with runs the store does not need.
  const connecting = new Set<string>()
  const waiting = new Map<string, (() => void)[]>()

  /** The request's connection is forgotten and the commands it started settle. */
  function forget(requestId: string) {
    connections.delete(requestId)
    for (const settle of waiting.get(requestId) ?? []) settle()
    waiting.delete(requestId)
  }

  return {
    open(effect) {
      const { type, requestId, input, timeoutMs } = effect
      const handlers: RunHandlers = {
        event: (event) => dispatch({ type: 'event', event, requestId }),
        // An end without an error follows the run's terminal event, which released the request already.
        end: (error, lastEventId) => {
          if (error) dispatch({ type: 'failed', requestId, error, lastEventId })
        },
      }
      const lastEventId = type === 'connect' ? effect.lastEventId : undefined
      // The transition opens requests only when the config says the store has an agent.
      const connection = link!.open(input, handlers, { maxEventBytes, timeoutMs, connect: type === 'connect', lastEventId })
      // Still in flight (not ended while it was being opened): kept so abort() can cancel it.
      if (openRequest() !== requestId) return
      connections.set(requestId, connection)
      if (type === 'connect') connecting.add(requestId)
    },
    release({ requestId, how }) {
      // A replay stream is cut once the run it rejoined has ended.
      if (how === 'cancel' || connecting.delete(requestId)) connections.get(requestId)?.cancel()
      forget(requestId)
    },
    awaitRelease(requestId, settle) {
      waiting.set(requestId, [...(waiting.get(requestId) ?? []), settle])
    },
    cutAll() {
      for (const connection of connections.values()) connection.cancel()
      for (const requestId of [...connections.keys(), ...waiting.keys()]) forget(requestId)
      connecting.clear()
    },
  }
}
