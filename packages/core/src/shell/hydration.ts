import type { AgentStoreError } from '../errors'
import type { MachineConfig, Memo } from '../machine/config'
import type { Model } from '../machine/model'
import { startingModel } from '../machine/restore'
import type { AgentStoreOptions, PersistOptions, SerializedThread, ThreadPersistence, ThreadRestore } from '../types'

// Hydration: the thread a store starts from and the writes that persist it. A store given neither
// `persist` nor `restore` starts blank (or from the devtools' model) and writes nothing. The code
// that reads, checks and writes a saved thread comes with the values `persistThread` and
// `restoreThread` make, and the store reaches it only through them: an app that does not save
// threads does not ship it. What becomes of a restored run is the machine's decision (machine/restore.ts).

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

/** What `persistThread` and `restoreThread` make, as the store reads them: the hydration that knows saved threads. */
interface SavedThreadCode {
  hydrate<S>(hydration: HydrationOptions<S>): Hydration<S>
}

export interface PersistParts extends SavedThreadCode {
  readonly options: PersistOptions
  /** The saved-thread code of a threads registry given this `persist`. */
  threads(): SavedThreads
}

/** What the threads registry reaches through its `persist`: each thread under `${key}:${threadId}`, the list under `${key}:threads`. */
export interface SavedThreads {
  thread(threadId: string): ThreadPersistence
  /** The stored list, parsed, or a promise of it; throws (or rejects) when it cannot be read. */
  readList(): unknown
  /** A stored thread, parsed, or a promise of it; throws (or rejects) when it cannot be read. */
  readThread(threadId: string): unknown
  /** The ordered writer of the list; `landed` is called once a write has reached storage. */
  listWriter(text: () => Promise<string>, landed: () => void, report: (error: AgentStoreError) => void): ListWriter
  /** The options of a store that shows a stored thread as opening it would, and writes nothing. */
  opening(saved: unknown): Pick<AgentStoreOptions<unknown>, 'persist' | 'restore'>
  remove(threadId: string): unknown
  /** Calls `changed` when another tab writes the list; gives what stops it, if anything does. */
  watch(changed: () => void): unknown
}

export interface ListWriter {
  changed(urgent: boolean): void
  start(): void
  flush(): Promise<boolean>
  stop(): Promise<void>
}

export interface RestoreParts extends SavedThreadCode {
  readonly saved: SerializedThread | null | undefined
}

export const persistParts = (persist: ThreadPersistence | undefined) => persist as PersistParts | undefined
export const restoreParts = (restore: ThreadRestore | undefined) => restore as RestoreParts | undefined

export function hydrate<S>(hydration: HydrationOptions<S>): Hydration<S> {
  const { persist, restore } = hydration.options
  // With both, `persist` reads `restore` first, and checks it against its own app version.
  const code = persistParts(persist) ?? restoreParts(restore)
  if (code && typeof code.hydrate !== 'function') {
    // A plain object where the factories' values belong (the options, or a serialized thread): a programming error.
    throw new TypeError('persist takes persistThread(options) and restore takes restoreThread(saved)')
  }
  return code ? code.hydrate(hydration) : startFrom(hydration.given, hydration)
}

/** A store that starts from this thread (the blank one when there is none) and writes nothing. */
export function startFrom<S>(thread: Model<S> | undefined, { config, store, report, canReconnect }: HydrationOptions<S>): Hydration<S> {
  const model = startingModel(thread, config)
  // A thread saved while its run streamed re-attaches by itself when the agent can.
  if (model.rejoin && thread?.request !== undefined && canReconnect) queueMicrotask(() => store.reconnect().catch(report))
  const done = Promise.resolve()
  return {
    model,
    restored: done,
    restoring: () => false,
    persist: () => undefined,
    persistNow: () => undefined,
    flush: () => Promise.resolve(true),
    stop: () => done,
    resume: () => undefined,
  }
}
