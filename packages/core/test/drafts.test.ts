import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev, ManualAgent, recordedStore } from './helpers'

const predict = (stateKey: string, tool: string, toolArgument?: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, ...(toolArgument ? { tool_argument: toolArgument } : {}) }])

type Doc = { document: string; title: string; steps?: { description: string; status: string }[] }
const initialState: Doc = { document: 'old', title: 'T' }

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
      const doc = value as Doc
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
      if ((value as Doc).document.includes('forbidden')) throw new Error('no forbidden words')
      return value as Doc
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

describe('edits during a run', () => {
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
    const store = createAgentStore({ initialState })
    store.apply([ev.runStarted(), predict('document', 'write', 'document'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"document":"agent')])
    store.setState((s) => ({ ...s, document: 'user' }))
    expect(store.getState()).toMatchObject({ state: { document: 'user' }, committed: { document: 'user' }, predictions: [] })
    store.apply([ev.toolArgs('c1', ' more'), ev.delta({ op: 'replace', path: '/document', value: 'server' })])
    expect(store.getState()).toMatchObject({ state: { document: 'user' }, committed: { document: 'user' }, predictions: [] })
  })

  it('keeps the state identical while text streams on top of edits', () => {
    const store = createAgentStore({ initialState })
    store.apply([ev.runStarted(), ev.textStart('m')])
    store.setState((s) => ({ ...s, title: 'mine' }))
    const before = store.getState().state
    store.apply([ev.text('m', 'a'), ev.text('m', 'b')])
    expect(store.getState().state).toBe(before)
  })
})
