// Svelte-only concerns; the behaviour shared by all bindings is in test/bindings.table.test.tsx at the root.

import { createAgentStore, shallow, useAgentStore } from '@agent-state/svelte'
import { cleanup, render } from '@testing-library/svelte'
import { flushSync } from 'svelte'
import { derived, get } from 'svelte/store'
import { afterEach, describe, expect, it } from 'vitest'
import { append, countSubscriptions, demoState, replace } from '../../../test/binding-harness'
import RuneTitle from './RuneTitle.svelte'

afterEach(() => cleanup())

describe('useAgentStore (Svelte)', () => {
  it('honours the store contract: subscribe calls back at once with the current value and returns the unsubscribe', () => {
    const store = createAgentStore({ initialState: demoState() })
    const title = useAgentStore(store, (s) => s.state.title)
    store.apply(replace('/title', 'Before subscribe'))
    const seen: string[] = []
    const unsubscribe = title.subscribe((value) => seen.push(value))
    expect(seen).toEqual(['Before subscribe'])
    store.apply(replace('/title', 'After'))
    expect(seen).toEqual(['Before subscribe', 'After'])
    unsubscribe()
    store.apply(replace('/title', 'Unheard'))
    expect(seen).toEqual(['Before subscribe', 'After'])
  })

  it('subscribes to the core on the first subscriber, shares it, and releases it after the last', () => {
    const counted = countSubscriptions(createAgentStore({ initialState: demoState() }))
    const title = useAgentStore(counted.store, (s) => s.state.title)
    expect(counted.active()).toBe(0)
    const first = title.subscribe(() => {})
    const second = title.subscribe(() => {})
    expect([counted.active(), counted.total()]).toEqual([1, 1])
    first()
    expect(counted.active()).toBe(1)
    second()
    expect(counted.active()).toBe(0)
  })

  it('emits only when equalityFn says the selection changed', () => {
    const store = createAgentStore({ initialState: demoState() })
    const summary = useAgentStore(store, (s) => ({ title: s.state.title, count: s.state.items.length }), shallow)
    const seen: unknown[] = []
    const unsubscribe = summary.subscribe((value) => seen.push(value))
    for (let i = 0; i < 10; i++) store.apply(replace('/document', `d${i}`))
    store.apply(append('/items', 1))
    expect(seen).toEqual([
      { title: 'Hello', count: 0 },
      { title: 'Hello', count: 1 },
    ])
    unsubscribe()
  })

  it('works with get and derived from svelte/store, even between subscriptions', () => {
    const store = createAgentStore({ initialState: demoState() })
    const items = useAgentStore(store, (s) => s.state.items)
    const count = derived(items, (list) => list.length)
    expect(get(count)).toBe(0)
    store.apply(append('/items', 1))
    store.apply(append('/items', 2))
    expect(get(count)).toBe(2)
    expect(get(items)).toBe(store.getState().state.items)
  })

  it('gives rune users .current through fromStore, and releases on unmount', () => {
    const store = createAgentStore({ initialState: { title: 'Hello' } })
    const counted = countSubscriptions(store)
    const { container, unmount } = render(RuneTitle, { props: { store: counted.store } })
    expect(container.textContent).toBe('Hello')
    expect(counted.active()).toBe(1)
    store.apply(replace('/title', 'Runes'))
    flushSync()
    expect(container.textContent).toBe('Runes')
    unmount()
    expect(counted.active()).toBe(0)
  })
})
