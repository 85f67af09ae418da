// Confirmations: what opens one (AG-UI interrupts, confirmation tool calls, on_interrupt), every
// field it carries, which drafts each kind governs, and the exact wire shape of every kind of answer.
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStore, createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'
import { call, type Doc, documentAndTitle, documentCallStreaming, done, interrupt, predict, scripted, writeDocument, writerAgent } from './support/scenarios'

const schema = (field: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { [field]: { type: 'boolean' }, ...extra },
  required: [field],
})
/** A whole call of `write` drafting doc. */
const write = (id = 'w1', text = 'draft') => call(id, 'write', JSON.stringify({ doc: text }))

/** A store whose first run maps doc to \`write\` and ends with \`ending\`. */
async function interrupted(ending: (runId: string) => BaseEvent[], initialState: Doc = { doc: 'old' }) {
  const agent = scripted((runId) => [predict('doc', 'write', 'doc'), ...ending(runId)])
  const store = createAgentStore<Doc>({ agent, initialState })
  await store.run()
  return { agent, store }
}

/** The input of the request an answer sent. */
const sent = async (store: AgentStore<Doc>, agent: ScriptedAgent, answer: (store: AgentStore<Doc>) => Promise<void>) => {
  await answer(store)
  return agent.inputs.at(-1)!
}

/** Two drafts: document by call w1 (write_document), title by call w2 (set_title). */
const twoDrafts = [documentAndTitle, ...call('w1', 'write_document', '{"document":"D"}'), ...call('w2', 'set_title', '{"title":"T"}')]

describe('answering an AG-UI interrupt', () => {
  const ending =
    (extra: Record<string, unknown> = {}) =>
    (input: RunAgentInput) => [
      interrupt(input.runId, [
        { id: 'i1', reason: 'tool_call', toolCallId: 'w1', responseSchema: schema('accepted', { document: { type: 'string' } }), ...extra },
      ]),
    ]

  it('approve with edits: the edit lands in the mapped key and in the payload', async () => {
    const agent = writerAgent(ending())
    const store = createAgentStore({ agent, initialState: { document: '' } })
    await store.run({ message: 'write' })
    expect(store.getState().confirmations[0]).toMatchObject({ id: 'i1', source: 'interrupt', toolCallId: 'w1', stateKeys: ['document'] })
    await store.approve({ edits: { document: 'edited text' } })
    expect(agent.inputs[1]!.resume).toEqual([{ interruptId: 'i1', status: 'resolved', payload: { document: 'edited text', accepted: true } }])
    expect(agent.inputs[1]!.state).toEqual({ document: 'edited text' })
    expect(store.getState()).toMatchObject({ state: { document: 'edited text' }, committed: { document: 'edited text' }, status: 'idle' })
  })

  it('reject: the draft is discarded; a reason goes in only where the schema has a property for it', async () => {
    for (const withReason of [false, true]) {
      const extra = withReason ? { responseSchema: schema('approved', { reason: { type: 'string' } }) } : {}
      const agent = writerAgent(ending(extra))
      const store = createAgentStore({ agent, initialState: { document: 'before' } })
      await store.run()
      await store.reject({ id: 'i1', reason: 'too long' })
      const payload = withReason ? { approved: false, reason: 'too long' } : { accepted: false }
      expect(agent.inputs[1]!.resume).toEqual([{ interruptId: 'i1', status: 'resolved', payload }])
      expect(agent.inputs[1]!.state).toEqual({ document: 'before' })
      expect(store.getState().state).toEqual({ document: 'before' })
    }
  })

  it('cancel sends status cancelled and discards; a resumed run that errors leaves a usable store', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [ev.runStarted(input.runId), ...documentCallStreaming('{"document":"x"}'), ev.toolEnd('w1'), ...ending()(input)],
        (input) => [ev.runStarted(input.runId), ev.runError('The approval was cancelled', 'APPROVAL_RESUME_CANCELLED')],
        done,
      ],
    })
    const store = createAgentStore({ agent, initialState: { document: 'kept' } })
    await store.run()
    await store.cancel()
    expect(agent.inputs[1]!.resume).toEqual([{ interruptId: 'i1', status: 'cancelled' }])
    expect(store.getState()).toMatchObject({
      status: 'error',
      state: { document: 'kept' },
      committed: { document: 'kept' },
      error: { code: 'RUN_ERROR', serverCode: 'APPROVAL_RESUME_CANCELLED' },
    })
    await store.run({ message: 'again' })
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
  })

  it('an expired interrupt cannot be approved, rejected or answered, but can be cancelled', async () => {
    const agent = writerAgent(ending({ expiresAt: '2000-01-01T00:00:00Z' }))
    const store = createAgentStore({ agent, initialState: { document: '' } })
    await store.run()
    await expect(store.approve()).rejects.toMatchObject({ code: 'EXPIRED' })
    await expect(store.reject()).rejects.toMatchObject({ code: 'EXPIRED' })
    await expect(store.respond({ id: 'i1', payload: 'x' })).rejects.toMatchObject({ code: 'EXPIRED' })
    expect(agent.inputs).toHaveLength(1)
    expect(store.getState().status).toBe('interrupted')
    await store.cancel({ id: 'i1' })
    expect(agent.inputs[1]!.resume).toEqual([{ interruptId: 'i1', status: 'cancelled' }])
  })

  it('the resumed run starts once the last of several is answered, with every answer in one input', async () => {
    const agent = scripted((runId) => [
      interrupt(runId, [
        { id: 'a', reason: 'tool_call', responseSchema: schema('approved') },
        { id: 'b', reason: 'input_required', responseSchema: { type: 'object', properties: { response: { type: 'string' } } } },
      ]),
    ])
    const store = createAgentStore({ agent, initialState: {} })
    await store.run()
    await expect(store.approve()).rejects.toMatchObject({ code: 'NO_CONFIRMATION' })
    await expect(store.approve({ id: 'zzz' })).rejects.toMatchObject({ code: 'NO_CONFIRMATION' })
    await store.approve({ id: 'a' })
    expect(agent.inputs).toHaveLength(1)
    expect(store.getState().status).toBe('interrupted')
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['b'])
    await store.respond({ payload: { response: 'johndoe42' } })
    expect(agent.inputs[1]!.resume).toEqual([
      { interruptId: 'a', status: 'resolved', payload: { approved: true } },
      { interruptId: 'b', status: 'resolved', payload: { response: 'johndoe42' } },
    ])
  })

  it('opens the interrupts of a run that apply() never saw start', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply(interrupt('r', [{ id: 'lonely', reason: 'input_required' }]))
    expect(store.getState().status).toBe('interrupted')
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['lonely'])
  })

  it('keeps every field of the interrupt', () => {
    const store = createAgentStore({ initialState: {} })
    const full = {
      id: 'i',
      reason: 'tool_call',
      message: 'OK?',
      toolCallId: 'c',
      responseSchema: schema('accepted'),
      expiresAt: '2999-01-01T00:00:00Z',
      metadata: { k: 1 },
    }
    store.apply([ev.runStarted('r'), interrupt('r', [full])])
    expect(store.getState().confirmations).toEqual([{ ...full, source: 'interrupt', runId: 'r', stateKeys: [] }])
  })
})

describe('confirmation tool calls and on_interrupt', () => {
  it('a confirm_changes call naming function_call_id governs that call; the answer is a tool message', async () => {
    const agent = writerAgent((input) => [
      ev.toolStart('cc1', 'confirm_changes', 'm1'),
      ev.toolArgs('cc1', JSON.stringify({ function_name: 'write_document', function_call_id: 'w1' })),
      ev.toolEnd('cc1'),
      ev.runFinished(input.runId),
    ])
    const store = createAgentStore({ agent, initialState: { document: 'old' } })
    await store.run()
    expect(store.getState().confirmations).toMatchObject([{ id: 'cc1', source: 'tool', toolCallId: 'w1', stateKeys: ['document'] }])
    await store.approve()
    const sent = agent.inputs[1]!
    expect(sent.messages.at(-1)).toEqual({ id: expect.any(String), role: 'tool', toolCallId: 'cc1', content: '{"accepted":true}' })
    expect(sent.state).toEqual({ document: 'draft text' })
  })

  it('an answered confirmation tool call opens nothing; custom confirmTools are honoured', async () => {
    const store = createAgentStore({ initialState: {}, confirmTools: ['ask_user'] })
    store.apply([
      ev.runStarted('r1'),
      ev.toolStart('x', 'ask_user'),
      ev.toolEnd('x'),
      ev.toolStart('y', 'confirm_changes'),
      ev.toolEnd('y'),
      ev.runFinished('r1'),
    ])
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['x'])
    store.apply([ev.runStarted('r2'), ev.toolResult('t', 'x', '{"accepted":true}'), ev.runFinished('r2')])
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['x'])
  })

  it('on_interrupt is answered through forwardedProps.command.resume, and governs all drafts of its run', async () => {
    const agent = scripted((runId) => [
      predict('steps', 'plan', 'steps'),
      ev.toolStart('p1', 'plan'),
      ev.toolArgs('p1', '{"steps":["a","b"]}'),
      ev.toolEnd('p1'),
      ev.custom('on_interrupt', JSON.stringify({ question: 'Which steps?' })),
      ev.runFinished(runId),
    ])
    const store = createAgentStore({ agent, initialState: { steps: [] as string[] } })
    await store.run()
    expect(store.getState().confirmations).toMatchObject([{ source: 'on_interrupt', value: { question: 'Which steps?' }, stateKeys: ['steps'] }])
    await store.approve({ edits: { steps: ['a'] } })
    expect(agent.inputs[1]!.forwardedProps).toEqual({ command: { resume: { steps: ['a'], accepted: true } } })
    expect(agent.inputs[1]!.state).toEqual({ steps: ['a'] })
  })

  it('interrupts stand for the confirm tool call and on_interrupt of the same run', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply([
      ev.runStarted('r'),
      ev.toolStart('cc', 'confirm_changes'),
      ev.toolEnd('cc'),
      ev.custom('on_interrupt', '"x"'),
      interrupt('r', [{ id: 'only', reason: 'tool_call' }]),
    ])
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['only'])
  })

  it('confirmations belong to the store: a new subscriber sees them, and reset clears them', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply([ev.runStarted('r'), interrupt('r', [{ id: 'i', reason: 'tool_call' }])])
    let seen: readonly { id: string }[] = []
    store.subscribe((s) => (seen = s.confirmations))
    expect(store.getState().confirmations).toHaveLength(1)
    store.reset()
    expect(seen).toEqual([])
  })
})

describe('an interrupt as a confirmation', () => {
  it('carries exactly the fields the interrupt has', async () => {
    const fields = {
      id: 'i1',
      reason: 'tool_call',
      message: 'Apply?',
      toolCallId: 'w1',
      responseSchema: { type: 'object' },
      expiresAt: '2030-01-01T00:00:00Z',
      metadata: { a: 1 },
      subagentRunId: 's1',
    }
    const { store } = await interrupted((runId) => [...write(), interrupt(runId, [fields, { id: 'i2', reason: 'input_required' }])])
    const [first, second] = store.getState().confirmations
    expect(first).toStrictEqual({ ...fields, source: 'interrupt', runId: expect.any(String), stateKeys: ['doc'] })
    // It names no tool call, and the only draft's call is named by i1.
    expect(second).toStrictEqual({ id: 'i2', source: 'interrupt', runId: first!.runId, reason: 'input_required', stateKeys: [] })
  })

  it('one naming a confirmation tool call governs the drafts that call confirms', async () => {
    const { store } = await interrupted((runId) => [
      ...write(),
      ...call('cc1', 'confirm_changes', JSON.stringify({ function_call_id: 'w1' })),
      interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'cc1' }]),
    ])
    expect(store.getState().confirmations.map((c) => ({ id: c.id, toolCallId: c.toolCallId, stateKeys: c.stateKeys }))).toStrictEqual([
      { id: 'i1', toolCallId: 'cc1', stateKeys: ['doc'] },
    ])
  })

  it('one naming a call that wrote nothing governs nothing, and one naming none governs the rest', async () => {
    const { store } = await interrupted((runId) => [
      ...write(),
      interrupt(runId, [
        { id: 'a', reason: 'tool_call', toolCallId: 'x9' },
        { id: 'b', reason: 'input_required' },
      ]),
    ])
    expect(store.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([
      ['a', []],
      ['b', ['doc']],
    ])
  })
})

describe('which drafts a confirmation governs', () => {
  it('a confirmation tool call naming no call governs the drafts nobody names', async () => {
    const { store } = await interrupted((runId) => [...write(), ...call('cc1', 'confirm_changes', '{}'), ev.runFinished(runId)])
    expect(store.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([['cc1', ['doc']]])
  })

  it('a draft the server wrote on its own goes with a confirmation naming no call, not with one naming a call', async () => {
    const unnamed = await interrupted((runId) => [
      ev.delta({ op: 'replace', path: '/doc', value: 'srv' }),
      interrupt(runId, [{ id: 'i1', reason: 'input_required' }]),
    ])
    expect(unnamed.store.getState().confirmations.map((c) => c.stateKeys)).toStrictEqual([['doc']])
    const named = await interrupted((runId) => [
      ev.delta({ op: 'replace', path: '/doc', value: 'srv' }),
      interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'x' }]),
    ])
    expect(named.store.getState().confirmations.map((c) => c.stateKeys)).toStrictEqual([[]])
  })

  it('a later run does not govern the drafts an earlier run left open', () => {
    const store = createAgentStore<Doc>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted('r1'), predict('doc', 'write', 'doc'), ...write(), interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])])
    store.apply([ev.runStarted('r2'), interrupt('r2', [{ id: 'i2', reason: 'input_required' }])])
    expect(store.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([
      ['i1', ['doc']],
      ['i2', []],
    ])
  })

  it('on_interrupt takes toolCallId before the other spellings', async () => {
    const { store } = await interrupted((runId) => [
      ...write(),
      ev.custom('on_interrupt', { toolCallId: 'w1', tool_call_id: 'zz', toolCall: { id: 'yy' } }),
      ev.runFinished(runId),
    ])
    expect(store.getState().confirmations[0]!.toolCallId).toBe('w1')
  })

  it('an interrupt answered with a schema is not answered as the call', async () => {
    const { store, agent } = await interrupted((runId) => [
      ...write(),
      interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1', responseSchema: { type: 'object' } }]),
    ])
    const input = await sent(store, agent, (s) => s.approve({ id: 'i1' }))
    expect(input.messages.filter((m) => m.role === 'tool')).toStrictEqual([])
  })

  it('an interrupt naming no tool call governs only the drafts no other confirmation of the run names', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'd0', title: 't0' } })
    store.apply([
      ev.runStarted('r1'),
      ...twoDrafts,
      interrupt('r1', [
        { id: 'a', reason: 'tool_call', toolCallId: 'w1' },
        { id: 'b', reason: 'input_required' },
      ]),
    ])
    expect(store.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([
      ['a', ['document']],
      ['b', ['title']],
    ])
  })

  it('an interrupt naming the confirmation tool call governs the drafts that call confirms, and they stay uncommitted', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'd0' } })
    store.apply([
      ev.runStarted('r1'),
      ...writeDocument('D'),
      ev.toolStart('cc1', 'confirm_changes'),
      ev.toolArgs('cc1', JSON.stringify({ function_name: 'write_document', function_call_id: 'w1' })),
      ev.toolEnd('cc1'),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'cc1' }]),
    ])
    expect(store.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([['i1', ['document']]])
    expect(store.getState().committed).toStrictEqual({ document: 'd0' })
  })
})

describe('answers to an interrupt', () => {
  const schema = (properties: Record<string, unknown>, required?: unknown) => ({ type: 'object', properties, ...(required ? { required } : {}) })

  const withSchema = (responseSchema: unknown) => (runId: string) => [
    ...write(),
    interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1', responseSchema }]),
  ]

  it('the decision goes in the required boolean field, else the first boolean field, else "accepted"', async () => {
    const cases: [unknown, string][] = [
      [schema({ note: { type: 'string' }, ok: { type: 'boolean' }, approved: { type: 'boolean' } }, ['note', 'approved', 7]), 'approved'],
      [schema({ note: { type: 'string' }, ok: { type: 'boolean' }, yes: { type: 'boolean' } }, ['note']), 'ok'],
      [schema({ ok: 'boolean', note: { type: 'string' } }), 'accepted'],
      [schema({ ok: { type: 'boolean' } }, 'ok'), 'ok'],
      [{ type: 'object', properties: 'none' }, 'accepted'],
      [{ type: 'object' }, 'accepted'],
    ]
    for (const [responseSchema, field] of cases) {
      const { store, agent } = await interrupted(withSchema(responseSchema))
      const input = await sent(store, agent, (s) => s.approve({ id: 'i1' }))
      expect(input.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { [field]: true } }])
    }
  })

  it('reject sends the decision false, with the reason only where the schema has a reason property', async () => {
    const withReason = await interrupted(withSchema(schema({ approved: { type: 'boolean' }, reason: { type: 'string' } })))
    expect((await sent(withReason.store, withReason.agent, (s) => s.reject({ id: 'i1', reason: 'no' }))).resume).toStrictEqual([
      { interruptId: 'i1', status: 'resolved', payload: { approved: false, reason: 'no' } },
    ])
    const without = await interrupted(withSchema(schema({ approved: { type: 'boolean' } })))
    expect((await sent(without.store, without.agent, (s) => s.reject({ id: 'i1', reason: 'no' }))).resume).toStrictEqual([
      { interruptId: 'i1', status: 'resolved', payload: { approved: false } },
    ])
    const noReason = await interrupted(withSchema(schema({ approved: { type: 'boolean' }, reason: { type: 'string' } })))
    expect((await sent(noReason.store, noReason.agent, (s) => s.reject({ id: 'i1' }))).resume).toStrictEqual([
      { interruptId: 'i1', status: 'resolved', payload: { approved: false } },
    ])
  })

  it('approve with edits puts them beside the decision; respond sends the payload; cancel says cancelled', async () => {
    const approve = await interrupted(withSchema(schema({ accepted: { type: 'boolean' }, doc: { type: 'string' } })))
    expect((await sent(approve.store, approve.agent, (s) => s.approve({ id: 'i1', edits: { doc: 'mine' } }))).resume).toStrictEqual([
      { interruptId: 'i1', status: 'resolved', payload: { doc: 'mine', accepted: true } },
    ])
    const respond = await interrupted(withSchema(schema({})))
    expect((await sent(respond.store, respond.agent, (s) => s.respond({ id: 'i1', payload: { pick: 2 } }))).resume).toStrictEqual([
      { interruptId: 'i1', status: 'resolved', payload: { pick: 2 } },
    ])
    const cancel = await interrupted(withSchema(schema({})))
    const cancelled = await sent(cancel.store, cancel.agent, (s) => s.cancel({ id: 'i1' }))
    expect(cancelled.resume).toStrictEqual([{ interruptId: 'i1', status: 'cancelled' }])
    expect(cancel.store.getState().state).toStrictEqual({ doc: 'old' })
  })

  it('a tool_call interrupt without a schema, naming a call without a result, is answered as that call too', async () => {
    const answers: [string, (s: AgentStore<Doc>) => Promise<void>, string][] = [
      ['approve', (s) => s.approve({ id: 'i1' }), '{"accepted":true}'],
      ['reject', (s) => s.reject({ id: 'i1' }), '{"accepted":false}'],
      ['respond', (s) => s.respond({ id: 'i1', payload: { n: 1 } }), '{"n":1}'],
      ['cancel', (s) => s.cancel({ id: 'i1' }), '{"status":"cancelled"}'],
    ]
    for (const [, answer, content] of answers) {
      const { store, agent } = await interrupted((runId) => [...write(), interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])])
      const input = await sent(store, agent, answer)
      expect(input.messages.filter((m) => m.role === 'tool')).toStrictEqual([{ id: expect.any(String), role: 'tool', toolCallId: 'w1', content }])
    }
  })

  it('is not answered as the call when the call has a result, is not in the conversation, or the reason is another', async () => {
    const endings: ((runId: string) => BaseEvent[])[] = [
      (runId) => [...write(), ev.toolResult('r1', 'w1', 'done'), interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])],
      (runId) => [interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'nowhere' }])],
      (runId) => [...write(), interrupt(runId, [{ id: 'i1', reason: 'input_required', toolCallId: 'w1' }])],
      (runId) => [...write(), interrupt(runId, [{ id: 'i1', reason: 'tool_call' }])],
    ]
    for (const ending of endings) {
      const { store, agent } = await interrupted(ending)
      const before = store.getState().messages.filter((m) => m.role === 'tool').length
      const input = await sent(store, agent, (s) => s.approve({ id: 'i1' }))
      expect(input.messages.filter((m) => m.role === 'tool')).toHaveLength(before)
      expect(input.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
    }
  })

  it('the decision goes in the first boolean property when none is required; in `accepted` when the schema has no boolean', async () => {
    const cases: [unknown, Record<string, unknown>][] = [
      [{ type: 'object', properties: { note: { type: 'string' }, confirmed: { type: 'boolean' } } }, { confirmed: true }],
      [{ type: 'object', properties: { note: { type: 'string' } }, required: ['note'] }, { accepted: true }],
      [{ type: 'object', properties: { ok: { type: 'boolean' }, approved: { type: 'boolean' } }, required: ['note', 'approved'] }, { approved: true }],
    ]
    for (const [responseSchema, payload] of cases) {
      const agent = writerAgent((input) => [interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1', responseSchema }])])
      const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
      await store.run()
      await store.approve()
      expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload }])
    }
  })

  it('the decision goes in the boolean field the responseSchema requires, and no other', async () => {
    const responseSchema = { type: 'object', properties: { notify: { type: 'boolean' }, approved: { type: 'boolean' } }, required: ['approved'] }
    for (const kind of ['approve', 'reject'] as const) {
      const agent = writerAgent((input) => [interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1', responseSchema }])])
      const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
      await store.run()
      await (kind === 'approve' ? store.approve() : store.reject())
      expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { approved: kind === 'approve' } }])
    }
  })
})

describe('confirmation tool calls', () => {
  it('open one confirmation per unanswered call of this run, with its parsed arguments', async () => {
    const { store } = await interrupted((runId) => [
      ...write(),
      ...call('cc1', 'confirm_changes', JSON.stringify({ function_call_id: 'w1', function_name: 'write' })),
      ...call('cc2', 'confirm_changes', 'not json'),
      ev.toolStart('cc3', 'confirm_changes', 'm1'),
      ev.toolEnd('cc3'),
      ...call('cc4', 'confirm_changes', '{"function_call_id":5}'),
      ev.runFinished(runId),
    ])
    expect(store.getState().confirmations).toStrictEqual([
      {
        id: 'cc1',
        source: 'tool',
        runId: expect.any(String),
        reason: 'tool_call',
        toolCallId: 'w1',
        value: { function_call_id: 'w1', function_name: 'write' },
        stateKeys: ['doc'],
      },
      { id: 'cc2', source: 'tool', runId: expect.any(String), reason: 'tool_call', value: 'not json', stateKeys: [] },
      { id: 'cc3', source: 'tool', runId: expect.any(String), reason: 'tool_call', value: {}, stateKeys: [] },
      { id: 'cc4', source: 'tool', runId: expect.any(String), reason: 'tool_call', value: { function_call_id: 5 }, stateKeys: [] },
    ])
  })

  it('a call from an earlier run opens nothing in a later one', () => {
    const store = createAgentStore<Doc>({ initialState: {} })
    store.apply([ev.runStarted('r1'), ...call('cc1', 'confirm_changes', '{}'), ev.runFinished('r1')])
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['cc1'])
    const later = createAgentStore<Doc>({ initialState: {} })
    later.apply([ev.runStarted('r1'), ...call('cc1', 'confirm_changes', '{}'), ev.runFinished('r1', 't1', { type: 'cancelled' })])
    later.apply([ev.runStarted('r2'), ev.runFinished('r2')])
    expect(later.getState().confirmations).toStrictEqual([])
  })

  it('are answered by a tool message: accepted true, false, or the payload', async () => {
    const answers: [(s: AgentStore<Doc>) => Promise<void>, string][] = [
      [(s) => s.approve({ id: 'cc1' }), '{"accepted":true}'],
      [(s) => s.reject({ id: 'cc1' }), '{"accepted":false}'],
      [(s) => s.respond({ id: 'cc1', payload: { accepted: true, note: 'x' } }), '{"accepted":true,"note":"x"}'],
    ]
    for (const [answer, content] of answers) {
      const { store, agent } = await interrupted((runId) => [
        ...write(),
        ...call('cc1', 'confirm_changes', JSON.stringify({ function_call_id: 'w1' })),
        ev.runFinished(runId),
      ])
      const input = await sent(store, agent, answer)
      expect(input.messages.at(-1)).toStrictEqual({ id: expect.any(String), role: 'tool', toolCallId: 'cc1', content })
      expect(input.resume).toBeUndefined()
    }
  })

  it('one naming function_call_id governs that call’s drafts; one naming none governs the rest', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'd0', title: 't0' } })
    store.apply([
      ev.runStarted('r1'),
      ...twoDrafts,
      ...call('cc1', 'confirm_changes', '{"function_call_id":"w1"}'),
      ...call('cc2', 'confirm_changes', '{}'),
      ev.runFinished('r1'),
    ])
    expect(store.getState().confirmations.map((c) => [c.id, c.source, c.stateKeys])).toStrictEqual([
      ['cc1', 'tool', ['document']],
      ['cc2', 'tool', ['title']],
    ])
    expect(store.getState().committed).toStrictEqual({ document: 'd0', title: 't0' })
  })

  it('one from an earlier run, or one already answered by a tool message, opens nothing', () => {
    const store = createAgentStore<Doc>({ initialState: {} })
    store.apply([ev.runStarted('r1'), ev.toolStart('cc1', 'confirm_changes'), ev.toolEnd('cc1'), ev.runFinished('r1')])
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['cc1'])
    // A later run fed through apply() does not open the earlier run's call a second time.
    store.apply([ev.runStarted('r2'), ev.runFinished('r2')])
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['cc1'])
    store.reset()
    store.apply([
      ev.runStarted('r1'),
      ev.toolStart('cc1', 'confirm_changes', 'm1'),
      ev.toolEnd('cc1'),
      ev.toolResult('t1', 'cc1', '{"accepted":true}'),
      ev.runFinished('r1'),
    ])
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [] })
    store.apply([ev.runStarted('r2'), ev.runFinished('r2')])
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [] })
  })

  it('one from before the run is not this run’s confirmation', () => {
    const s = createAgentStore<Doc>({ initialState: {}, confirmTools: ['confirm'] })
    s.apply({
      type: 'MESSAGES_SNAPSHOT',
      messages: [{ id: 'm0', role: 'assistant', toolCalls: [{ id: 'k0', type: 'function', function: { name: 'confirm', arguments: '{}' } }] }],
    } as never)
    s.apply([ev.runStarted(), ev.runFinished()])
    expect(s.getState().confirmations).toStrictEqual([])
    s.apply([ev.runStarted('r2'), ev.toolStart('k1', 'confirm', 'm1'), ev.toolArgs('k1', '{}'), ev.toolEnd('k1'), ev.runFinished('r2')])
    expect(s.getState().confirmations.map((c) => c.id)).toStrictEqual(['k1'])
  })

  it('an answered interrupt id does not hide a confirmation tool call that has the same id', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'x1', reason: 'input_required' }])],
        (input) => [
          ev.runStarted(input.runId),
          ev.toolStart('x1', 'confirm_changes', 'm9'),
          ev.toolArgs('x1', '{}'),
          ev.toolEnd('x1'),
          ev.runFinished(input.runId),
        ],
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    await store.run()
    await store.respond({ id: 'x1', payload: { ok: true } })
    expect(store.getState().confirmations.map((c) => [c.id, c.source])).toStrictEqual([['x1', 'tool']])
  })

  it('respond() sends its payload as the content: {"accepted":false} stays false', async () => {
    const agent = writerAgent((input) => [
      ev.toolStart('cc1', 'confirm_changes'),
      ev.toolArgs('cc1', '{"function_call_id":"w1"}'),
      ev.toolEnd('cc1'),
      ev.runFinished(input.runId),
    ])
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run()
    await store.respond({ id: 'cc1', payload: { accepted: false } })
    const tool = agent.inputs[1]!.messages.filter((m): m is Message & { role: 'tool' } => m.role === 'tool')
    expect(tool.map((m) => [m.toolCallId, m.content])).toStrictEqual([['cc1', '{"accepted":false}']])
  })
})

describe('on_interrupt', () => {
  it('takes the tool call from the value in each spelling servers use', async () => {
    const values: [unknown, string | undefined][] = [
      [{ toolCallId: 'w1' }, 'w1'],
      [{ tool_call_id: 'w1' }, 'w1'],
      [{ function_call_id: 'w1' }, 'w1'],
      [{ tool_call: { id: 'w1' } }, 'w1'],
      [{ toolCall: { id: 'w1' } }, 'w1'],
      [{ toolCallId: 5, tool_call: { id: 6 }, toolCall: 'w1' }, undefined],
      ['"just text"', undefined],
    ]
    for (const [value, named] of values) {
      const { store } = await interrupted((runId) => [...write(), ev.custom('on_interrupt', value), ev.runFinished(runId)])
      const [confirmation] = store.getState().confirmations
      expect(confirmation!.source).toBe('on_interrupt')
      expect(confirmation!.reason).toBe('langgraph:interrupt')
      expect(confirmation!.toolCallId).toBe(named)
      expect('toolCallId' in confirmation!).toBe(named !== undefined)
      expect(confirmation!.stateKeys).toStrictEqual(['doc'])
    }
  })

  it('parses a JSON string value and keeps other text as it is', async () => {
    const { store } = await interrupted((runId) => [ev.custom('on_interrupt', '{"q":1}'), ev.custom('on_interrupt', 'plain'), ev.runFinished(runId)])
    expect(store.getState().confirmations.map((c) => c.value)).toStrictEqual([{ q: 1 }, 'plain'])
  })

  it('is answered through forwardedProps.command.resume', async () => {
    const answers: [(s: AgentStore<Doc>) => Promise<void>, unknown][] = [
      [(s) => s.approve({ edits: { doc: 'mine' } }), { doc: 'mine', accepted: true }],
      [(s) => s.reject(), { accepted: false }],
      [(s) => s.respond({ payload: ['a'] }), ['a']],
    ]
    for (const [answer, resume] of answers) {
      const { store, agent } = await interrupted((runId) => [...write(), ev.custom('on_interrupt', '{"q":1}'), ev.runFinished(runId)])
      const input = await sent(store, agent, answer)
      expect(input.forwardedProps).toStrictEqual({ command: { resume } })
    }
  })

  it('names its tool call in any of the spellings servers use: toolCallId, tool_call_id, function_call_id, tool_call.id, toolCall.id', () => {
    const spellings = [{ toolCallId: 'w2' }, { tool_call_id: 'w2' }, { function_call_id: 'w2' }, { tool_call: { id: 'w2' } }, { toolCall: { id: 'w2' } }]
    for (const named of spellings) {
      const store = createAgentStore<Doc>({ initialState: { document: 'd0', title: 't0' } })
      store.apply([ev.runStarted('r1'), ...twoDrafts, ev.custom('on_interrupt', JSON.stringify({ ...named, question: '?' })), ev.runFinished('r1')])
      const confirmations = store.getState().confirmations.map((c) => ({ toolCallId: c.toolCallId, stateKeys: c.stateKeys }))
      expect({ named, confirmations }).toStrictEqual({ named, confirmations: [{ toolCallId: 'w2', stateKeys: ['title'] }] })
      // The draft nobody has to confirm is committed.
      expect(store.getState().committed).toStrictEqual({ document: 'D', title: 't0' })
    }
  })

  it('reject() sends { accepted: false } as the resume command and discards the drafts', async () => {
    const agent = scripted((runId) => [
      predict('steps', 'plan', 'steps'),
      ev.toolStart('p1', 'plan'),
      ev.toolArgs('p1', '{"steps":["a"]}'),
      ev.toolEnd('p1'),
      ev.custom('on_interrupt', '{"question":"ok?"}'),
      ev.runFinished(runId),
    ])
    const store = createAgentStore<Doc>({ agent, initialState: { steps: [] } })
    await store.run()
    await store.reject()
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ command: { resume: { accepted: false } } })
    expect(agent.inputs[1]!.resume).toBeUndefined()
    expect(agent.inputs[1]!.state).toStrictEqual({ steps: [] })
  })
})

describe('on_interrupt values and calls in the conversation', () => {
  it('a null value names no call, and a value that is not a string is kept as it is', async () => {
    const { store } = await interrupted((runId) => [ev.custom('on_interrupt', null), ev.custom('on_interrupt', ['7']), ev.runFinished(runId)])
    expect(store.getState().confirmations.map((c) => [c.value, 'toolCallId' in c])).toStrictEqual([
      [null, false],
      [['7'], false],
    ])
  })

  it('the call is found among several calls of a message, after text and after results of other calls', async () => {
    const { store, agent } = await interrupted((runId) => [
      ev.textStart('m0'),
      ev.text('m0', 'thinking'),
      ev.textEnd('m0'),
      ...call('x1', 'lookup', '{}', 'm1'),
      ev.toolResult('r1', 'x1', 'found'),
      ...call('x2', 'lookup', '{}', 'm2'),
      ...write('w1'),
      ev.toolResult('r2', 'x2', 'found'),
      interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
    ])
    const input = await sent(store, agent, (s) => s.approve({ id: 'i1' }))
    expect(input.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content])).toStrictEqual([
      ['x1', 'found'],
      ['x2', 'found'],
      ['w1', '{"accepted":true}'],
    ])
  })

  it('a call the conversation does not hold gets no tool message, whatever else it holds', async () => {
    const { store, agent } = await interrupted((runId) => [...write('w1'), interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'nowhere' }])])
    const input = await sent(store, agent, (s) => s.approve({ id: 'i1' }))
    expect(input.messages.filter((m) => m.role === 'tool')).toStrictEqual([])
  })
})
