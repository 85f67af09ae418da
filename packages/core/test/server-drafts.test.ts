// Drafts against server state: server values for drafted keys against the value from before the
// run (the baseline), the call a server draft names, drafts a confirmation holds while the server
// speaks, and what a server draft records.
import type { BaseEvent } from '@ag-ui/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAgentStore, restoreThread, serializeThread } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'
import { call, type Doc, documentCallStreaming, done, interrupt, predict, storeWithErrors } from './support/scenarios'

/** A store whose apply()-run drafted doc (call c1 of write) and title (call c2 of name), then confirmed as `confirming` says. */
function docAndTitleDrafted(...confirming: BaseEvent[][]) {
  const created = storeWithErrors({ doc: 'old', title: 'T' }, { confirmTools: ['confirm'] })
  created.store.apply([
    ev.runStarted(),
    predict('doc', 'write', 'doc'),
    predict('title', 'name', 'title'),
    ...call('c1', 'write', '{"doc":"new"}'),
    ...call('c2', 'name', '{"title":"U"}'),
    ...confirming.flat(),
    ev.runFinished(),
  ])
  return created
}

/** A store whose apply()-run drafted `doc` through call c1 and ended with confirmation k1 holding it. */
function held(initialState: Doc = { doc: 'old', n: 0 }) {
  const created = storeWithErrors(initialState, { confirmTools: ['confirm'] })
  created.store.apply([
    ev.runStarted(),
    predict('doc', 'write', 'doc'),
    ...call('c1', 'write', '{"doc":"new"}'),
    ...call('k1', 'confirm', '{}'),
    ev.runFinished(),
  ])
  return created
}

describe('server values for drafted keys', () => {
  it('the baseline echoed by the server never replaces a draft from the arguments', () => {
    const { store: s } = storeWithErrors({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply(ev.snapshot({ doc: 'old', n: 1 }))
    expect(s.getState().state).toStrictEqual({ doc: 'new', n: 1 })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
  })

  it('an equal copy of an object baseline does not either', () => {
    const { store: s } = storeWithErrors({ doc: { t: 'old' } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"t":"new"')])
    s.apply(ev.snapshot({ doc: { t: 'old' } }))
    expect(s.getState().state).toStrictEqual({ doc: { t: 'new' } })
  })

  it('a server value that differs from the baseline becomes the draft', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply(ev.snapshot({ doc: 'server' }))
    expect(s.getState().state).toStrictEqual({ doc: 'server' })
    expect(s.getState().committed).toStrictEqual({ doc: 'old' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'server', complete: false }])
  })

  it('a server draft the server puts back to the baseline is no draft any more', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.snapshot({ doc: 'server' })])
    expect(s.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['doc'])
    s.apply(ev.snapshot({ doc: 'old' }))
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'old' })
    expect(s.getState().committed).toBe(s.getState().state)
  })

  it('a server change of a mapped key names the call of that tool still streaming', () => {
    const { store: s } = storeWithErrors({ doc: 'old', other: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('x1', 'other'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"no')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'server', complete: false }])
  })

  it('of two calls of the tool still streaming, the later one is named', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolStart('c2', 'write')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions.map((p) => p.toolCallId)).toStrictEqual(['c2'])
  })

  it('a server copy equal to the value before the run is no draft', () => {
    const { store: s } = storeWithErrors({ doc: { t: 'old' } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.snapshot({ doc: { t: 'old' } })])
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().committed).toBe(s.getState().state)
  })

  it('a server change of a key that is not mapped is committed at once', () => {
    const { store: s } = storeWithErrors({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.delta({ op: 'replace', path: '/n', value: 1 })])
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
  })

  it('a mapped key the server adds is a draft of a key that did not exist', () => {
    const { store: s } = storeWithErrors({ n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.delta({ op: 'add', path: '/doc', value: 'new' })])
    expect(s.getState().state).toStrictEqual({ n: 0, doc: 'new' })
    expect(s.getState().committed).toStrictEqual({ n: 0 })
    s.apply(ev.runError('boom'))
    expect(s.getState().state).toStrictEqual({ n: 0 })
  })

  it('a key the user edited in the run is not drafted by the server', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc')])
    s.setState({ doc: 'mine' })
    s.apply(ev.snapshot({ doc: 'server' }))
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().state).toStrictEqual({ doc: 'mine' })
  })

  it('a server value that differs from the baseline becomes the draft; reject restores the value from before the run', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    store.apply([
      ev.runStarted('r1'),
      predict('document', 'write_document', 'document'),
      ev.snapshot({ document: 'mid' }),
      ev.toolStart('w1', 'write_document'),
      ev.toolArgs('w1', '{"document":"abc"}'),
      ev.toolEnd('w1'),
      ev.snapshot({ document: 'server version' }),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call' }]),
    ])
    expect(store.getState().state).toStrictEqual({ document: 'server version' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().predictions.map((p) => [p.stateKey, p.value])).toStrictEqual([['document', 'server version']])
    await store.reject({ id: 'i1' })
    expect(agent.inputs[0]!.state).toStrictEqual({ document: 'before' })
    expect(store.getState().state).toStrictEqual({ document: 'before' })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('a draft only the server wrote goes away when the server puts the value from before the run back', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([ev.runStarted('r1'), predict('document', 'write_document', 'document'), ev.delta({ op: 'replace', path: '/document', value: 'server' })])
    expect(store.getState().predictions.map((p) => [p.toolCallId, p.value])).toStrictEqual([[undefined, 'server']])
    store.apply(ev.delta({ op: 'replace', path: '/document', value: 'before' }))
    expect(store.getState().predictions).toStrictEqual([])
    expect(store.getState().state).toStrictEqual({ document: 'before' })
  })
})

describe('the baseline echoed mid-draft, at every chunk boundary', () => {
  it('a STATE_SNAPSHOT holding the old value keeps the draft, wherever the chunk boundary falls (every split)', () => {
    const args = JSON.stringify({ document: 'new text' })
    for (let cut = 0; cut <= args.length; cut++) {
      const store = createAgentStore({ initialState: { document: 'before', other: 0 } })
      store.apply([
        ev.runStarted('r1'),
        predict('document', 'write_document', 'document'),
        ev.toolStart('w1', 'write_document'),
        ...(cut > 0 ? [ev.toolArgs('w1', args.slice(0, cut))] : []),
        ev.snapshot({ document: 'before', other: 1 }),
        ...(cut < args.length ? [ev.toolArgs('w1', args.slice(cut))] : []),
        ev.toolEnd('w1'),
        ev.snapshot({ document: 'before', other: 1 }),
        interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
      ])
      const snapshot = store.getState()
      expect({ cut, state: snapshot.state }).toStrictEqual({ cut, state: { document: 'new text', other: 1 } })
      expect(snapshot.committed).toStrictEqual({ document: 'before', other: 1 })
      expect(snapshot.predictions.map((p) => [p.stateKey, p.value])).toStrictEqual([['document', 'new text']])
      expect(snapshot.confirmations.map((c) => c.stateKeys)).toStrictEqual([['document']])
    }
  })

  it('the result never depends on chunk boundaries (property: any document, any split, echoes of the old value anywhere)', () => {
    const piece = fc.stringMatching(/^[a-z "\\é\n{}:,]{0,6}$/)
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(40), { maxLength: 6 }),
        fc.array(fc.nat(40), { maxLength: 3 }),
        fc.boolean(),
        (parts, cuts, echoes, interrupted) => {
          const args = JSON.stringify({ document: parts.join(''), other: 1 })
          const points = [...new Set(cuts.map((cut) => cut % args.length))].sort((x, y) => x - y)
          const chunks = [0, ...points, args.length].flatMap((start, i, all) =>
            i + 1 < all.length && all[i + 1]! > start ? [args.slice(start, all[i + 1])] : [],
          )
          const echoAt = new Set(echoes.map((echo) => echo % (chunks.length + 1)))
          const ending = interrupted ? interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]) : ev.runFinished('r1')
          const feed = (pieces: string[], echo: ReadonlySet<number>) => {
            const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
            const events: BaseEvent[] = [ev.runStarted('r1'), predict('document', 'write_document', 'document'), ev.toolStart('w1', 'write_document')]
            pieces.forEach((chunk, i) => {
              if (echo.has(i)) events.push(ev.snapshot({ document: 'before' }))
              events.push(ev.toolArgs('w1', chunk))
            })
            if (echo.has(pieces.length)) events.push(ev.snapshot({ document: 'before' }))
            store.apply([...events, ev.toolEnd('w1'), ev.snapshot({ document: 'before' }), ending])
            const { state, committed, predictions, confirmations, error } = store.getState()
            return { state, committed, predictions, stateKeys: confirmations.map((c) => c.stateKeys), error }
          }
          const whole = feed([args], new Set())
          expect(whole.state).toStrictEqual({ document: parts.join('') })
          expect(whole.committed).toStrictEqual({ document: interrupted ? 'before' : parts.join('') })
          expect(feed(chunks, echoAt)).toStrictEqual(whole)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('LangGraph’s end-of-run snapshot with the old value, at every split of the arguments, keeps the draft for on_interrupt', () => {
    const args = JSON.stringify({ document: 'Once upon a time' })
    const results = new Set<string>()
    for (let cut = 1; cut < args.length; cut++) {
      const store = createAgentStore<Doc>({ initialState: { document: 'old' } })
      store.apply([
        ev.runStarted('r1'),
        predict('document', 'write_document', 'document'),
        ev.toolStart('w1', 'write_document'),
        ev.toolArgs('w1', args.slice(0, cut)),
        ev.toolArgs('w1', args.slice(cut)),
        ev.toolEnd('w1'),
        ev.snapshot({ document: 'old' }),
        ev.custom('on_interrupt', '{"question":"ok?"}'),
        ev.runFinished('r1'),
      ])
      results.add(JSON.stringify([store.getState().state, store.getState().committed, store.getState().confirmations.map((c) => c.stateKeys)]))
    }
    expect([...results]).toStrictEqual([JSON.stringify([{ document: 'Once upon a time' }, { document: 'old' }, [['document']]])])
  })
})

describe('server values against a draft’s baseline', () => {
  it('a server draft put back to its baseline goes, and a call’s draft of another key stays', () => {
    const { store: s } = storeWithErrors({ doc: 'old', title: 'T' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), predict('title', 'name', 'title')])
    s.apply([ev.delta({ op: 'replace', path: '/doc', value: 'srv' }), ev.toolStart('c2', 'name'), ev.toolArgs('c2', '{"title":"U')])
    expect(s.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['doc', 'title'])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'old' }))
    expect(s.getState().state).toStrictEqual({ doc: 'old', title: 'U' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c2', tool: 'name', stateKey: 'title', value: 'U', complete: false }])
  })

  it('a call’s draft keeps the server’s last value when the server echoes the baseline again', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply(ev.snapshot({ doc: 'x' }))
    s.apply(ev.snapshot({ doc: 'old' }))
    expect(s.getState().state).toStrictEqual({ doc: 'x' })
    expect(s.getState().committed).toStrictEqual({ doc: 'old' })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'x', complete: false }])
  })

  it('a copy equal to an object baseline, not the same object, counts as the baseline', () => {
    const { store: s } = storeWithErrors({ doc: { t: 'old' } })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":{"t":"new"')])
    s.apply(ev.snapshot({ doc: { t: 'x' } }))
    // The server's previous doc was {t:'x'}: this {t:'old'} shares nothing with the baseline.
    s.apply(ev.snapshot({ doc: { t: 'old' } }))
    expect(s.getState().state).toStrictEqual({ doc: { t: 'x' } })
    expect(s.getState().predictions.map((p) => p.value)).toStrictEqual([{ t: 'x' }])
  })

  it('a key absent before the run and removed again by the server counts as its baseline', () => {
    const { store: s } = storeWithErrors({})
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.apply(ev.delta({ op: 'add', path: '/doc', value: 'srv' }))
    s.apply(ev.delta({ op: 'remove', path: '/doc' }))
    expect(s.getState().state).toStrictEqual({ doc: 'srv' })
    expect(s.getState().committed).toStrictEqual({})
  })

  it('a mapped key the server changed before its mapping came is no draft when the server changes another key', () => {
    const { store: s } = storeWithErrors({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), ev.delta({ op: 'replace', path: '/doc', value: 'srv' }), predict('doc', 'write', 'doc')])
    s.apply(ev.delta({ op: 'replace', path: '/n', value: 1 }))
    expect(s.getState().predictions).toStrictEqual([])
    expect(s.getState().committed).toStrictEqual({ doc: 'srv', n: 1 })
    expect(s.getState().committed).toBe(s.getState().state)
  })
})

describe('a state event that changes nothing under a streaming draft', () => {
  it('keeps the view, the first time and every time after', () => {
    const { store: s } = storeWithErrors({ doc: 'old', n: 0 })
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

describe('server drafts and the calls that write them', () => {
  it('a server draft a call then streams into keeps the call value when the server changes another key', () => {
    const { store: s } = storeWithErrors({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.delta({ op: 'replace', path: '/doc', value: 'server' })])
    s.apply([ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    expect(s.getState().state).toStrictEqual({ doc: 'new', n: 0 })
    s.apply(ev.delta({ op: 'replace', path: '/n', value: 1 }))
    expect(s.getState().state).toStrictEqual({ doc: 'new', n: 1 })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'new', complete: false }])
  })

  it('a call of another tool streaming later is not named as the writer', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolStart('x1', 'other')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'server', complete: false }])
  })

  it('a call of a tool mapped to another key is not named either', () => {
    const { store: s } = storeWithErrors({ doc: 'old', title: 'T' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), predict('title', 'name', 'title')])
    s.apply([ev.toolStart('c1', 'write'), ev.toolStart('x1', 'name')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: 'c1', tool: 'write', stateKey: 'doc', value: 'server', complete: false }])
  })

  it('a call that has ended is no writer: the server draft names none', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"no":1}'), ev.toolEnd('c1')])
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'server' }))
    expect(s.getState().predictions).toStrictEqual([{ toolCallId: undefined, tool: undefined, stateKey: 'doc', value: 'server', complete: false }])
  })

  it('outside a run the server state is committed as it comes, drafts or not', () => {
    const { store: s } = storeWithErrors({ doc: 'old' })
    s.apply(ev.snapshot({ doc: 'server' }))
    expect(s.getState().state).toStrictEqual({ doc: 'server' })
    expect(s.getState().committed).toBe(s.getState().state)
    expect(s.getState().predictions).toStrictEqual([])
  })

  it('a server change to a mapped key while that tool’s call streams is attributed to the call', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([ev.runStarted('r1'), ...documentCallStreaming(), ev.delta({ op: 'replace', path: '/document', value: 'server' })])
    expect(store.getState().predictions.map((p) => [p.toolCallId, p.tool, p.stateKey, p.value])).toStrictEqual([['w1', 'write_document', 'document', 'server']])
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
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
    const { store: s, errors } = storeWithErrors({ doc: 'old', n: 0 }, { confirmTools: ['confirm'] })
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
    const { store: s } = docAndTitleDrafted(call('k1', 'confirm', '{"function_call_id":"c1"}'), call('k2', 'confirm', '{"function_call_id":"c2"}'))
    await s.approve({ id: 'k2' })
    expect(s.getState().state).toStrictEqual({ doc: 'new', title: 'U' })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', title: 'U' })
    expect(s.getState().predictions.map((p) => [p.stateKey, p.toolCallId])).toStrictEqual([['doc', 'c1']])
  })

  it('a run that finishes with one draft held commits the others and keeps the held one pending', () => {
    const { store: s } = docAndTitleDrafted(call('k1', 'confirm', '{"function_call_id":"c1"}'))
    expect(s.getState().state).toStrictEqual({ doc: 'new', title: 'U' })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', title: 'U' })
    expect(s.getState().predictions.map((p) => [p.stateKey, p.toolCallId])).toStrictEqual([['doc', 'c1']])
  })
})

describe('what a server draft records', () => {
  it('of a whole-arguments mapping: approve() merges its edits into the value', async () => {
    const { store: s } = storeWithErrors({ doc: { a: 0 } }, { confirmTools: ['confirm'] })
    s.apply([ev.runStarted(), predict('doc', 'write'), ev.delta({ op: 'replace', path: '/doc', value: { a: 1 } })])
    s.apply([...call('k1', 'confirm', '{}'), ev.runFinished()])
    expect(s.getState().confirmations.map((c) => c.stateKeys)).toStrictEqual([['doc']])
    await s.approve({ id: 'k1', edits: { b: 2 } })
    expect(s.getState().state).toStrictEqual({ doc: { a: 1, b: 2 } })
    expect(s.getState().committed).toStrictEqual({ doc: { a: 1, b: 2 } })
  })

  it('of a key that did not exist: the saved thread is plain JSON, and restores to the same drafts', () => {
    const { store: s } = storeWithErrors({ n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.delta({ op: 'add', path: '/doc', value: 'new' })])
    const saved = serializeThread(s)
    expect(JSON.parse(JSON.stringify(saved))).toStrictEqual(saved)
    const again = createAgentStore<Doc>({ initialState: { n: 0 }, restore: restoreThread(JSON.parse(JSON.stringify(saved))) })
    expect(again.getState().state).toStrictEqual({ doc: 'new', n: 0 })
    expect(again.getState().committed).toStrictEqual({ n: 0 })
  })
})
