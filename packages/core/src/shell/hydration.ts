import { AgentStoreError, messageOf } from '../errors'
import type { MachineConfig, Memo } from '../machine/config'
import { initialModel, type Model } from '../machine/model'
import { startingModel, withoutLostRun } from '../machine/restore'
import { readThread } from '../persistence/serialize'
import { createPersister, isPromise, loadPersisted } from '../persistence/writer'
import type { AgentStoreOptions } from '../types'

// Hydration: the thread a store starts from (`restore`, or the persisted one, read now or once an
// async storage answers), the writes that persist it, and the reconnect of a run it was streaming.
// What becomes of a restored run is the machine's decision (machine/restore.ts).

/** The running store, as hydration reaches it once the store is made. */
export interface HydratedStore<S> {
  model(): Model<S>
  /** Shows a model no transition made: the late restore. */
  publish(model: Model<S>): void
  /** Whether any input has changed the store yet: a thread restored late replaces only an untouched store. */
  touched(): boolean
  reconnect(): Promise<void>
}

export interface Hydration<S> {
  /** The model the store starts from. */
  readonly model: Model<S>
  /** Resolves once a persisted thread has been read (at once for a sync storage or none). */
  readonly restored: Promise<void>
  /** The saved thread is still being read from an async storage. */
  restoring(): boolean
  /** A `persist` effect: urgent changes are written at once, the others when the writer gets to them. */
  persist(effect: { readonly urgent: boolean }): void
  /** Writes the current thread now (time travel), whatever the writer had scheduled. */
  persistNow(): void
  flush(): Promise<boolean>
  stop(): Promise<void>
  resume(): void
}

export interface HydrationOptions<S> {
  readonly options: AgentStoreOptions<S>
  readonly config: MachineConfig<S>
  readonly memo: Memo<S>
  /** A model given directly (the devtools' replay), taken instead of a saved thread. */
  readonly given: Model<S> | undefined
  /** The store, called only once it is made (from a promise or a microtask). */
  readonly store: HydratedStore<S>
  readonly report: (error: AgentStoreError) => void
  /** The store's agent can re-attach to a run (connect): a restored run that was streaming does so by itself. */
  readonly canReconnect: boolean
}

export function hydrate<S>({ options, config, memo, given, store, report, canReconnect }: HydrationOptions<S>): Hydration<S> {
  const persister = options.persist ? createPersister(options.persist, () => store.model() as Model<unknown>, report) : undefined
  let reading = false

  /** Reported, and shown as the store's error: the store starts from `initialState`. */
  function notRestored(cause: unknown): Model<S> {
    const error = cause instanceof AgentStoreError ? cause : notReadError(cause)
    report(error)
    return { ...initialModel(config.initial), snapshot: { ...config.initial, error } }
  }

  function checked(value: unknown): Model<S> {
    try {
      return withoutLostRun(readThread(value, memo.rules, options.persist), config)
    } catch (error) {
      return notRestored(error)
    }
  }

  function restoreLate(value: unknown) {
    if (value == null) return
    if (store.touched()) return report(new AgentStoreError('PERSIST', 'The saved thread arrived after the store had changed: not restored', { reason: 'late' }))
    const thread = checked(value)
    store.publish(startingModel(thread, config))
    if (thread.request && store.model().rejoin && canReconnect) store.reconnect().catch(report)
  }

  /** The thread given as `restore`, or else the persisted one; a bad one is reported and the store starts empty. */
  function saved(): { thread: Model<S> | undefined; restored: Promise<void> } {
    const done = Promise.resolve()
    let value: unknown = options.restore
    if (value == null && options.persist) {
      try {
        value = loadPersisted(options.persist)
      } catch (error) {
        persister?.start()
        return { thread: notRestored(error), restored: done }
      }
      if (isPromise(value)) {
        reading = true
        const restored = Promise.resolve(value)
          .then(restoreLate, (error) => {
            if (!store.touched()) store.publish(notRestored(error))
          })
          .finally(() => {
            reading = false
            persister?.start()
          })
        return { thread: undefined, restored }
      }
    }
    persister?.start()
    return { thread: value == null ? undefined : checked(value), restored: done }
  }

  const { thread, restored } = given ? { thread: given, restored: Promise.resolve() } : saved()
  const model = startingModel(thread, config)
  // A thread saved while its run streamed re-attaches by itself when the agent can.
  if (model.rejoin && thread?.request !== undefined && canReconnect) queueMicrotask(() => store.reconnect().catch(report))
  return {
    model,
    restored,
    restoring: () => reading,
    persist({ urgent }) {
      if (persister && (urgent || !persister.scheduled)) persister.changed(urgent)
    },
    persistNow: () => persister?.changed(true),
    flush: () => persister?.flush() ?? Promise.resolve(true),
    stop: () => persister?.stop() ?? Promise.resolve(),
    resume: () => persister?.resume(),
  }
}

const notReadError = (error: unknown) =>
  new AgentStoreError('PERSIST', `The saved thread could not be read: ${messageOf(error)}`, { reason: 'read', cause: error })
