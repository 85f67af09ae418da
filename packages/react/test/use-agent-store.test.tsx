// React-only concerns; the behaviour shared by all bindings is in test/bindings.table.test.tsx at the root.

import { type AgentSnapshot, createAgentStore, shallow, useAgentStore } from '@agent-state/react'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { StrictMode, useState } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { countSubscriptions, type DemoState, demoState, replace } from '../../../test/binding-harness'
import { Probe } from './harness'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const summary = (s: AgentSnapshot<DemoState>) => ({ title: s.state.title, count: s.state.items.length })

describe('useAgentStore (React)', () => {
  it('takes a selector that builds a new object on every call without looping or warning', () => {
    const errors = vi.spyOn(console, 'error')
    const store = createAgentStore({ initialState: demoState() })
    const seen: unknown[] = []
    render(<Probe store={store} selector={summary} onRender={(value) => seen.push(value)} />)
    act(() => store.apply(replace('/document', 'x')))
    act(() => store.apply(replace('/document', 'y')))
    expect(seen).toHaveLength(3)
    expect(errors).not.toHaveBeenCalled()
  })

  it('keeps the previous reference while equalityFn says equal, across parent re-renders with an inline selector', () => {
    const store = createAgentStore({ initialState: demoState() })
    const counted = countSubscriptions(store)
    const seen: unknown[] = []
    function Parent() {
      const [, setTick] = useState(0)
      // A new selector function on every render, as inline arrows are.
      const value = useAgentStore(counted.store, (s) => ({ title: s.state.title }), shallow)
      seen.push(value)
      return (
        <button type="button" onClick={() => setTick((n) => n + 1)}>
          {value.title}
        </button>
      )
    }
    render(<Parent />)
    fireEvent.click(screen.getByRole('button'))
    fireEvent.click(screen.getByRole('button'))
    expect(seen).toHaveLength(3)
    expect(seen[1]).toBe(seen[0])
    expect(seen[2]).toBe(seen[0])
    // The subscription is keyed by the store only: new selectors do not resubscribe.
    expect(counted.total()).toBe(1)
  })

  it('follows a selector that changes, without waiting for the store', () => {
    const store = createAgentStore({ initialState: demoState() })
    store.apply(replace('/document', 'Draft'))
    const { rerender, container } = render(<Probe store={store} selector={(s) => s.state.title} />)
    expect(container.textContent).toBe('Hello')
    rerender(<Probe store={store} selector={(s) => s.state.document} />)
    expect(container.textContent).toBe('Draft')
  })

  it('renders the initial state on the server and hydrates without a mismatch, then shows the current state', () => {
    const errors = vi.spyOn(console, 'error')
    const store = createAgentStore({ initialState: demoState() })
    store.apply(replace('/title', 'Changed on the client'))
    const element = <Probe store={store} selector={(s) => s.state.title} />
    const html = renderToString(element)
    expect(html).toBe('<output>Hello</output>')

    const container = document.body.appendChild(document.createElement('div'))
    container.innerHTML = html
    render(element, { container, hydrate: true })
    expect(container.textContent).toBe('Changed on the client')
    expect(errors).not.toHaveBeenCalled()
  })

  it('holds exactly one core subscription under StrictMode and releases it', () => {
    const store = createAgentStore({ initialState: demoState() })
    const counted = countSubscriptions(store)
    const { unmount, container } = render(
      <StrictMode>
        <Probe store={counted.store} selector={(s) => s.state.title} />
      </StrictMode>,
    )
    expect(counted.active()).toBe(1)
    act(() => store.apply(replace('/title', 'Strict')))
    expect(container.textContent).toBe('Strict')
    unmount()
    expect(counted.active()).toBe(0)
  })

  it('returns the whole snapshot without a selector', () => {
    const store = createAgentStore({ initialState: demoState() })
    const seen: AgentSnapshot<DemoState>[] = []
    function Whole() {
      const snapshot = useAgentStore(store)
      seen.push(snapshot)
      return null
    }
    render(<Whole />)
    act(() => store.apply(replace('/title', 'Next')))
    expect(seen).toEqual([store.getInitialState(), store.getState()])
    expect(seen[1]).toBe(store.getState())
  })
})
