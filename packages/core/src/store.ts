import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { AgentStoreError } from './errors'
import { createId } from './ids'
import { checkEvent, reduceEvent } from './reduce'
import { acceptState, defaultLimits, toValidator, type StateRules } from './reduce/state'
import { connectRun, type RunConnection } from './run'
import type { AgentSnapshot, AgentStore, AgentStoreOptions, Listener, RunOptions, StateUpdate } from './types'

const noMessages: readonly Message[] = Object.freeze([])
const noSteps: readonly string[] = Object.freeze([])

interface ActiveRun {
  connection: RunConnection | undefined
  /** Set once RUN_FINISHED or RUN_ERROR arrived: a stream that ends without one was cut short. */
  ended: boolean
  resolve: () => void
}

export function createAgentStore<TState>(options: AgentStoreOptions<TState>): AgentStore<TState> {
  const rules: StateRules<TState> = {
    limits: { ...defaultLimits, ...options.limits },
    validate: toValidator(options.validate),
  }
  const threadId = options.threadId ?? options.agent?.threadId ?? createId()
  const blank = (state: TState): AgentSnapshot<TState> => ({
    state,
    committed: state,
    status: 'idle',
    steps: noSteps,
    messages: noMessages,
    threadId,
    runId: undefined,
    error: undefined,
  })
  // A bad initialState is a programming error: it throws here rather than becoming a store error.
  const initial = blank(acceptState(undefined as TState, options.initialState, rules, 'initialState'))
  let snapshot = initial
  let active: ActiveRun | undefined
  const listeners = new Set<Listener<TState>>()
  const eventListeners = new Set<(event: BaseEvent, snapshot: AgentSnapshot<TState>) => void>()

  // Not zustand's setState: its notification loop stops at the first listener that throws.
  function publish(next: AgentSnapshot<TState>) {
    if (next === snapshot) return
    const previous = snapshot
    snapshot = next
    // A live Set iteration: a listener removed by an earlier one in this round is not called.
    for (const listener of listeners) {
      try {
        listener(next, previous)
      } catch (error) {
        report(new AgentStoreError('LISTENER', `A store listener threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error }))
      }
    }
  }

  function report(error: AgentStoreError) {
    try {
      options.onError?.(error)
    } catch {
      // An onError that throws must not break the store either.
    }
  }

  function fail(error: AgentStoreError, patch: Partial<AgentSnapshot<TState>> = {}) {
    report(error)
    publish({ ...snapshot, ...patch, error })
  }

  /** One event from anywhere: validated, reduced, published; on error nothing of it is applied. */
  function receive(raw: unknown) {
    let event
    try {
      event = checkEvent(raw)
      if (event === undefined) return
      publish(reduceEvent(snapshot, event, rules))
    } catch (error) {
      fail(error instanceof AgentStoreError ? error : new AgentStoreError('INVALID_EVENT', String(error), { cause: error }))
      return
    }
    for (const listener of eventListeners) {
      try {
        listener(event, snapshot)
      } catch (error) {
        report(new AgentStoreError('LISTENER', `An event listener threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error }))
      }
    }
  }

  function endRun(run: ActiveRun, error: AgentStoreError | undefined) {
    if (active !== run) return
    active = undefined
    if (error) fail(error, { status: 'error', steps: noSteps })
    else if (!run.ended) {
      fail(new AgentStoreError('TRANSPORT', 'The stream ended before RUN_FINISHED or RUN_ERROR'), { status: 'error', steps: noSteps })
    }
    run.resolve()
  }

  function toMessages(runOptions: RunOptions): Message[] {
    const added = [...(runOptions.messages ?? [])]
    const { message } = runOptions
    if (typeof message === 'string') added.push({ id: createId(), role: 'user', content: message })
    else if (message) added.push(message)
    return added
  }

  const store: AgentStore<TState> = {
    getState: () => snapshot,
    getInitialState: () => initial,
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    onEvent(listener) {
      eventListeners.add(listener)
      return () => {
        eventListeners.delete(listener)
      }
    },

    apply(events) {
      const list = Array.isArray(events) ? events : [events]
      for (const event of list) receive(event)
    },

    run(runOptions = {}) {
      const { agent } = options
      if (!agent) return Promise.reject(new AgentStoreError('NO_AGENT', 'run() needs an agent: pass one to createAgentStore({ agent })'))
      if (active) return Promise.reject(new AgentStoreError('RUN_ACTIVE', 'A run is already active on this store: await it or abort() it first'))
      const added = toMessages(runOptions)
      const runId = createId()
      const messages = added.length > 0 ? [...snapshot.messages, ...added] : snapshot.messages
      publish({ ...snapshot, messages, status: 'running', runId, steps: noSteps, error: undefined })
      const input: RunAgentInput = {
        threadId,
        runId,
        state: snapshot.committed,
        messages: snapshot.messages.slice(),
        tools: runOptions.tools ?? [],
        context: runOptions.context ?? [],
        forwardedProps: runOptions.forwardedProps ?? {},
      }
      return new Promise<void>((resolve) => {
        const run: ActiveRun = { connection: undefined, ended: false, resolve }
        active = run
        run.connection = connectRun(agent, input, {
          event(event) {
            if (active !== run) return
            if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') run.ended = true
            receive(event)
          },
          end: (error) => endRun(run, error),
        })
      })
    },

    setState(update: StateUpdate<TState>) {
      const next = typeof update === 'function' ? (update as (previous: TState) => TState)(snapshot.committed) : update
      try {
        const state = acceptState(snapshot.committed, next, rules, 'setState')
        if (state !== snapshot.committed || state !== snapshot.state) publish({ ...snapshot, state, committed: state })
      } catch (error) {
        fail(error as AgentStoreError)
      }
    },

    abort() {
      const run = active
      if (!run) return
      active = undefined
      run.connection?.cancel()
      publish({ ...snapshot, status: 'idle', steps: noSteps })
      run.resolve()
    },

    reset(state?: TState) {
      store.abort()
      publish(state === undefined ? initial : blank(acceptState(snapshot.committed, state, rules, 'reset')))
    },
  }
  return store
}
