// LangGraph opens every run with STATE_SNAPSHOT({}) before its first node has read the thread's
// state. The store holds it from view until the next state event, whether or not the user has
// edited, and the user's edits are merged against the state they were made on, never against {}.
import { describe, expect, it } from 'vitest'
import { ev, ManualAgent, recordedStore } from './helpers'

type Doc = Record<string, unknown>
const initialState: Doc = { document: 'keep', title: '', revision: 0 }

/** A run in progress on a store that records what it published and reported. */
async function running() {
  const agent = new ManualAgent()
  const { store, published, errors } = recordedStore<Doc>({ agent, initialState })
  const done = store.run({ message: 'go' })
  await Promise.resolve()
  expect(store.getState().status).toBe('running')
  return { agent, store, published, errors, done }
}

const codes = (errors: unknown[]) => errors.map((error) => (error as { code: string }).code)

describe("a run's opening empty snapshot after the user edited", () => {
  it('is held: the view keeps the edit, nothing is reported, and the first node’s snapshot merges under the edit', async () => {
    const { agent, store, published, errors, done } = await running()
    store.setState((state) => ({ ...state, title: 'mine' }))
    agent.push(ev.snapshot({}))
    expect(store.getState().state).toStrictEqual({ document: 'keep', title: 'mine', revision: 0 })
    expect(store.getState().error).toBeUndefined()
    // The first node's snapshot: the state the run was sent (without the edit), plus the server's own change.
    agent.push(ev.snapshot({ document: 'keep', title: '', revision: 1 }))
    expect(store.getState().state).toStrictEqual({ document: 'keep', title: 'mine', revision: 1 })
    agent.finish()
    await done
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, committed: { document: 'keep', title: 'mine', revision: 1 } })
    expect(codes(errors)).toStrictEqual([])
    // No listener ever saw the document blanked.
    expect(published.filter((snapshot) => snapshot.state.document !== 'keep')).toStrictEqual([])
  })

  it('an edit made while the empty snapshot is held is merged against the state shown, not against {}: the server’s other keys still arrive', async () => {
    const { agent, store, errors, done } = await running()
    agent.push(ev.snapshot({}))
    store.setState((state) => ({ ...state, title: 'mine' }))
    expect(store.getState().state).toStrictEqual({ document: 'keep', title: 'mine', revision: 0 })
    agent.push(ev.snapshot({ document: 'rewritten', title: '', revision: 1 }))
    expect(store.getState().state).toStrictEqual({ document: 'rewritten', title: 'mine', revision: 1 })
    agent.finish()
    await done
    expect(store.getState().committed).toStrictEqual({ document: 'rewritten', title: 'mine', revision: 1 })
    expect(codes(errors)).toStrictEqual([])
  })

  it('the user wins on their keys over the first node’s own value for them', async () => {
    const { agent, store, errors, done } = await running()
    store.setState((state) => ({ ...state, title: 'mine' }))
    agent.push(ev.snapshot({}), ev.snapshot({ document: 'keep', title: 'the agent’s', revision: 1 }))
    agent.finish()
    await done
    expect(store.getState().committed).toStrictEqual({ document: 'keep', title: 'mine', revision: 1 })
    expect(codes(errors)).toStrictEqual([])
  })

  it('a run that ends while it is still held ends on the server’s empty state with the user’s keys, and no conflict', async () => {
    const { agent, store, errors, done } = await running()
    store.setState((state) => ({ ...state, title: 'mine' }))
    agent.push(ev.snapshot({}))
    agent.finish()
    await done
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { title: 'mine' }, committed: { title: 'mine' } })
    expect(Object.keys(store.getState().state)).toStrictEqual(['title'])
    expect(codes(errors)).toStrictEqual([])
  })

  it('a delta after it applies to the empty state, and the user’s keys stay theirs', async () => {
    const { agent, store, errors } = await running()
    store.setState((state) => ({ ...state, title: 'mine' }))
    agent.push(ev.snapshot({}), ev.delta({ op: 'add', path: '/revision', value: 1 }))
    expect(store.getState().state).toStrictEqual({ revision: 1, title: 'mine' })
    expect(codes(errors)).toStrictEqual([])
  })

  it('a failed run after it returns to the state from before the run, with the edit', async () => {
    const { agent, store, errors, done } = await running()
    store.setState((state) => ({ ...state, title: 'mine' }))
    agent.push(ev.snapshot({}), ev.runError('boom'))
    await done.catch(() => undefined)
    expect(store.getState()).toMatchObject({ status: 'error', state: { document: 'keep', title: 'mine', revision: 0 } })
    expect(codes(errors)).toStrictEqual(['RUN_ERROR'])
  })
})
