// Drafts: state written from a tool call's arguments (or by the server for a mapped key) while a run
// streams, shown in `state` and kept out of `committed` until the run ends or a confirmation is answered:
// which PredictState entries count, the argument reader, predictions, identities, limits and validators.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore, restoreThread, serializeThread } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev, recordedStore } from './helpers'
import { type Doc, documentAndTitle, documentCallStreaming, done, interrupt, predict, storeWithErrors, writeDocument } from './support/scenarios'

type Writing = { document: string; title: string; steps?: { description: string; status: string }[] }
const initialState: Writing = { document: 'old', title: 'T' }

const predictEntries = (...entries: unknown[]) => ev.custom('PredictState', entries)
const mapping = (stateKey: string, tool: string, toolArgument?: string) => ({
  state_key: stateKey,
  tool,
  ...(toolArgument === undefined ? {} : { tool_argument: toolArgument }),
})

/** A store without an agent whose run has started with these PredictState entries. */
function started(initialState: Doc, ...entries: unknown[]) {
  const store = createAgentStore<Doc>({ initialState })
  store.apply([ev.runStarted(), predictEntries(...entries)])
  return store
}

describe('drafts from tool arguments', () => {
  it('grows state[key] chunk by chunk while committed keeps the value from before the run', () => {
    const { store, published } = recordedStore({ initialState })
    store.apply([ev.runStarted(), predict('document', 'write', 'document'), ev.toolStart('c1', 'write')])
    const chunks = ['{"document": "Once', ' upon a', ' time\\', 'n', 'The end', '"}']
    const seen: string[] = []
    for (const chunk of chunks) {
      store.apply(ev.toolArgs('c1', chunk))
      const { state, committed, predictions } = store.getState()
      seen.push(state.document)
      expect(committed.document).toBe('old')
      expect(committed).toBe(published.find((s) => s.committed !== undefined)!.committed)
      expect(predictions).toEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'document', value: state.document, complete: false }])
    }
    // A chunk ending inside an escape shows nothing new until the escape is complete.
    expect(seen).toEqual(['Once', 'Once upon a', 'Once upon a time', 'Once upon a time\n', 'Once upon a time\nThe end', 'Once upon a time\nThe end'])
    store.apply(ev.toolEnd('c1'))
    expect(store.getState().predictions[0]!.complete).toBe(true)
    // No confirmation governs it: the run's end commits the draft.
    store.apply(ev.runFinished())
    const end = store.getState()
    expect(end).toMatchObject({ status: 'idle', predictions: [], confirmations: [] })
    expect(end.committed).toBe(end.state)
    expect(end.state.document).toBe('Once upon a time\nThe end')
  })

  it('maps the whole arguments object with "*" and follows nested partial values', () => {
    const store = createAgentStore({ initialState: { plan: null as unknown } })
    store.apply([ev.runStarted(), predict('plan', 'make_plan', '*'), ev.toolStart('c1', 'make_plan')])
    store.apply(ev.toolArgs('c1', '{"steps":[{"description":"Bo'))
    expect(store.getState().state.plan).toEqual({ steps: [{ description: 'Bo' }] })
    const first = (store.getState().state.plan as { steps: unknown[] }).steps[0]
    store.apply(ev.toolArgs('c1', 'ok"},{"description":"Tr'))
    const plan = store.getState().state.plan as { steps: unknown[] }
    expect(plan).toEqual({ steps: [{ description: 'Book' }, { description: 'Tr' }] })
    expect(plan.steps[0]).not.toBe(first)
    store.apply(ev.toolArgs('c1', 'ain"}]}'))
    expect(store.getState().committed.plan).toBeNull()
  })

  it('takes mappings from the predict option for servers that announce none', async () => {
    const agent = new ScriptedAgent({
      runs: [(input) => [ev.runStarted(input.runId), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"document":"dra'), ev.runError('model failed')]],
    })
    const store = createAgentStore({ agent, initialState, predict: [{ stateKey: 'document', tool: 'write', toolArgument: 'document' }] })
    const seen: string[] = []
    store.subscribe((s) => seen.push(s.state.document))
    await store.run()
    expect(seen).toContain('dra')
    // RUN_ERROR discards the open draft.
    expect(store.getState()).toMatchObject({ status: 'error', state: { document: 'old' }, committed: { document: 'old' }, predictions: [] })
  })

  it('treats server changes to a mapped key during the run as drafts too', () => {
    const store = createAgentStore({ initialState })
    store.apply([ev.runStarted(), predict('document', 'write', 'document')])
    store.apply(ev.delta({ op: 'replace', path: '/document', value: 'from the server' }, { op: 'replace', path: '/title', value: 'New' }))
    const { state, committed, predictions } = store.getState()
    expect(state).toEqual({ document: 'from the server', title: 'New' })
    // The unmapped key is committed as it arrives; the mapped one waits.
    expect(committed).toEqual({ document: 'old', title: 'New' })
    expect(predictions).toEqual([{ toolCallId: undefined, tool: undefined, stateKey: 'document', value: 'from the server', complete: false }])
  })

  it('keeps PredictState to its run', () => {
    const store = createAgentStore({ initialState })
    store.apply([ev.runStarted('r1'), predict('document', 'write', 'document'), ev.runFinished('r1')])
    store.apply([
      ev.runStarted('r2'),
      ev.toolStart('c1', 'write'),
      ev.toolArgs('c1', '{"document":"x"}'),
      ev.delta({ op: 'replace', path: '/document', value: 'y' }),
    ])
    expect(store.getState().predictions).toEqual([])
    expect(store.getState().committed.document).toBe('y')
  })

  it('discards drafts on abort(), or keeps them with keepFailedRunChanges', async () => {
    for (const keepFailedRunChanges of [false, true]) {
      let release = () => {}
      const agent = new ScriptedAgent({
        runs: [
          (input) => [
            ev.runStarted(input.runId),
            predict('document', 'write', 'document'),
            ev.toolStart('c1', 'write'),
            ev.toolArgs('c1', '{"document":"half'),
          ],
        ],
        delay: 1,
      })
      const store = createAgentStore({ agent, initialState, keepFailedRunChanges })
      const done = store.run()
      await new Promise<void>((resolve) => {
        release = resolve
        store.subscribe((s) => s.state.document === 'half' && release())
      })
      store.abort()
      await done
      expect(store.getState().status).toBe('idle')
      expect(store.getState().state.document).toBe(keepFailedRunChanges ? 'half' : 'old')
      expect(store.getState().committed).toBe(store.getState().state)
    }
  })

  it('discards drafts on a cancelled outcome', () => {
    const store = createAgentStore({ initialState })
    store.apply([ev.runStarted(), predict('document', 'write', 'document'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"document":"x"}')])
    store.apply(ev.runFinished('r1', 't1', { type: 'cancelled' }))
    expect(store.getState()).toMatchObject({ status: 'idle', state: { document: 'old' }, predictions: [] })
  })

  it('runs the validator on committed state and local edits, not on drafts in flight', () => {
    const validate = (value: unknown) => {
      const doc = value as Writing
      if (!doc.document.endsWith('.') && doc.document !== 'old') throw new Error('a document ends with a full stop')
      return doc
    }
    const { store } = recordedStore({ initialState, validate })
    store.apply([ev.runStarted(), predict('document', 'write', 'document'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"document":"no full stop yet')])
    expect(store.getState()).toMatchObject({ state: { document: 'no full stop yet' }, error: undefined })
    store.setState((s) => ({ ...s, document: 'user text' }))
    expect(store.getState()).toMatchObject({ state: { document: 'no full stop yet' }, error: { code: 'VALIDATION' } })
  })

  it('discards, with VALIDATION, a draft the validator refuses once the run ends', () => {
    const validate = (value: unknown) => {
      if ((value as Writing).document.includes('forbidden')) throw new Error('no forbidden words')
      return value as Writing
    }
    const { store, errors } = recordedStore({ initialState, validate })
    store.apply([
      ev.runStarted(),
      predict('document', 'write', 'document'),
      ev.toolStart('c1', 'write'),
      ev.toolArgs('c1', '{"document":"forbidden"}'),
      ev.toolEnd('c1'),
    ])
    expect(store.getState().state.document).toBe('forbidden')
    store.apply(ev.runFinished())
    expect(store.getState()).toMatchObject({
      status: 'idle',
      state: { document: 'old' },
      committed: { document: 'old' },
      predictions: [],
      error: { code: 'VALIDATION' },
    })
    expect(errors).toHaveLength(1)
  })
})

describe('PredictState entries', () => {
  it('a value that is not an array maps nothing', () => {
    const store = createAgentStore<Doc>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted(), ev.custom('PredictState', mapping('doc', 'write', 'doc')), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new"}')])
    expect(store.getState().state).toStrictEqual({ doc: 'old' })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('malformed entries are skipped and the valid ones still count', () => {
    const store = started(
      { doc: 'old' },
      null,
      'doc',
      ['doc', 'write'],
      { state_key: 1, tool: 'write' },
      { state_key: 'doc', tool: 2 },
      { state_key: 'doc' },
      { tool: 'write' },
      mapping('__proto__', 'write'),
      mapping('doc', 'write', 'doc'),
    )
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new"}')])
    const { state, committed, predictions } = store.getState()
    expect(state).toStrictEqual({ doc: 'new' })
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype)
    expect(committed).toStrictEqual({ doc: 'old' })
    expect(predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'new', complete: false }])
  })

  it('an entry naming no one tool_argument string maps the whole arguments object', () => {
    const store = started({ plan: null }, { state_key: 'plan', tool: 'make', tool_argument: 5 })
    store.apply([ev.toolStart('c1', 'make'), ev.toolArgs('c1', '{"a":1,"b":"x"}')])
    expect(store.getState().state).toStrictEqual({ plan: { a: 1, b: 'x' } })
  })

  it('an entry of another tool does not draft', () => {
    const store = started({ doc: 'old' }, mapping('doc', 'other', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new"}')])
    expect(store.getState().state).toStrictEqual({ doc: 'old' })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('a value that is not an array is no error', () => {
    const errors: unknown[] = []
    const store = createAgentStore<Doc>({ initialState: { doc: 'old' }, onError: (e) => errors.push(e) })
    store.apply([ev.runStarted(), ev.custom('PredictState', { state_key: 'doc', tool: 'write' })])
    expect(errors).toStrictEqual([])
    expect(store.getState().error).toBeUndefined()
  })

  it('an entry whose tool is not a string maps nothing, not even for server changes', () => {
    const store = started({ doc: 'old' }, { state_key: 'doc', tool: 7 })
    store.apply(ev.delta({ op: 'replace', path: '/doc', value: 'srv' }))
    expect(store.getState().predictions).toStrictEqual([])
    expect(store.getState().committed).toBe(store.getState().state)
  })
})

describe('a PredictState that arrives while its tool streams', () => {
  it('drafts from the text received so far', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"so far')])
    expect(s.getState().state).toStrictEqual({ doc: 'old' })
    s.apply(predict('doc', 'write', 'doc'))
    expect(s.getState().state).toStrictEqual({ doc: 'so far' })
    s.apply(ev.toolArgs('c1', ' and on"}'))
    expect(s.getState().state).toStrictEqual({ doc: 'so far and on' })
  })

  it('for another tool changes nothing', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"so far')])
    const before = s.getState()
    s.apply(predict('doc', 'other', 'doc'))
    expect(s.getState().state).toBe(before.state)
    expect(s.getState().predictions).toStrictEqual([])
  })

  it('drafts at once, naming the call, and commits at the run end', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([ev.runStarted('r1'), ev.toolStart('w1', 'write_document'), ev.toolArgs('w1', '{"document":"Hel')])
    expect(store.getState().state).toStrictEqual({ document: 'before' })
    store.apply(predict('document', 'write_document', 'document'))
    expect(store.getState().state).toStrictEqual({ document: 'Hel' })
    expect(store.getState().predictions.map((p) => [p.toolCallId, p.stateKey, p.value, p.complete])).toStrictEqual([['w1', 'document', 'Hel', false]])
    store.apply([ev.toolArgs('w1', 'lo"}'), ev.toolEnd('w1'), ev.runFinished('r1')])
    expect(store.getState().committed).toStrictEqual({ document: 'Hello' })
  })

  it('after TOOL_CALL_START but before any argument still drafts the key', () => {
    const store = createAgentStore({ initialState: { document: 'before' } })
    store.apply([
      ev.runStarted('r1'),
      ev.toolStart('w1', 'write_document'),
      predict('document', 'write_document', 'document'),
      ev.toolArgs('w1', '{"document":"Hel'),
    ])
    expect(store.getState().state).toStrictEqual({ document: 'Hel' })
    store.apply([ev.toolArgs('w1', 'lo"}'), ev.toolEnd('w1'), interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])])
    expect(store.getState().state).toStrictEqual({ document: 'Hello' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().confirmations[0]!.stateKeys).toStrictEqual(['document'])
  })

  it('with mappings for two tools drafts the streaming call of one of them', () => {
    const { store: s } = storeWithErrors({ title: 'T' })
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
    const { store: s } = storeWithErrors({ doc: {} })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"t":"a"}')])
    const before = s.getState()
    expect(before.state).toStrictEqual({ doc: { t: 'a' } })
    s.apply(predict('x', 'other', 'x'))
    expect(s.getState().state).toBe(before.state)
    expect(s.getState().predictions).toBe(before.predictions)
  })
})

describe('a draft of a key that did not exist', () => {
  it('is absent from committed while it streams, and gone again when the run fails', () => {
    const store = started({ title: 'T' }, mapping('doc', 'write', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"ne')])
    expect(store.getState().state).toStrictEqual({ title: 'T', doc: 'ne' })
    expect(store.getState().committed).toStrictEqual({ title: 'T' })
    store.apply(ev.runError('boom'))
    expect(store.getState().state).toStrictEqual({ title: 'T' })
    expect(store.getState().committed).toStrictEqual({ title: 'T' })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('is committed when the run finishes', () => {
    const store = started({ title: 'T' }, mapping('doc', 'write', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new"}'), ev.toolEnd('c1'), ev.runFinished()])
    const { state, committed } = store.getState()
    expect(state).toStrictEqual({ title: 'T', doc: 'new' })
    expect(committed).toBe(state)
  })
})

describe('a drafted key the server removes', () => {
  it('is absent from the view, with a prediction whose value is undefined', () => {
    const store = started({ doc: 'old', title: 'T' }, mapping('doc', 'write', 'doc'))
    store.apply(ev.delta({ op: 'remove', path: '/doc' }))
    const { state, committed, predictions } = store.getState()
    expect(state).toStrictEqual({ title: 'T' })
    expect(committed).toStrictEqual({ doc: 'old', title: 'T' })
    expect(predictions).toStrictEqual([{ toolCallId: undefined, tool: undefined, stateKey: 'doc', value: undefined, complete: false }])
  })
})

describe('committed while a draft streams', () => {
  it('keeps its identity from chunk to chunk and from unrelated events', () => {
    const store = started({ doc: 'old', title: 'T' }, mapping('doc', 'write', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"a')])
    const committed = store.getState().committed
    expect(committed).toStrictEqual({ doc: 'old', title: 'T' })
    store.apply(ev.toolArgs('c1', 'bc'))
    store.apply([ev.textStart('m1'), ev.text('m1', 'hi')])
    expect(store.getState().state).toStrictEqual({ doc: 'abc', title: 'T' })
    expect(store.getState().committed).toBe(committed)
  })

  it('follows a server change of another key, of a key it lacked, and a removal', () => {
    const store = started({ doc: 'old', title: 'T' }, mapping('doc', 'write', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"a')])
    store.apply(ev.delta({ op: 'replace', path: '/title', value: 'U' }))
    expect(store.getState().committed).toStrictEqual({ doc: 'old', title: 'U' })
    store.apply(ev.delta({ op: 'add', path: '/extra', value: 1 }))
    expect(store.getState().committed).toStrictEqual({ doc: 'old', title: 'U', extra: 1 })
    store.apply(ev.delta({ op: 'remove', path: '/title' }))
    expect(store.getState().committed).toStrictEqual({ doc: 'old', extra: 1 })
    store.apply(ev.toolArgs('c1', 'b'))
    expect(store.getState().state).toStrictEqual({ doc: 'ab', extra: 1 })
  })

  it('with two drafts, one of a key that did not exist, keeps both baselines', () => {
    const store = started({ doc: 'old', title: 'T' }, mapping('doc', 'write', 'doc'), mapping('notes', 'write', 'notes'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"a","notes":"n')])
    const first = store.getState()
    expect(first.state).toStrictEqual({ doc: 'a', title: 'T', notes: 'n' })
    expect(first.committed).toStrictEqual({ doc: 'old', title: 'T' })
    store.apply(ev.toolArgs('c1', 'n'))
    expect(store.getState().committed).toBe(first.committed)
    store.apply(ev.delta({ op: 'replace', path: '/title', value: 'U' }))
    expect(store.getState().committed).toStrictEqual({ doc: 'old', title: 'U' })
  })
})

describe('predictions', () => {
  it('keep their identity while nothing of theirs changes, one per draft in order', () => {
    const store = started({ a: '', b: '' }, mapping('a', 'write', 'a'), mapping('b', 'write', 'b'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"a":"x","b":"y')])
    const first = store.getState().predictions
    expect(first).toStrictEqual([
      { toolCallId: 'c1', tool: 'write', stateKey: 'a', value: 'x', complete: false },
      { toolCallId: 'c1', tool: 'write', stateKey: 'b', value: 'y', complete: false },
    ])
    store.apply([ev.textStart('m1'), ev.text('m1', 'hi')])
    expect(store.getState().predictions).toBe(first)
    store.apply(ev.toolArgs('c1', 'z'))
    const second = store.getState().predictions
    expect(second).toStrictEqual([
      { toolCallId: 'c1', tool: 'write', stateKey: 'a', value: 'x', complete: false },
      { toolCallId: 'c1', tool: 'write', stateKey: 'b', value: 'yz', complete: false },
    ])
    expect(second[0]).toBe(first[0])
    store.apply([ev.toolArgs('c1', '"}'), ev.toolEnd('c1')])
    expect(store.getState().predictions.map((p) => p.complete)).toStrictEqual([true, true])
  })

  it('one draft: a new prediction when its value, its tool call or completeness changes', () => {
    const store = started({ doc: 'old' }, mapping('doc', 'write', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"a')])
    const first = store.getState().predictions
    store.apply(ev.toolArgs('c1', '\\'))
    expect(store.getState().predictions).toBe(first)
    store.apply(ev.toolArgs('c1', 'n'))
    expect(store.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'a\n', complete: false }])
    store.apply([ev.toolArgs('c1', '"}'), ev.toolEnd('c1')])
    expect(store.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'a\n', complete: true }])
    store.apply([ev.toolStart('c2', 'write'), ev.toolArgs('c2', '{"doc":"a\\n"}')])
    expect(store.getState().predictions).toStrictEqual([{ toolCallId: 'c2', tool: 'write', stateKey: 'doc', value: 'a\n', complete: false }])
  })

  it('a server draft taken over by a tool call names the call', () => {
    const store = started({ doc: 'old' }, mapping('doc', 'write', 'doc'))
    store.apply(ev.delta({ op: 'replace', path: '/doc', value: 'srv' }))
    expect(store.getState().predictions).toStrictEqual([{ toolCallId: undefined, tool: undefined, stateKey: 'doc', value: 'srv', complete: false }])
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"x"}')])
    expect(store.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'x', complete: false }])
    expect(store.getState().committed).toStrictEqual({ doc: 'old' })
  })

  it('go when their drafts go: empty and stable after the run', () => {
    const store = started({ a: 0, b: 0 }, mapping('a', 'write', 'a'), mapping('b', 'write', 'b'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"a":1,"b":2}'), ev.toolEnd('c1'), ev.runFinished()])
    const after = store.getState()
    expect(after.predictions).toStrictEqual([])
    expect(after.state).toStrictEqual({ a: 1, b: 2 })
    store.apply([ev.textStart('m1'), ev.text('m1', 'x')])
    expect(store.getState().predictions).toBe(after.predictions)
  })
})

describe('predictions follow their drafts', () => {
  it('a second draft that appears later gets its own prediction', () => {
    const store = started({ a: '', b: '' }, mapping('a', 'write', 'a'), mapping('b', 'write', 'b'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"a":"x",')])
    expect(store.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['a'])
    store.apply(ev.toolArgs('c1', '"b":"y'))
    expect(store.getState().predictions.map((p) => [p.stateKey, p.value])).toStrictEqual([
      ['a', 'x'],
      ['b', 'y'],
    ])
  })

  it('when the first of two equal drafts is taken over by the user, the other one is left', () => {
    const store = started({ a: '', b: '' }, mapping('a', 'write', 'a'), mapping('b', 'write', 'b'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"a":"x","b":"x')])
    store.setState((s) => ({ ...s, a: 'mine' }))
    expect(store.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'b', value: 'x', complete: false }])
  })

  it('when the second of two drafts is taken over, the first one is left', () => {
    const store = started({ a: '', b: '' }, mapping('a', 'write', 'a'), mapping('b', 'write', 'b'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"a":"x","b":"y')])
    store.setState((s) => ({ ...s, b: 'mine' }))
    expect(store.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'a', value: 'x', complete: false }])
  })

  it('a second call writing the same value names itself', () => {
    const store = started({ doc: '' }, mapping('doc', 'write', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"x'), ev.toolStart('c2', 'write'), ev.toolArgs('c2', '{"doc":"x')])
    expect(store.getState().predictions).toStrictEqual([{ toolCallId: 'c2', tool: 'write', stateKey: 'doc', value: 'x', complete: false }])
  })
})

describe('committed keeps its identity across server events that change none of it', () => {
  const same = (store: ReturnType<typeof started>, event: ReturnType<typeof ev.delta>) => {
    const before = store.getState().committed
    store.apply(event)
    return store.getState().committed === before
  }

  it('with a draft of an existing key', () => {
    const store = started({ doc: 'old', title: 'T' }, mapping('doc', 'write', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"a')])
    expect(same(store, ev.delta({ op: 'replace', path: '/title', value: 'T' }))).toBe(true)
    expect(same(store, ev.delta({ op: 'replace', path: '/title', value: 'U' }))).toBe(false)
  })

  it('with a draft of a key that did not exist', () => {
    const store = started({ title: 'T' }, mapping('doc', 'write', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"a')])
    expect(same(store, ev.delta({ op: 'replace', path: '/title', value: 'T' }))).toBe(true)
    expect(store.getState().committed).toStrictEqual({ title: 'T' })
    expect(same(store, ev.delta({ op: 'add', path: '/more', value: 1 }))).toBe(false)
    expect(store.getState().committed).toStrictEqual({ title: 'T', more: 1 })
  })

  it('with a drafted key the server removed', () => {
    const store = started({ doc: 'old', title: 'T' }, mapping('doc', 'write', 'doc'))
    store.apply(ev.delta({ op: 'remove', path: '/doc' }))
    expect(same(store, ev.delta({ op: 'replace', path: '/title', value: 'T' }))).toBe(true)
    expect(store.getState().committed).toStrictEqual({ doc: 'old', title: 'T' })
    expect(same(store, ev.delta({ op: 'remove', path: '/title' }))).toBe(false)
    expect(store.getState().committed).toStrictEqual({ doc: 'old' })
  })
})

describe('identities kept while drafts stream', () => {
  it('an argument nobody maps changes no state object', () => {
    const store = started({ doc: 'old' }, mapping('doc', 'write', 'doc'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"a"')])
    const before = store.getState().state
    store.apply(ev.toolArgs('c1', ',"other":"z"'))
    expect(store.getState().state).toBe(before)
  })

  it('a rejected draft of a new key gives back the very state from before the run', () => {
    const store = createAgentStore<Doc>({ initialState: { title: 'T' } })
    const before = store.getState().state
    store.apply([
      ev.runStarted('r1'),
      predictEntries(mapping('doc', 'write', 'doc')),
      ev.toolStart('w1', 'write'),
      ev.toolArgs('w1', '{"doc":"new"}'),
      ev.toolEnd('w1'),
      ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }] }),
    ])
    void store.reject({ id: 'i1' })
    expect(store.getState().state).toBe(before)
  })

  it('without drafts, committed is the state itself after every server event', () => {
    const store = started({ doc: 'old' })
    store.apply(ev.snapshot({ doc: 'old' }))
    expect(store.getState().committed).toBe(store.getState().state)
    store.apply(ev.runFinished())
    const after = store.getState()
    store.apply(ev.snapshot({ doc: 'old' }))
    expect(store.getState().committed).toBe(store.getState().state)
    expect(store.getState().predictions).toBe(after.predictions)
  })

  it('predictions keep their identity across server events that change none of them', () => {
    const store = started({ a: '', b: '', n: 0 }, mapping('a', 'write', 'a'), mapping('b', 'write', 'b'))
    store.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"a":"x","b":"y')])
    const two = store.getState().predictions
    store.apply(ev.delta({ op: 'replace', path: '/n', value: 1 }))
    expect(store.getState().predictions).toBe(two)
    const removed = started({ doc: 'old', n: 0 }, mapping('doc', 'write', 'doc'))
    removed.apply(ev.delta({ op: 'remove', path: '/doc' }))
    const one = removed.getState().predictions
    removed.apply(ev.delta({ op: 'replace', path: '/n', value: 1 }))
    expect(removed.getState().predictions).toBe(one)
  })
})

describe('drafts over a state that is not an object', () => {
  it('leave the state as it is', () => {
    const store = createAgentStore<unknown>({ initialState: [1, 2] })
    store.apply([ev.runStarted(), predictEntries(mapping('doc', 'write', 'doc')), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new"}')])
    expect(store.getState().state).toStrictEqual([1, 2])
    expect(store.getState().committed).toStrictEqual([1, 2])
  })
})

describe('tool calls that draft nothing', () => {
  it('arguments of an unknown or unmapped call change no state', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'read'), ev.toolArgs('c1', '{"doc":"x"}'), ev.toolEnd('c1')])
    expect(s.getState().state).toStrictEqual({ doc: 'old' })
    expect(s.getState().predictions).toStrictEqual([])
  })

  it('an argument the call never sends leaves the key as it was, and the end of the call completes the draft', () => {
    const { store: s } = storeWithErrors({ doc: 'old', title: 'T' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), predict('title', 'write', 'title'), ev.toolStart('c1', 'write')])
    s.apply(ev.toolArgs('c1', '{"doc":"new"}'))
    expect(s.getState().state).toStrictEqual({ doc: 'new', title: 'T' })
    expect(s.getState().predictions.map((p) => [p.stateKey, p.complete])).toStrictEqual([['doc', false]])
    s.apply(ev.toolEnd('c1'))
    expect(s.getState().predictions.map((p) => [p.stateKey, p.complete])).toStrictEqual([['doc', true]])
  })

  it('one tool’s arguments never write another tool’s mapped keys', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'd0', title: 't0' } })
    store.apply([
      ev.runStarted('r1'),
      documentAndTitle,
      ev.toolStart('s1', 'set_title'),
      ev.toolArgs('s1', '{"title":"T","document":"not mine"}'),
      ev.toolEnd('s1'),
    ])
    expect(store.getState().state).toStrictEqual({ document: 'd0', title: 'T' })
    expect(store.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['title'])
  })
})

describe('the argument reader', () => {
  it('a call restated mid-stream drafts from its new arguments only', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"first"}')])
    expect(s.getState().state).toStrictEqual({ doc: 'first' })
    s.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"sec')])
    expect(s.getState().state).toStrictEqual({ doc: 'sec' })
    s.apply(ev.toolArgs('c1', 'ond"}'))
    expect(s.getState().state).toStrictEqual({ doc: 'second' })
  })

  it('a second mapping for a tool already drafting reads the text received so far', () => {
    const { store: s } = storeWithErrors({ doc: 'old', title: 'T' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"a","title":"b')])
    expect(s.getState().state).toStrictEqual({ doc: 'a', title: 'T' })
    s.apply(predict('title', 'write', 'title'))
    expect(s.getState().state).toStrictEqual({ doc: 'a', title: 'b' })
    s.apply(ev.toolArgs('c1', 'c"}'))
    expect(s.getState().state).toStrictEqual({ doc: 'a', title: 'bc' })
    expect(s.getState().predictions.map((p) => [p.stateKey, p.value])).toStrictEqual([
      ['doc', 'a'],
      ['title', 'bc'],
    ])
  })

  it('the end of a call completes its value: a number the text left open is read at the end', () => {
    const { store: s } = storeWithErrors({ n: 0 })
    s.apply([ev.runStarted(), predict('n', 'count', 'n'), ev.toolStart('c1', 'count'), ev.toolArgs('c1', '{"n":12')])
    const during = s.getState().state
    s.apply(ev.toolEnd('c1'))
    expect(during).toStrictEqual({ n: 0 })
    expect(s.getState().state).toStrictEqual({ n: 12 })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'count', stateKey: 'n', value: 12, complete: true }])
  })
})

describe('the argument text a call drafts from', () => {
  it('is found in an earlier message, among other calls of that message', () => {
    const { store: s, errors } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c0', 'other', 'm1'), ev.toolStart('c1', 'write', 'm1')])
    s.apply([ev.textStart('m2'), ev.text('m2', 'hi'), ev.textEnd('m2'), ev.toolArgs('c1', '{"doc":"x"}')])
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'x' })
  })

  it('replaced by a messages snapshot mid-stream: the end of the call reads the new text whole', () => {
    const { store: s, errors } = storeWithErrors({ n: 0 })
    s.apply([ev.runStarted(), predict('n', 'count', 'n'), ev.toolStart('c1', 'count', 'm1'), ev.toolArgs('c1', '{"n":12')])
    const messages = [{ id: 'm1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'count', arguments: '{"n":345' } }] }]
    s.apply({ type: 'MESSAGES_SNAPSHOT', messages } as BaseEvent)
    s.apply(ev.toolEnd('c1'))
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ n: 345 })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'count', stateKey: 'n', value: 345, complete: true }])
  })

  it('in a restored thread: the end of the call reads the whole text, a bare number known only at its end', () => {
    const { store: a } = storeWithErrors({ n: 0 })
    a.apply([ev.runStarted(), predict('n', 'count'), ev.toolStart('c1', 'count', 'm1'), ev.toolArgs('c1', '4'), ev.toolArgs('c1', '2')])
    expect(a.getState().state).toStrictEqual({ n: 0 })
    const b = createAgentStore<Doc>({ initialState: { n: 0 }, restore: restoreThread(serializeThread(a)) })
    b.apply(ev.toolEnd('c1'))
    expect(b.getState().state).toStrictEqual({ n: 42 })
    expect(b.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'count', stateKey: 'n', value: 42, complete: true }])
  })

  it('gone from the messages: the end of the call completes the draft as it was, within the limits', () => {
    // {"doc":""} is 10 bytes, plus 2 for the mapping: the text '{"doc":"ab' (10) makes 22.
    const { store: s, errors } = storeWithErrors({ doc: '' }, { limits: { maxStateBytes: 28 } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write', 'm1'), ev.toolArgs('c1', '{"doc":"ab')])
    s.apply({ type: 'MESSAGES_SNAPSHOT', messages: [] } as unknown as BaseEvent)
    s.apply(ev.toolEnd('c1'))
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'ab' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'ab', complete: true }])
  })

  it('of a call started again after it ended with no arguments is read afresh', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write', 'm1'), ev.toolEnd('c1')])
    s.apply([ev.toolStart('c1', 'write', 'm1'), ev.toolArgs('c1', '{"doc":"x"}')])
    expect(s.getState().state).toStrictEqual({ doc: 'x' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'x', complete: false }])
  })

  it('an empty chunk changes nothing at all', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    const before = s.getState()
    s.apply(ev.toolArgs('c1', ''))
    expect(s.getState()).toBe(before)
  })

  it('arguments for a call of a run that has ended are recorded, and draft nothing', () => {
    const { store: s, errors } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write', 'm1'), ev.runFinished()])
    s.apply(ev.toolArgs('c1', '{"doc":"x"}'))
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'old' })
    expect(s.getState().messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.function.arguments) : []))).toStrictEqual([
      '{"doc":"x"}',
    ])
  })

  it('of a tool no mapping names is not bounded by the state limits', () => {
    const { store: s, errors } = storeWithErrors({ doc: '' }, { limits: { maxStateBytes: 40 } })
    const args = JSON.stringify({ q: 'x'.repeat(60) })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'read'), ev.toolArgs('c1', args), ev.toolEnd('c1')])
    expect(errors).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: '' })
  })

  it('nested past maxDepth with the bound exactly at maxStateBytes is reported as maxDepth', () => {
    // {"doc":null} is 12 bytes, plus 2 for the mapping; the text comes to 30: a bound of 44.
    const { store: s, errors } = storeWithErrors({ doc: null }, { limits: { maxDepth: 4, maxStateBytes: 44 } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"a":{"b":1,')])
    s.apply(ev.toolArgs('c1', '"c":{"d":1}'))
    expect(s.getState().state).toStrictEqual({ doc: { a: { b: 1 } } })
    expect(errors.map((e) => [e.code, e.limit])).toStrictEqual([['LIMIT_EXCEEDED', 'maxDepth']])
  })
})

describe('the call a streaming draft names', () => {
  it('a second call of the tool streaming into the same key takes the draft over', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolStart('c2', 'write')])
    s.apply([ev.toolArgs('c1', '{"doc":"a'), ev.toolArgs('c2', '{"doc":"b')])
    expect(s.getState().state).toStrictEqual({ doc: 'b' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c2', tool: 'write', stateKey: 'doc', value: 'b', complete: false }])
  })

  it('a call started again under another tool names that tool', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), predict('doc', 'edit', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply([ev.toolStart('c1', 'edit'), ev.toolArgs('c1', '{"doc":"new')])
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'edit', stateKey: 'doc', value: 'new', complete: false }])
  })
})

describe('the limits of a streaming draft', () => {
  it('a draft that would pass maxStateBytes stops at its last value, said once', () => {
    const { store: s, errors } = storeWithErrors({ doc: '' }, { limits: { maxStateBytes: 60 } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"short')])
    expect(s.getState().state).toStrictEqual({ doc: 'short' })
    s.apply(ev.toolArgs('c1', ' and then a great deal more text than fits'))
    s.apply(ev.toolArgs('c1', ' and more'))
    expect(s.getState().state).toStrictEqual({ doc: 'short' })
    expect(errors.map((e) => [e.code, e.limit, e.message])).toStrictEqual([
      ['LIMIT_EXCEEDED', 'maxStateBytes', 'The arguments of tool call c1 exceed maxStateBytes: its draft stops at the last value within the limits'],
    ])
  })

  it('a draft nested deeper than maxDepth stops too', () => {
    const { store: s, errors } = storeWithErrors({ doc: null }, { limits: { maxDepth: 4 } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"a":{"b":1,')])
    expect(s.getState().state).toStrictEqual({ doc: { a: { b: 1 } } })
    s.apply(ev.toolArgs('c1', '"c":{"d":1}'))
    expect(s.getState().state).toStrictEqual({ doc: { a: { b: 1 } } })
    expect(errors.map((e) => [e.code, e.limit])).toStrictEqual([['LIMIT_EXCEEDED', 'maxDepth']])
  })
})

describe('the size bound of a streaming draft, exactly', () => {
  // {"doc":""} is 10 bytes; the text below is 11; two mappings add 2 each: a bound of 25.
  const text = '{"doc":"abc'

  const run = (maxStateBytes: number) => {
    const created = storeWithErrors({ doc: '' }, { limits: { maxStateBytes } })
    created.store.apply([
      ev.runStarted(),
      predict('doc', 'write', 'doc'),
      predict('title', 'write', 'title'),
      ev.toolStart('c1', 'write'),
      ev.toolArgs('c1', text),
    ])
    return created
  }

  it('a bound equal to maxStateBytes passes', () => {
    const { store: s, errors } = run(25)
    expect(s.getState().state).toStrictEqual({ doc: 'abc' })
    expect(errors).toStrictEqual([])
  })

  it('one byte less stops the draft', () => {
    const { store: s, errors } = run(24)
    expect(s.getState().state).toStrictEqual({ doc: '' })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
  })
})

describe('the validator under drafts', () => {
  it('runs when the committed state changes, not when only a drafted key does', () => {
    const seen: unknown[] = []
    const s = createAgentStore<Doc>({
      initialState: { doc: 'old', n: 0 },
      validate: (value) => {
        seen.push(value)
        return value as Doc
      },
    })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    expect(seen).toHaveLength(1)
    s.apply(ev.snapshot({ doc: 'other', n: 0 }))
    expect(s.getState().state).toStrictEqual({ doc: 'other', n: 0 })
    expect(seen).toHaveLength(1)
    s.apply(ev.snapshot({ doc: 'other', n: 1 }))
    expect(seen).toStrictEqual([
      { doc: 'old', n: 0 },
      { doc: 'old', n: 1 },
    ])
  })

  it('a committed state the validator refuses leaves the state as it was', () => {
    const errors: AgentStoreError[] = []
    const s = createAgentStore<Doc>({
      initialState: { doc: 'old', n: 0 },
      onError: (e) => errors.push(e),
      validate: (value) => {
        if ((value as Doc).n === 2) throw new Error('no 2')
        return value as Doc
      },
    })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    const before = s.getState()
    s.apply(ev.delta({ op: 'replace', path: '/n', value: 2 }))
    expect(s.getState().state).toBe(before.state)
    expect(s.getState().committed).toBe(before.committed)
    expect(errors.map((e) => [e.code, e.message])).toStrictEqual([['VALIDATION', 'State rejected by the validator: no 2']])
  })
})

describe('drafts and the run they belong to', () => {
  it('a draft opened by apply() without a run end is discarded when run() starts; no prediction outlives it', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    store.apply([ev.runStarted('r0'), ...documentCallStreaming('{"document":"half')])
    expect(store.getState().predictions).toHaveLength(1)
    await store.run()
    expect(agent.inputs[0]!.state).toStrictEqual({ document: 'before' })
    expect(store.getState().predictions).toStrictEqual([])
    expect(store.getState().state).toStrictEqual({ document: 'before' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().status).toBe('idle')
  })

  it('a new apply() run settles drafts an earlier apply() sequence left open (discarded, as a truncated run)', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([ev.runStarted('r0'), ...documentCallStreaming('{"document":"half')])
    store.apply([ev.runStarted('r1'), ev.runFinished('r1')])
    expect(store.getState().state).toStrictEqual({ document: 'before' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().predictions).toStrictEqual([])
    expect(store.getState().status).toBe('idle')
  })

  it('drafts made before RUN_STARTED take the run id it gives, so RUN_FINISHED commits them and no prediction stays', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'old' } })
    store.apply([...writeDocument('a'), ev.runStarted('r5'), ev.runFinished('r5')])
    expect(store.getState().status).toBe('idle')
    expect(store.getState().state).toStrictEqual({ document: 'a' })
    expect(store.getState().committed).toStrictEqual({ document: 'a' })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('drafts made before RUN_STARTED are discarded with their run when a later RUN_STARTED supersedes it', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'old' } })
    store.apply([...writeDocument('a'), ev.runStarted('r5'), ev.runStarted('r6'), ev.runFinished('r6')])
    expect(store.getState().state).toStrictEqual({ document: 'old' })
    expect(store.getState().committed).toStrictEqual({ document: 'old' })
    expect(store.getState().predictions).toStrictEqual([])
  })
})
