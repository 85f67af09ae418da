import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { storeInternals } from '../src/internals'

// What serialization, the threads registry and the devtools reach through a store. The internals
// are made when asked for, from the parts kept beside the store: every call reaches the same store.

describe('store internals', () => {
  it('refuses anything that is not an agent store', () => {
    expect(() => storeInternals({})).toThrow(new TypeError('Not an agent store'))
  })

  it('reach the same store on every call: a change made through one is seen through another', () => {
    const options = { initialState: { count: 0 } }
    const store = createAgentStore(options)
    const first = storeInternals<{ count: number }>(store)
    expect(first.options).toBe(options)
    store.setState({ count: 1 })
    const second = storeInternals<{ count: number }>(store)
    expect(second.model()).toBe(first.model())
    expect(second.model().snapshot).toBe(store.getState())
    expect(store.getState().state).toStrictEqual({ count: 1 })
  })

  it('replace() shows the given model through the store, and feed() runs an input through the transition', () => {
    const store = createAgentStore({ initialState: { count: 0 } })
    const blank = storeInternals<{ count: number }>(store).model()
    store.setState({ count: 2 })
    storeInternals<{ count: number }>(store).replace(blank)
    expect(store.getState().state).toStrictEqual({ count: 0 })
    storeInternals<{ count: number }>(store).feed({ type: 'setState', update: { count: 3 } })
    expect(store.getState().state).toStrictEqual({ count: 3 })
  })
})
