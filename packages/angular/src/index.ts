import type { AgentSnapshot, EqualityFn, ReadableAgentStore, SnapshotOf } from '@agent-state/core'
import type { Signal } from '@angular/core'
import { assertInInjectionContext, computed, DestroyRef, inject, isSignal, signal, untracked } from '@angular/core'

export * from '@agent-state/core'

const identity = <T>(value: T): T => value

/**
 * Reads an agent store as a read-only `Signal` that changes only when the selected value does.
 * Call it in an injection context (a field initializer, a constructor, `runInInjectionContext`): it
 * subscribes on the first read and releases with that injector. The store may be a signal of a store
 * (an input too: it is first read at render), and signals the selector reads are tracked as in any `computed`.
 */
export function injectAgentStore<TStore extends ReadableAgentStore<any>>(store: TStore | Signal<TStore>): Signal<SnapshotOf<TStore>>
export function injectAgentStore<TStore extends ReadableAgentStore<any>, TSelected>(
  store: TStore | Signal<TStore>,
  selector: (snapshot: SnapshotOf<TStore>) => TSelected,
  equalityFn?: EqualityFn<TSelected>,
): Signal<TSelected>
export function injectAgentStore<TState, TSelected>(
  store: ReadableAgentStore<TState> | Signal<ReadableAgentStore<TState>>,
  selector: (snapshot: AgentSnapshot<TState>) => TSelected = identity as (snapshot: AgentSnapshot<TState>) => TSelected,
  equalityFn: EqualityFn<TSelected> = Object.is,
): Signal<TSelected> {
  assertInInjectionContext(injectAgentStore)
  const destroyRef = inject(DestroyRef)
  // Bumped by the store's listener: the selection re-reads the store, and keeps its value when equalityFn says so.
  const notified = signal(0)
  const notify = () => notified.update((count) => count + 1)

  let subscribed: ReadableAgentStore<TState> | undefined
  let release: (() => void) | undefined
  let destroyed = false
  const follow = (target: ReadableAgentStore<TState>) => {
    if (target === subscribed || destroyed) return
    release?.()
    subscribed = target
    release = target.subscribe(notify)
  }

  destroyRef.onDestroy(() => {
    destroyed = true
    release?.()
    release = undefined
  })

  return computed(
    () => {
      const target = isSignal(store) ? store() : store
      notified()
      // A signal may hand over another store: the subscription moves with it (untracked: subscribing is
      // no read). The store is read after subscribing, so a change made in between still shows (race-safe).
      untracked(() => follow(target))
      return selector(target.getState())
    },
    { equal: equalityFn },
  )
}
