import { type AgentSnapshot, type AgentStore, createAgentStore, createAgentThreads, shallow, useAgentStore } from '@agent-state/solid'
import { type Accessor, createSignal } from 'solid-js'
import { describe, expectTypeOf, it } from 'vitest'

const store = createAgentStore({ initialState: { title: '', items: [] as number[] } })
type State = { title: string; items: number[] }

describe('useAgentStore (Solid) types', () => {
  it('infers the selected type from the selector, as an Accessor', () => {
    expectTypeOf(useAgentStore(store, (s) => s.state.title)).toEqualTypeOf<Accessor<string>>()
    expectTypeOf(useAgentStore(store, (s) => ({ count: s.state.items.length }), shallow)).toEqualTypeOf<Accessor<{ count: number }>>()
    expectTypeOf(useAgentStore(store)).toEqualTypeOf<Accessor<AgentSnapshot<State>>>()
  })

  it('accepts the store as an accessor, and a threads registry', () => {
    const [current] = createSignal<AgentStore<State>>(store)
    expectTypeOf(useAgentStore(current, (s) => s.state.items)).toEqualTypeOf<Accessor<number[]>>()
    expectTypeOf(useAgentStore(() => store)).toEqualTypeOf<Accessor<AgentSnapshot<State>>>()
    const threads = createAgentThreads({ initialState: { title: '', items: [] as number[] } })
    expectTypeOf(useAgentStore(threads, (s) => s.threads.length)).toEqualTypeOf<Accessor<number>>()
  })

  it('types the equality function against the selection', () => {
    const title = (s: AgentSnapshot<State>) => s.state.title
    const caseless = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
    const numeric = (a: number, b: number) => a === b
    expectTypeOf(useAgentStore(store, title, caseless)).toEqualTypeOf<Accessor<string>>()
    // @ts-expect-error: the selection is a string, not a number
    useAgentStore(store, title, numeric)
  })
})
