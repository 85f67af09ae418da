import { EventType } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { connectReduxDevtools, type ReduxDevtoolsMessage } from '@agent-state/devtools'
import { afterEach, describe, expect, it, vi } from 'vitest'

/** The extension's documented API (connect → init, send, subscribe), as a page sees it; records what it is given. */
function installExtension() {
  const sent: { action: { type: string; payload?: unknown }; state: unknown }[] = []
  const inits: unknown[] = []
  const connected: unknown[] = []
  let listener: ((message: ReduxDevtoolsMessage) => void) | undefined
  let unsubscribed = 0
  ;(globalThis as Record<string, unknown>).__REDUX_DEVTOOLS_EXTENSION__ = {
    connect(options: unknown) {
      connected.push(options)
      return {
        init: (state: unknown) => inits.push(state),
        send: (action: { type: string; payload?: unknown }, state: unknown) => sent.push({ action, state }),
        subscribe(next: (message: ReduxDevtoolsMessage) => void) {
          listener = next
          return () => {
            unsubscribed++
            listener = undefined
          }
        },
      }
    },
  }
  return {
    sent,
    inits,
    connected,
    dispatch: (message: ReduxDevtoolsMessage) => listener?.(message),
    unsubscribed: () => unsubscribed,
  }
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>).__REDUX_DEVTOOLS_EXTENSION__
})

const delta = (n: number) => ({ type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/n', value: n }] }) as const

describe('connectReduxDevtools', () => {
  it('does nothing without the extension', () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const disconnect = connectReduxDevtools(store, { name: 'chat' })
    store.apply(delta(1))
    expect(store.getState().state).toEqual({ n: 1 })
    expect(() => disconnect()).not.toThrow()
  })

  it('sends each input as an action with the snapshot after it as the state', () => {
    const extension = installExtension()
    const store = createAgentStore({ initialState: { n: 0 } })
    connectReduxDevtools(store, { name: 'chat', throttleMs: 0 })
    expect(extension.connected).toEqual([{ name: 'chat', maxAge: 50 }])
    expect(extension.inits).toEqual([store.getInitialState()])
    store.apply(delta(1))
    store.setState({ n: 7 })
    expect(extension.sent.map((s) => s.action.type)).toEqual(['event/STATE_DELTA', 'setState'])
    expect(extension.sent[0]!.action.payload).toEqual({ type: 'event', event: delta(1) })
    expect(extension.sent[1]!.state).toBe(store.getState())
    expect((extension.sent[0]!.state as { state: unknown }).state).toEqual({ n: 1 })
  })

  it('follows JUMP_TO_ACTION and JUMP_TO_STATE, without sending the jump as an action', () => {
    const extension = installExtension()
    const store = createAgentStore({ initialState: { n: 0 } })
    connectReduxDevtools(store, { throttleMs: 0 })
    store.apply([delta(1), delta(2), delta(3)])
    const afterFirst = extension.sent[0]!.state
    extension.dispatch({ type: 'DISPATCH', payload: { type: 'JUMP_TO_ACTION', actionId: 1 }, state: '{}' })
    expect(store.getState()).toBe(afterFirst)
    extension.dispatch({ type: 'DISPATCH', payload: { type: 'JUMP_TO_STATE', actionId: 0, index: 0 }, state: '{}' })
    expect(store.getState()).toBe(store.getInitialState())
    extension.dispatch({ type: 'DISPATCH', payload: { type: 'JUMP_TO_STATE', actionId: 3, index: 3 }, state: '{}' })
    expect(store.getState().state).toEqual({ n: 3 })
    // Messages it does not follow, and ids it no longer holds, change nothing.
    extension.dispatch({ type: 'DISPATCH', payload: { type: 'COMMIT' } })
    extension.dispatch({ type: 'DISPATCH', payload: { type: 'JUMP_TO_ACTION', actionId: 99 } })
    extension.dispatch({ type: 'START' })
    expect(store.getState().state).toEqual({ n: 3 })
    expect(extension.sent).toHaveLength(3)
  })

  it('keeps the models of the last maxAge actions only', () => {
    const extension = installExtension()
    const store = createAgentStore({ initialState: { n: 0 } })
    connectReduxDevtools(store, { maxAge: 2, throttleMs: 0 })
    store.apply([delta(1), delta(2), delta(3), delta(4)])
    extension.dispatch({ type: 'DISPATCH', payload: { type: 'JUMP_TO_ACTION', actionId: 1 } })
    expect(store.getState().state).toEqual({ n: 4 })
    extension.dispatch({ type: 'DISPATCH', payload: { type: 'JUMP_TO_ACTION', actionId: 3 } })
    expect(store.getState().state).toEqual({ n: 3 })
  })

  it('sends the inputs of a burst as one action, by default within 16 ms, and jumps to the end of it', () => {
    vi.useFakeTimers()
    const extension = installExtension()
    const store = createAgentStore({ initialState: { n: 0 } })
    connectReduxDevtools(store)
    store.apply([delta(1), delta(2), delta(3)])
    store.setState({ n: 9 })
    expect(extension.sent).toEqual([])
    vi.advanceTimersByTime(16)
    expect(extension.sent.map((s) => s.action.type)).toEqual(['event/STATE_DELTA ×3, setState'])
    expect(extension.sent[0]!.action.payload).toHaveLength(4)
    expect(extension.sent[0]!.state).toBe(store.getState())
    store.apply(delta(4))
    // A jump first sends what was waiting.
    extension.dispatch({ type: 'DISPATCH', payload: { type: 'JUMP_TO_ACTION', actionId: 1 } })
    expect(extension.sent.map((s) => s.action.type)).toEqual(['event/STATE_DELTA ×3, setState', 'event/STATE_DELTA'])
    expect(store.getState().state).toEqual({ n: 9 })
    vi.useRealTimers()
  })

  it('disconnects: no more actions, the extension unsubscribed', () => {
    const extension = installExtension()
    const store = createAgentStore({ initialState: { n: 0 } })
    const disconnect = connectReduxDevtools(store)
    disconnect()
    store.apply(delta(1))
    expect(extension.sent).toEqual([])
    expect(extension.unsubscribed()).toBe(1)
  })
})
