// Answering confirmations: which confirmation an answer answers, what approve() edits do, the
// answers refused before anything changes, and the run options a resumed run is sent with.
import { describe, expect, it } from 'vitest'
import { AgentStoreError, createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev, rejectionOf } from './helpers'
import {
  byInterrupt,
  call,
  type Doc,
  interrupt,
  interruptOnW1,
  predict,
  scripted,
  settled,
  storeWithErrors,
  writeDocument,
  writerAgent,
} from './support/scenarios'

/** A store whose first run ends with the given interrupts after drafting doc (mapped by `argument`). */
async function withConfirmations(interrupts: Record<string, unknown>[], argument = 'doc', options: { validate?: (s: unknown) => Doc } = {}) {
  const agent = scripted((runId) => [
    predict('doc', 'write', argument),
    ev.toolStart('w1', 'write', 'm1'),
    ev.toolArgs('w1', argument === '*' ? '{"title":"t","body":"b"}' : '{"doc":"draft"}'),
    ev.toolEnd('w1'),
    interrupt(runId, interrupts),
  ])
  const store = createAgentStore<Doc>({ agent, initialState: { doc: 'old' }, ...options })
  await store.run({ tools: [{ name: 't', description: 'd', parameters: {} }], context: [{ description: 'c', value: 'v' }], forwardedProps: { p: 1 } })
  return { agent, store }
}

describe('which confirmation an answer answers', () => {
  it('without an id, answer the only open confirmation; with several, say how many', async () => {
    const one = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
    await one.store.approve()
    expect(one.agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
    const two = await withConfirmations([
      { id: 'i1', reason: 'tool_call', toolCallId: 'w1' },
      { id: 'i2', reason: 'input_required' },
    ])
    expect(await rejectionOf(two.store.approve())).toStrictEqual({
      code: 'NO_CONFIRMATION',
      message: '2 confirmations are open: pass the id of the one to answer',
    })
    expect(await rejectionOf(two.store.approve({ id: 'nope' }))).toStrictEqual({ code: 'NO_CONFIRMATION', message: 'No open confirmation has the id "nope"' })
    const none = createAgentStore<Doc>({ initialState: {} })
    expect(await rejectionOf(none.approve())).toStrictEqual({ code: 'NO_CONFIRMATION', message: 'There is no open confirmation to answer' })
  })

  it('an expired confirmation can only be cancelled', async () => {
    const { agent, store } = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1', expiresAt: '2000-01-01T00:00:00Z' }])
    expect(await rejectionOf(store.approve({ id: 'i1' }))).toStrictEqual({
      code: 'EXPIRED',
      message: 'The confirmation "i1" expired at 2000-01-01T00:00:00Z: it can only be cancelled',
    })
    await store.cancel({ id: 'i1' })
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'cancelled' }])
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

  it('cancelling an interrupt that names no call, then approving the one naming w1, commits w1’s draft and sends it', async () => {
    const agent = writerAgent((input) => [
      interrupt(input.runId, [
        { id: 'a', reason: 'tool_call', toolCallId: 'w1' },
        { id: 'b', reason: 'input_required' },
      ]),
    ])
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    await store.run()
    expect(store.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([
      ['a', ['document']],
      ['b', []],
    ])
    await store.cancel({ id: 'b' })
    expect(store.getState().state).toStrictEqual({ document: 'draft text' })
    await store.approve({ id: 'a' })
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'draft text' })
    expect(byInterrupt(agent.inputs[1]!.resume)).toStrictEqual([
      { interruptId: 'a', status: 'resolved', payload: { accepted: true } },
      { interruptId: 'b', status: 'cancelled' },
    ])
  })

  it('reject and cancel discard the governed drafts', async () => {
    for (const answer of ['reject', 'cancel'] as const) {
      const { agent, store } = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
      await store[answer]({ id: 'i1' })
      expect(agent.inputs[1]!.state).toStrictEqual({ doc: 'old' })
      expect(store.getState()).toMatchObject({ status: 'idle', state: { doc: 'old' }, committed: { doc: 'old' }, predictions: [] })
    }
  })

  it('a rejected draft of a key that did not exist leaves the key absent, not undefined, in state, committed and the next input', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { other: 1 } })
    await store.run()
    expect(store.getState().state).toStrictEqual({ other: 1, document: 'draft text' })
    expect(store.getState().committed).toStrictEqual({ other: 1 })
    await store.reject()
    expect(agent.inputs[1]!.state).toStrictEqual({ other: 1 })
    expect(store.getState().state).toStrictEqual({ other: 1 })
    expect(Object.hasOwn(store.getState().committed as object, 'document')).toBe(false)
  })

  it('without an agent an answer applies locally: the draft committed, nothing sent, the promise resolves', async () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([ev.runStarted('r1'), ...writeDocument(), interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])])
    expect(await settled(store.approve())).toBe('resolved')
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], predictions: [] })
    expect(store.getState().committed).toStrictEqual({ document: 'draft text' })
  })

  it('a result for an answered call no message shows is dropped, beside an answer that names no call', async () => {
    const errors: AgentStoreError[] = []
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          ev.runFinished(input.runId, 't1', {
            type: 'interrupt',
            interrupts: [
              { id: 'i1', reason: 'tool_call', toolCallId: 'hidden' },
              { id: 'i2', reason: 'input_required' },
            ],
          }),
        ],
        (input) => [ev.runStarted(input.runId), ev.toolResult('res', 'hidden', '{"ok":true}'), ev.runFinished(input.runId)],
      ],
    })
    const s = createAgentStore<Doc>({ agent, initialState: {}, onError: (e) => errors.push(e) })
    await s.run()
    await s.approve({ id: 'i2' })
    await s.approve({ id: 'i1' })
    expect(errors.map((e) => [e.code, e.reason])).toStrictEqual([['INVALID_EVENT', 'orphan-result']])
    expect(s.getState().messages.filter((m) => m.role === 'tool')).toStrictEqual([])
  })
})

describe('approve() edits', () => {
  it('replace the mapped argument, or merge into a whole-arguments draft', async () => {
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

  it('on a draft the server deltas wrote replace the mapped argument: state.document is the edit, not { document: edit }', async () => {
    const agent = scripted((runId) => [
      predict('document', 'write_document', 'document'),
      ev.delta({ op: 'replace', path: '/document', value: 'server draft' }),
      interrupt(runId, [{ id: 'i1', reason: 'tool_call' }]),
    ])
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    await store.run()
    expect(store.getState().state).toStrictEqual({ document: 'server draft' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().confirmations[0]!.stateKeys).toStrictEqual(['document'])
    await store.approve({ id: 'i1', edits: { document: 'edited' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'edited' })
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { document: 'edited', accepted: true } }])
    expect(store.getState().committed).toStrictEqual({ document: 'edited' })
  })

  it('merge into the object only under a `*` mapping; under a named argument they replace the value', async () => {
    const agent = scripted((runId) => [
      ev.custom('PredictState', [
        { state_key: 'recipe', tool: 'update_recipe', tool_argument: '*' },
        { state_key: 'title', tool: 'update_recipe', tool_argument: 'title' },
      ]),
      ev.toolStart('u1', 'update_recipe'),
      ev.toolArgs('u1', JSON.stringify({ title: 'Soup', servings: 2 })),
      ev.toolEnd('u1'),
      interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'u1' }]),
    ])
    const store = createAgentStore<Doc>({ agent, initialState: { recipe: { title: 'Old', servings: 1 }, title: 'Old' } })
    await store.run()
    expect(store.getState().state).toStrictEqual({ recipe: { title: 'Soup', servings: 2 }, title: 'Soup' })
    await store.approve({ edits: { title: 'Stew' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ recipe: { title: 'Stew', servings: 2 }, title: 'Stew' })
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { title: 'Stew', accepted: true } }])
  })

  it('merge into the object under a mapping without tool_argument (the whole arguments)', async () => {
    const agent = scripted((runId) => [
      ev.custom('PredictState', [{ state_key: 'recipe', tool: 'update_recipe' }]),
      ev.toolStart('u1', 'update_recipe'),
      ev.toolArgs('u1', JSON.stringify({ title: 'Soup', servings: 2 })),
      ev.toolEnd('u1'),
      interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'u1' }]),
    ])
    const store = createAgentStore<Doc>({ agent, initialState: { recipe: { title: 'Old', servings: 1 } } })
    await store.run()
    expect(store.getState().state).toStrictEqual({ recipe: { title: 'Soup', servings: 2 } })
    await store.approve({ edits: { title: 'Stew' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ recipe: { title: 'Stew', servings: 2 } })
  })

  it('merge into a draft the server wrote under a whole-arguments mapping too', async () => {
    const agent = scripted((runId) => [
      ev.custom('PredictState', [{ state_key: 'recipe', tool: 'update_recipe', tool_argument: '*' }]),
      ev.delta({ op: 'replace', path: '/recipe', value: { title: 'Soup', servings: 2 } }),
      interrupt(runId, [{ id: 'i1', reason: 'tool_call' }]),
    ])
    const store = createAgentStore<Doc>({ agent, initialState: { recipe: { title: 'Old', servings: 1 } } })
    await store.run()
    expect(store.getState().confirmations[0]!.stateKeys).toStrictEqual(['recipe'])
    await store.approve({ edits: { title: 'Stew' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ recipe: { title: 'Stew', servings: 2 } })
  })

  it('two arguments mapped to one key: the later mapping’s argument is the one the edits set', async () => {
    const { store: s } = storeWithErrors({ doc: 'old' }, { confirmTools: ['confirm'] })
    s.apply([ev.runStarted(), predict('doc', 'write', 'a'), predict('doc', 'write', 'b'), ...call('c1', 'write', '{"a":"x","b":"y"}')])
    expect(s.getState().state).toStrictEqual({ doc: 'y' })
    s.apply([...call('k1', 'confirm', '{"function_call_id":"c1"}'), ev.runFinished()])
    await s.approve({ id: 'k1', edits: { a: 'A', b: 'B' } })
    expect(s.getState().state).toStrictEqual({ doc: 'B' })
  })
})

describe('answers refused before anything changes', () => {
  it('refuses edits and payloads that are not JSON objects within the limits, changing nothing', async () => {
    const { agent, store } = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])
    const before = store.getState()
    expect((await rejectionOf(store.approve({ id: 'i1', edits: { doc: new Date() } })))?.code).toBe('INVALID_ANSWER')
    expect(await rejectionOf(store.approve({ id: 'i1', edits: ['x'] as unknown as Record<string, unknown> }))).toStrictEqual({
      code: 'INVALID_ANSWER',
      message: 'approve() edits must be an object keyed like the tool arguments',
    })
    expect(await rejectionOf(store.respond({ id: 'i1', payload: undefined }))).toStrictEqual({
      code: 'INVALID_ANSWER',
      message: 'respond() needs a JSON payload',
    })
    expect((await rejectionOf(store.respond({ id: 'i1', payload: { f: () => 1 } })))?.code).toBe('INVALID_ANSWER')
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
  })

  it('respond({ id, payload: undefined }) on a confirm_changes call is refused (INVALID_ANSWER): nothing changed, nothing sent', async () => {
    const agent = writerAgent((input) => [
      ev.toolStart('cc1', 'confirm_changes', 'm1'),
      ev.toolArgs('cc1', JSON.stringify({ function_call_id: 'w1' })),
      ev.toolEnd('cc1'),
      ev.runFinished(input.runId),
    ])
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    await store.run()
    const before = store.getState()
    expect(before.confirmations.map((c) => c.id)).toStrictEqual(['cc1'])
    await expect(store.respond({ id: 'cc1', payload: undefined })).rejects.toMatchObject({ code: 'INVALID_ANSWER' })
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
    await store.respond({ id: 'cc1', payload: { accepted: true } })
    const tool = agent.inputs[1]!.messages.filter((m) => m.role === 'tool')
    expect(tool.map((m) => [m.toolCallId, m.content])).toStrictEqual([['cc1', '{"accepted":true}']])
  })

  it('respond(): a payload that is not JSON (a Date, a function, NaN, a class instance) is refused (INVALID_ANSWER); a JSON string becomes a tool message holding its JSON', async () => {
    class Point {
      x = 1
    }
    for (const payload of [new Date(0), () => 1, Number.NaN, new Point(), { nested: undefined }]) {
      const agent = writerAgent((input) => [ev.toolStart('cc1', 'confirm_changes'), ev.toolEnd('cc1'), ev.runFinished(input.runId)])
      const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
      await store.run()
      const before = store.getState()
      const refused = await store.respond({ id: 'cc1', payload }).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused).toBeInstanceOf(AgentStoreError)
      expect(refused).toMatchObject({ code: 'INVALID_ANSWER' })
      expect(store.getState()).toBe(before)
      expect(agent.inputs).toHaveLength(1)
    }
    const agent = writerAgent((input) => [ev.toolStart('cc1', 'confirm_changes'), ev.toolEnd('cc1'), ev.runFinished(input.runId)])
    const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
    await store.run()
    await store.respond({ id: 'cc1', payload: 'plain text' })
    expect(agent.inputs[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toStrictEqual(['"plain text"'])
  })

  it('approve() edits holding a Date are refused (INVALID_ANSWER): committed stays JSON and later setState works', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run()
    const before = store.getState()
    await expect(store.approve({ edits: { document: new Date(0) } })).rejects.toMatchObject({ code: 'INVALID_ANSWER' })
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
    await store.approve({ edits: { document: 'fine' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'fine' })
    store.setState((s) => ({ ...s, title: 'x' }))
    expect(store.getState().committed).toStrictEqual({ document: 'fine', title: 'x' })
    expect(store.getState().error).toBeUndefined()
  })

  it('approve() edits that are not an object keyed like the arguments are refused (INVALID_ANSWER)', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run()
    const before = store.getState()
    for (const edits of [['x'], 'text', 42]) {
      await expect(store.approve({ edits: edits as unknown as Record<string, unknown> })).rejects.toMatchObject({ code: 'INVALID_ANSWER' })
    }
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
  })

  it('refuses an approve whose edits the validator refuses: nothing changes, nothing is sent, and a later approve goes through', async () => {
    const validate = (state: unknown) => {
      if ((state as Doc).doc === 'bad') throw new Error('no bad docs')
      return state as Doc
    }
    const { agent, store } = await withConfirmations([{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }], 'doc', { validate })
    const before = store.getState()
    expect(await rejectionOf(store.approve({ id: 'i1', edits: { doc: 'bad' } }))).toStrictEqual({
      code: 'VALIDATION',
      message: 'State rejected by the validator: no bad docs',
    })
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
    await store.approve({ id: 'i1' })
    expect(agent.inputs[1]!.state).toStrictEqual({ doc: 'draft' })
  })

  it('refuses an approve whose edits would take the committed state past maxStateBytes', async () => {
    const agent = scripted((runId) => [
      predict('doc', 'write', 'doc'),
      ev.toolStart('w1', 'write', 'm1'),
      ev.toolArgs('w1', '{"doc":"d"}'),
      ev.toolEnd('w1'),
      interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
    ])
    const store = createAgentStore<Doc>({ agent, initialState: { doc: '', pad: 'x'.repeat(40) }, limits: { maxStateBytes: 80 } })
    await store.run()
    const before = store.getState()
    const refused = await rejectionOf(store.approve({ id: 'i1', edits: { doc: 'y'.repeat(40) } }))
    expect(refused?.code).toBe('LIMIT_EXCEEDED')
    expect(store.getState()).toBe(before)
    await store.approve({ id: 'i1', edits: { doc: 'short' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ doc: 'short', pad: 'x'.repeat(40) })
  })
})

describe('the run options of a resumed run', () => {
  it('are those of the run it resumes: tools, context and forwardedProps', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore({ agent, initialState: { document: '' } })
    const tools = [{ name: 'pick_color', description: 'Pick a colour', parameters: { type: 'object', properties: {} } }]
    const context = [{ description: 'user', value: 'Ada' }]
    await store.run({ message: 'write', tools, context, forwardedProps: { mode: 'fast' } })
    await store.approve()
    expect(agent.inputs[1]!.tools).toStrictEqual(tools)
    expect(agent.inputs[1]!.context).toStrictEqual(context)
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ mode: 'fast' })
  })

  it('given with an answer, replace those of the resumed run, each on its own', async () => {
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

  it('given to approve/reject/respond/cancel, override the resumed run’s tools, context and forwardedProps field by field', async () => {
    const tools = [{ name: 'a', description: 'A', parameters: {} }]
    const context = [{ description: 'c', value: '1' }]
    type Answer = (store: ReturnType<typeof createAgentStore<Doc>>) => Promise<void>
    const answers: [string, Answer][] = [
      ['approve', (store) => store.approve({ tools: [], forwardedProps: { mode: 'slow' } })],
      ['reject', (store) => store.reject({ tools: [], forwardedProps: { mode: 'slow' } })],
      ['respond', (store) => store.respond({ id: 'i1', payload: { ok: true }, tools: [], forwardedProps: { mode: 'slow' } })],
      ['cancel', (store) => store.cancel({ tools: [], forwardedProps: { mode: 'slow' } })],
    ]
    for (const [name, answer] of answers) {
      const agent = writerAgent(interruptOnW1)
      const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
      await store.run({ tools, context, forwardedProps: { mode: 'fast' } })
      await answer(store)
      const sent = agent.inputs[1]!
      expect({ name, tools: sent.tools, context: sent.context, forwardedProps: sent.forwardedProps }).toStrictEqual({
        name,
        tools: [],
        context,
        forwardedProps: { mode: 'slow' },
      })
    }
  })

  it('given with an earlier answer of several, still apply to the resumed run', async () => {
    const agent = scripted((runId) => [
      interrupt(runId, [
        { id: 'a', reason: 'tool_call' },
        { id: 'b', reason: 'tool_call' },
      ]),
    ])
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    const context = [{ description: 'c', value: '1' }]
    await store.run({ context, forwardedProps: { mode: 'fast' } })
    await store.approve({ id: 'a', tools: [{ name: 't', description: 'T', parameters: {} }] })
    await store.reject({ id: 'b' })
    const sent = agent.inputs[1]!
    expect({ tools: sent.tools, context: sent.context, forwardedProps: sent.forwardedProps }).toStrictEqual({
      tools: [{ name: 't', description: 'T', parameters: {} }],
      context,
      forwardedProps: { mode: 'fast' },
    })
  })

  it('on_interrupt’s command is merged into the resumed run’s forwardedProps, which keeps the original run’s props', async () => {
    const agent = scripted((runId) => [ev.custom('on_interrupt', '{"q":1}'), ev.runFinished(runId)])
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    await store.run({ forwardedProps: { mode: 'fast' } })
    await store.approve()
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ mode: 'fast', command: { resume: { accepted: true } } })
  })

  it('on_interrupt’s resume joins a command the resumed run’s forwardedProps already had', async () => {
    const agent = scripted((runId) => [ev.custom('on_interrupt', '{"q":1}'), ev.runFinished(runId)])
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    await store.run({ forwardedProps: { command: { goto: 'review' }, mode: 'fast' } })
    await store.respond({ payload: 'yes' })
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ command: { goto: 'review', resume: 'yes' }, mode: 'fast' })
  })

  it('an on_interrupt answer keeps the resumed run’s forwardedProps and adds the command', async () => {
    const agent = scripted((runId) => [ev.custom('on_interrupt', '{"q":1}'), ev.runFinished(runId)])
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    await store.run({ forwardedProps: { p: 1, command: { goto: 'x' } } })
    await store.approve()
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ p: 1, command: { goto: 'x', resume: { accepted: true } } })
    const plain = scripted((runId) => [ev.custom('on_interrupt', '{"q":1}'), ev.runFinished(runId)])
    const other = createAgentStore<Doc>({ agent: plain, initialState: {} })
    await other.run({ forwardedProps: 'text' })
    await other.respond({ payload: 'yes' })
    expect(plain.inputs[1]!.forwardedProps).toStrictEqual({ command: { resume: 'yes' } })
  })
})
