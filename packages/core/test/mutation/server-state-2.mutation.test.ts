import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { ev } from '../helpers'

// More of server state under drafts, through the public API: state events that change nothing,
// drafts held by confirmations when the server speaks outside a run, values equal but not
// identical, the argument text a call's reader is fed from, and which drafts an answer keeps.

type S = Record<string, unknown>
const predict = (stateKey: string, tool: string, toolArgument?: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, ...(toolArgument === undefined ? {} : { tool_argument: toolArgument }) }])
const call = (id: string, tool: string, args: string, parent = 'm1') => [ev.toolStart(id, tool, parent), ev.toolArgs(id, args), ev.toolEnd(id)]

function store(initialState: S, options: { confirmTools?: string[]; limits?: { maxStateBytes?: number; maxDepth?: number } } = {}) {
  const errors: AgentStoreError[] = []
  const created = createAgentStore<S>({ initialState, onError: (e) => errors.push(e), ...options })
  return { store: created, errors }
}

/** A store whose apply()-run drafted `doc` through call c1 and ended with confirmation k1 holding it. */
function held(initialState: S = { doc: 'old', n: 0 }) {
  const created = store(initialState, { confirmTools: ['confirm'] })
  created.store.apply([
    ev.runStarted(),
    predict('doc', 'write', 'doc'),
    ...call('c1', 'write', '{"doc":"new"}'),
    ...call('k1', 'confirm', '{}'),
    ev.runFinished(),
  ])
  return created
}

describe('a state event that changes nothing under a streaming draft', () => {
  it('keeps the view, the first time and every time after', () => {
    const { store: s } = store({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    const before = s.getState()
    s.apply(ev.snapshot({ doc: 'old', n: 0 }))
    expect(s.getState().state).toBe(before.state)
    s.apply(ev.snapshot({ doc: 'old', n: 0 }))
    expect(s.getState().state).toBe(before.state)
    expect(s.getState().committed).toBe(before.committed)
    expect(s.getState().predictions).toBe(before.predictions)
  })
})

describe('a user edit of another key while a draft streams', () => {
  it('is committed at once, the draft still pending', () => {
    const { store: s } = store({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.setState((v) => ({ ...v, n: 1 }))
    expect(s.getState().state).toStrictEqual({ doc: 'new', n: 1 })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
  })
})

describe('drafts held by a confirmation when the server changes state outside a run', () => {
  it('a new server value for the held key becomes the draft', () => {
    const { store: s, errors } = held()
    expect(s.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([['k1', ['doc']]])
    s.apply(ev.snapshot({ doc: 'srv', n: 1 }))
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'srv', n: 1 })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'srv', complete: true }])
  })

  it('rejecting one of two confirmations puts back only its own key', async () => {
    const { store: s, errors } = store({ doc: 'old', n: 0 }, { confirmTools: ['confirm'] })
    s.apply([
      ev.runStarted(),
      predict('doc', 'write', 'doc'),
      predict('n', 'count', 'n'),
      ...call('c1', 'write', '{"doc":"new"}'),
      // A server draft of n, which k2 (naming no call) governs.
      ev.delta({ op: 'replace', path: '/n', value: 5 }),
      ...call('k1', 'confirm', '{"function_call_id":"c1"}'),
      ...call('k2', 'confirm', '{}'),
      ev.runFinished(),
    ])
    expect(s.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([
      ['k1', ['doc']],
      ['k2', ['n']],
    ])
    await s.reject({ id: 'k1' })
    expect(s.getState().state).toStrictEqual({ doc: 'old', n: 5 })
    expect(s.getState().predictions.map((p) => [p.stateKey, p.value])).toStrictEqual([['n', 5]])
    // The server still says 5 for n: it goes back to 0 here, which ends that server draft.
    s.apply(ev.snapshot({ doc: 'old', n: 0 }))
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'old', n: 0 })
    expect(s.getState().predictions).toStrictEqual([])
  })

  it('approving one of two confirmations commits only its own key', async () => {
    const { store: s } = store({ doc: 'old', title: 'T' }, { confirmTools: ['confirm'] })
    s.apply([
      ev.runStarted(),
      predict('doc', 'write', 'doc'),
      predict('title', 'name', 'title'),
      ...call('c1', 'write', '{"doc":"new"}'),
      ...call('c2', 'name', '{"title":"U"}'),
      ...call('k1', 'confirm', '{"function_call_id":"c1"}'),
      ...call('k2', 'confirm', '{"function_call_id":"c2"}'),
      ev.runFinished(),
    ])
    await s.approve({ id: 'k2' })
    expect(s.getState().state).toStrictEqual({ doc: 'new', title: 'U' })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', title: 'U' })
    expect(s.getState().predictions.map((p) => [p.stateKey, p.toolCallId])).toStrictEqual([['doc', 'c1']])
  })
})

describe('a run that finishes with one draft held', () => {
  it('commits the others and keeps the held one pending', () => {
    const { store: s } = store({ doc: 'old', title: 'T' }, { confirmTools: ['confirm'] })
    s.apply([
      ev.runStarted(),
      predict('doc', 'write', 'doc'),
      predict('title', 'name', 'title'),
      ...call('c1', 'write', '{"doc":"new"}'),
      ...call('c2', 'name', '{"title":"U"}'),
      ...call('k1', 'confirm', '{"function_call_id":"c1"}'),
      ev.runFinished(),
    ])
    expect(s.getState().state).toStrictEqual({ doc: 'new', title: 'U' })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', title: 'U' })
    expect(s.getState().predictions.map((p) => [p.stateKey, p.toolCallId])).toStrictEqual([['doc', 'c1']])
  })
})

describe('server values against a draft’s baseline', () => {
  it('a server draft put back to its baseline goes, and a call’s draft of another key stays', () => {
    const { store: s } = store({ doc: 'old', title: 'T' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), predict('title', 'name', 'title')])
    s.apply([ev.delta({ op: 'replace', path: '/doc', value: 'srv' }), ev.toolStart('c2', 'name'), ev.toolArgs('c2', '{"title":"U')])
    expect(s.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['doc', 'title'])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'old' }))
    expect(s.getState().state).toStrictEqual({ doc: 'old', title: 'U' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c2', tool: 'name', stateKey: 'title', value: 'U', complete: false }])
  })

  it('a call’s draft keeps the server’s last value when the server echoes the baseline again', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply(ev.snapshot({ doc: 'x' }))
    s.apply(ev.snapshot({ doc: 'old' }))
    expect(s.getState().state).toStrictEqual({ doc: 'x' })
    expect(s.getState().committed).toStrictEqual({ doc: 'old' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'x', complete: false }])
  })

  it('a copy equal to an object baseline, not the same object, counts as the baseline', () => {
    const { store: s } = store({ doc: { t: 'old' } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"t":"new"')])
    s.apply(ev.snapshot({ doc: { t: 'x' } }))
    // The server's previous doc was {t:'x'}: this {t:'old'} shares nothing with the baseline.
    s.apply(ev.snapshot({ doc: { t: 'old' } }))
    expect(s.getState().state).toStrictEqual({ doc: { t: 'x' } })
    expect(s.getState().predictions.map((p) => p.value)).toStrictEqual([{ t: 'x' }])
  })

  it('a key absent before the run and removed again by the server counts as its baseline', () => {
    const { store: s } = store({})
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply(ev.delta({ op: 'add', path: '/doc', value: 'srv' }))
    s.apply(ev.delta({ op: 'remove', path: '/doc' }))
    expect(s.getState().state).toStrictEqual({ doc: 'srv' })
    expect(s.getState().committed).toStrictEqual({})
  })

  it('a mapped key the server changed before its mapping came is no draft when the server changes another key', () => {
    const { store: s } = store({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), ev.delta({ op: 'replace', path: '/doc', value: 'srv' }), predict('doc', 'write', 'doc')])
    s.apply(ev.delta({ op: 'replace', path: '/n', value: 1 }))
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().committed).toStrictEqual({ doc: 'srv', n: 1 })
    expect(s.getState().committed).toBe(s.getState().state)
  })
})

describe('what a server draft records', () => {
  it('of a whole-arguments mapping: approve() merges its edits into the value', async () => {
    const { store: s } = store({ doc: { a: 0 } }, { confirmTools: ['confirm'] })
    s.apply([ev.runStarted(), predict('doc', 'write'), ev.delta({ op: 'replace', path: '/doc', value: { a: 1 } })])
    s.apply([...call('k1', 'confirm', '{}'), ev.runFinished()])
    expect(s.getState().confirmations.map((c) => c.stateKeys)).toStrictEqual([['doc']])
    await s.approve({ id: 'k1', edits: { b: 2 } })
    expect(s.getState().state).toStrictEqual({ doc: { a: 1, b: 2 } })
    expect(s.getState().committed).toStrictEqual({ doc: { a: 1, b: 2 } })
  })

  it('of a key that did not exist: the saved thread is plain JSON, and restores to the same drafts', () => {
    const { store: s } = store({ n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.delta({ op: 'add', path: '/doc', value: 'new' })])
    const saved = s.serialize()
    expect(JSON.parse(JSON.stringify(saved))).toStrictEqual(saved)
    const again = createAgentStore<S>({ initialState: { n: 0 }, restore: JSON.parse(JSON.stringify(saved)) })
    expect(again.getState().state).toStrictEqual({ doc: 'new', n: 0 })
    expect(again.getState().committed).toStrictEqual({ n: 0 })
  })
})

describe('the argument text a call drafts from', () => {
  it('is found in an earlier message, among other calls of that message', () => {
    const { store: s, errors } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c0', 'other', 'm1'), ev.toolStart('c1', 'write', 'm1')])
    s.apply([ev.textStart('m2'), ev.text('m2', 'hi'), ev.textEnd('m2'), ev.toolArgs('c1', '{"doc":"x"}')])
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'x' })
  })

  it('replaced by a messages snapshot mid-stream: the end of the call reads the new text whole', () => {
    const { store: s, errors } = store({ n: 0 })
    s.apply([ev.runStarted(), predict('n', 'count', 'n'), ev.toolStart('c1', 'count', 'm1'), ev.toolArgs('c1', '{"n":12')])
    const messages = [{ id: 'm1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'count', arguments: '{"n":345' } }] }]
    s.apply({ type: 'MESSAGES_SNAPSHOT', messages } as BaseEvent)
    s.apply(ev.toolEnd('c1'))
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ n: 345 })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'count', stateKey: 'n', value: 345, complete: true }])
  })

  it('in a restored thread: the end of the call reads the whole text, a bare number known only at its end', () => {
    const { store: a } = store({ n: 0 })
    a.apply([ev.runStarted(), predict('n', 'count'), ev.toolStart('c1', 'count', 'm1'), ev.toolArgs('c1', '4'), ev.toolArgs('c1', '2')])
    expect(a.getState().state).toStrictEqual({ n: 0 })
    const b = createAgentStore<S>({ initialState: { n: 0 }, restore: a.serialize() })
    b.apply(ev.toolEnd('c1'))
    expect(b.getState().state).toStrictEqual({ n: 42 })
    expect(b.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'count', stateKey: 'n', value: 42, complete: true }])
  })

  it('gone from the messages: the end of the call completes the draft as it was, within the limits', () => {
    // {"doc":""} is 10 bytes, plus 2 for the mapping: the text '{"doc":"ab' (10) makes 22.
    const { store: s, errors } = store({ doc: '' }, { limits: { maxStateBytes: 28 } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write', 'm1'), ev.toolArgs('c1', '{"doc":"ab')])
    s.apply({ type: 'MESSAGES_SNAPSHOT', messages: [] } as unknown as BaseEvent)
    s.apply(ev.toolEnd('c1'))
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'ab' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'ab', complete: true }])
  })

  it('of a call started again after it ended with no arguments is read afresh', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write', 'm1'), ev.toolEnd('c1')])
    s.apply([ev.toolStart('c1', 'write', 'm1'), ev.toolArgs('c1', '{"doc":"x"}')])
    expect(s.getState().state).toStrictEqual({ doc: 'x' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'x', complete: false }])
  })

  it('an empty chunk changes nothing at all', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    const before = s.getState()
    s.apply(ev.toolArgs('c1', ''))
    expect(s.getState()).toBe(before)
  })

  it('arguments for a call of a run that has ended are recorded, and draft nothing', () => {
    const { store: s, errors } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write', 'm1'), ev.runFinished()])
    s.apply(ev.toolArgs('c1', '{"doc":"x"}'))
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'old' })
    expect(s.getState().messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.function.arguments) : []))).toStrictEqual([
      '{"doc":"x"}',
    ])
  })

  it('of a tool no mapping names is not bounded by the state limits', () => {
    const { store: s, errors } = store({ doc: '' }, { limits: { maxStateBytes: 40 } })
    const args = JSON.stringify({ q: 'x'.repeat(60) })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'read'), ev.toolArgs('c1', args), ev.toolEnd('c1')])
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: '' })
  })

  it('nested past maxDepth with the bound exactly at maxStateBytes is reported as maxDepth', () => {
    // {"doc":null} is 12 bytes, plus 2 for the mapping; the text comes to 30: a bound of 44.
    const { store: s, errors } = store({ doc: null }, { limits: { maxDepth: 4, maxStateBytes: 44 } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"a":{"b":1,')])
    s.apply(ev.toolArgs('c1', '"c":{"d":1}'))
    expect(s.getState().state).toStrictEqual({ doc: { a: { b: 1 } } })
    expect(errors.map((e) => [e.code, e.limit])).toStrictEqual([['LIMIT_EXCEEDED', 'maxDepth']])
  })
})

describe('the call a streaming draft names', () => {
  it('a second call of the tool streaming into the same key takes the draft over', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolStart('c2', 'write')])
    s.apply([ev.toolArgs('c1', '{"doc":"a'), ev.toolArgs('c2', '{"doc":"b')])
    expect(s.getState().state).toStrictEqual({ doc: 'b' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c2', tool: 'write', stateKey: 'doc', value: 'b', complete: false }])
  })

  it('a call started again under another tool names that tool', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), predict('doc', 'edit', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply([ev.toolStart('c1', 'edit'), ev.toolArgs('c1', '{"doc":"new')])
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'edit', stateKey: 'doc', value: 'new', complete: false }])
  })

  it('two arguments mapped to one key: the later mapping’s argument is the one approve() edits', async () => {
    const { store: s } = store({ doc: 'old' }, { confirmTools: ['confirm'] })
    s.apply([ev.runStarted(), predict('doc', 'write', 'a'), predict('doc', 'write', 'b'), ...call('c1', 'write', '{"a":"x","b":"y"}')])
    expect(s.getState().state).toStrictEqual({ doc: 'y' })
    s.apply([...call('k1', 'confirm', '{"function_call_id":"c1"}'), ev.runFinished()])
    await s.approve({ id: 'k1', edits: { a: 'A', b: 'B' } })
    expect(s.getState().state).toStrictEqual({ doc: 'B' })
  })
})

describe('a PredictState while calls stream', () => {
  it('with mappings for two tools drafts the streaming call of one of them', () => {
    const { store: s } = store({ title: 'T' })
    s.apply([ev.runStarted(), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"title":"new')])
    s.apply(
      ev.custom('PredictState', [
        { state_key: 'title', tool: 'write', tool_argument: 'title' },
        { state_key: 'x', tool: 'other', tool_argument: 'x' },
      ]),
    )
    expect(s.getState().state).toStrictEqual({ title: 'new' })
  })

  it('for another tool leaves a call’s object value as the same object', () => {
    const { store: s } = store({ doc: {} })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"t":"a"}')])
    const before = s.getState()
    expect(before.state).toStrictEqual({ doc: { t: 'a' } })
    s.apply(predict('x', 'other', 'x'))
    expect(s.getState().state).toBe(before.state)
    expect(s.getState().predictions).toBe(before.predictions)
  })
})

describe('a resumed run’s answered calls', () => {
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
    const s = createAgentStore<S>({ agent, initialState: {}, onError: (e) => errors.push(e) })
    await s.run()
    await s.approve({ id: 'i2' })
    await s.approve({ id: 'i1' })
    expect(errors.map((e) => [e.code, e.reason])).toStrictEqual([['INVALID_EVENT', 'orphan-result']])
    expect(s.getState().messages.filter((m) => m.role === 'tool')).toStrictEqual([])
  })
})
