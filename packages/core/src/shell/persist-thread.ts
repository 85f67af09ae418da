import { AgentStoreError } from '../errors'
import type { Model } from '../machine/model'
import { startingModel } from '../machine/restore'
import { createPersister, isPromise, loadPersisted } from '../persistence/writer'
import type { PersistOptions, ThreadPersistence } from '../types'
import { type Hydration, type HydrationOptions, type PersistParts, restoreParts, startFrom } from './hydration'
import { notRestored, readSaved } from './restore-thread'

// A store's thread saved after changes and read back when the store is made, from a storage that
// answers now or later (then the store starts blank and takes the thread when it arrives).

/**
 * The `persist` option of a store (or of the threads registry): saves the thread after changes and
 * restores it on creation. A factory rather than the options themselves: an app that does not save
 * threads does not ship the code that reads and writes them.
 */
export function persistThread(options: PersistOptions): ThreadPersistence {
  const parts: PersistParts = { options, hydrate: (hydration) => hydratePersisted(options, hydration) }
  return parts as unknown as ThreadPersistence
}

function hydratePersisted<S>(persist: PersistOptions, hydration: HydrationOptions<S>): Hydration<S> {
  const { config, store, report } = hydration
  const persister = createPersister(persist, () => store.model() as Model<unknown>, report)
  let reading = false

  function restoreLate(value: unknown) {
    if (value == null) return
    if (store.touched()) return report(new AgentStoreError('PERSIST', 'The saved thread arrived after the store had changed: not restored', { reason: 'late' }))
    const thread = readSaved(value, hydration, persist) as Model<S>
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
        persister.start()
        return { thread: notRestored(error, hydration), restored: done }
      }
      if (isPromise(value)) {
        reading = true
        const restored = Promise.resolve(value)
          .then(restoreLate, (error) => {
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
    return { thread: readSaved(value, hydration, persist), restored: done }
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
    flush: () => persister.flush(),
    stop: () => persister.stop(),
    resume: () => persister.resume(),
  }
}
