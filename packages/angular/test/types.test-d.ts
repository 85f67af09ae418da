import { type AgentSnapshot, type AgentStore, createAgentStore, injectAgentStore, shallow } from '@agent-state/angular'
import { input, type Signal, signal } from '@angular/core'
import { describe, expectTypeOf, it } from 'vitest'

const store = createAgentStore({ initialState: { title: '', items: [] as number[] } })
type State = { title: string; items: number[] }

describe('injectAgentStore (Angular) types', () => {
  it('infers the selected type from the selector, as a read-only Signal', () => {
    expectTypeOf(injectAgentStore(store, (s) => s.state.title)).toEqualTypeOf<Signal<string>>()
    expectTypeOf(injectAgentStore(store, (s) => ({ count: s.state.items.length }), shallow)).toEqualTypeOf<Signal<{ count: number }>>()
    expectTypeOf(injectAgentStore(store)).toEqualTypeOf<Signal<AgentSnapshot<State>>>()
  })

  it('accepts a signal of a store, an input too', () => {
    expectTypeOf(injectAgentStore(signal(store), (s) => s.state.items)).toEqualTypeOf<Signal<number[]>>()
    expectTypeOf(injectAgentStore(input.required<AgentStore<State>>(), (s) => s.state.title)).toEqualTypeOf<Signal<string>>()
  })

  it('checks the equality function against the selection, and is read-only', () => {
    const sameText = (a: string, b: string) => a === b
    // @ts-expect-error: compares strings, the selection is a number
    injectAgentStore(store, (s) => s.state.items.length, sameText)
    // @ts-expect-error: a Signal has no set
    injectAgentStore(store, (s) => s.state.title).set('x')
  })
})
