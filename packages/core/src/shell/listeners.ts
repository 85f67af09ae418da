// One listener set for everything the shell calls back: the store's subscribers, its event
// listeners and observers, and the threads registry's subscribers. Each keeps the same promise: a
// listener added during a notification waits for the next one, and one removed during it (by
// itself or by another listener) is not called again. The list is copied on add and remove,
// never per notification: a notification (one per streamed token) allocates nothing.

export interface ListenerSet<A, B> {
  add(listener: (a: A, b: B) => void): () => void
  /** Calls each listener; one that throws is passed to `thrown` and the others are still called. */
  notify(a: A, b: B): void
  /** How many listeners there are: a caller with an argument to build builds it for someone. */
  readonly size: number
}

export function createListenerSet<A, B>(thrown: (error: unknown) => void): ListenerSet<A, B> {
  let entries: readonly { listener: (a: A, b: B) => void; active: boolean }[] = []
  return {
    get size() {
      return entries.length
    },
    add(listener) {
      const entry = { listener, active: true }
      entries = [...entries, entry]
      return () => {
        if (!entry.active) return
        entry.active = false
        entries = entries.filter((other) => other !== entry)
      }
    },
    notify(a, b) {
      // Indexed: a for…of sets up an iterator even over the empty list most notifications find.
      const current = entries
      for (let i = 0; i < current.length; i++) {
        const entry = current[i]!
        if (!entry.active) continue
        try {
          entry.listener(a, b)
        } catch (error) {
          thrown(error)
        }
      }
    },
  }
}
