import type { AgentSnapshot, EqualityFn, ReadableAgentStore, SnapshotOf } from '@agent-state/core'
import type { Accessor } from 'solid-js'
import { createComputed, createMemo, createSignal, onCleanup, untrack } from 'solid-js'

export * from '@agent-state/core'

const identity = <T>(value: T): T => value

/**
 * Reads an agent store as a Solid `Accessor` that notifies only when the selected value changes.
 * Subscribes at once and releases with the owner (a component, or a `createRoot`). The store may be an
 * accessor (switching threads), and signals read inside the selector are tracked.
 */
export function useAgentStore<TStore extends ReadableAgentStore<any>>(store: TStore | Accessor<TStore>): Accessor<SnapshotOf<TStore>>
export function useAgentStore<TStore extends ReadableAgentStore<any>, TSelected>(
  store: TStore | Accessor<TStore>,
  selector: (snapshot: SnapshotOf<TStore>) => TSelected,
  equalityFn?: EqualityFn<TSelected>,
): Accessor<TSelected>
export function useAgentStore<TState, TSelected>(
  store: ReadableAgentStore<TState> | Accessor<ReadableAgentStore<TState>>,
  selector: (snapshot: AgentSnapshot<TState>) => TSelected = identity as (snapshot: AgentSnapshot<TState>) => TSelected,
  equalityFn: EqualityFn<TSelected> = Object.is,
): Accessor<TSelected> {
  const current = typeof store === 'function' ? store : () => store
  // Snapshots are immutable: a new reference means something changed, so the signal's own `===` suffices.
  const [snapshot, setSnapshot] = createSignal(untrack(current).getState())
  createComputed(() => {
    const target = current()
    // Wrapped: a setter called with a function would call it.
    const release = target.subscribe((next) => setSnapshot(() => next))
    // Race-safe, and catches up with a switched store: re-read right after subscribing.
    setSnapshot(() => target.getState())
    onCleanup(release)
  })
  return createMemo(() => selector(snapshot()), undefined, { equals: equalityFn })
}
