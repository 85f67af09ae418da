// reconnect(): a run whose stream dropped is re-attached through the agent's AG-UI `connect`,
// and ends exactly as if the stream had never dropped: no message, tool call or draft twice.
// The agent below behaves like the CopilotKit runtime's in-memory runner: the server goes on with
// a run after the client's stream drops, and `connect` replays the thread (optionally compacted).
import { AbstractAgent, compactEvents, HttpAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { type AgentSnapshot, type AgentStoreError, createAgentStore, restoreThread, serializeThread } from '../src'
import { ev, writerRun } from './helpers'

type Doc = Record<string, unknown>

/** A server that keeps every run's events, and a stream to the client that may drop after `dropAfter` events. */
class ReplayingAgent extends AbstractAgent {
  readonly log: BaseEvent[] = []
  readonly inputs: RunAgentInput[] = []
  readonly connects: RunAgentInput[] = []
  dropAfter: number | undefined
  constructor(private readonly compact = false) {
    super({ threadId: 't1' })
  }

  /** The events the server sends for a run: overridden by agents with another script. */
  protected script(input: RunAgentInput, index: number): BaseEvent[] {
    return writerRun(input.runId, index)
  }

  run(input: RunAgentInput): Observable<BaseEvent> {
    const events = this.script(input, this.inputs.length)
    this.inputs.push(structuredClone(input))
    this.log.push(...events)
    const limit = this.dropAfter ?? events.length
    this.dropAfter = undefined
    return new Observable<BaseEvent>((subscriber) => {
      const timer = setTimeout(() => {
        for (const event of events.slice(0, limit)) subscriber.next(event)
        if (limit < events.length) subscriber.error(new TypeError('network error'))
        else subscriber.complete()
      }, 0)
      return () => clearTimeout(timer)
    })
  }

  protected override connect(input: RunAgentInput): Observable<BaseEvent> {
    this.connects.push(structuredClone(input))
    const replay = this.compact ? compactEvents(this.log) : this.log
    return new Observable<BaseEvent>((subscriber) => {
      const timer = setTimeout(() => {
        for (const event of replay) subscriber.next(event)
        subscriber.complete()
      }, 0)
      return () => clearTimeout(timer)
    })
  }
}

const visible = (snapshot: AgentSnapshot<Doc>) => ({
  messages: snapshot.messages,
  state: snapshot.state,
  committed: snapshot.committed,
  confirmations: snapshot.confirmations,
  predictions: snapshot.predictions,
  status: snapshot.status,
})

async function uninterrupted() {
  const agent = new ReplayingAgent()
  const store = createAgentStore<Doc>({ agent, initialState: {}, threadId: 't1' })
  await store.run({ message: { id: 'u1', role: 'user', content: 'Write a story' } })
  await store.run({ message: { id: 'u2', role: 'user', content: 'Thanks' } })
  return { snapshot: visible(store.getState()), next: agent.inputs[1]! }
}

const idsOf = (snapshot: AgentSnapshot<Doc>) => [
  ...snapshot.messages.map((m) => m.id),
  ...snapshot.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])),
]

describe('reconnect(): a dropped stream is re-attached and ends as if it had never dropped', () => {
  const events = writerRun('x', 0).length

  for (const compact of [false, true]) {
    it(`for every event the stream can drop after (${compact ? 'a compacted replay' : 'a full replay'})`, async () => {
      const expected = await uninterrupted()
      for (let k = 1; k < events; k++) {
        const agent = new ReplayingAgent(compact)
        const errors: AgentStoreError[] = []
        const store = createAgentStore<Doc>({ agent, initialState: {}, threadId: 't1', onError: (error) => errors.push(error) })
        agent.dropAfter = k
        await store.run({ message: { id: 'u1', role: 'user', content: 'Write a story' } })
        expect(store.getState().status, `k=${k}`).toBe('error')
        expect(errors.map((e) => e.code)).toEqual(['TRANSPORT'])

        await store.reconnect()
        const after = store.getState()
        expect(new Set(idsOf(after)).size, `k=${k}: no id twice`).toBe(idsOf(after).length)
        expect(agent.connects).toHaveLength(1)
        expect(agent.connects[0]!.threadId).toBe('t1')
        expect(agent.connects[0]!.runId).toBe(agent.inputs[0]!.runId)

        await store.run({ message: { id: 'u2', role: 'user', content: 'Thanks' } })
        expect(visible(store.getState()), `k=${k}`).toEqual(expected.snapshot)
        const { runId: _ignored, ...next } = agent.inputs[1]!
        const { runId: _expected, ...wanted } = expected.next
        expect(next, `k=${k}: the next request`).toEqual(wanted)
        expect(errors.map((e) => e.code)).toEqual(['TRANSPORT'])
      }
    })
  }

  it("keeps the user's edits made while the stream was down", async () => {
    const agent = new ReplayingAgent()
    const store = createAgentStore<Doc>({ agent, initialState: { title: 'Draft' }, threadId: 't1', onError: () => {} })
    agent.dropAfter = 6
    await store.run({ message: 'Write a story' })
    store.setState((previous) => ({ ...previous, title: 'My story' }))
    await store.reconnect()
    expect(store.getState().state).toEqual({ title: 'My story', document: 'Once upon a time', words: 4 })
    expect(store.getState().committed).toEqual(store.getState().state)
    expect(store.getState().status).toBe('idle')
  })

  it("keeps the user's edit of a state that is not an object, as the same edit made during the run", async () => {
    // A list state: the server appends twice; the user appends once.
    class ListAgent extends ReplayingAgent {
      protected override script(input: RunAgentInput): BaseEvent[] {
        return [
          ev.runStarted(input.runId),
          ev.delta({ op: 'add', path: '/-', value: 'b' }),
          ev.delta({ op: 'add', path: '/-', value: 'c' }),
          ev.runFinished(input.runId),
        ]
      }
    }
    const append = (previous: unknown) => [...(previous as string[]), 'mine']

    // The reference: the same edit made while the run streams, right after RUN_STARTED.
    const reference = createAgentStore<unknown>({ agent: new ListAgent(), initialState: ['a'] })
    let edited = false
    reference.subscribe((snapshot) => {
      if (!edited && snapshot.run?.runId !== undefined && snapshot.status === 'running') {
        edited = true
        reference.setState(append)
      }
    })
    await reference.run({ message: 'List' })
    expect(edited).toBe(true)

    const agent = new ListAgent()
    const store = createAgentStore<unknown>({ agent, initialState: ['a'], onError: () => {} })
    agent.dropAfter = 2
    await store.run({ message: 'List' })
    expect(store.getState().state).toEqual(['a'])
    store.setState(append)
    expect(store.getState().state).toEqual(['a', 'mine'])
    await store.reconnect()
    expect(store.getState().status).toBe('idle')
    expect(store.getState().state).toContain('mine')
    expect(store.getState().state).toEqual(reference.getState().state)
    expect(store.getState().committed).toEqual(reference.getState().committed)
  })

  it('a thread saved while its run streamed re-attaches by itself when restored', async () => {
    const agent = new ReplayingAgent()
    const store = createAgentStore<Doc>({ agent, initialState: {}, threadId: 't1' })
    let saved: unknown
    const stop = store.subscribe((snapshot) => {
      if (saved === undefined && snapshot.state.document === 'Once upon') saved = JSON.parse(JSON.stringify(serializeThread(store)))
    })
    await store.run({ message: 'Write a story' })
    stop()
    expect(saved).toBeDefined()

    const restored = createAgentStore<Doc>({ agent, initialState: {}, restore: restoreThread(saved as never) })
    // At first as the reload left it: idle, the draft discarded.
    expect(restored.getState().status).toBe('idle')
    expect(restored.getState().state).toEqual({})
    await waitFor(() => restored.getState().state.words === 4)
    expect(visible(restored.getState())).toEqual(visible(store.getState()))
    expect(agent.connects).toHaveLength(1)
  })

  it('without connect it rejects with RECONNECT and the store runs again', async () => {
    const agent = new HttpAgent({ url: 'http://127.0.0.1:9/never', threadId: 't1' })
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    await expect(store.reconnect()).rejects.toMatchObject({ code: 'RECONNECT', reason: 'not-supported' })
    expect(store.getState().status).toBe('idle')
  })

  it('with nothing dropped it rejects with RECONNECT (nothing-to-rejoin)', async () => {
    const agent = new ReplayingAgent()
    const store = createAgentStore<Doc>({ agent, initialState: {}, threadId: 't1' })
    await store.run({ message: 'Write a story' })
    const before = store.getState()
    await expect(store.reconnect()).rejects.toMatchObject({ code: 'RECONNECT', reason: 'nothing-to-rejoin' })
    expect(store.getState()).toBe(before)
  })

  it('a server that no longer has the run: RECONNECT (not-found), the thread unchanged and usable', async () => {
    const agent = new ReplayingAgent()
    const errors: AgentStoreError[] = []
    const store = createAgentStore<Doc>({ agent, initialState: {}, threadId: 't1', onError: (error) => errors.push(error) })
    agent.dropAfter = 5
    await store.run({ message: 'Write a story' })
    const before = store.getState()
    agent.log.length = 0
    await store.reconnect()
    expect(errors.map((e) => [e.code, e.reason])).toEqual([
      ['TRANSPORT', 'network'],
      ['RECONNECT', 'not-found'],
    ])
    expect(store.getState()).toBe(before)
    await store.run({ message: 'Again' })
    expect(store.getState().status).toBe('idle')
    expect(agent.inputs).toHaveLength(2)
  })

  it('a thread saved while reconnect() replays is still rejoinable once restored, and re-attaches by itself', async () => {
    const expected = await uninterrupted()
    const agent = new ReplayingAgent()
    const store = createAgentStore<Doc>({ agent, initialState: {}, threadId: 't1', onError: () => {} })
    agent.dropAfter = 6
    await store.run({ message: { id: 'u1', role: 'user', content: 'Write a story' } })
    const reconnecting = store.reconnect()
    // Saved before the replay's first event: the request in the thread is the replay itself.
    const saved = JSON.parse(JSON.stringify(serializeThread(store)))
    store.abort()
    await reconnecting

    // The same server, seen from the reloaded page: it has the thread's runs so far.
    const restoredAgent = new ReplayingAgent()
    restoredAgent.log.push(...agent.log)
    restoredAgent.inputs.push(...agent.inputs)
    const restored = createAgentStore<Doc>({ agent: restoredAgent, initialState: {}, restore: restoreThread(saved), onError: () => {} })
    await waitFor(() => restoredAgent.connects.length === 1 && restored.getState().status === 'idle')
    expect(restoredAgent.connects[0]!.runId).toBe(agent.inputs[0]!.runId)
    expect(visible(restored.getState()).messages).toEqual(expected.snapshot.messages.slice(0, 4))
    await restored.run({ message: { id: 'u2', role: 'user', content: 'Thanks' } })
    expect(visible(restored.getState())).toEqual(expected.snapshot)
  })
})

async function waitFor(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(condition()).toBe(true)
}
