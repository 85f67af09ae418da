// @agent-state/core's read contract is the read half of zustand's StoreApi: zustand's own
// `useStore` works on an agent store as it is, selectors included.
import { createAgentStore } from '@agent-state/core'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest'
import type { StoreApi } from 'zustand'
import { useStore } from 'zustand'

afterEach(cleanup)

describe("zustand's useStore on an agent store", () => {
  it('type-checks as the read half of StoreApi', () => {
    const store = createAgentStore({ initialState: { title: 'a' } })
    expectTypeOf(store).toMatchTypeOf<Pick<StoreApi<ReturnType<typeof store.getState>>, 'getState' | 'getInitialState' | 'subscribe'>>()
  })

  it('renders the selected value and follows the store', () => {
    const store = createAgentStore({ initialState: { title: 'first', body: '' } })
    let renders = 0
    function Title() {
      renders++
      return <h1>{useStore(store, (s) => s.state.title)}</h1>
    }
    render(<Title />)
    expect(screen.getByRole('heading').textContent).toBe('first')
    act(() => store.apply({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/body', value: 'untouched by the selector' }] } as never))
    expect(renders).toBe(1)
    act(() => store.apply({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/title', value: 'second' }] } as never))
    expect(screen.getByRole('heading').textContent).toBe('second')
    expect(renders).toBe(2)
  })
})
