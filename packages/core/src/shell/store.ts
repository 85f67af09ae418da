import type { BaseEvent, Message } from '@ag-ui/core'
import { AgentStoreError, messageOf } from '../errors'
import { createId } from '../ids'
import { defaultLimits } from '../limits'
import { initialModel, type Model } from '../machine/model'
import { ownCopy, ownEvent } from '../machine/owned'
import { endOfRun } from '../machine/run-end'
import { dropRequest, type Effect, type Input, type MachineConfig, type Step, transition, withRequestShown } from '../machine/transition'
import { decodeModel, encodeModel } from '../persistence/model-codec'
import { readThread, serializeThread } from '../persistence/serialize'
import { createPersister, isPromise, loadPersisted } from '../persistence/writer'
import { blankSnapshot } from '../snapshot/copy'
import { messagesForServer } from '../snapshot/messages'
import { acceptState, checkState, type StateRules, toValidator } from '../state/state-rules'
import { canConnect, connectRun, type RunConnection } from '../transport/connect-run'
import type { AgentSnapshot, AgentStore, AgentStoreOptions, AnswerRunOptions, CancelOptions, RunOptions } from '../types'
import { createListenerSet, type ListenerSet } from './listeners'

// The shell: it holds the model, runs one transition at a time, publishes the snapshot, then
// carries out the effects. A command called while a transition is being published (from a
// listener) or carried out is queued and runs after it, so nothing re-enters a half-done
// transition; every command's promise settles.

interface Queued<S> {
  input: Input<S>
  command?: { resolve(): void; reject(error: unknown): void }
}

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
  /** How many partial-JSON readers the cache beside the model holds (one per streaming drafted tool call). */
  readers(): number
  /** The saved thread is still being read from an async storage: a change seen meanwhile is its restore. */
  restoring(): boolean
}

export type Observer<S> = (input: Input<S>, before: Model<S>, after: Model<S>) => void

const internals = new WeakMap<object, StoreInternals<never>>()

export function storeInternals<S = unknown>(store: object): StoreInternals<S> {
  const found = internals.get(store)
  if (!found) throw new TypeError('Not an agent store')
  return found as unknown as StoreInternals<S>
}

/** The model a store holds right now. */
export const storeModel = (store: object): Model<unknown> => storeInternals(store).model()

/** The store's model as a plain JSON value: `JSON.stringify` round-trips it. */
export const snapshotModel = (store: object): unknown => encodeModel(storeModel(store))

/** A store that continues from a model taken by `snapshotModel`. */
export function restoreModel<S>(options: AgentStoreOptions<S>, model: unknown): AgentStore<S> {
  return createStoreFrom(options, decodeModel<S>(model))
}

export function createAgentStore<TState>(options: AgentStoreOptions<TState>): AgentStore<TState> {
  return createStoreFrom(options)
}

/** A store that starts from a model (the devtools' replay); internal: the model is not public. */
export function createStoreFrom<TState>(options: AgentStoreOptions<TState>, restored?: Model<TState>): AgentStore<TState> {
  let threadId = options.threadId ?? options.agent?.threadId ?? createId()
  // A bad initialState is a programming error: it throws here rather than becoming a store error.
  // Not copied: the app's own constant, which `getInitialState().state` is.
  const rules = stateRules(options)
  const initialState = acceptState(undefined as TState, options.initialState, rules, 'initialState')
  checkState(initialState, rules)
  const initial = blankSnapshot(threadId, initialState)
  const config = machineConfig(options, initial, rules)
  const persister = options.persist ? createPersister(options.persist, () => model as Model<unknown>, report) : undefined
  // Whether any input has been processed: a thread restored late (an async storage) replaces only an untouched store.
  let touched = false
  let restoring: Promise<void> = Promise.resolve()
  let reading = false
  const given = restored ?? saved()
  const restoredRunning = given?.request !== undefined
  let model: Model<TState> = startingModel(given, initial, config)
  // What the server rendered, for hydration: a restored thread renders the same on both sides.
  const first = model.snapshot
  const listeners: ListenerSet<AgentSnapshot<TState>, AgentSnapshot<TState>> = createListenerSet((error) =>
    report(new AgentStoreError('LISTENER', `A store listener threw: ${messageOf(error)}`, { cause: error })),
  )
  const eventListeners = new Set<(event: BaseEvent, snapshot: AgentSnapshot<TState>) => void>()
  const connections = new Map<string, RunConnection>()
  const connecting = new Set<string>()
  const waiting = new Map<string, (() => void)[]>()
  const queue: Queued<TState>[] = []
  let busy = false
  let observers: readonly Observer<TState>[] = []

  function dispatch(input: Input<TState>, command?: Queued<TState>['command'], replaying?: boolean) {
    if (busy) {
      queue.push(command ? { input, command } : { input })
      return
    }
    busy = true
    try {
      step(input, command, replaying)
      for (let next = queue.shift(); next; next = queue.shift()) step(next.input, next.command)
    } finally {
      busy = false
    }
  }

  const command = (input: Input<TState>) => new Promise<void>((resolve, reject) => dispatch(input, { resolve, reject }))

  /** The thread given as `restore`, or else the persisted one; a bad one is reported and the store starts empty. */
  function saved(): Model<TState> | undefined {
    let value: unknown = options.restore
    if (value == null && options.persist) {
      try {
        value = loadPersisted(options.persist)
      } catch (error) {
        persister?.start()
        return notRestored(error)
      }
      if (isPromise(value)) {
        reading = true
        restoring = Promise.resolve(value)
          .then(restoreLate, (error) => {
            if (!touched) publish(notRestored(error))
          })
          .finally(() => {
            reading = false
            persister?.start()
          })
        return undefined
      }
    }
    persister?.start()
    return value == null ? undefined : checked(value)
  }

  function checked(value: unknown): Model<TState> {
    try {
      const read = readThread(value, config.rules, options.persist)
      return read.request || read.snapshot.status !== 'running' ? read : withoutLostRun(read, config)
    } catch (error) {
      return notRestored(error)
    }
  }

  /** Reported, and shown as the store's error: the store starts from `initialState`. */
  function notRestored(cause: unknown): Model<TState> {
    const error = cause instanceof AgentStoreError ? cause : notReadError(cause)
    report(error)
    return { ...initialModel(initial), snapshot: { ...initial, error } }
  }

  function restoreLate(value: unknown) {
    if (value == null) return
    if (touched) return report(new AgentStoreError('PERSIST', 'The saved thread arrived after the store had changed: not restored', { reason: 'late' }))
    const restoredModel = checked(value)
    publish(startingModel(restoredModel, initial, config))
    if (restoredModel.request && model.rejoin && canConnect(options.agent)) store.reconnect().catch(report)
  }

  function step(input: Input<TState>, command: Queued<TState>['command'] | undefined, replaying?: boolean) {
    // Resolved here so an observer records the value, which replays, not the function.
    if (input.type === 'setState' && typeof input.update === 'function')
      input = { type: 'setState', update: resolveUpdate(input.update as (previous: TState) => TState, model.snapshot.state) }
    const before = model
    let result: ReturnType<typeof transition<TState>>
    try {
      result = transition(model, input, replaying ? { ...config, hasAgent: true } : config)
    } catch (error) {
      // A defect in the store itself: reported, and no promise is left waiting.
      report(new AgentStoreError('INVALID_STATE', `The store failed to apply ${input.type}: ${messageOf(error)}`, { cause: error }))
      return command?.reject(error)
    }
    if (result.refused) return command?.reject(result.refused)
    if (command && result.requestId !== undefined) waiting.set(result.requestId, [...(waiting.get(result.requestId) ?? []), command.resolve])
    else command?.resolve()
    publish(result.model)
    // A command that changed nothing (abort() when idle, React StrictMode's cleanup) leaves the store untouched.
    if (result.model !== before) touched = true
    // The user's own commands are written at once: an edit made just before a reload is not lost.
    if (persister && result.model !== before) {
      const urgent = isUrgent(input, result, before)
      if (urgent || !persister.scheduled) persister.changed(urgent)
    }
    // Guarded: on Node 20 a for…of over an empty array costs about 17 ns to set up, a tenth of a
    // token's whole path through the transition (measured), and these two are empty for nearly every event.
    if (observers.length > 0) for (const observer of observers) observer(input, before, result.model)
    if (result.effects.length > 0) for (const effect of result.effects) if (!replaying || effect.type !== 'start') perform(effect)
    if (result.accepted && eventListeners.size > 0) showEvent(result.accepted)
  }

  function publish(next: Model<TState>) {
    const previous = model.snapshot
    model = next
    if (next.snapshot === previous) return
    listeners.notify(next.snapshot, previous)
  }

  function perform(effect: Effect) {
    switch (effect.type) {
      case 'start':
      case 'connect':
        return startRequest(effect)
      case 'release': {
        // A replay stream goes on with runs the store does not need: cut once the run it rejoined has ended.
        if (effect.how === 'cancel' || connecting.delete(effect.requestId)) connections.get(effect.requestId)?.cancel()
        return release(effect.requestId)
      }
      case 'report':
        return report(effect.error)
    }
  }

  /** The request's connection is forgotten and the command that started it settles. */
  function release(requestId: string) {
    connections.delete(requestId)
    for (const resolve of waiting.get(requestId) ?? []) resolve()
    waiting.delete(requestId)
  }

  function showEvent(event: BaseEvent) {
    for (const listener of eventListeners) {
      try {
        listener(event, model.snapshot)
      } catch (error) {
        report(new AgentStoreError('LISTENER', `An event listener threw: ${messageOf(error)}`, { cause: error }))
      }
    }
  }

  function startRequest(effect: Extract<Effect, { type: 'start' | 'connect' }>) {
    const { type, requestId, input, timeoutMs } = effect
    const connection = connectRun(
      options.agent!,
      input,
      {
        event: (event) => dispatch({ type: 'event', event, requestId }),
        // An end without an error follows the run's terminal event, which released the request already.
        end: (error, lastEventId) => {
          if (error) dispatch({ type: 'failed', requestId, error, lastEventId })
        },
      },
      {
        maxEventBytes: config.rules.limits.maxEventBytes,
        timeoutMs,
        connect: type === 'connect',
        lastEventId: type === 'connect' ? effect.lastEventId : undefined,
      },
    )
    // Still in flight (not ended while it was being opened): kept so abort() can cancel it.
    if (model.request?.id === requestId) connections.set(requestId, connection)
    if (type === 'connect' && model.request?.id === requestId) connecting.add(requestId)
  }

  function report(error: AgentStoreError) {
    try {
      options.onError?.(error)
    } catch {
      // An onError that throws must not break the store either.
    }
  }

  const answerInput = (given: CancelOptions, answer: () => Extract<Input<TState>, { type: 'answer' }>['answer']) => {
    // A JavaScript caller of the positional 0.1 form (`approve('c1')`) is told, not answered.
    if (typeof given !== 'object' || given === null || Array.isArray(given))
      return Promise.reject(new AgentStoreError('INVALID_ANSWER', `An answer takes one object, as in approve({ id }): got ${typeof given}`))
    const { id, tools, context, forwardedProps, timeoutMs } = given
    const runOptions: AnswerRunOptions = { tools, context, forwardedProps, timeoutMs }
    const options = hasRunOptions(given) ? ownOptions(runOptions) : undefined
    return command({ type: 'answer', id, answer: answer(), options, now: Date.now(), runId: createId(), messageId: createId() })
  }

  const store: AgentStore<TState> = {
    getState: () => model.snapshot,
    serialize: () => serializeThread(model as Model<unknown>, Date.now(), options.persist),
    whenRestored: () => restoring,
    getInitialState: () => first,
    subscribe: (listener) => listeners.add(listener),
    onEvent(listener) {
      eventListeners.add(listener)
      return () => {
        eventListeners.delete(listener)
      }
    },
    apply(events) {
      for (const event of Array.isArray(events) ? events : [events]) dispatch({ type: 'event', event: ownEvent(event) })
    },
    run: (runOptions = {}) => command({ type: 'run', runId: createId(), messages: toMessages(runOptions), options: ownOptions(runOptions) }),
    setState: (update) => dispatch({ type: 'setState', update }),
    approve: (given = {}) => answerInput(given, () => ({ kind: 'approve', edits: given.edits })),
    reject: (given = {}) => answerInput(given, () => ({ kind: 'reject', reason: given.reason })),
    respond: (given) => answerInput(given, () => ({ kind: 'respond', payload: given.payload })),
    cancel: (given = {}) => answerInput(given, () => ({ kind: 'cancel' })),
    abort: () => dispatch({ type: 'abort' }),
    reconnect() {
      if (!canConnect(options.agent)) {
        const reason = options.agent ? 'The agent does not implement connect' : 'reconnect() needs an agent'
        return Promise.reject(new AgentStoreError('RECONNECT', reason, { reason: 'not-supported' }))
      }
      return command({ type: 'reconnect', requestId: createId() })
    },
    reset(state, resetOptions) {
      const next = state === undefined ? initial.state : ownCopy(acceptState(model.snapshot.committed, state, config.rules, 'reset'), undefined)
      if (state !== undefined) checkState(next, config.rules)
      // A new conversation on the server too: the agent gets a thread id it has never seen.
      if (resetOptions?.newThread) threadId = createId()
      dispatch({ type: 'reset', state: next, threadId })
    },
  }
  internals.set(store, {
    model: () => model,
    options,
    observe(observer) {
      observers = [...observers, observer]
      return () => {
        observers = observers.filter((other) => other !== observer)
      }
    },
    feed: (input) => dispatch(input, undefined, true),
    replace(next) {
      // The connection goes, not the run: the store shows that moment, and a request the model had
      // stays open in it (abort() ends it, as it would have then; a reload finds it cut short).
      for (const connection of connections.values()) connection.cancel()
      for (const requestId of [...connections.keys(), ...waiting.keys()]) release(requestId)
      connecting.clear()
      publish(withRequestShown(next))
      persister?.changed(true)
    },
    flush: () => persister?.flush() ?? Promise.resolve(true),
    stop: () => persister?.stop() ?? Promise.resolve(),
    resume: () => persister?.resume(),
    readers: () => config.readers.size,
    restoring: () => reading,
  } satisfies StoreInternals<TState> as unknown as StoreInternals<never>)
  // A thread saved while its run streamed re-attaches by itself when the agent can.
  if (model.rejoin && restoredRunning && canConnect(options.agent)) queueMicrotask(() => store.reconnect().catch(report))
  return store
}

/** The store's options as the transition reads them; `initial` is the blank thread a reset returns to. */
export function machineConfig<S>(from: AgentStoreOptions<S>, initial: AgentSnapshot<S>, rules = stateRules(from)): MachineConfig<S> {
  return {
    rules,
    confirmTools: new Set(from.confirmTools ?? ['confirm_changes']),
    predict: [...(from.predict ?? [])],
    merge: { arrayKeys: from.arrayKeys ?? ['id', 'key'] },
    keepFailedRunChanges: from.keepFailedRunChanges ?? false,
    hasAgent: from.agent !== undefined,
    timeoutMs: from.timeoutMs,
    readers: new Map(),
    blank: (id, state) => (id === initial.threadId && state === initial.state ? initialModel(initial) : initialModel(blankSnapshot(id, state))),
    messagesForServer,
  }
}

const stateRules = <S>(from: AgentStoreOptions<S>): StateRules<S> => ({ limits: { ...defaultLimits, ...from.limits }, validate: toValidator(from.validate) })

/**
 * A restored model starts without a request: the one it had belongs to another page. A run that was
 * streaming ends as an abort() would end it: drafts discarded, answers not yet delivered given back.
 */
function startingModel<S>(restored: Model<S> | undefined, initial: AgentSnapshot<S>, config: MachineConfig<S>): Model<S> {
  if (!restored) return initialModel(initial)
  // A thread saved before snapshots said whether a request was open says so now.
  if (!restored.request) return withRequestShown(restored)
  return withRequestShown(dropRequest(restored, undefined, config).model)
}

/**
 * A saved thread `running` with no request: a run fed through apply() goes on with the app's next
 * events; one that a request streamed (a devtools jump saved mid-run, an older release) ends as
 * abort() would. (A model given directly, as the devtools' replay gives one, is taken as it is.)
 */
function withoutLostRun<S>(model: Model<S>, config: MachineConfig<S>): Model<S> {
  if (model.run && model.run.requestId === undefined) return model
  const ended = model.run
    ? endOfRun(model, { ...model.snapshot, steps: [] }, { kind: 'failed', error: undefined, status: 'idle' }, undefined, config).model
    : model
  if (ended.snapshot.status !== 'running') return ended
  const status = ended.snapshot.confirmations.length > 0 ? 'interrupted' : 'idle'
  return { ...ended, snapshot: { ...ended.snapshot, status, steps: [] } }
}

/**
 * A change a reload must not lose: every command, and an event that delivers answers, changes the
 * run's status or its confirmations. A streamed token never changes the status or the confirmations
 * (a run's start and end do), so it is checked for delivery alone, which @ag-ui/client's own check
 * (RUN_STARTED first) leaves to RUN_STARTED in practice. The transition says which events were
 * tokens: it knows their type as the protocol's constant, where the shell would compare strings.
 */
function isUrgent<S>(input: Input<S>, step: Step<S>, before: Model<S>): boolean {
  if (input.type !== 'event') return true
  const after = step.model
  if (before.outbox !== after.outbox) return true
  if (step.streamed) return false
  return before.snapshot.status !== after.snapshot.status || before.snapshot.confirmations !== after.snapshot.confirmations
}

const notReadError = (error: unknown) =>
  new AgentStoreError('PERSIST', `The saved thread could not be read: ${messageOf(error)}`, { reason: 'read', cause: error })

/** The options a run keeps and may send again (an answer's run resends them): copied, so the app's objects stay its own. */
function ownOptions<T extends RunOptions>(runOptions: T): T {
  const { tools, context, forwardedProps } = runOptions
  if (tools === undefined && context === undefined && forwardedProps === undefined) return runOptions
  return {
    ...runOptions,
    ...(tools === undefined ? {} : { tools: ownCopy(tools, undefined) }),
    ...(context === undefined ? {} : { context: ownCopy(context, undefined) }),
    ...(forwardedProps === undefined ? {} : { forwardedProps: ownCopy(forwardedProps, undefined) }),
  }
}

/** No run options given: the answer's run keeps those of the run it resumes, as a recording shows. */
const hasRunOptions = (given: AnswerRunOptions) =>
  given.tools !== undefined || given.context !== undefined || given.forwardedProps !== undefined || given.timeoutMs !== undefined

function toMessages(runOptions: RunOptions): Message[] {
  const added = [...(runOptions.messages ?? [])]
  const { message } = runOptions
  if (typeof message === 'string') added.push({ id: createId(), role: 'user', content: message })
  else if (message) added.push(message)
  return added.map((one) => ownCopy(one, undefined))
}

/** The function's value; one that throws becomes a function that throws the same error, which the transition reports. */
function resolveUpdate<S>(update: (previous: S) => S, previous: S): S | (() => S) {
  try {
    return update(previous)
  } catch (error) {
    return () => {
      throw error
    }
  }
}
