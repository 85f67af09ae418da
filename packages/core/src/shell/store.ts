import type { BaseEvent } from '@ag-ui/core'
import { AgentStoreError, messageOf } from '../errors'
import { createId } from '../ids'
import { createMemo, type Memo, machineConfig, stateRules } from '../machine/config'
import type { Model } from '../machine/model'
import { type Input, withRequestShown } from '../machine/transition'
import { blankSnapshot } from '../snapshot/copy'
import { acceptState, checkState } from '../state/state-rules'
import type { AgentSnapshot, AgentStore, AgentStoreOptions } from '../types'
import { storeCommands } from './commands'
import { createDispatcher, type Dispatcher, type Observer } from './dispatcher'
import { type Hydration, hydrate } from './hydration'
import { createListenerSet } from './listeners'
import { agentLink, createRequestRunner, type RequestRunner } from './requests'

// The store: the parts wired together. The dispatcher runs each input through the transition and
// publishes the snapshot; the effects go to the request runner, the event listeners, hydration
// (persistence, when the store was given `persist`) and onError.

export type { Observer } from './dispatcher'

/** What serialization and the devtools reach through a store; not part of the public API. */
export interface StoreInternals<S = unknown> {
  model(): Model<S>
  readonly options: AgentStoreOptions<S>
  /** Called after every transition with its input and the models around it; with none, nothing is kept. */
  observe(listener: Observer<S>): () => void
  /** One input through the transition, starting no request: a replay. */
  feed(input: Input<S>): void
  /** Puts the store at this model (time travel): connections in flight are cut; a request the model has stays open. */
  replace(model: Model<S>): void
  /** Writes the persisted thread now; resolves once the storage has it (true) or the write failed (false). */
  flush(): Promise<boolean>
  /** Stops persisting (the store is being dropped from memory); resolves once the write in flight has settled. */
  stop(): Promise<void>
  /** Persists again after stop() (a dropped store the app went on using), writing the current thread. */
  resume(): void
  /** How many partial-JSON readers the memo beside the model holds (one per streaming drafted tool call). */
  readers(): number
  /** The saved thread is still being read from an async storage: a change seen meanwhile is its restore. */
  restoring(): boolean
}

/** A store's parts, kept beside it: its internals are made from them when asked for, so an app that never asks ships no code for them. */
interface StoreParts<S> {
  readonly options: AgentStoreOptions<S>
  readonly dispatcher: Dispatcher<S>
  readonly requests: RequestRunner
  readonly hydration: Hydration<S>
  readonly memo: Memo<S>
}

const parts = new WeakMap<object, StoreParts<never>>()

export function storeInternals<S = unknown>(store: object): StoreInternals<S> {
  const found = parts.get(store) as StoreParts<S> | undefined
  if (!found) throw new TypeError('Not an agent store')
  const { options, dispatcher, requests, hydration, memo } = found
  return {
    model: () => dispatcher.model(),
    options,
    observe: (observer) => dispatcher.observe(observer),
    feed: (input) => dispatcher.dispatch(input, undefined, true),
    replace(next) {
      // The connection goes, not the run: the store shows that moment, and a request the model had
      // stays open in it (abort() ends it, as it would have then; a reload finds it cut short).
      requests.cutAll()
      dispatcher.publish(withRequestShown(next))
      hydration.persistNow()
    },
    flush: hydration.flush,
    stop: hydration.stop,
    resume: hydration.resume,
    readers: () => memo.readers.size,
    restoring: hydration.restoring,
  }
}

export function createAgentStore<TState>(options: AgentStoreOptions<TState>): AgentStore<TState> {
  return createStoreFrom(options)
}

/** A store that starts from a model (the devtools' replay); internal: the model is not public. */
export function createStoreFrom<TState>(options: AgentStoreOptions<TState>, restored?: Model<TState>): AgentStore<TState> {
  type Snapshot = AgentSnapshot<TState>
  // First: options that contradict each other are thrown before anything starts.
  const link = agentLink(options as AgentStoreOptions<unknown>)
  const report = reporter(options)
  const threadId = options.threadId ?? options.agent?.threadId ?? createId()
  const config = machineConfig(options, blankSnapshot(threadId, initialStateOf(options)))
  const memo = createMemo(config)
  const listeners = createListenerSet<Snapshot, Snapshot>((error) => report(listenerError('A store listener', error)))
  const eventListeners = createListenerSet<BaseEvent, Snapshot>((error) => report(listenerError('An event listener', error)))
  const requests = createRequestRunner<TState>({
    link,
    maxEventBytes: config.rules.limits.maxEventBytes,
    dispatch: (input) => dispatcher.dispatch(input),
    openRequest: () => dispatcher.model().request?.id,
  })
  // Hydration reaches the store only once it is made: a late restore and a reconnect come later.
  const hydration: Hydration<TState> = hydrate({
    options,
    config,
    memo,
    given: restored,
    report,
    canReconnect: link !== undefined && link.cannotConnect === undefined,
    store: {
      model: () => dispatcher.model(),
      publish: (model) => dispatcher.publish(model),
      touched: () => dispatcher.touched(),
      reconnect: () => store.reconnect(),
    },
  })
  const dispatcher: Dispatcher<TState> = createDispatcher({
    model: hydration.model,
    config,
    memo,
    listeners,
    report,
    awaitRelease: requests.awaitRelease,
    effects: {
      start: requests.open,
      connect: requests.open,
      release: requests.release,
      report: ({ error }) => report(error),
      show: (_, input) => {
        if (eventListeners.size > 0 && input.type === 'event') eventListeners.notify(input.event as BaseEvent, dispatcher.model().snapshot)
      },
      persist: hydration.persist,
    },
  })
  // What the server rendered, for hydration: a restored thread renders the same on both sides.
  const first = hydration.model.snapshot
  const store: AgentStore<TState> = {
    getState: () => dispatcher.model().snapshot,
    whenRestored: () => hydration.restored,
    getInitialState: () => first,
    subscribe: (listener) => listeners.add(listener),
    onEvent: (listener) => eventListeners.add(listener),
    ...storeCommands({ dispatcher, link, threadId, initialState: config.initial.state, report }),
  }
  parts.set(store, { options, dispatcher, requests, hydration, memo } satisfies StoreParts<TState> as unknown as StoreParts<never>)
  return store
}

/**
 * The initial state, checked: a bad one is a programming error, thrown here rather than becoming a
 * store error. Not copied: the app's own constant, which `getInitialState().state` is.
 */
function initialStateOf<S>(options: AgentStoreOptions<S>): S {
  const rules = stateRules(options)
  const initialState = acceptState(undefined as S, options.initialState, rules, 'initialState')
  checkState(initialState, rules)
  return initialState
}

/** The app's onError; one that throws must not break the store (or the threads registry) either. */
export const reporter =
  <S>(options: AgentStoreOptions<S>) =>
  (error: AgentStoreError) => {
    try {
      options.onError?.(error)
    } catch {
      // Nothing more can be told.
    }
  }

export const listenerError = (who: string, error: unknown) => new AgentStoreError('LISTENER', `${who} threw: ${messageOf(error)}`, { cause: error })
