// A jump into the middle of a run: the store shows that moment, with the run's request still open
// but no longer connected. It goes on like any running store: abort() ends the run as a Stop
// would have ended it then, and a thread saved after the jump comes back cut short, never running.
import { EventType } from '@ag-ui/core'
import { type AgentStoreError, canAbort, canAnswer, canRun, createAgentStore, type PersistStorage, persistThread } from '@agent-state/core'
import { storeInternals } from '@agent-state/core/internals'
import { ScriptedAgent } from '@agent-state/core/testing'
import { createRecorder, replayRecording } from '@agent-state/devtools'
import { describe, expect, it, vi } from 'vitest'
import { fixtures, initialStateOf, withIds } from './fixtures'

const fixture = fixtures.find((f) => f.name === 'core/02-predictive-document-approve.agent-framework.json')!
const finished = [
  { type: EventType.RUN_STARTED, threadId: 't', runId: 'r2' },
  { type: EventType.RUN_FINISHED, threadId: 't', runId: 'r2' },
]

function memoryStorage(): PersistStorage & { items: Map<string, string> } {
  const items = new Map<string, string>()
  return { items, getItem: (key) => items.get(key), setItem: (key, value) => void items.set(key, value), removeItem: (key) => void items.delete(key) }
}

/** A store streaming the fixture slowly, recorded; resolves once `at` inputs are recorded, with the run's promise. */
async function streaming(at: number, storage?: PersistStorage) {
  const agent = new ScriptedAgent({ runs: [fixture.events, finished], delay: 1 })
  const errors: AgentStoreError[] = []
  const persist = storage ? persistThread({ storage, throttleMs: 0 }) : undefined
  const store = createAgentStore({ agent, initialState: initialStateOf(fixture), onError: (error) => errors.push(error), ...(persist ? { persist } : {}) })
  const recorder = createRecorder(store)
  const running = store.run({ messages: withIds(fixture.input.messages) })
  await vi.waitFor(
    () => {
      if (recorder.getState().entries.length < at) throw new Error('still streaming')
    },
    { timeout: 5000, interval: 1 },
  )
  return { agent, store, recorder, running, errors }
}

const can = (snapshot: Parameters<typeof canRun>[0]) => ({ run: canRun(snapshot), answer: canAnswer(snapshot), abort: canAbort(snapshot) })

describe('a jump into a run', () => {
  it('shows that moment, its request open and unconnected: run() is refused as canRun says, abort() ends it, and the store goes on', async () => {
    const { agent, store, recorder, running } = await streaming(12)
    const target = recorder.getState().entries[8]!
    expect(target.snapshot.status).toBe('running')
    recorder.jumpTo(target.index)
    // The command that started the run settles: its connection is gone.
    await running
    expect(store.getState()).toBe(target.snapshot)
    expect(store.getState()).toMatchObject({ status: 'running', requesting: true })
    expect(can(store.getState())).toEqual({ run: false, answer: false, abort: true })
    await expect(store.run({ message: 'again' })).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
    // Nothing arrives any more.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(store.getState()).toBe(target.snapshot)
    expect(agent.inputs).toHaveLength(1)

    // An edit during the run it shows, then Stop: the run ends as it would have ended at that moment.
    store.setState((previous) => ({ ...previous, note: 'mine' }))
    store.abort()
    expect(store.getState()).toMatchObject({ status: 'idle', requesting: false, error: undefined, predictions: [] })
    expect(store.getState().committed).toEqual({ ...initialStateOf(fixture), note: 'mine' })
    expect(can(store.getState())).toEqual({ run: true, answer: false, abort: false })
    expect(recorder.getState().entries.at(-2)!.detached).toBe(true)

    await store.run({ message: 'again' })
    expect(agent.inputs).toHaveLength(2)
    expect(agent.inputs[1]!.state).toEqual({ ...initialStateOf(fixture), note: 'mine' })
    expect(store.getState()).toMatchObject({ status: 'idle', requesting: false })
    const replay = replayRecording(recorder.exportRecording())
    expect(replay.snapshots).toEqual(recorder.getState().entries.map((e) => e.snapshot))
    expect(replay.store.getState()).toEqual(store.getState())
  })

  it('writes a thread that a reload restores cut short (idle, the draft discarded), never running', async () => {
    const storage = memoryStorage()
    const { store, recorder, running } = await streaming(12, storage)
    const target = recorder.getState().entries[10]!
    expect(target.snapshot.predictions.length).toBeGreaterThan(0)
    recorder.jumpTo(target.index)
    await running
    await storeInternals(store).flush()
    // A reload: a new store from what the storage holds, with no agent able to re-attach.
    const reloaded = createAgentStore({ initialState: initialStateOf(fixture), persist: persistThread({ storage }) })
    expect(reloaded.getState()).toMatchObject({ status: 'idle', requesting: false, predictions: [], state: initialStateOf(fixture) })
    expect(canRun(reloaded.getState())).toBe(true)
    // What a Stop at that moment leaves.
    store.abort()
    const { messages, state, committed, confirmations } = store.getState()
    expect(reloaded.getState()).toMatchObject({ messages, state, committed, confirmations })
  })

  it('back to the end of the run afterwards shows the finished run again, with nothing open', async () => {
    const { store, recorder, running } = await streaming(12)
    await running
    const last = recorder.getState().entries.at(-1)!
    recorder.jumpTo(recorder.getState().entries[6]!.index)
    expect(store.getState().requesting).toBe(true)
    recorder.jumpTo(last.index)
    expect(store.getState()).toBe(last.snapshot)
    expect(can(store.getState())).toEqual({ run: false, answer: true, abort: false })
    await store.approve()
    expect(store.getState().status).toBe('idle')
  })
})
