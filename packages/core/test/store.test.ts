import { describe, expect, it } from 'vitest'
import { AgentStoreError, createAgentStore } from '../src'
import { ev, recordedStore } from './helpers'
import { rowsState } from './support/scenarios'

describe('snapshot identity', () => {
  it('starts from the initial state and keeps the same snapshot until something changes', () => {
    const initialState = rowsState()
    const store = createAgentStore({ initialState, threadId: 'thread-1' })
    const first = store.getState()
    expect(first).toBe(store.getInitialState())
    expect(first.state).toBe(initialState)
    expect(first.committed).toBe(initialState)
    expect(first).toMatchObject({ status: 'idle', steps: [], messages: [], threadId: 'thread-1', runId: undefined, error: undefined })
    expect(store.getState()).toBe(first)
  })

  it('takes the agent thread id, else makes one', () => {
    expect(createAgentStore({ initialState: {} }).getState().threadId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('rejects a bad initial state synchronously', () => {
    expect(() => createAgentStore({ initialState: { f: () => 1 } })).toThrow(AgentStoreError)
  })
})

describe('events', () => {
  it('rejects a malformed event with INVALID_EVENT and changes nothing', () => {
    const { store, published } = recordedStore({ initialState: { a: 1 } })
    store.apply({ type: 'STATE_DELTA', delta: 'nope' } as never)
    expect(store.getState().error).toMatchObject({ code: 'INVALID_EVENT', eventType: 'STATE_DELTA' })
    expect(store.getState().state).toEqual({ a: 1 })
    store.apply(null as never)
    expect(published).toHaveLength(2)
  })

  it('ignores event types it does not know', () => {
    const { store, published } = recordedStore({ initialState: { a: 1 } })
    store.apply({ type: 'FUTURE_EVENT', payload: 1 } as never)
    expect(published).toHaveLength(0)
  })

  it('hands every accepted event, CUSTOM included, to event listeners', () => {
    const store = createAgentStore({ initialState: {} })
    const seen: string[] = []
    const stop = store.onEvent((event) => seen.push(event.type === 'CUSTOM' ? `CUSTOM:${(event as unknown as { name: string }).name}` : event.type))
    store.apply([ev.custom('PredictState', []), ev.snapshot({ x: 1 }), { type: 'UNKNOWN' } as never])
    stop()
    store.apply(ev.custom('later', 1))
    // An event type from a newer protocol is ignored, but listeners still see it.
    expect(seen).toEqual(['CUSTOM:PredictState', 'STATE_SNAPSHOT', 'UNKNOWN'])
  })
})

describe('lifecycle', () => {
  it('tracks status, run id and open steps', () => {
    const { store } = recordedStore({ initialState: {} })
    store.apply([ev.runStarted('run-1'), ev.stepStarted('plan'), ev.stepStarted('write')])
    expect(store.getState()).toMatchObject({ status: 'running', runId: 'run-1', steps: ['plan', 'write'] })
    store.apply(ev.stepFinished('plan'))
    expect(store.getState().steps).toEqual(['write'])
    store.apply(ev.runFinished('run-1'))
    expect(store.getState()).toMatchObject({ status: 'idle', steps: [] })
  })

  it('is interrupted when a run ends with interrupts', () => {
    const { store } = recordedStore({ initialState: {} })
    store.apply([ev.runStarted(), ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_call' }] })])
    expect(store.getState().status).toBe('interrupted')
  })

  it("keeps the server's code and message on RUN_ERROR", () => {
    const { store } = recordedStore({ initialState: { a: 1 } })
    store.apply([ev.runStarted(), ev.snapshot({ a: 2 }), ev.runError('Approval was cancelled', 'APPROVAL_RESUME_CANCELLED')])
    expect(store.getState()).toMatchObject({
      status: 'error',
      error: { code: 'RUN_ERROR', message: 'Approval was cancelled', serverCode: 'APPROVAL_RESUME_CANCELLED' },
    })
    // A failed run changes nothing the user had: the server's change during it is rolled back.
    expect(store.getState().state).toEqual({ a: 1 })
  })
})

describe('listeners', () => {
  it('isolates a throwing listener and reports it', () => {
    const { store, errors } = recordedStore({ initialState: { n: 0 } })
    const seen: number[] = []
    store.subscribe(() => {
      throw new Error('boom')
    })
    store.subscribe((snapshot) => seen.push(snapshot.state.n))
    store.apply(ev.snapshot({ n: 1 }))
    store.apply(ev.snapshot({ n: 2 }))
    expect(seen).toEqual([1, 2])
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatchObject({ code: 'LISTENER' })
    expect(store.getState().state.n).toBe(2)
  })

  it('lets a listener unsubscribe another during a notification', () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const calls: string[] = []
    let stopB = () => {}
    store.subscribe(() => {
      calls.push('a')
      stopB()
    })
    stopB = store.subscribe(() => calls.push('b'))
    store.apply(ev.snapshot({ n: 1 }))
    store.apply(ev.snapshot({ n: 2 }))
    expect(calls).toEqual(['a', 'a'])
  })

  it('passes the snapshot and the previous one', () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const pairs: [number, number][] = []
    store.subscribe((snapshot, previous) => pairs.push([previous.state.n, snapshot.state.n]))
    store.apply([ev.snapshot({ n: 1 }), ev.snapshot({ n: 2 })])
    expect(pairs).toEqual([
      [0, 1],
      [1, 2],
    ])
  })

  it('notifies after every event, never skipping an intermediate value', () => {
    const { store, published } = recordedStore({ initialState: { d: '' } })
    store.apply(['a', 'ab', 'abc'].map((value) => ev.delta({ op: 'replace', path: '/d', value })))
    expect(published.map((s) => s.state.d)).toEqual(['a', 'ab', 'abc'])
  })
})

describe('setState and reset', () => {
  it('edits state locally, sharing what did not change', () => {
    const store = createAgentStore({ initialState: rowsState() })
    const before = store.getState().state
    store.setState((prev) => ({ ...prev, title: 'edited' }))
    const after = store.getState()
    expect(after.state.title).toBe('edited')
    expect(after.committed).toBe(after.state)
    expect(after.state.rows).toBe(before.rows)
  })

  it('refuses a non-JSON edit and keeps the state', () => {
    const { store } = recordedStore({ initialState: { n: 1 } })
    store.setState({ n: Number.NaN })
    expect(store.getState()).toMatchObject({ state: { n: 1 }, error: { code: 'INVALID_STATE' } })
  })

  it('starts a new thread on reset when asked, and sends it with the next run', async () => {
    const { ScriptedAgent } = await import('../src/testing')
    const agent = new ScriptedAgent({
      threadId: 'first',
      runs: [(input) => [ev.runStarted(input.runId, input.threadId), ev.runFinished(input.runId, input.threadId)]],
    })
    const store = createAgentStore({ agent, initialState: { n: 0 } })
    await store.run({ message: 'one' })
    store.reset(undefined, { newThread: true })
    const { threadId, messages, state } = store.getState()
    expect(threadId).not.toBe('first')
    expect(messages).toEqual([])
    expect(state).toBe(store.getInitialState().state)
    await store.run({ message: 'two' })
    expect(agent.inputs.map((input) => input.threadId)).toEqual(['first', threadId])
  })

  it('resets to the initial snapshot or to a given state', () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    store.apply([ev.runStarted(), ev.textStart('m1'), ev.snapshot({ n: 5 })])
    store.reset()
    expect(store.getState()).toBe(store.getInitialState())
    store.reset({ n: 9 })
    expect(store.getState()).toMatchObject({ state: { n: 9 }, committed: { n: 9 }, messages: [], status: 'idle' })
  })
})
