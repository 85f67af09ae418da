import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { ev, rejectionOf } from '../helpers'

// The user's commands pinned through the public API: setState (outside and during a run), and
// the answers (which confirmation, the checks they pass, what they commit and what they send).

type S = Record<string, unknown>
const predict = (stateKey: string, tool: string, toolArgument: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, tool_argument: toolArgument }])
const interrupt = (runId: string, interrupts: Record<string, unknown>[]) => ev.runFinished(runId, 't1', { type: 'interrupt', interrupts })
const done = (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId), ev.runFinished(input.runId)]

describe('setState outside a run', () => {
  it('changes only the keys it touches, removes the ones it drops, and publishes nothing for the same state', () => {
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ initialState: { a: 1, b: { c: 1 } }, onError: (e) => errors.push(e) })
    const before = store.getState()
    store.setState((s) => s)
    expect(store.getState()).toBe(before)
    store.setState((s) => ({ b: s.b, d: 2 }))
    expect(store.getState().state).toStrictEqual({ b: { c: 1 }, d: 2 })
    expect(store.getState().committed).toBe(store.getState().state)
    expect((store.getState().state as S).b).toBe((before.state as S).b)
    expect(errors).toStrictEqual([])
  })

  it('owns what it was given: mutating the argument afterwards changes nothing', () => {
    const store = createAgentStore<S>({ initialState: { list: [1] } })
    const given = { list: [1, 2], o: { x: 1 } }
    store.setState(given)
    given.list.push(3)
    given.o.x = 9
    expect(store.getState().state).toStrictEqual({ list: [1, 2], o: { x: 1 } })
  })

  it('refuses a value that is not JSON, or that a validator refuses, changing nothing', () => {
    const errors: AgentStoreError[] = []
    const validate = (state: unknown) => {
      if ((state as S).n === 13) throw new Error('unlucky')
      return state as S
    }
    const store = createAgentStore<S>({ initialState: { n: 0 }, validate, onError: (e) => errors.push(e) })
    const before = store.getState().state
    store.setState({ n: new Date() })
    store.setState({ n: 13 })
    store.setState(() => {
      throw new Error('from the updater')
    })
    expect(store.getState().state).toBe(before)
    expect(errors.map((e) => [e.code, e.message])).toStrictEqual([
      ['INVALID_STATE', 'setState: a class instance is not JSON'],
      ['VALIDATION', 'State rejected by the validator: unlucky'],
      ['VALIDATION', 'from the updater'],
    ])
    expect(store.getState().error).toBe(errors[2])
  })

  it('an edit of a drafted key takes it over: the draft is gone, the user value committed', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old', n: 0 } })
    store.apply([ev.runStarted('r1'), predict('doc', 'write', 'doc'), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"draft"}'), ev.toolEnd('w1')])
    store.apply(interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]))
    store.setState((s) => ({ ...s, n: 1 }))
    // Editing another key commits nothing of the draft.
    expect(store.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
    expect(store.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['doc'])
    store.setState((s) => ({ ...s, doc: 'mine' }))
    expect(store.getState().state).toStrictEqual({ doc: 'mine', n: 1 })
    expect(store.getState().committed).toStrictEqual({ doc: 'mine', n: 1 })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('a state that is not an object replaces the whole state and every draft', () => {
    const store = createAgentStore<unknown>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted('r1'), predict('doc', 'write', 'doc'), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"draft"}')])
    store.apply(interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]))
    store.setState([1, 2])
    expect(store.getState()).toMatchObject({ state: [1, 2], committed: [1, 2], predictions: [] })
  })
})

describe('setState while a run streams', () => {
  it('keeps the edit over later server changes and sends it with the next run', async () => {
    const store = createAgentStore<S>({ initialState: { a: 0, b: 0 } })
    store.apply([ev.runStarted('r1'), ev.snapshot({ a: 1, b: 0 })])
    store.setState((s) => ({ ...s, b: 5 }))
    store.apply(ev.snapshot({ a: 2, b: 0 }))
    expect(store.getState().state).toStrictEqual({ a: 2, b: 5 })
    store.apply(ev.runFinished('r1'))
    expect(store.getState().state).toStrictEqual({ a: 2, b: 5 })
    expect(store.getState().committed).toBe(store.getState().state)
  })

  it('takes a streaming draft over for the rest of the run', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old', n: 0 } })
    store.apply([ev.runStarted('r1'), predict('doc', 'write', 'doc'), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"dr')])
    store.setState((s) => ({ ...s, doc: 'mine' }))
    store.apply([ev.toolArgs('w1', 'aft"}'), ev.toolEnd('w1')])
    expect(store.getState().state).toStrictEqual({ doc: 'mine', n: 0 })
    expect(store.getState().predictions).toStrictEqual([])
    store.apply(ev.runFinished('r1'))
    expect(store.getState().state).toStrictEqual({ doc: 'mine', n: 0 })
  })

  it('a drafted key the user took over stays the user value over later server values', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old', n: 0 }, onError: () => {} })
    store.apply([ev.runStarted('r1'), predict('doc', 'write', 'doc'), ev.delta({ op: 'replace', path: '/doc', value: 'srv' })])
    store.setState((s) => ({ ...s, doc: 'mine' }))
    store.apply(ev.snapshot({ doc: 'srv2', n: 1 }))
    expect(store.getState().state).toStrictEqual({ doc: 'mine', n: 1 })
    expect(store.getState().predictions).toStrictEqual([])
    store.apply(ev.runFinished('r1'))
    expect(store.getState().committed).toStrictEqual({ doc: 'mine', n: 1 })
  })

  it('a key the user removed stays removed after the next server event', () => {
    const store = createAgentStore<S>({ initialState: { a: 0, b: 0 } })
    store.apply([ev.runStarted('r1')])
    store.setState((s) => ({ a: s.a }))
    store.apply(ev.delta({ op: 'replace', path: '/a', value: 1 }))
    expect(store.getState().state).toStrictEqual({ a: 1 })
    store.apply(ev.runFinished('r1'))
    expect(store.getState().state).toStrictEqual({ a: 1 })
  })
})

/** A store whose first run ends with the given interrupts after drafting doc (mapped by `argument`). */
async function withConfirmations(interrupts: Record<string, unknown>[], argument = 'doc', options: { validate?: (s: unknown) => S } = {}) {
  const agent = new ScriptedAgent({
    runs: [
      (input) => [
        ev.runStarted(input.runId),
        predict('doc', 'write', argument),
        ev.toolStart('w1', 'write', 'm1'),
        ev.toolArgs('w1', argument === '*' ? '{"title":"t","body":"b"}' : '{"doc":"draft"}'),
        ev.toolEnd('w1'),
        interrupt(input.runId, interrupts),
      ],
      done,
    ],
  })
  const store = createAgentStore<S>({ agent, initialState: { doc: 'old' }, ...options })
  await store.run({ tools: [{ name: 't', description: 'd', parameters: {} }], context: [{ description: 'c', value: 'v' }], forwardedProps: { p: 1 } })
  return { agent, store }
}

const refusal = rejectionOf

describe('answers', () => {
  it('without an id, answer the only open confirmation; with several, say how many', async () => {
    const one = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
    await one.store.approve()
    expect(one.agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
    const two = await withConfirmations([
      { id: 'i1', reason: 'tool_call', toolCallId: 'w1' },
      { id: 'i2', reason: 'input_required' },
    ])
    expect(await refusal(two.store.approve())).toStrictEqual({ code: 'NO_CONFIRMATION', message: '2 confirmations are open: pass the id of the one to answer' })
    expect(await refusal(two.store.approve({ id: 'nope' }))).toStrictEqual({ code: 'NO_CONFIRMATION', message: 'No open confirmation has the id "nope"' })
    const none = createAgentStore<S>({ initialState: {} })
    expect(await refusal(none.approve())).toStrictEqual({ code: 'NO_CONFIRMATION', message: 'There is no open confirmation to answer' })
  })

  it('the first of two answers sends nothing; the second sends both with the run options of the run it resumes', async () => {
    const { agent, store } = await withConfirmations([
      { id: 'i1', reason: 'tool_call', toolCallId: 'w1' },
      { id: 'i2', reason: 'input_required' },
    ])
    await store.approve({ id: 'i1' })
    expect(agent.inputs).toHaveLength(1)
    expect(store.getState()).toMatchObject({ status: 'interrupted', committed: { doc: 'draft' } })
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i2'])
    await store.respond({ id: 'i2', payload: { name: 'Ada' } })
    const input = agent.inputs[1]!
    expect(input.resume).toStrictEqual([
      { interruptId: 'i1', status: 'resolved', payload: { accepted: true } },
      { interruptId: 'i2', status: 'resolved', payload: { name: 'Ada' } },
    ])
    expect(input.tools).toStrictEqual([{ name: 't', description: 'd', parameters: {} }])
    expect(input.context).toStrictEqual([{ description: 'c', value: 'v' }])
    expect(input.forwardedProps).toStrictEqual({ p: 1 })
  })

  it('run options given with an answer replace those of the resumed run, each on its own', async () => {
    const { agent, store } = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
    await store.approve({ id: 'i1', context: [] })
    const input = agent.inputs[1]!
    expect(input.context).toStrictEqual([])
    expect(input.tools).toStrictEqual([{ name: 't', description: 'd', parameters: {} }])
    expect(input.forwardedProps).toStrictEqual({ p: 1 })
    const other = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
    await other.store.reject({ id: 'i1', tools: [], forwardedProps: { q: 2 } })
    expect(other.agent.inputs[1]!.tools).toStrictEqual([])
    expect(other.agent.inputs[1]!.forwardedProps).toStrictEqual({ q: 2 })
    expect(other.agent.inputs[1]!.context).toStrictEqual([{ description: 'c', value: 'v' }])
  })

  it('approve edits replace the mapped argument, or merge into a whole-arguments draft', async () => {
    const mapped = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
    await mapped.store.approve({ id: 'i1', edits: { doc: 'edited', other: 1 } })
    expect(mapped.agent.inputs[1]!.state).toStrictEqual({ doc: 'edited' })
    const unmapped = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
    await unmapped.store.approve({ id: 'i1', edits: { other: 1 } })
    expect(unmapped.agent.inputs[1]!.state).toStrictEqual({ doc: 'draft' })
    const whole = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }], '*')
    await whole.store.approve({ id: 'i1', edits: { body: 'B' } })
    expect(whole.agent.inputs[1]!.state).toStrictEqual({ doc: { title: 't', body: 'B' } })
  })

  it('reject and cancel discard the governed drafts', async () => {
    for (const answer of ['reject', 'cancel'] as const) {
      const { agent, store } = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
      await store[answer]({ id: 'i1' })
      expect(agent.inputs[1]!.state).toStrictEqual({ doc: 'old' })
      expect(store.getState()).toMatchObject({ status: 'idle', state: { doc: 'old' }, committed: { doc: 'old' }, predictions: [] })
    }
  })

  it('refuses edits and payloads that are not JSON objects within the limits, changing nothing', async () => {
    const { agent, store } = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
    const before = store.getState()
    expect((await refusal(store.approve({ id: 'i1', edits: { doc: new Date() } })))?.code).toBe('INVALID_ANSWER')
    expect(await refusal(store.approve({ id: 'i1', edits: ['x'] as unknown as Record<string, unknown> }))).toStrictEqual({
      code: 'INVALID_ANSWER',
      message: 'approve() edits must be an object keyed like the tool arguments',
    })
    expect(await refusal(store.respond({ id: 'i1', payload: undefined }))).toStrictEqual({ code: 'INVALID_ANSWER', message: 'respond() needs a JSON payload' })
    expect((await refusal(store.respond({ id: 'i1', payload: { f: () => 1 } })))?.code).toBe('INVALID_ANSWER')
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
  })

  it('refuses an approve whose edits the validator refuses, changing nothing', async () => {
    const validate = (state: unknown) => {
      if ((state as S).doc === 'bad') throw new Error('no bad docs')
      return state as S
    }
    const { agent, store } = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }], 'doc', { validate })
    const before = store.getState()
    expect(await refusal(store.approve({ id: 'i1', edits: { doc: 'bad' } }))).toStrictEqual({
      code: 'VALIDATION',
      message: 'State rejected by the validator: no bad docs',
    })
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
  })

  it('refuses an approve whose edits would take the committed state past maxStateBytes', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          predict('doc', 'write', 'doc'),
          ev.toolStart('w1', 'write', 'm1'),
          ev.toolArgs('w1', '{"doc":"d"}'),
          ev.toolEnd('w1'),
          interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
        ],
        done,
      ],
    })
    const store = createAgentStore<S>({ agent, initialState: { doc: '', pad: 'x'.repeat(40) }, limits: { maxStateBytes: 80 } })
    await store.run()
    const before = store.getState()
    const refused = await refusal(store.approve({ id: 'i1', edits: { doc: 'y'.repeat(40) } }))
    expect(refused?.code).toBe('LIMIT_EXCEEDED')
    expect(store.getState()).toBe(before)
    await store.approve({ id: 'i1', edits: { doc: 'short' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ doc: 'short', pad: 'x'.repeat(40) })
  })

  it('an expired confirmation can only be cancelled', async () => {
    const { agent, store } = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1', expiresAt: '2000-01-01T00:00:00Z' }])
    expect(await refusal(store.approve({ id: 'i1' }))).toStrictEqual({
      code: 'EXPIRED',
      message: 'The confirmation "i1" expired at 2000-01-01T00:00:00Z: it can only be cancelled',
    })
    await store.cancel({ id: 'i1' })
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'cancelled' }])
  })

  it('owns the payload: mutating it after respond() changes nothing sent', async () => {
    const agent = new ScriptedAgent({
      runs: [(input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'i1', reason: 'input_required' }])], done],
      delay: 1,
    })
    const store = createAgentStore<S>({ agent, initialState: {} })
    await store.run()
    const payload = { list: [1] }
    const answered = store.respond({ id: 'i1', payload })
    payload.list.push(2)
    await answered
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { list: [1] } }])
  })

  it('an on_interrupt answer keeps the resumed run forwardedProps and adds the command', async () => {
    const agent = new ScriptedAgent({
      runs: [(input) => [ev.runStarted(input.runId), ev.custom('on_interrupt', '{"q":1}'), ev.runFinished(input.runId)], done],
    })
    const store = createAgentStore<S>({ agent, initialState: {} })
    await store.run({ forwardedProps: { p: 1, command: { goto: 'x' } } })
    await store.approve()
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ p: 1, command: { goto: 'x', resume: { accepted: true } } })
    const plain = new ScriptedAgent({
      runs: [(input) => [ev.runStarted(input.runId), ev.custom('on_interrupt', '{"q":1}'), ev.runFinished(input.runId)], done],
    })
    const other = createAgentStore<S>({ agent: plain, initialState: {} })
    await other.run({ forwardedProps: 'text' })
    await other.respond({ payload: 'yes' })
    expect(plain.inputs[1]!.forwardedProps).toStrictEqual({ command: { resume: 'yes' } })
  })

  it('without an agent an answer is applied and nothing is sent', async () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted('r1'), predict('doc', 'write', 'doc'), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"draft"}')])
    store.apply(interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]))
    await store.approve({ id: 'i1' })
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], state: { doc: 'draft' }, committed: { doc: 'draft' } })
  })
})
