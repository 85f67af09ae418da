// The user's edits against the server: setState outside and during a run, edits that follow what
// they edited when the server moves things (the three-way merge through the store), and the
// EDIT_CONFLICT an edit the server overtook becomes.
import { describe, expect, it } from 'vitest'
import { type AgentStore, type AgentStoreError, createAgentStore } from '../src'
import { ev, ManualAgent, recordedStore } from './helpers'
import {
  type Doc,
  type DrivenAgent,
  handled,
  interrupt,
  interruptOnW1,
  predict,
  storeWithErrors,
  streaming,
  until,
  writeDocument,
  writerAgent,
} from './support/scenarios'

/** Runs `during` while a run streams, then finishes it; returns the store and its EDIT_CONFLICT errors. */
async function duringRun<S extends Doc>(initialState: S, during: (store: AgentStore<S>, agent: DrivenAgent) => void) {
  const { agent, store, errors, running } = await streaming(initialState)
  during(store, agent)
  agent.finish()
  await running
  return { store, errors: errors.filter((e) => e.code === 'EDIT_CONFLICT') }
}
const item = (id: string, text = id) => ({ id, text })

describe('setState outside a run', () => {
  it('changes only the keys it touches, removes the ones it drops, and publishes nothing for the same state', () => {
    const errors: AgentStoreError[] = []
    const store = createAgentStore<Doc>({ initialState: { a: 1, b: { c: 1 } }, onError: (e) => errors.push(e) })
    const before = store.getState()
    store.setState((s) => s)
    expect(store.getState()).toBe(before)
    store.setState((s) => ({ b: s.b, d: 2 }))
    expect(store.getState().state).toStrictEqual({ b: { c: 1 }, d: 2 })
    expect(store.getState().committed).toBe(store.getState().state)
    expect((store.getState().state as Doc).b).toBe((before.state as Doc).b)
    expect(errors).toStrictEqual([])
  })

  it('refuses a value that is not JSON, or that a validator refuses, changing nothing', () => {
    const errors: AgentStoreError[] = []
    const validate = (state: unknown) => {
      if ((state as Doc).n === 13) throw new Error('unlucky')
      return state as Doc
    }
    const store = createAgentStore<Doc>({ initialState: { n: 0 }, validate, onError: (e) => errors.push(e) })
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
    const store = createAgentStore<Doc>({ initialState: { doc: 'old', n: 0 } })
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
    const store = createAgentStore<Doc>({ initialState: { a: 0, b: 0 } })
    store.apply([ev.runStarted('r1'), ev.snapshot({ a: 1, b: 0 })])
    store.setState((s) => ({ ...s, b: 5 }))
    store.apply(ev.snapshot({ a: 2, b: 0 }))
    expect(store.getState().state).toStrictEqual({ a: 2, b: 5 })
    store.apply(ev.runFinished('r1'))
    expect(store.getState().state).toStrictEqual({ a: 2, b: 5 })
    expect(store.getState().committed).toBe(store.getState().state)
  })

  it('takes a streaming draft over for the rest of the run', () => {
    const store = createAgentStore<Doc>({ initialState: { doc: 'old', n: 0 } })
    store.apply([ev.runStarted('r1'), predict('doc', 'write', 'doc'), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"dr')])
    store.setState((s) => ({ ...s, doc: 'mine' }))
    store.apply([ev.toolArgs('w1', 'aft"}'), ev.toolEnd('w1')])
    expect(store.getState().state).toStrictEqual({ doc: 'mine', n: 0 })
    expect(store.getState().predictions).toStrictEqual([])
    store.apply(ev.runFinished('r1'))
    expect(store.getState().state).toStrictEqual({ doc: 'mine', n: 0 })
  })

  it('a drafted key the user took over stays the user value over later server values', () => {
    const store = createAgentStore<Doc>({ initialState: { doc: 'old', n: 0 }, onError: () => {} })
    store.apply([ev.runStarted('r1'), predict('doc', 'write', 'doc'), ev.delta({ op: 'replace', path: '/doc', value: 'srv' })])
    store.setState((s) => ({ ...s, doc: 'mine' }))
    store.apply(ev.snapshot({ doc: 'srv2', n: 1 }))
    expect(store.getState().state).toStrictEqual({ doc: 'mine', n: 1 })
    expect(store.getState().predictions).toStrictEqual([])
    store.apply(ev.runFinished('r1'))
    expect(store.getState().committed).toStrictEqual({ doc: 'mine', n: 1 })
  })

  it('a key the user removed stays removed after the next server event', () => {
    const store = createAgentStore<Doc>({ initialState: { a: 0, b: 0 } })
    store.apply([ev.runStarted('r1')])
    store.setState((s) => ({ a: s.a }))
    store.apply(ev.delta({ op: 'replace', path: '/a', value: 1 }))
    expect(store.getState().state).toStrictEqual({ a: 1 })
    store.apply(ev.runFinished('r1'))
    expect(store.getState().state).toStrictEqual({ a: 1 })
  })

  it('an edit of another key while a draft streams is committed at once, the draft still pending', () => {
    const { store: s } = storeWithErrors({ doc: 'old', n: 0 })
    s.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new')])
    s.setState((v) => ({ ...v, n: 1 }))
    expect(s.getState().state).toStrictEqual({ doc: 'new', n: 1 })
    expect(s.getState().committed).toStrictEqual({ doc: 'old', n: 1 })
  })

  it('an edit of a mapped key wins: later arguments and server values of that key change nothing; no prediction remains', async () => {
    const { store } = await duringRun({ document: 'before' }, (store, agent) => {
      agent.push(...writeDocument('draft').slice(0, 3))
      store.setState((s) => ({ ...s, document: 'mine' }))
      agent.push(ev.toolArgs('w1', 'more'), ev.toolEnd('w1'), ev.delta({ op: 'replace', path: '/document', value: 'server' }))
      expect(store.getState().state).toStrictEqual({ document: 'mine' })
      expect(store.getState().predictions).toStrictEqual([])
    })
    expect(store.getState().committed).toStrictEqual({ document: 'mine' })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('an edit of one key while a draft awaits confirmation does not commit the draft of another key', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run()
    store.setState((s) => ({ ...s, title: 'mine' }))
    expect(store.getState().state).toStrictEqual({ document: 'draft text', title: 'mine' })
    expect(store.getState().committed).toStrictEqual({ document: 'before', title: 'mine' })
    expect(store.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['document'])
    await store.reject()
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'before', title: 'mine' })
  })

  it('a key removed during a run does not come back with the next server event, nor in the next input', async () => {
    const { agent, store, running } = await streaming<Doc>({ a: 1, b: 2 })
    store.setState(({ b: _b, ...rest }) => rest)
    agent.push(ev.delta({ op: 'replace', path: '/a', value: 5 }))
    expect(store.getState().state).toStrictEqual({ a: 5 })
    agent.push(ev.snapshot({ a: 6, b: 2 }))
    expect(store.getState().state).toStrictEqual({ a: 6 })
    agent.finish()
    await running
    expect(store.getState().committed).toStrictEqual({ a: 6 })
    const next = handled(store.run())
    await until(() => agent.inputs.length === 2)
    expect(agent.inputs[1]!.state).toStrictEqual({ a: 6 })
    agent.finish()
    await next
  })

  it('an error shown before a server change stays when the user’s edit rebases without conflict', () => {
    const { store: s } = storeWithErrors({ doc: 'x', n: 0 })
    s.apply(ev.runStarted())
    s.setState((v) => ({ ...v, n: 1 }))
    s.apply(ev.text('ghost', 'x'))
    const shown = s.getState().error
    expect(shown?.code).toBe('INVALID_EVENT')
    s.apply(ev.delta({ op: 'replace', path: '/doc', value: 'y' }))
    expect(s.getState().state).toStrictEqual({ doc: 'y', n: 1 })
    expect(s.getState().error).toBe(shown)
  })

  it('after the run, the edit made during it is folded into the state: a later server change stands', () => {
    const store = createAgentStore<Doc>({ initialState: { a: 0, b: 0 } })
    store.apply(ev.runStarted('r1'))
    store.setState((s) => ({ ...s, b: 5 }))
    store.apply(ev.runFinished('r1'))
    expect(store.getState().state).toStrictEqual({ a: 0, b: 5 })
    store.apply(ev.delta({ op: 'replace', path: '/b', value: 7 }))
    expect(store.getState().state).toStrictEqual({ a: 0, b: 7 })
  })

  it('replays the edit on top of every later snapshot and delta, and sends it on the next run', async () => {
    const agent = new ManualAgent()
    const store = createAgentStore({ agent, initialState: { title: 'T', items: ['a'] as string[], n: 0 } })
    const done = store.run()
    store.setState((s) => ({ ...s, title: 'mine', items: [...s.items, 'b'] }))
    agent.push(ev.snapshot({ title: 'server', items: ['a'], n: 1 }))
    expect(store.getState().state).toEqual({ title: 'mine', items: ['a', 'b'], n: 1 })
    agent.push(ev.delta({ op: 'replace', path: '/n', value: 2 }, { op: 'replace', path: '/title', value: 'server again' }))
    expect(store.getState().state).toEqual({ title: 'mine', items: ['a', 'b'], n: 2 })
    expect(store.getState().committed).toBe(store.getState().state)
    agent.finish()
    await done
    const second = store.run()
    agent.finish()
    await second
    expect(agent.inputs[1]!.state).toEqual({ title: 'mine', items: ['a', 'b'], n: 2 })
  })

  it('drops only an edit whose element is gone, with EDIT_CONFLICT naming its path and carrying the value', () => {
    const { store, errors } = recordedStore({ initialState: { rows: [{ note: '' }] as { note: string }[], title: 'T' } })
    store.apply(ev.runStarted())
    store.setState((s) => ({ ...s, title: 'mine', rows: [{ note: 'edited' }] }))
    store.apply(ev.delta({ op: 'remove', path: '/rows/0' }))
    const { state, error } = store.getState()
    expect(state).toEqual({ rows: [], title: 'mine' })
    expect(error).toMatchObject({ code: 'EDIT_CONFLICT', path: '/rows/0/note', value: 'edited' })
    expect(errors).toContainEqual(error)
  })

  it('lets a user edit replace an open draft: the user wins for the rest of the run', () => {
    const store = createAgentStore({ initialState: { document: 'old', title: 'T' } })
    store.apply([ev.runStarted(), predict('document', 'write', 'document'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"document":"agent')])
    store.setState((s) => ({ ...s, document: 'user' }))
    expect(store.getState()).toMatchObject({ state: { document: 'user' }, committed: { document: 'user' }, predictions: [] })
    store.apply([ev.toolArgs('c1', ' more'), ev.delta({ op: 'replace', path: '/document', value: 'server' })])
    expect(store.getState()).toMatchObject({ state: { document: 'user' }, committed: { document: 'user' }, predictions: [] })
  })

  it('keeps the state identical while text streams on top of edits', () => {
    const store = createAgentStore({ initialState: { document: 'old', title: 'T' } })
    store.apply([ev.runStarted(), ev.textStart('m')])
    store.setState((s) => ({ ...s, title: 'mine' }))
    const before = store.getState().state
    store.apply([ev.text('m', 'a'), ev.text('m', 'b')])
    expect(store.getState().state).toBe(before)
  })
})

describe('edits follow what they edited', () => {
  it('an edit of one array element stays on that element when the server inserts an item before it, with no EDIT_CONFLICT', async () => {
    const { agent, store, errors, running } = await streaming({ items: [item('x', 'a'), item('y', 'b')] })
    store.setState((s) => ({ ...s, items: s.items.map((item) => (item.id === 'y' ? { ...item, text: 'B' } : item)) }))
    agent.push(ev.delta({ op: 'add', path: '/items/0', value: { id: 'w', text: 'new' } }))
    const expected = [
      { id: 'w', text: 'new' },
      { id: 'x', text: 'a' },
      { id: 'y', text: 'B' },
    ]
    expect(store.getState().state.items).toStrictEqual(expected)
    agent.finish()
    await running
    expect(store.getState().committed.items).toStrictEqual(expected)
    expect(errors.filter((e) => e.code === 'EDIT_CONFLICT')).toStrictEqual([])
  })

  it('an append survives the server removing another item, and a deletion survives the server inserting one', async () => {
    const { agent, store, errors, running } = await streaming({ items: [item('x', 'a'), item('y', 'b')] })
    store.setState((s) => ({ ...s, items: [...s.items, { id: 'u', text: 'mine' }] }))
    agent.push(ev.delta({ op: 'remove', path: '/items/0' }))
    expect(store.getState().state.items).toStrictEqual([
      { id: 'y', text: 'b' },
      { id: 'u', text: 'mine' },
    ])
    agent.finish()
    await running
    const second = store.run()
    await until(() => agent.open)
    store.setState((s) => ({ ...s, items: s.items.filter((item) => item.id !== 'y') }))
    agent.push(ev.delta({ op: 'add', path: '/items/0', value: { id: 'w', text: 'new' } }))
    expect(store.getState().state.items).toStrictEqual([
      { id: 'w', text: 'new' },
      { id: 'u', text: 'mine' },
    ])
    agent.finish()
    await second
    expect(agent.inputs).toHaveLength(2)
    expect(agent.inputs[1]!.state).toStrictEqual({
      items: [
        { id: 'y', text: 'b' },
        { id: 'u', text: 'mine' },
      ],
    })
    expect(errors.filter((e) => e.code === 'EDIT_CONFLICT')).toStrictEqual([])
  })

  it('an edit of a string in an array follows it when the server inserts before it (minimal diff)', async () => {
    const { agent, store, errors, running } = await streaming({ tags: ['a', 'b', 'c'] })
    store.setState((s) => ({ ...s, tags: ['a', 'B', 'c'] }))
    agent.push(ev.delta({ op: 'add', path: '/tags/0', value: 'z' }))
    expect(store.getState().state.tags).toStrictEqual(['z', 'a', 'B', 'c'])
    agent.push(ev.delta({ op: 'remove', path: '/tags/3' }))
    expect(store.getState().state.tags).toStrictEqual(['z', 'a', 'B'])
    agent.finish()
    await running
    expect(store.getState().committed.tags).toStrictEqual(['z', 'a', 'B'])
    expect(errors.filter((e) => e.code === 'EDIT_CONFLICT')).toStrictEqual([])
  })

  it('with arrayKeys: [`uid`], records are matched by uid when the server reorders them', async () => {
    const initialState = {
      rows: [
        { uid: 1, text: 'one' },
        { uid: 2, text: 'two' },
        { uid: 3, text: 'three' },
      ],
    }
    const { agent, store, running } = await streaming(initialState, { arrayKeys: ['uid'] })
    store.setState((s) => ({ ...s, rows: s.rows.map((row) => (row.uid === 3 ? { ...row, text: 'THREE' } : row)) }))
    agent.push(ev.snapshot({ rows: [initialState.rows[2], initialState.rows[0], initialState.rows[1]] }))
    expect(store.getState().state.rows).toStrictEqual([
      { uid: 3, text: 'THREE' },
      { uid: 1, text: 'one' },
      { uid: 2, text: 'two' },
    ])
    agent.finish()
    await running
  })

  it('an element the user inserted after another stays after it when the server inserts elsewhere; the user’s append stays last', async () => {
    const { store, errors } = await duringRun({ items: [item('x'), item('y')] }, (store, agent) => {
      store.setState((s) => ({ ...s, items: [item('x'), item('mid'), item('y'), item('end')] }))
      agent.push(ev.delta({ op: 'add', path: '/items/0', value: item('w') }), ev.delta({ op: 'add', path: '/items/-', value: item('z') }))
    })
    expect(store.getState().committed.items).toStrictEqual([item('w'), item('x'), item('mid'), item('y'), item('z'), item('end')])
    expect(errors).toStrictEqual([])
  })

  it('outside arrays, the user’s key and the server’s other keys of the same object are both kept', async () => {
    const { store, errors } = await duringRun({ settings: { theme: 'light', size: 1 } }, (store, agent) => {
      store.setState((s) => ({ ...s, settings: { ...s.settings, theme: 'dark' } }))
      agent.push(ev.delta({ op: 'replace', path: '/settings/size', value: 2 }))
    })
    expect(store.getState().committed).toStrictEqual({ settings: { theme: 'dark', size: 2 } })
    expect(errors).toStrictEqual([])
  })
})

describe('EDIT_CONFLICT', () => {
  it('an edit whose element the server removed is a conflict naming the path the user edited and carrying the user’s value', async () => {
    const { agent, store, errors, running } = await streaming({ items: [item('x', 'a'), item('y', 'b')] })
    store.setState((s) => ({ ...s, items: s.items.map((item) => (item.id === 'y' ? { ...item, text: 'B' } : item)) }))
    agent.push(ev.delta({ op: 'remove', path: '/items/1' }))
    expect(store.getState().state.items).toStrictEqual([{ id: 'x', text: 'a' }])
    const conflicts = errors.filter((e) => e.code === 'EDIT_CONFLICT')
    expect(conflicts).toHaveLength(1)
    expect(conflicts[0]).toMatchObject({ path: '/items/1/text', value: 'B' })
    expect(store.getState().error).toBe(conflicts[0])
    agent.finish()
    await running
    expect(store.getState().committed.items).toStrictEqual([{ id: 'x', text: 'a' }])
  })

  it('an edit of a value the server changed under it is a conflict carrying the user’s value; the server’s value stays and no other element changes', async () => {
    for (const shape of ['records', 'strings'] as const) {
      const initialState: Doc =
        shape === 'records'
          ? {
              list: [
                { id: 'x', text: 'a' },
                { id: 'y', text: 'b' },
              ],
            }
          : { list: ['a', 'b', 'c'] }
      const { agent, store, errors, running } = await streaming(initialState)
      if (shape === 'records') {
        store.setState((s) => ({
          ...s,
          list: [
            { id: 'x', text: 'a' },
            { id: 'y', text: 'B' },
          ],
        }))
        agent.push(ev.delta({ op: 'replace', path: '/list/1/text', value: 'server' }))
        expect(store.getState().state.list).toStrictEqual([
          { id: 'x', text: 'a' },
          { id: 'y', text: 'server' },
        ])
      } else {
        store.setState((s) => ({ ...s, list: ['a', 'B', 'c'] }))
        agent.push(ev.delta({ op: 'replace', path: '/list/1', value: 'q' }))
        expect(store.getState().state.list).toStrictEqual(['a', 'q', 'c'])
      }
      const conflicts = errors.filter((e) => e.code === 'EDIT_CONFLICT')
      expect({ shape, conflicts: conflicts.length }).toStrictEqual({ shape, conflicts: 1 })
      expect(conflicts[0]).toMatchObject({ path: shape === 'records' ? '/list/1/text' : '/list/1', value: 'B' })
      agent.finish()
      await running
    }
  })

  it('a record the user removed but the server changed meanwhile stays, as the server has it, with a conflict', async () => {
    const { store, errors } = await duringRun({ items: [item('x'), item('y')] }, (store, agent) => {
      store.setState((s) => ({ ...s, items: [item('x')] }))
      agent.push(ev.delta({ op: 'replace', path: '/items/1/text', value: 'server' }))
    })
    expect(store.getState().committed.items).toStrictEqual([item('x'), item('y', 'server')])
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ path: '/items/1' })
  })

  it('an edit of a key the server then removed is a conflict with the user’s value; the key stays removed', async () => {
    const { store, errors } = await duringRun({ settings: { theme: 'light', size: 1 } }, (store, agent) => {
      store.setState((s) => ({ ...s, settings: { ...s.settings, theme: 'dark' } }))
      agent.push(ev.delta({ op: 'remove', path: '/settings/theme' }))
    })
    expect(store.getState().committed).toStrictEqual({ settings: { size: 1 } })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ path: '/settings/theme', value: 'dark' })
  })
})
