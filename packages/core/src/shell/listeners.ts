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
  const set = {
    size: 0,
    add(listener: (a: A, b: B) => void) {
      const entry = { listener, active: true }
      entries = [...entries, entry]
      set.size = entries.length
      return () => {
        if (!entry.active) return
        entry.active = false
        entries = entries.filter((other) => other !== entry)
        set.size = entries.length
      }
    },
    notify(a: A, b: B) {
      for (const entry of entries) {
        if (!entry.active) continue
        try {
          entry.listener(a, b)
        } catch (error) {
          thrown(error)
        }
      }
    },
  }
  return set
}
