// Category 6: concurrency, over real HTTP through HttpAgent and the store.
import { HttpAgent } from '@ag-ui/client'
import type { RunAgentInput } from '@ag-ui/core'
import { type AgentSnapshot, type AgentStore, createAgentStore } from '@agent-state/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Exchange, ev, type Handler, type HostileServer, reply, sse, startHostileServer, waitFor } from './hostile-server'
import { type Doc, expectReady, healthy, initialState, prelude, storeOn } from './scenario'

let server: HostileServer
beforeAll(async () => {
  server = await startHostileServer()
})
afterAll(() => server.close())

/** Writes `events`, waits for the client to go away, then tries to write more (late events that must not land). */
const holdAfter =
  (events: (input: RunAgentInput) => unknown[], headers = true): Handler =>
  async (exchange) => {
    if (headers) exchange.start()
    if (headers) await exchange.write(sse(events(exchange.input)))
    await exchange.closed
    await exchange.write(sse([ev.delta({ op: 'replace', path: '/count', value: 666 }), ev.finished(exchange.input)]))
  }

const interrupting = reply((input) => [
  ev.started(input),
  ev.predict('doc', 'write_doc', 'text'),
  ev.toolStart('c1', 'write_doc'),
  ev.toolArgs('c1', '{"text":"draft"}'),
  ev.toolEnd('c1'),
  ev.finished(input, { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 'c1' }] }),
])

interface Phase {
  name: string
  /** Handlers for the requests of this case, the last one being the one aborted. */
  handlers: Handler[]
  /** Runs that complete before the one aborted (each may leave confirmations to approve). */
  before?: (store: AgentStore<Doc>) => Promise<void>
  /** The store shows the phase was reached. */
  reached: (snapshot: AgentSnapshot<Doc>) => boolean
  /** The committed state abort() must leave. */
  committed: Doc
  /** The run to abort; by default run(). */
  start?: (store: AgentStore<Doc>) => Promise<void>
}

const phases: Phase[] = [
  { name: 'waiting for headers', handlers: [holdAfter(() => [], false)], reached: () => server.activeResponses() === 1, committed: initialState },
  { name: 'after headers, before any event', handlers: [holdAfter(() => [])], reached: () => server.activeResponses() === 1, committed: initialState },
  { name: 'after RUN_STARTED', handlers: [holdAfter((input) => [ev.started(input)])], reached: (s) => s.runId === 'remote', committed: initialState },
  {
    name: 'mid text message',
    handlers: [holdAfter((input) => [ev.started(input), ev.textStart('m1'), ev.text('m1', 'half a sen')])],
    reached: (s) => s.messages.length > 0,
    committed: initialState,
  },
  { name: 'mid tool arguments, with a draft', handlers: [holdAfter(prelude)], reached: (s) => s.predictions.length === 1, committed: initialState },
  {
    name: 'between deltas',
    handlers: [
      holdAfter((input) => [ev.started(input), ev.delta({ op: 'replace', path: '/count', value: 1 }), ev.delta({ op: 'add', path: '/extra', value: [1] })]),
    ],
    reached: (s) => 'extra' in (s.state as object),
    committed: initialState,
  },
  {
    name: 'inside a step',
    handlers: [holdAfter((input) => [ev.started(input), { type: 'STEP_STARTED', stepName: 'plan' }])],
    reached: (s) => s.steps.length === 1,
    committed: initialState,
  },
  {
    name: 'during the run resumed by approve()',
    handlers: [interrupting, holdAfter((input) => [...prelude(input)])],
    before: async (store) => {
      await store.run()
      expect(store.getState().status).toBe('interrupted')
    },
    start: (store) => store.approve({ id: 'i1' }),
    reached: (s) => s.predictions.length === 1,
    // The approved draft was committed by approve(); what the resumed run changed is rolled back.
    committed: { doc: 'draft', count: 0 },
  },
]

describe('abort() during every phase of a run', () => {
  it.each(phases)('$name: idle, no error, drafts discarded, request closed, late events ignored', async (phase) => {
    server.handle(
      ...phase.handlers.map(
        (handler): Handler =>
          (exchange) =>
            handler({ ...exchange, input: { ...exchange.input, runId: 'remote' } }),
      ),
      healthy,
    )
    const { store, errors } = storeOn(server)
    await phase.before?.(store)
    const requests = server.requests.length
    const done = (phase.start ?? ((s) => s.run()))(store)
    await waitFor(() => server.requests.length > requests && phase.reached(store.getState()), 5_000, phase.name)
    const aborted: AgentSnapshot<Doc>[] = []
    store.abort()
    store.subscribe((snapshot) => aborted.push(snapshot))
    await done
    const exchange = server.exchanges.at(-1)!
    await exchange.closed
    expect(exchange.abandoned()).toBe(true)
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, steps: [], predictions: [], confirmations: [] })
    expect(store.getState().state).toEqual(phase.committed)
    expect(store.getState().committed).toEqual(phase.committed)
    expect(errors).toEqual([])
    // Whatever the server still sends after the abort lands nowhere.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(aborted).toEqual([])
    await expectReady(store, server, phase.committed)
  })

  it('is a no-op once the run has finished, and while a confirmation waits', async () => {
    server.handle(interrupting)
    const { store } = storeOn(server)
    await store.run()
    const interrupted = store.getState()
    let notified = 0
    store.subscribe(() => notified++)
    store.abort()
    store.abort()
    expect(store.getState()).toBe(interrupted)
    expect(notified).toBe(0)
    expect(interrupted).toMatchObject({ status: 'interrupted', state: { doc: 'draft' }, committed: { doc: 'before' } })
  })

  it('ignores the events of a chunk already received when a listener aborts partway through it', async () => {
    server.handle((exchange) => {
      exchange.start()
      // Ten deltas in one write: they reach the client together.
      exchange.end(
        sse([
          ev.started(exchange.input),
          ...Array.from({ length: 10 }, (_, i) => ev.delta({ op: 'replace', path: '/count', value: i + 1 })),
          ev.finished(exchange.input),
        ]),
      )
    })
    const { store } = storeOn(server)
    const counts: number[] = []
    store.subscribe((snapshot) => {
      counts.push(snapshot.state.count)
      if (snapshot.state.count === 3) store.abort()
    })
    await store.run()
    // The abort rolls back what the run changed; nothing after it is applied.
    expect(store.getState()).toMatchObject({ status: 'idle', state: { count: 0 } })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(Math.max(...counts)).toBe(3)
    expect(counts.at(-1)).toBe(0)
    expect(store.getState().state.count).toBe(0)
  })

  it('abort() then run() at once: the old stream never touches the new run', async () => {
    let oldWrites = 0
    server.handle(
      async (exchange) => {
        exchange.start()
        await exchange.write(sse([ev.started(exchange.input), ev.delta({ op: 'replace', path: '/count', value: 1 })]))
        // Keeps writing whatever happens: every write after the abort must be lost.
        for (let i = 0; i < 20; i++) {
          await new Promise((resolve) => setTimeout(resolve, 3))
          if (await exchange.write(sse([ev.delta({ op: 'replace', path: '/doc', value: `old ${i}` })]))) oldWrites++
        }
        exchange.end()
      },
      async (exchange) => {
        exchange.start()
        await exchange.write(sse([ev.started(exchange.input)]))
        await new Promise((resolve) => setTimeout(resolve, 30))
        exchange.end(sse([ev.delta({ op: 'replace', path: '/doc', value: 'new' }), ev.finished(exchange.input)]))
      },
    )
    const { store } = storeOn(server)
    const first = store.run()
    await waitFor(() => store.getState().state.count === 1)
    store.abort()
    const docs: string[] = []
    store.subscribe((snapshot) => docs.push(snapshot.state.doc))
    const second = store.run()
    await Promise.all([first, second])
    await new Promise((resolve) => setTimeout(resolve, 80))
    // The aborted run's change (count: 1) was rolled back before the second run started.
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { doc: 'new', count: 0 } })
    expect(docs.filter((doc) => doc.startsWith('old '))).toEqual([])
    expect(server.requests[server.requests.length - 1]!.state).toEqual({ doc: 'before', count: 0 })
    expect(oldWrites).toBeLessThan(20)
  })

  it('reset() during a run aborts it and returns to the initial snapshot', async () => {
    server.handle(holdAfter(prelude), healthy)
    const { store } = storeOn(server)
    const done = store.run()
    await waitFor(() => store.getState().predictions.length === 1)
    store.reset()
    await done
    expect(store.getState()).toBe(store.getInitialState())
    await server.exchanges.at(-1)!.closed
    expect(server.exchanges.at(-1)!.abandoned()).toBe(true)
    await expectReady(store, server, initialState)
  })
})

describe('answers racing each other', () => {
  async function interrupted() {
    server.handle(interrupting, healthy)
    const { store } = storeOn(server)
    await store.run()
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['i1'])
    return store
  }

  it('approve() twice for the same interrupt: one resumed run; the second is refused (RUN_ACTIVE), later NO_CONFIRMATION', async () => {
    const store = await interrupted()
    const requests = server.requests.length
    const first = store.approve({ id: 'i1' })
    const second = store.approve({ id: 'i1' })
    await expect(second).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
    await first
    await expect(store.approve({ id: 'i1' })).rejects.toMatchObject({ code: 'NO_CONFIRMATION' })
    expect(server.requests).toHaveLength(requests + 1)
    expect(server.requests.at(-1)!.resume).toEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { doc: 'draft', count: 10 }, confirmations: [] })
  })

  it('approve() and reject() at once: the first answer wins, the other is refused', async () => {
    const store = await interrupted()
    const approved = store.approve({ id: 'i1' })
    await expect(store.reject({ id: 'i1' })).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
    await expect(store.cancel({ id: 'i1' })).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
    await approved
    expect(store.getState().state.doc).toBe('draft')
  })

  it('run() racing approve(): whichever comes second is refused, with a code saying why', async () => {
    const store = await interrupted()
    const requests = server.requests.length
    // run() first: the interrupt is still open.
    await expect(store.run()).rejects.toMatchObject({ code: 'PENDING_CONFIRMATION' })
    // approve() first: its resumed run is active.
    const approved = store.approve()
    await expect(store.run()).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
    await approved
    expect(server.requests).toHaveLength(requests + 1)
    await store.run()
    expect(server.requests).toHaveLength(requests + 2)
    expect(server.requests.at(-1)!.resume).toBeUndefined()
  })
})

describe('two stores on one agent', () => {
  /** Streams slowly, each store's own counter, so the two runs interleave on the wire. */
  const perStore: Handler = async (exchange: Exchange) => {
    const who = (exchange.input.state as { who: string }).who
    exchange.start()
    await exchange.write(sse([ev.started(exchange.input), ev.textStart(`m-${who}`)]))
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2))
      if (!(await exchange.write(sse([ev.text(`m-${who}`, who), ev.delta({ op: 'replace', path: '/n', value: i + 1 })])))) return
    }
    exchange.end(sse([ev.textEnd(`m-${who}`), ev.finished(exchange.input)]))
  }

  it('runs both at once without cross-talk, and leaves the agent as it was', async () => {
    server.handle(perStore)
    const agent = new HttpAgent({ url: server.url })
    const fetchBefore = agent.fetch
    const a = createAgentStore({ agent, initialState: { who: 'A', n: 0 } })
    const b = createAgentStore({ agent, initialState: { who: 'B', n: 0 } })
    await Promise.all([a.run(), b.run()])
    expect(a.getState()).toMatchObject({ status: 'idle', error: undefined, state: { who: 'A', n: 10 } })
    expect(b.getState()).toMatchObject({ status: 'idle', error: undefined, state: { who: 'B', n: 10 } })
    expect(a.getState().messages.map((m) => m.content)).toEqual(['A'.repeat(10)])
    expect(b.getState().messages.map((m) => m.content)).toEqual(['B'.repeat(10)])
    expect(agent.fetch).toBe(fetchBefore)
  })

  it('aborting one leaves the other running to the end', async () => {
    server.handle(perStore)
    const agent = new HttpAgent({ url: server.url })
    const a = createAgentStore({ agent, initialState: { who: 'A', n: 0 } })
    const b = createAgentStore({ agent, initialState: { who: 'B', n: 0 } })
    const runs = [a.run(), b.run()]
    await waitFor(() => a.getState().state.n >= 2)
    a.abort()
    await Promise.all(runs)
    expect(a.getState()).toMatchObject({ status: 'idle', error: undefined })
    expect(a.getState().state.n).toBeLessThan(10)
    expect(b.getState()).toMatchObject({ status: 'idle', error: undefined, state: { who: 'B', n: 10 } })
  })

  it('leaves a custom fetch in place, and the agent still usable on its own', async () => {
    server.handle(perStore)
    let calls = 0
    const agent = new HttpAgent({
      url: server.url,
      fetch: (url, init) => {
        calls++
        return fetch(url, init)
      },
    })
    const own = agent.fetch
    const a = createAgentStore({ agent, initialState: { who: 'A', n: 0 } })
    await a.run()
    expect(calls).toBe(1)
    expect(agent.fetch).toBe(own)
    // Straight through @ag-ui/client, with no store involved.
    const types: string[] = []
    await new Promise<void>((resolve, reject) =>
      agent.run({ threadId: 't', runId: 'r', state: { who: 'C' }, messages: [], tools: [], context: [], forwardedProps: {} }).subscribe({
        next: (event) => types.push(event.type),
        error: reject,
        complete: resolve,
      }),
    )
    expect(calls).toBe(2)
    expect(types[0]).toBe('RUN_STARTED')
    expect(types.at(-1)).toBe('RUN_FINISHED')
  })
})
