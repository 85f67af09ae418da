import type { ReadableAgentStore } from '@agent-state/core'

/** The same store with `subscribe` wrapped to count the subscriptions callers hold (and ever took). */
export function countSubscriptions<TStore extends ReadableAgentStore<any>>(store: TStore) {
  let active = 0
  let total = 0
  const subscribe: TStore['subscribe'] = (listener) => {
    active++
    total++
    const release = store.subscribe(listener)
    let released = false
    return () => {
      if (released) return
      released = true
      active--
      release()
    }
  }
  return { store: { ...store, subscribe } as TStore, active: () => active, total: () => total }
}
