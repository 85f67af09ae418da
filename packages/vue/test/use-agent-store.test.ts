// Vue-only concerns; the behaviour shared by all bindings is in test/bindings.table.test.tsx at the root.

import { createAgentStore, type ReadableAgentStore, useAgentStore } from '@agent-state/vue'
import { cleanup, render } from '@testing-library/vue'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, effectScope, h, isProxy, isReadonly, isRef, nextTick, shallowRef } from 'vue'
import { append, countSubscriptions, type DemoState, demoState, replace } from '../../../test/binding-harness'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

describe('useAgentStore (Vue)', () => {
  it('returns a read-only shallow ref holding the snapshot data itself, not a proxy of it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const store = createAgentStore({ initialState: demoState() })
    store.apply(append('/items', 1))
    const scope = effectScope()
    const items = scope.run(() => useAgentStore(store, (s) => s.state.items))!
    expect(isRef(items)).toBe(true)
    expect(isReadonly(items)).toBe(true)
    expect(items.value).toBe(store.getState().state.items)
    expect(isProxy(items.value)).toBe(false)
    ;(items as { value: unknown }).value = []
    expect(items.value).toBe(store.getState().state.items)
    expect(warn).toHaveBeenCalledOnce()
    scope.stop()
  })

  it('subscribes synchronously in an effect scope and releases when the scope stops', () => {
    const store = createAgentStore({ initialState: demoState() })
    const counted = countSubscriptions(store)
    const scope = effectScope()
    const title = scope.run(() => useAgentStore(counted.store, (s) => s.state.title))!
    expect(counted.active()).toBe(1)
    store.apply(replace('/title', 'Sync'))
    // The ref is updated synchronously; only rendering waits for the next tick.
    expect(title.value).toBe('Sync')
    scope.stop()
    expect(counted.active()).toBe(0)
    store.apply(replace('/title', 'After stop'))
    expect(title.value).toBe('Sync')
  })

  it('works outside any scope without a warning', () => {
    const warn = vi.spyOn(console, 'warn')
    const store = createAgentStore({ initialState: demoState() })
    const title = useAgentStore(store, (s) => s.state.title)
    store.apply(replace('/title', 'No scope'))
    expect(title.value).toBe('No scope')
    expect(warn).not.toHaveBeenCalled()
  })

  it('moves its subscription when a ref hands it another store', () => {
    const first = countSubscriptions(createAgentStore({ initialState: demoState() }))
    const second = countSubscriptions(createAgentStore({ initialState: { ...demoState(), title: 'Second' } }))
    const current = shallowRef<ReadableAgentStore<DemoState>>(first.store)
    const scope = effectScope()
    const title = scope.run(() => useAgentStore(current, (s) => s.state.title))!
    expect(title.value).toBe('Hello')
    current.value = second.store
    expect(title.value).toBe('Second')
    expect([first.active(), second.active()]).toEqual([0, 1])
    scope.stop()
    expect(second.active()).toBe(0)
  })

  it('follows a getter over props in a component', async () => {
    const Title = defineComponent(
      (props: { store: ReadableAgentStore<DemoState> }) => {
        const title = useAgentStore(
          () => props.store,
          (s) => s.state.title,
        )
        return () => h('output', title.value)
      },
      { props: ['store'] },
    )
    const first = createAgentStore({ initialState: demoState() })
    const second = createAgentStore({ initialState: { ...demoState(), title: 'Second' } })
    const { container, rerender } = render(Title, { props: { store: first } })
    expect(container.textContent).toBe('Hello')
    await rerender({ store: second })
    expect(container.textContent).toBe('Second')
    first.apply(replace('/title', 'Ignored'))
    second.apply(replace('/title', 'Followed'))
    await nextTick()
    expect(container.textContent).toBe('Followed')
  })
})
