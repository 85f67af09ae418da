import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore } from '../../src'
import { ev } from '../helpers'

// Server state under drafts, pinned through the public API: the held opening snapshot, server
// values against a draft's baseline, who a server draft names as its writer, and the limits a
// streaming draft stops at.

type S = Record<string, unknown>
const predict = (stateKey: string, tool: string, toolArgument?: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, ...(toolArgument === undefined ? {} : { tool_argument: toolArgument }) }])

function store(initialState: S, options: { limits?: { maxStateBytes?: number; maxDepth?: number } } = {}) {
  const errors: AgentStoreError[] = []
  const created = createAgentStore<S>({ initialState, onError: (e) => errors.push(e), ...options })
  return { store: created, errors }
}

describe("a run's opening empty snapshot", () => {
  it('is held from view until the next state event', () => {
    const { store: s } = store({ doc: 'x' })
    s.apply([ev.runStarted(), ev.snapshot({})])
    expect(s.getState().state).toStrictEqual({ doc: 'x' })
    s.apply(ev.delta({ op: 'add', path: '/a', value: 1 }))
    expect(s.getState().state).toStrictEqual({ a: 1 })
  })

  it('shows when it is not the first state event, or the state was empty already', () => {
    const later = store({ doc: 'x' }).store
    later.apply([ev.runStarted(), ev.delta({ op: 'add', path: '/a', value: 1 }), ev.snapshot({})])
    expect(later.getState().state).toStrictEqual({})
    const empty = store({}).store
    empty.apply([ev.runStarted(), ev.snapshot({})])
    expect(empty.getState().state).toStrictEqual({})
  })

  it('a held snapshot followed by the same value shows it', () => {
    const { store: s } = store({ doc: 'x' })
    s.apply([ev.runStarted(), ev.snapshot({}), ev.snapshot({})])
    expect(s.getState().state).toStrictEqual({})
  })

  it('is held over a user edit made in the run too: the edit stays shown, and nothing is reported', () => {
    const { store: s, errors } = store({ doc: 'x', n: 0 })
    s.apply(ev.runStarted())
    s.setState((v) => ({ ...v, n: 1 }))
    s.apply(ev.snapshot({}))
    expect(s.getState().state).toStrictEqual({ doc: 'x', n: 1 })
    expect(errors).toStrictEqual([])
    expect(s.getState().error).toBeUndefined()
  })

  it('a delta that empties the state is shown at once, and a held snapshot shows at the run end', () => {
    const delta = store({ doc: 'x' }).store
    delta.apply([ev.runStarted(), ev.delta({ op: 'remove', path: '/doc' })])
    expect(delta.getState().state).toStrictEqual({})
    const held = store({ doc: 'x' }).store
    held.apply([ev.runStarted(), ev.snapshot({})])
    expect(held.getState().state).toStrictEqual({ doc: 'x' })
    held.apply(ev.runFinished())
    expect(held.getState().state).toStrictEqual({})
    expect(held.getState().committed).toStrictEqual({})
  })
})

describe('server values for drafted keys', () => {
  it('the baseline echoed by the server never replaces a draft from the arguments', () => {
    const { store: s } = store({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply(ev.snapshot({ doc: 'old', n: 1 }))
    expect(s.getState().state).toStrictEqual({ doc: 'new', n: 1 })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
  })

  it('an equal copy of an object baseline does not either', () => {
    const { store: s } = store({ doc: { t: 'old' } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"t":"new"')])
    s.apply(ev.snapshot({ doc: { t: 'old' } }))
    expect(s.getState().state).toStrictEqual({ doc: { t: 'new' } })
  })

  it('a server value that differs from the baseline becomes the draft', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply(ev.snapshot({ doc: 'server' }))
    expect(s.getState().state).toStrictEqual({ doc: 'server' })
    expect(s.getState().committed).toStrictEqual({ doc: 'old' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'server', complete: false }])
  })

  it('a server draft the server puts back to the baseline is no draft any more', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.snapshot({ doc: 'server' })])
    expect(s.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['doc'])
    s.apply(ev.snapshot({ doc: 'old' }))
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'old' })
    expect(s.getState().committed).toBe(s.getState().state)
  })

  it('a server change of a mapped key names the call of that tool still streaming', () => {
    const { store: s } = store({ doc: 'old', other: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('x1', 'other'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"no')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'server', complete: false }])
  })

  it('of two calls of the tool still streaming, the later one is named', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolStart('c2', 'write')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions.map((p) => p.toolCallId)).toStrictEqual(['c2'])
  })

  it('a server copy equal to the value before the run is no draft', () => {
    const { store: s } = store({ doc: { t: 'old' } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.snapshot({ doc: { t: 'old' } })])
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().committed).toBe(s.getState().state)
  })

  it('a server change of a key that is not mapped is committed at once', () => {
    const { store: s } = store({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.delta({ op: 'replace', path: '/n', value: 1 })])
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
  })

  it('a mapped key the server adds is a draft of a key that did not exist', () => {
    const { store: s } = store({ n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.delta({ op: 'add', path: '/doc', value: 'new' })])
    expect(s.getState().state).toStrictEqual({ n: 0, doc: 'new' })
    expect(s.getState().committed).toStrictEqual({ n: 0 })
    s.apply(ev.runError('boom'))
    expect(s.getState().state).toStrictEqual({ n: 0 })
  })

  it('a key the user edited in the run is not drafted by the server', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc')])
    s.setState({ doc: 'mine' })
    s.apply(ev.snapshot({ doc: 'server' }))
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'mine' })
  })
})

describe('a PredictState that arrives while its tool streams', () => {
  it('drafts from the text received so far', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"so far')])
    expect(s.getState().state).toStrictEqual({ doc: 'old' })
    s.apply(predict('doc', 'write', 'doc'))
    expect(s.getState().state).toStrictEqual({ doc: 'so far' })
    s.apply(ev.toolArgs('c1', ' and on"}'))
    expect(s.getState().state).toStrictEqual({ doc: 'so far and on' })
  })

  it('for another tool changes nothing', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"so far')])
    const before = s.getState()
    s.apply(predict('doc', 'other', 'doc'))
    expect(s.getState().state).toBe(before.state)
    expect(s.getState().predictions).toStrictEqual([])
  })
})

describe('the limits of a streaming draft', () => {
  it('a draft that would pass maxStateBytes stops at its last value, said once', () => {
    const { store: s, errors } = store({ doc: '' }, { limits: { maxStateBytes: 60 } })
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
    const { store: s, errors } = store({ doc: null }, { limits: { maxDepth: 4 } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"a":{"b":1,')])
    expect(s.getState().state).toStrictEqual({ doc: { a: { b: 1 } } })
    s.apply(ev.toolArgs('c1', '"c":{"d":1}'))
    expect(s.getState().state).toStrictEqual({ doc: { a: { b: 1 } } })
    expect(errors.map((e) => [e.code, e.limit])).toStrictEqual([['LIMIT_EXCEEDED', 'maxDepth']])
  })
})

describe('tool calls that draft nothing', () => {
  it('arguments of an unknown or unmapped call change no state', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'read'), ev.toolArgs('c1', '{"doc":"x"}'), ev.toolEnd('c1')])
    expect(s.getState().state).toStrictEqual({ doc: 'old' })
    expect(s.getState().predictions).toStrictEqual([])
  })

  it('an argument the call never sends leaves the key as it was, and the end of the call completes the draft', () => {
    const { store: s } = store({ doc: 'old', title: 'T' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), predict('title', 'write', 'title'), ev.toolStart('c1', 'write')])
    s.apply(ev.toolArgs('c1', '{"doc":"new"}'))
    expect(s.getState().state).toStrictEqual({ doc: 'new', title: 'T' })
    expect(s.getState().predictions.map((p) => [p.stateKey, p.complete])).toStrictEqual([['doc', false]])
    s.apply(ev.toolEnd('c1'))
    expect(s.getState().predictions.map((p) => [p.stateKey, p.complete])).toStrictEqual([['doc', true]])
  })
})

describe('server drafts and the calls that write them', () => {
  it('a server draft a call then streams into keeps the call value when the server changes another key', () => {
    const { store: s } = store({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.delta({ op: 'replace', path: '/doc', value: 'server' })])
    s.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    expect(s.getState().state).toStrictEqual({ doc: 'new', n: 0 })
    s.apply(ev.delta({ op: 'replace', path: '/n', value: 1 }))
    expect(s.getState().state).toStrictEqual({ doc: 'new', n: 1 })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'new', complete: false }])
  })

  it('a call of another tool streaming later is not named as the writer', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolStart('x1', 'other')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'server', complete: false }])
  })

  it('a call of a tool mapped to another key is not named either', () => {
    const { store: s } = store({ doc: 'old', title: 'T' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), predict('title', 'name', 'title')])
    s.apply([ev.toolStart('c1', 'write'), ev.toolStart('x1', 'name')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'server', complete: false }])
  })

  it('a call that has ended is no writer: the server draft names none', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"no":1}'), ev.toolEnd('c1')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: undefined, tool: undefined, stateKey: 'doc', value: 'server', complete: false }])
  })

  it('outside a run the server state is committed as it comes, drafts or not', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply(ev.snapshot({ doc: 'server' }))
    expect(s.getState().state).toStrictEqual({ doc: 'server' })
    expect(s.getState().committed).toBe(s.getState().state)
    expect(s.getState().predictions).toStrictEqual([])
  })
})

describe('the argument reader', () => {
  it('a call restated mid-stream drafts from its new arguments only', () => {
    const { store: s } = store({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"first"}')])
    expect(s.getState().state).toStrictEqual({ doc: 'first' })
    s.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"sec')])
    expect(s.getState().state).toStrictEqual({ doc: 'sec' })
    s.apply(ev.toolArgs('c1', 'ond"}'))
    expect(s.getState().state).toStrictEqual({ doc: 'second' })
  })

  it('a second mapping for a tool already drafting reads the text received so far', () => {
    const { store: s } = store({ doc: 'old', title: 'T' })
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
    const { store: s } = store({ n: 0 })
    s.apply([ev.runStarted(), predict('n', 'count', 'n'), ev.toolStart('c1', 'count'), ev.toolArgs('c1', '{"n":12')])
    const during = s.getState().state
    s.apply(ev.toolEnd('c1'))
    expect(during).toStrictEqual({ n: 0 })
    expect(s.getState().state).toStrictEqual({ n: 12 })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'count', stateKey: 'n', value: 12, complete: true }])
  })
})

describe('the size bound of a streaming draft, exactly', () => {
  // {"doc":""} is 10 bytes; the text below is 11; two mappings add 2 each: a bound of 25.
  const text = '{"doc":"abc'
  const run = (maxStateBytes: number) => {
    const created = store({ doc: '' }, { limits: { maxStateBytes } })
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
    const s = createAgentStore<S>({
      initialState: { doc: 'old', n: 0 },
      validate: (value) => {
        seen.push(value)
        return value as S
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
    const s = createAgentStore<S>({
      initialState: { doc: 'old', n: 0 },
      onError: (e) => errors.push(e),
      validate: (value) => {
        if ((value as S).n === 2) throw new Error('no 2')
        return value as S
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

describe('what a run records as there before it', () => {
  it('a confirmation tool call from before the run is not this run’s confirmation', () => {
    const s = createAgentStore<S>({ initialState: {}, confirmTools: ['confirm'] })
    s.apply({
      type: 'MESSAGES_SNAPSHOT',
      messages: [{ id: 'm0', role: 'assistant', toolCalls: [{ id: 'k0', type: 'function', function: { name: 'confirm', arguments: '{}' } }] }],
    } as never)
    s.apply([ev.runStarted(), ev.runFinished()])
    expect(s.getState().confirmations).toStrictEqual([])
    s.apply([ev.runStarted('r2'), ev.toolStart('k1', 'confirm', 'm1'), ev.toolArgs('k1', '{}'), ev.toolEnd('k1'), ev.runFinished('r2')])
    expect(s.getState().confirmations.map((c) => c.id)).toStrictEqual(['k1'])
  })

  it('a failed run keeps a message from before it that held only the call it cut', () => {
    const { store: s } = store({})
    s.apply({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'm0', role: 'assistant' }] } as never)
    s.apply([ev.runStarted(), ev.toolStart('c1', 'write', 'm0'), ev.toolArgs('c1', '{"a'), ev.runError('boom')])
    expect(s.getState().messages).toStrictEqual([{ id: 'm0', role: 'assistant' }])
  })

  it('an error shown before a server change stays when the user’s edit rebases without conflict', () => {
    const { store: s } = store({ doc: 'x', n: 0 })
    s.apply(ev.runStarted())
    s.setState((v) => ({ ...v, n: 1 }))
    s.apply(ev.text('ghost', 'x'))
    const shown = s.getState().error
    expect(shown?.code).toBe('INVALID_EVENT')
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'y' }))
    expect(s.getState().state).toStrictEqual({ doc: 'y', n: 1 })
    expect(s.getState().error).toBe(shown)
  })
})
