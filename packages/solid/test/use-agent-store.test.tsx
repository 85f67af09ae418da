/** @jsxImportSource solid-js */
// Solid-only concerns; the behaviour shared by all bindings is in test/bindings.table.test.tsx at the root.

import { type AgentSnapshot, createAgentStore, type ReadableAgentStore, shallow, useAgentStore } from '@agent-state/solid'
import { type Accessor, batch, createEffect, createRoot, createSignal } from 'solid-js'
import { render } from 'solid-js/web'
import { afterEach, describe, expect, it } from 'vitest'
import { append, changedBeforeSubscribe, countSubscriptions, type DemoState, demoState, replace } from '../../../test/binding-harness'

type Snapshot = AgentSnapshot<DemoState>

const disposers: (() => void)[] = []
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose()
  document.body.innerHTML = ''
})

/** Runs `setup` under a new root, disposed after the test (or earlier, by the returned function). */
function inRoot<T>(setup: () => T): { value: T; dispose: () => void } {
  let dispose = () => {}
  const value = createRoot((disposeRoot) => {
    dispose = disposeRoot
    return setup()
  })
  disposers.push(dispose)
  return { value, dispose }
}

/** A selector that counts its calls, and an effect that records every value it sees (Solid's "render"). */
function watched<T>(
  store: ReadableAgentStore<DemoState> | Accessor<ReadableAgentStore<DemoState>>,
  select: (s: Snapshot) => T,
  equalityFn?: (a: T, b: T) => boolean,
) {
  let selectorRuns = 0
  const effects: T[] = []
  const { value: selected, dispose } = inRoot(() => {
    const selected = useAgentStore(
      store,
      (s) => {
        selectorRuns++
        return select(s)
      },
      equalityFn,
    )
    createEffect(() => effects.push(selected()))
    return selected
  })
  return { selected, effects, selectorRuns: () => selectorRuns, dispose }
}

describe('useAgentStore (Solid)', () => {
  it('reads synchronously: the value is there when the call returns, before any effect ran', () => {
    const store = createAgentStore({ initialState: demoState() })
    store.apply(replace('/title', 'Before'))
    const { value } = inRoot(() => {
      const title = useAgentStore(store, (s) => s.state.title)
      const snapshot = useAgentStore(store)
      return { title: title(), snapshot: snapshot() }
    })
    expect(value.title).toBe('Before')
    // Without a selector, the store's own immutable snapshot, not a copy or a proxy of it.
    expect(value.snapshot).toBe(store.getState())
  })

  it('runs the selector once per new snapshot and the effect once per change of the selection', () => {
    const store = createAgentStore({ initialState: demoState() })
    const title = watched(store, (s) => s.state.title)
    expect([title.selectorRuns(), title.effects]).toEqual([1, ['Hello']])
    let snapshots = 0
    const stop = store.subscribe(() => snapshots++)
    for (let i = 0; i < 100; i++) store.apply(append('/items', i))
    stop()
    expect(snapshots).toBe(100)
    expect(title.selectorRuns()).toBe(1 + 100)
    expect(title.effects).toEqual(['Hello'])
    store.apply(replace('/title', 'Changed'))
    expect(title.selected()).toBe('Changed')
    expect([title.selectorRuns(), title.effects]).toEqual([102, ['Hello', 'Changed']])
  })

  it('compares with Object.is by default: NaN stays quiet, -0 after +0 is a change', () => {
    const store = createAgentStore({ initialState: demoState() })
    const nan = watched(store, () => Number.NaN)
    const sign = watched(store, (s) => (s.state.items.length === 0 ? 0 : -0))
    store.apply(append('/items', 1))
    store.apply(replace('/title', 'Other'))
    expect(nan.selectorRuns()).toBe(3)
    expect(nan.effects).toHaveLength(1)
    expect(sign.effects.map((value) => Object.is(value, -0))).toEqual([false, true])
  })

  it('lets equalityFn decide: shallow keeps a new object quiet, and an equal selection keeps the previous reference', () => {
    const store = createAgentStore({ initialState: demoState() })
    const summary = watched(store, (s) => ({ title: s.state.title, count: s.state.items.length }), shallow)
    const first = summary.selected()
    for (let i = 0; i < 5; i++) store.apply(replace('/document', `d${i}`))
    expect(summary.selected()).toBe(first)
    store.apply(append('/items', 1))
    const caseless = watched(
      store,
      (s) => s.state.title,
      (a, b) => a.toLowerCase() === b.toLowerCase(),
    )
    store.apply(replace('/title', 'HELLO'))
    store.apply(replace('/title', 'World'))
    expect(summary.effects).toEqual([
      { title: 'Hello', count: 0 },
      { title: 'Hello', count: 1 },
      { title: 'HELLO', count: 1 },
      { title: 'World', count: 1 },
    ])
    expect(caseless.effects).toEqual(['Hello', 'World'])
  })

  it('subscribes once, at the call, and releases when its owner is disposed', () => {
    const store = createAgentStore({ initialState: demoState() })
    const counted = countSubscriptions(store)
    const title = watched(counted.store, (s) => s.state.title)
    expect([counted.active(), counted.total()]).toEqual([1, 1])
    store.apply(replace('/title', 'Live'))
    title.dispose()
    expect(counted.active()).toBe(0)
    store.apply(replace('/title', 'After dispose'))
    expect(title.selectorRuns()).toBe(2)
    expect(title.effects).toEqual(['Hello', 'Live'])
    expect(counted.total()).toBe(1)
  })

  it('shows a change made between its first read and its subscription', () => {
    const store = createAgentStore({ initialState: demoState() })
    const late = changedBeforeSubscribe(store, () => store.apply(replace('/title', 'Changed before subscribe')))
    const title = watched(late, (s) => s.state.title)
    expect(title.selected()).toBe('Changed before subscribe')
    expect(title.effects).toEqual(['Changed before subscribe'])
    store.apply(replace('/title', 'And after'))
    expect(title.effects).toEqual(['Changed before subscribe', 'And after'])
  })

  it('moves its subscription when an accessor hands it another store, and releases the last one', () => {
    const firstStore = createAgentStore({ initialState: demoState() })
    const first = countSubscriptions(firstStore)
    const second = countSubscriptions(createAgentStore({ initialState: { ...demoState(), title: 'Second' } }))
    const [current, setCurrent] = createSignal<ReadableAgentStore<DemoState>>(first.store)
    const title = watched(current, (s) => s.state.title)
    expect([first.active(), second.active()]).toEqual([1, 0])
    setCurrent(second.store)
    expect(title.selected()).toBe('Second')
    expect([first.active(), second.active()]).toEqual([0, 1])
    firstStore.apply(replace('/title', 'Ignored'))
    expect(title.selected()).toBe('Second')
    title.dispose()
    expect(second.active()).toBe(0)
    expect(title.effects).toEqual(['Hello', 'Second'])
  })

  it('follows the signals its selector reads', () => {
    const store = createAgentStore({ initialState: demoState() })
    store.apply(append('/items', 10))
    store.apply(append('/items', 20))
    const [index, setIndex] = createSignal(0)
    const item = watched(store, (s) => s.state.items[index()])
    expect(item.selected()).toBe(10)
    setIndex(1)
    expect(item.selected()).toBe(20)
    store.apply(replace('/items/1', 21))
    expect(item.effects).toEqual([10, 20, 21])
  })

  it('batches: several store changes inside batch() cost one effect run', () => {
    const store = createAgentStore({ initialState: demoState() })
    const title = watched(store, (s) => s.state.title)
    batch(() => {
      store.apply(replace('/title', 'One'))
      store.apply(replace('/title', 'Two'))
    })
    expect(title.effects).toEqual(['Hello', 'Two'])
  })

  it('follows a store passed as a prop, in a component, through an accessor over props', () => {
    const first = createAgentStore({ initialState: demoState() })
    const second = createAgentStore({ initialState: { ...demoState(), title: 'Second' } })
    function Title(props: { store: ReadableAgentStore<DemoState> }) {
      const title = useAgentStore(
        () => props.store,
        (s) => s.state.title,
      )
      return <output>{title()}</output>
    }
    const [store, setStore] = createSignal<ReadableAgentStore<DemoState>>(first)
    const container = document.body.appendChild(document.createElement('div'))
    disposers.push(render(() => <Title store={store()} />, container))
    expect(container.textContent).toBe('Hello')
    setStore(second)
    expect(container.textContent).toBe('Second')
    first.apply(replace('/title', 'Ignored'))
    second.apply(replace('/title', 'Followed'))
    expect(container.textContent).toBe('Followed')
  })
})
