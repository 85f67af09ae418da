import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../../src'
import { ev } from '../helpers'

// Drafts pinned through the public API: which PredictState entries count, what `committed` and
// `predictions` hold (absent keys absent, not undefined), and when they keep their identity.

type S = Record<string, unknown>
const predictEntries = (...entries: unknown[]) => ev.custom('PredictState', entries)
const mapping = (stateKey: string, tool: string, toolArgument?: string) => ({
  state_key: stateKey,
  tool,
  ...(toolArgument === undefined ? {} : { tool_argument: toolArgument }),
})

function started(initialState: S, ...entries: unknown[]) {
  const store = createAgentStore<S>({ initialState })
  store.apply([ev.runStarted(), predictEntries(...entries)])
  return store
}

describe('PredictState entries', () => {
  it('a value that is not an array maps nothing', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
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

describe('PredictState entries, more', () => {
  it('a value that is not an array is no error', () => {
    const errors: unknown[] = []
    const store = createAgentStore<S>({ initialState: { doc: 'old' }, onError: (e) => errors.push(e) })
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

describe('drafts over a state that is not an object', () => {
  it('leave the state as it is', () => {
    const store = createAgentStore<unknown>({ initialState: [1, 2] })
    store.apply([ev.runStarted(), predictEntries(mapping('doc', 'write', 'doc')), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new"}')])
    expect(store.getState().state).toStrictEqual([1, 2])
    expect(store.getState().committed).toStrictEqual([1, 2])
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
    const store = createAgentStore<S>({ initialState: { title: 'T' } })
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
