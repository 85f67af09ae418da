import { type AgentSnapshot, createAgentStore, shallow, useAgentStore } from '@agent-state/vue'
import { describe, expectTypeOf, it } from 'vitest'
import { type ShallowRef, shallowRef } from 'vue'

const store = createAgentStore({ initialState: { title: '', items: [] as number[] } })
type State = { title: string; items: number[] }

describe('useAgentStore (Vue) types', () => {
  it('infers the selected type from the selector, as a read-only ShallowRef', () => {
    expectTypeOf(useAgentStore(store, (s) => s.state.title)).toEqualTypeOf<Readonly<ShallowRef<string>>>()
    expectTypeOf(useAgentStore(store, (s) => ({ count: s.state.items.length }), shallow).value).toEqualTypeOf<{ count: number }>()
    expectTypeOf(useAgentStore(store).value).toEqualTypeOf<AgentSnapshot<State>>()
  })

  it('accepts the store as a ref or a getter', () => {
    expectTypeOf(useAgentStore(shallowRef(store), (s) => s.state.items).value).toEqualTypeOf<number[]>()
    expectTypeOf(
      useAgentStore(
        () => store,
        (s) => s.state.title,
      ).value,
    ).toEqualTypeOf<string>()
  })

  it('is read-only', () => {
    const title = useAgentStore(store, (s) => s.state.title)
    // @ts-expect-error: value is read-only
    title.value = 'x'
  })
})
