import { AgentStoreError, messageOf } from '../errors'
import type { Model } from '../machine/model'
import { startingModel } from '../machine/restore'
import { createPersister, createWriter, isPromise, loadPersisted, persistKey } from '../persistence/writer'
import type { PersistOptions, SerializedThread, ThreadPersistence } from '../types'
import { type Hydration, type HydrationOptions, type PersistParts, restoreParts, type SavedThreads, startFrom } from './hydration'
import { notRestored, readSaved, restoreThread } from './restore-thread'

// A store's thread saved after changes and read back when the store is made, from a storage that
// answers now or later (then the store starts blank and takes the thread when it arrives). The
// threads registry reaches its storage through here too: each thread's, and the list's.

/**
 * The `persist` option of a store (or of the threads registry): saves the thread after changes and
 * restores it on creation. A factory rather than the options themselves: an app that does not save
 * threads does not ship the code that reads and writes them. A saved thread the store refuses
 * (RESTORE) is copied to `<key>:refused` before the store saves anything over it.
 */
export function persistThread(options: PersistOptions): ThreadPersistence {
  const parts: PersistParts = { options, hydrate: (hydration) => hydratePersisted(options, hydration), threads: () => savedThreads(options) }
  return parts as unknown as ThreadPersistence
}

function hydratePersisted<S>(persist: PersistOptions, hydration: HydrationOptions<S>): Hydration<S> {
  const { config, store, report } = hydration
  const persister = createPersister(persist, () => store.model() as Model<unknown>, report)
  const setAside = () => keepRefused(persist, report)
  let reading = false

  function restoreLate(value: unknown) {
    if (value == null) return
    if (store.touched()) return report(new AgentStoreError('PERSIST', 'The saved thread arrived after the store had changed: not restored', { reason: 'late' }))
    const thread = readSaved(value, hydration, persist, setAside) as Model<S>
    store.publish(startingModel(thread, config))
    if (thread.request && store.model().rejoin && hydration.canReconnect) store.reconnect().catch(report)
  }

  /** The thread given as `restore`, or else the persisted one; a bad one is reported and the store starts empty. */
  function saved(): { thread: Model<S> | undefined; restored: Promise<void> } {
    const done = Promise.resolve()
    let value: unknown = restoreParts(hydration.options.restore)?.saved
    if (value == null) {
      try {
        value = loadPersisted(persist)
      } catch (error) {
        if (refusal(error)) setAside()
        persister.start()
        return { thread: notRestored(error, hydration), restored: done }
      }
      if (isPromise(value)) {
        reading = true
        const restored = Promise.resolve(value)
          .then(restoreLate, (error) => {
            if (refusal(error)) setAside()
            if (!store.touched()) store.publish(notRestored(error, hydration))
          })
          .finally(() => {
            reading = false
            persister.start()
          })
        return { thread: undefined, restored }
      }
    }
    persister.start()
    return { thread: readSaved(value, hydration, persist, setAside), restored: done }
  }

  const { thread, restored } = hydration.given ? { thread: hydration.given, restored: Promise.resolve() } : saved()
  return {
    ...startFrom(thread, hydration),
    restored,
    restoring: () => reading,
    persist({ urgent }) {
      if (urgent || !persister.scheduled) persister.changed(urgent)
    },
    persistNow: () => persister.changed(true),
    flush: persister.flush,
    stop: persister.stop,
    resume: persister.resume,
  }
}

/** A text that was read but is no thread the store can take (not a storage that failed to read). */
const refusal = (error: unknown) => error instanceof AgentStoreError && error.code === 'RESTORE'

/**
 * Copies the text under the key to `<key>:refused`, so a thread the store could not take (another
 * release's format, a damaged write) is still there to inspect or migrate by hand once the store's
 * own writes replace it. The read is issued before any write of the store, so it sees the old text.
 */
function keepRefused(persist: PersistOptions, report: (error: AgentStoreError) => void): void {
  const key = persistKey(persist)
  const failed = (cause: unknown) =>
    report(new AgentStoreError('PERSIST', `The refused saved thread could not be kept: ${messageOf(cause)}`, { reason: 'write', cause }))
  const copy = (text: string | null | undefined) => (text == null ? undefined : persist.storage.setItem(`${key}:refused`, text))
  try {
    const text = persist.storage.getItem(key)
    const copied = isPromise(text) ? text.then(copy) : copy(text)
    if (isPromise(copied)) copied.then(undefined, failed)
  } catch (error) {
    failed(error)
  }
}

/** The threads registry's storage: what it needs of the saved-thread code, reached only through its `persist`. */
function savedThreads(options: PersistOptions): SavedThreads {
  const prefix = persistKey(options)
  const at = (key: string): PersistOptions => ({ ...options, key: `${prefix}:${key}` })
  const list = at('threads')
  // The app's version and migrate, with a storage that keeps nothing: a store that only reads.
  const readOnly = persistThread({ ...options, storage: nowhere })
  return {
    thread: (threadId) => persistThread(at(threadId)),
    readList: () => read(list),
    readThread: (threadId) => read(at(threadId)),
    listWriter(text, landed, report) {
      const { storage } = list
      const landing = {
        getItem: (key: string) => storage.getItem(key),
        removeItem: (key: string) => storage.removeItem(key),
        async setItem(key: string, value: string) {
          await storage.setItem(key, value)
          landed()
        },
      }
      return createWriter({ ...list, storage: landing }, text, report)
    },
    opening: (saved) => ({ persist: readOnly, ...(saved == null ? {} : { restore: restoreThread(saved as SerializedThread) }) }),
    remove: (threadId) => options.storage.removeItem(`${prefix}:${threadId}`),
    watch: (changed) => watchList(list, `${prefix}:threads`, changed),
  }
}

/** What storage holds under the key: a native promise of it when the storage answers later. */
function read(options: PersistOptions): unknown {
  const saved = loadPersisted(options)
  return isPromise(saved) ? Promise.resolve(saved) : saved
}

const nowhere: PersistOptions['storage'] = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined }

/** Follows the list in other tabs: through the app's own `watch`, or the page's `storage` event when the storage is its Web Storage. */
function watchList(list: PersistOptions, key: string, changed: () => void): unknown {
  if (list.watch) return list.watch(key, changed)
  if (typeof addEventListener !== 'function' || typeof Storage !== 'function' || !(list.storage instanceof Storage)) return undefined
  const listener = (event: StorageEvent) => {
    if (event.storageArea === list.storage && (event.key === key || event.key === null)) changed()
  }
  addEventListener('storage', listener)
  return () => removeEventListener('storage', listener)
}
