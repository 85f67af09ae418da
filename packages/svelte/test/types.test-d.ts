import { type AgentSnapshot, createAgentStore, shallow, useAgentStore } from '@agent-state/svelte'
import { fromStore, type Readable } from 'svelte/store'
import { describe, expectTypeOf, it } from 'vitest'

const store = createAgentStore({ initialState: { title: '', items: [] as number[] } })
type State = { title: string; items: number[] }

describe('useAgentStore (Svelte) types', () => {
  it('infers the selected type from the selector, as a readable store', () => {
    expectTypeOf(useAgentStore(store, (s) => s.state.title)).toEqualTypeOf<Readable<string>>()
    expectTypeOf(useAgentStore(store, (s) => ({ count: s.state.items.length }), shallow)).toEqualTypeOf<Readable<{ count: number }>>()
    expectTypeOf(useAgentStore(store)).toEqualTypeOf<Readable<AgentSnapshot<State>>>()
  })

  it('gives rune users a typed .current through fromStore', () => {
    expectTypeOf(fromStore(useAgentStore(store, (s) => s.state.items)).current).toEqualTypeOf<number[]>()
  })
})
