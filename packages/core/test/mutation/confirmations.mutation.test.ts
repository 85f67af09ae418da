import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStore, createAgentStore } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { ev } from '../helpers'

// Confirmations pinned through the public API: every field an interrupt carries (and none it
// does not), which drafts each kind governs, and the exact wire shape of every kind of answer.

type S = Record<string, unknown>
const predict = (stateKey: string, tool: string, toolArgument: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, tool_argument: toolArgument }])
const interrupt = (runId: string, interrupts: Record<string, unknown>[]) => ev.runFinished(runId, 't1', { type: 'interrupt', interrupts })
const done = (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId), ev.runFinished(input.runId)]
const call = (id: string, tool: string, args: string, parent = 'm1') => [ev.toolStart(id, tool, parent), ev.toolArgs(id, args), ev.toolEnd(id)]
const write = (id = 'w1', text = 'draft') => call(id, 'write', JSON.stringify({ doc: text }))

/** A store whose first run ends with `ending` after writing a draft of `doc` (unless told not to). */
async function interrupted(ending: (runId: string) => BaseEvent[], initialState: S = { doc: 'old' }) {
  const agent = new ScriptedAgent({ runs: [(input) => [ev.runStarted(input.runId), predict('doc', 'write', 'doc'), ...ending(input.runId)], done] })
  const store = createAgentStore<S>({ agent, initialState })
  await store.run()
  return { agent, store }
}

const sent = async (store: AgentStore<S>, agent: ScriptedAgent, answer: (store: AgentStore<S>) => Promise<void>) => {
  await answer(store)
  return agent.inputs.at(-1)!
}

describe('an interrupt as a confirmation', () => {
  it('carries exactly the fields the interrupt has', async () => {
    const { store } = await interrupted((runId) => [
      ...write(),
      interrupt(runId, [
        {
          id: 'i1',
          reason: 'tool_call',
          message: 'Apply?',
          toolCallId: 'w1',
          responseSchema: { type: 'object' },
          expiresAt: '2030-01-01T00:00:00Z',
          metadata: { a: 1 },
          subagentRunId: 's1',
        },
        { id: 'i2', reason: 'input_required' },
      ]),
    ])
    const [first, second] = store.getState().confirmations
    expect(first).toStrictEqual({
      id: 'i1',
      source: 'interrupt',
      runId: expect.any(String),
      reason: 'tool_call',
      message: 'Apply?',
      toolCallId: 'w1',
      responseSchema: { type: 'object' },
      expiresAt: '2030-01-01T00:00:00Z',
      metadata: { a: 1 },
      subagentRunId: 's1',
      stateKeys: ['doc'],
    })
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
    const answers: [string, (s: AgentStore<S>) => Promise<void>, string][] = [
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
    const store = createAgentStore<S>({ initialState: {} })
    store.apply([ev.runStarted('r1'), ...call('cc1', 'confirm_changes', '{}'), ev.runFinished('r1')])
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['cc1'])
    const later = createAgentStore<S>({ initialState: {} })
    later.apply([ev.runStarted('r1'), ...call('cc1', 'confirm_changes', '{}'), ev.runFinished('r1', 't1', { type: 'cancelled' })])
    later.apply([ev.runStarted('r2'), ev.runFinished('r2')])
    expect(later.getState().confirmations).toStrictEqual([])
  })

  it('are answered by a tool message: accepted true, false, or the payload', async () => {
    const answers: [(s: AgentStore<S>) => Promise<void>, string][] = [
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
    const answers: [(s: AgentStore<S>) => Promise<void>, unknown][] = [
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
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
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
