import type { AgentSnapshot, EqualityFn, ReadableAgentStore, SnapshotOf } from '@agent-state/core'
import { useCallback, useDebugValue, useEffect, useMemo, useRef, useSyncExternalStore } from 'react'

export * from '@agent-state/core'

const identity = <T>(value: T): T => value

/**
 * Reads an agent store in a component and re-renders when the selected value changes.
 * `equalityFn` (default `Object.is`) decides what "changed" means; pass `shallow` for selectors that build objects.
 */
export function useAgentStore<TStore extends ReadableAgentStore<any>>(store: TStore): SnapshotOf<TStore>
export function useAgentStore<TStore extends ReadableAgentStore<any>, TSelected>(
  store: TStore,
  selector: (snapshot: SnapshotOf<TStore>) => TSelected,
  equalityFn?: EqualityFn<TSelected>,
): TSelected
export function useAgentStore<TState, TSelected>(
  store: ReadableAgentStore<TState>,
  selector: (snapshot: AgentSnapshot<TState>) => TSelected = identity as (snapshot: AgentSnapshot<TState>) => TSelected,
  equalityFn: EqualityFn<TSelected> = Object.is,
): TSelected {
  // The last value React committed: a new selector or equalityFn (inline arrows) starts from it, not from scratch.
  const committed = useRef<{ value: TSelected } | undefined>(undefined)

  // Keyed by the store alone: an inline selector must not resubscribe on every render.
  const subscribe = useCallback((onChange: () => void) => store.subscribe(onChange), [store])
  const [getSelection, getServerSelection] = useMemo(() => {
    // One memo per source, keyed by snapshot identity: getSnapshot must return the same value until the store
    // changes, or useSyncExternalStore loops; equal selections keep the previous reference.
    const memoized = (read: () => AgentSnapshot<TState>) => {
      let memo: { snapshot: AgentSnapshot<TState>; value: TSelected } | undefined
      return (): TSelected => {
        const snapshot = read()
        if (memo?.snapshot === snapshot) return memo.value
        const next = selector(snapshot)
        const previous = memo ?? committed.current
        memo = { snapshot, value: previous !== undefined && equalityFn(previous.value, next) ? previous.value : next }
        return memo.value
      }
    }
    // The server renders what its store holds now; a hydrating client, what its store began with (a restored thread).
    const serverSide = typeof window === 'undefined'
    return [memoized(() => store.getState()), memoized(() => (serverSide ? store.getState() : store.getInitialState()))] as const
  }, [store, selector, equalityFn])

  const value = useSyncExternalStore(subscribe, getSelection, getServerSelection)
  useEffect(() => {
    committed.current = { value }
  }, [value])
  useDebugValue(value)
  return value
}
