// Every part of a saved thread is checked before the store uses it: a part of the wrong shape is
// refused with RESTORE ('damaged'), the store starts clean and works, and nothing throws while the
// store is created (that happens during render, on every page load while the value is stored).
// A restored store is never `running` without a request.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStore, type AgentStoreError, createAgentStore, persistThread, restoreThread, serializeThread } from '../../src'
import { ev } from '../helpers'
import { type Doc, MapStorage, SteppedAgent, throughJson } from './support-threads'

const THREAD = 'thread-format'
const initialState: Doc = { document: 'Blank' }
const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: THREAD, runId }) as BaseEvent
const finished = (runId: string) => ({ type: 'RUN_FINISHED', threadId: THREAD, runId }) as BaseEvent

type Saved = Record<string, any>

function storeWith(agent: SteppedAgent, extra: { restore?: unknown; errors?: AgentStoreError[] } = {}): AgentStore<Doc> {
  return createAgentStore<Doc>({
    agent,
    initialState,
    threadId: THREAD,
    onError: (error) => extra.errors?.push(error),
    ...(extra.restore === undefined ? {} : { restore: restoreThread(extra.restore as never) }),
  })
}

/** A thread saved while its run streamed: its `run` part and its request are set. */
function streamingThread(): Saved {
  const agent = new SteppedAgent()
  const store = storeWith(agent)
  void store.run({ message: { id: 'u1', role: 'user', content: 'Write' } })
  agent.push(started('r1'))
  agent.push(ev.textStart('m1'))
  agent.push(ev.text('m1', 'Hel'))
  return throughJson(serializeThread(store)) as Saved
}

/** A thread saved after its confirmation was approved, before the server received the answer: an outbox with its restore point. */
function answeringThread(): Saved {
  const agent = new SteppedAgent()
  const store = storeWith(agent)
  void store.run({ message: { id: 'u1', role: 'user', content: 'Write' } })
  agent.push(started('r1'))
  agent.push(ev.toolStart('c1', 'confirm_changes'))
  agent.push(ev.toolArgs('c1', '{}'))
  agent.push(ev.toolEnd('c1'))
  agent.push(finished('r1'))
  void store.approve({ id: 'c1' })
  const saved = throughJson(serializeThread(store)) as Saved
  expect(saved.model.outbox.restore).toBeDefined()
  return saved
}

/** Restored from `saved`: nothing throws, and what was reported. */
function restoring(saved: unknown) {
  const errors: AgentStoreError[] = []
  const agent = new SteppedAgent()
  let store: AgentStore<Doc> | undefined
  expect(() => {
    store = storeWith(agent, { restore: saved, errors })
  }).not.toThrow()
  return { store: store!, agent, errors }
}

/** Refused as damaged, naming the part, and a clean store that runs to its end. */
function expectDamaged(saved: unknown, part: string) {
  const { store, agent, errors } = restoring(saved)
  expect(errors.map((error) => [error.code, error.reason])).toStrictEqual([['RESTORE', 'damaged']])
  expect(errors[0]!.message).toContain(part)
  expect(store.getState()).toMatchObject({ status: 'idle', messages: [], confirmations: [], state: initialState })
  void store.run({ message: { id: 'u2', role: 'user', content: 'Again' } })
  expect(store.getState().status).toBe('running')
  agent.push(started('r2'))
  agent.push(finished('r2'))
  expect(store.getState().status).toBe('idle')
  expect(agent.inputs.map((input) => input.messages.map((message) => message.id))).toStrictEqual([['u2']])
}

describe('a saved thread whose parts have the wrong shape is refused', () => {
  it('a `run` part missing its lists (it threw on every load)', () => {
    const saved = streamingThread()
    saved.model.run = { runId: 'r1', requestId: saved.model.request.id }
    expectDamaged(saved, 'model.run.')
  })

  it('a `run` part whose streaming calls are a list, not a record', () => {
    const saved = streamingThread()
    saved.model.run.streaming = ['c1']
    expectDamaged(saved, 'model.run.streaming')
  })

  it('an outbox without its restore point (it threw on every load)', () => {
    const saved = answeringThread()
    delete saved.model.outbox.restore
    expectDamaged(saved, 'model.outbox.restore')
  })

  it('a confirmation without its state keys (it came back but could not even be cancelled)', () => {
    const saved = answeringThread()
    // The confirmation the restore point gives back, and the one answered.
    delete saved.model.outbox.restore.confirmations[0].stateKeys
    expectDamaged(saved, 'stateKeys')
  })

  it('an open confirmation without its state keys', () => {
    const agent = new SteppedAgent()
    const store = storeWith(agent)
    store.apply([started('r1'), ev.toolStart('c1', 'confirm_changes'), ev.toolArgs('c1', '{}'), ev.toolEnd('c1'), finished('r1')])
    const saved = throughJson(serializeThread(store)) as Saved
    expect(saved.model.snapshot.confirmations).toHaveLength(1)
    delete saved.model.snapshot.confirmations[0].stateKeys
    expectDamaged(saved, 'model.snapshot.confirmations[0].stateKeys')
  })

  it('a request whose start model is damaged, and a rejoin without its run id', () => {
    const saved = streamingThread()
    saved.model.request.start.snapshot.messages = 'none'
    expectDamaged(saved, 'model.request.start.snapshot.messages')
    const again = streamingThread()
    again.model.rejoin = { start: again.model.request.start }
    expectDamaged(again, 'model.rejoin.runId')
  })

  it('a draft, a user edit, the run options or an error of the wrong type', () => {
    const cases: [string, (saved: Saved) => void][] = [
      ['model.drafts', (saved) => (saved.model.drafts = [{ stateKey: 1 }])],
      ['model.userEdits[0].whole', (saved) => (saved.model.userEdits = [{ base: {}, mine: {} }])],
      ['model.settings.tools[0]', (saved) => (saved.model.settings.tools = [{ description: 'no name' }])],
      ['model.snapshot.error', (saved) => (saved.model.snapshot.error = { message: 'a plain object' })],
      ['model.snapshot.subagents', (saved) => (saved.model.snapshot.subagents = {})],
    ]
    for (const [part, damage] of cases) {
      const saved = streamingThread()
      damage(saved)
      expectDamaged(saved, part)
    }
  })

  it('a damaged thread in storage is reported on each load and replaced by the first change', () => {
    const storage = new MapStorage()
    const saved = streamingThread()
    saved.model.run = { runId: 'r1' }
    storage.items.set('agent-state', JSON.stringify(saved))
    const errors: AgentStoreError[] = []
    const load = () => createAgentStore<Doc>({ initialState, threadId: THREAD, persist: persistThread({ storage }), onError: (error) => errors.push(error) })
    load()
    const store = load()
    expect(errors.map((error) => [error.code, error.reason])).toStrictEqual([
      ['RESTORE', 'damaged'],
      ['RESTORE', 'damaged'],
    ])
    store.setState({ document: 'Mine' })
    return store.whenRestored().then(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
      const again = createAgentStore<Doc>({ initialState, threadId: THREAD, persist: persistThread({ storage }), onError: (error) => errors.push(error) })
      expect(errors).toHaveLength(2)
      expect(again.getState().state).toStrictEqual({ document: 'Mine' })
    })
  })
})

describe('a restored store is never running without a request', () => {
  it('a thread saved running with its run but no request (a jump into a run) comes back idle, and runs', () => {
    const saved = streamingThread()
    saved.model.request = undefined
    const { store, agent, errors } = restoring(saved)
    expect(errors).toStrictEqual([])
    expect(store.getState().status).toBe('idle')
    // What was said is kept, as after abort(); the cut message is closed.
    expect(store.getState().messages.map((message) => message.id)).toStrictEqual(['u1', 'm1'])
    void store.run({ message: { id: 'u2', role: 'user', content: 'Again' } })
    agent.push(started('r2'))
    agent.push(finished('r2'))
    expect(store.getState().status).toBe('idle')
    expect(agent.inputs[0]!.messages.map((message) => message.id)).toStrictEqual(['u1', 'm1', 'u2'])
  })

  it('a thread saved running with neither run nor request comes back idle', () => {
    const saved = streamingThread()
    saved.model.request = undefined
    saved.model.run = undefined
    const { store, errors } = restoring(saved)
    expect(errors).toStrictEqual([])
    expect(store.getState().status).toBe('idle')
    expect(store.getState().steps).toStrictEqual([])
  })

  it('a run fed through apply() (no request ever) stays running: the app feeds its next events', () => {
    const store = createAgentStore<Doc>({ initialState, threadId: THREAD })
    store.apply([started('r1'), ev.textStart('m1'), ev.text('m1', 'Hel')])
    const { store: restored } = restoring(throughJson(serializeThread(store)))
    expect(restored.getState().status).toBe('running')
    restored.apply([ev.text('m1', 'lo'), ev.textEnd('m1'), finished('r1')])
    expect(restored.getState().status).toBe('idle')
    expect(restored.getState().messages.at(-1)).toMatchObject({ id: 'm1', content: 'Hello' })
  })
})
