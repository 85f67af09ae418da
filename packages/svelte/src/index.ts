import type { AgentSnapshot, EqualityFn, ReadableAgentStore, SnapshotOf } from '@agent-state/core'
import type { Readable } from 'svelte/store'
import { readable } from 'svelte/store'

export * from '@agent-state/core'

const identity = <T>(value: T): T => value

/**
 * Reads an agent store as a Svelte readable store: `$value` in components (Svelte 4 and 5),
 * `fromStore(value).current` from `svelte/store` with runes. Subscribes to the agent store on the
 * first subscriber, releases it after the last, and emits only when `equalityFn` says the selection changed.
 */
export function useAgentStore<TStore extends ReadableAgentStore<any>>(store: TStore): Readable<SnapshotOf<TStore>>
export function useAgentStore<TStore extends ReadableAgentStore<any>, TSelected>(
  store: TStore,
  selector: (snapshot: SnapshotOf<TStore>) => TSelected,
  equalityFn?: EqualityFn<TSelected>,
): Readable<TSelected>
export function useAgentStore<TState, TSelected>(
  store: ReadableAgentStore<TState>,
  selector: (snapshot: AgentSnapshot<TState>) => TSelected = identity as (snapshot: AgentSnapshot<TState>) => TSelected,
  equalityFn: EqualityFn<TSelected> = Object.is,
): Readable<TSelected> {
  let current = selector(store.getState())
  return readable(current, (set) => {
    const update = (snapshot: AgentSnapshot<TState>) => {
      const next = selector(snapshot)
      if (equalityFn(current, next)) return
      current = next
      set(next)
    }
    const release = store.subscribe(update)
    // Race-safe, and catches up after a time without subscribers: re-read right after subscribing.
    update(store.getState())
    return release
  })
}
