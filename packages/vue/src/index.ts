import type { AgentSnapshot, EqualityFn, ReadableAgentStore, SnapshotOf } from '@agent-state/core'
import type { MaybeRefOrGetter, ShallowRef } from 'vue'
import { getCurrentScope, onScopeDispose, shallowReadonly, shallowRef, toValue, watch } from 'vue'

export * from '@agent-state/core'

const identity = <T>(value: T): T => value

/**
 * Reads an agent store as a read-only `ShallowRef` that changes only when the selected value does.
 * Subscribes synchronously and releases with the calling component or effect scope.
 */
export function useAgentStore<TStore extends ReadableAgentStore<any>>(store: MaybeRefOrGetter<TStore>): Readonly<ShallowRef<SnapshotOf<TStore>>>
export function useAgentStore<TStore extends ReadableAgentStore<any>, TSelected>(
  store: MaybeRefOrGetter<TStore>,
  selector: (snapshot: SnapshotOf<TStore>) => TSelected,
  equalityFn?: EqualityFn<TSelected>,
): Readonly<ShallowRef<TSelected>>
export function useAgentStore<TState, TSelected>(
  store: MaybeRefOrGetter<ReadableAgentStore<TState>>,
  selector: (snapshot: AgentSnapshot<TState>) => TSelected = identity as (snapshot: AgentSnapshot<TState>) => TSelected,
  equalityFn: EqualityFn<TSelected> = Object.is,
): Readonly<ShallowRef<TSelected>> {
  const selected = shallowRef(selector(toValue(store).getState()))
  const update = (snapshot: AgentSnapshot<TState>) => {
    const next = selector(snapshot)
    if (!equalityFn(selected.value, next)) selected.value = next
  }

  let release: (() => void) | undefined
  const connect = (target: ReadableAgentStore<TState>) => {
    release?.()
    release = target.subscribe(update)
    // Race-safe: the store may have changed between the first read and the subscription.
    update(target.getState())
  }
  connect(toValue(store))
  // A ref or getter may hand over another store: move the subscription with it.
  const stopWatching = watch(() => toValue(store), connect, { flush: 'sync' })

  if (getCurrentScope()) {
    onScopeDispose(() => {
      stopWatching()
      release?.()
      release = undefined
    })
  }
  // shallowReadonly, not readonly: readonly() would wrap `.value` in a deep proxy and break snapshot identity.
  return shallowReadonly(selected)
}
