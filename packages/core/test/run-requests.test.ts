import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore, createAgentThreads } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev, rejectionOf } from './helpers'
import { done, interrupt, OpenAgent, predict, type S } from './support/runs'

// run() and the requests it makes, through the public API: what a run sends and refuses, what a
// request that fails gives back, and how a request's end, abort() and reset() free the store.

describe('run()', () => {
  it('sends the committed state, the conversation with the new message, and empty defaults', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore<S>({ agent, initialState: { n: 1 }, threadId: 'th' })
    await store.run({ message: 'hi' })
    const input = agent.inputs[0]!
    expect(input.threadId).toBe('th')
    expect(input.state).toStrictEqual({ n: 1 })
    expect(input.tools).toStrictEqual([])
    expect(input.context).toStrictEqual([])
    expect(input.forwardedProps).toStrictEqual({})
    expect(input.messages.map((m) => [m.role, m.content])).toStrictEqual([['user', 'hi']])
    expect('resume' in input).toBe(false)
    expect(store.getState().runId).toBe(input.runId)
  })

  it('is running with the new run id, no steps and no error, as soon as it is called', async () => {
    const agent = new OpenAgent(false)
    const store = createAgentStore<S>({ agent, initialState: {}, onError: () => {} })
    store.apply([ev.runStarted('old'), ev.stepStarted('s'), ev.runError('boom')])
    const running = store.run()
    const state = store.getState()
    expect(state).toMatchObject({ status: 'running', steps: [], error: undefined, runId: agent.inputs[0]!.runId })
    expect(state.run).toStrictEqual({ runId: agent.inputs[0]!.runId })
    store.abort()
    await running
  })

  it('refuses while a run is active, while confirmations are open, and without an agent', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: {} })
    const running = store.run()
    expect(await rejectionOf(store.run())).toStrictEqual({ code: 'RUN_ACTIVE', message: 'A run is already active on this store: await it or abort() it first' })
    agent.streams[0]!.next(interrupt(agent.inputs[0]!.runId, [{ id: 'i1', reason: 'input_required' }]))
    await running
    expect(await rejectionOf(store.run())).toStrictEqual({
      code: 'PENDING_CONFIRMATION',
      message: 'Confirmations are open: answer them with approve(), reject(), respond() or cancel() first',
    })
    const alone = createAgentStore<S>({ initialState: {} })
    expect(await rejectionOf(alone.run())).toStrictEqual({ code: 'NO_AGENT', message: 'run() needs an agent: pass createAgentStore({ url }) or ({ agent })' })
    expect(agent.inputs).toHaveLength(1)
  })

  it('settles drafts apply() left open as a truncated run, before it sends', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore<S>({ agent, initialState: { doc: 'old' } })
    store.apply([ev.runStarted('r0'), predict('doc', 'write', 'doc'), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"draft"}')])
    expect(store.getState().state).toStrictEqual({ doc: 'draft' })
    await store.run()
    expect(agent.inputs[0]!.state).toStrictEqual({ doc: 'old' })
    expect(store.getState()).toMatchObject({ status: 'idle', state: { doc: 'old' }, predictions: [] })
  })
})

describe('requests that fail', () => {
  it('before the first event of an answer: the confirmation reopens as it was, and answering again resends', async () => {
    const agent = new OpenAgent(false)
    const store = createAgentStore<S>({ agent, initialState: { doc: 'old' }, onError: () => {} })
    const first = store.run()
    const runId = agent.inputs[0]!.runId
    agent.streams[0]!.next(ev.runStarted(runId))
    agent.streams[0]!.next(predict('doc', 'write', 'doc'))
    agent.streams[0]!.next(ev.toolStart('w1', 'write', 'm1'))
    agent.streams[0]!.next(ev.toolArgs('w1', '{"doc":"draft"}'))
    agent.streams[0]!.next(ev.toolEnd('w1'))
    agent.streams[0]!.next(interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]))
    await first
    const before = store.getState()
    const answer = store.approve({ id: 'i1' })
    expect(store.getState()).toMatchObject({ status: 'running', committed: { doc: 'draft' } })
    agent.streams[1]!.error(new Error('HTTP 503'))
    await answer
    const after = store.getState()
    expect(after.status).toBe('interrupted')
    expect(after.error?.code).toBe('TRANSPORT')
    expect(after.confirmations).toBe(before.confirmations)
    expect(after.state).toBe(before.state)
    expect(after.committed).toBe(before.committed)
    expect(after.predictions).toBe(before.predictions)
    expect(after.messages).toBe(before.messages)
    expect(after.steps).toStrictEqual([])
    const again = store.approve({ id: 'i1' })
    expect(agent.inputs[2]!.resume).toStrictEqual(agent.inputs[1]!.resume)
    agent.streams[2]!.next(ev.runStarted(agent.inputs[2]!.runId))
    agent.streams[2]!.next(ev.runFinished(agent.inputs[2]!.runId))
    await again
    expect(store.getState()).toMatchObject({ status: 'idle', state: { doc: 'draft' }, confirmations: [] })
  })

  it('abort() before the first event of an answer gives it back too, without an error', async () => {
    const agent = new OpenAgent(false)
    const store = createAgentStore<S>({ agent, initialState: {} })
    const first = store.run()
    agent.streams[0]!.next(ev.runStarted(agent.inputs[0]!.runId))
    agent.streams[0]!.next(interrupt(agent.inputs[0]!.runId, [{ id: 'i1', reason: 'input_required' }]))
    await first
    const answer = store.respond({ id: 'i1', payload: { a: 1 } })
    store.abort()
    await answer
    expect(store.getState()).toMatchObject({ status: 'interrupted', error: undefined })
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i1'])
  })

  it('after the first event the answer counts as delivered: a failure ends the run as an error', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: {}, onError: () => {} })
    const first = store.run()
    agent.streams[0]!.next(interrupt(agent.inputs[0]!.runId, [{ id: 'i1', reason: 'input_required' }]))
    await first
    const answer = store.respond({ id: 'i1', payload: { a: 1 } })
    agent.streams[1]!.error(new Error('gone'))
    await answer
    expect(store.getState()).toMatchObject({ status: 'error', confirmations: [] })
    expect(store.getState().error?.code).toBe('TRANSPORT')
  })

  it('abort() with no request changes nothing', () => {
    const store = createAgentStore<S>({ initialState: { n: 0 } })
    store.apply([ev.runStarted('r1'), ev.delta({ op: 'replace', path: '/n', value: 1 })])
    const before = store.getState()
    store.abort()
    expect(store.getState()).toBe(before)
  })

  it('events of a request the store let go of change nothing', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: { n: 0 } })
    const first = store.run()
    store.abort()
    await first
    const before = store.getState()
    agent.streams[0]!.next(ev.snapshot({ n: 5 }))
    expect(store.getState()).toBe(before)
  })
})

describe('the end of a request', () => {
  it('RUN_FINISHED frees the store at once: a new run starts while the old response still drains', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: {} })
    const first = store.run()
    agent.streams[0]!.next(ev.runFinished(agent.inputs[0]!.runId))
    await first
    const second = store.run()
    expect(agent.inputs).toHaveLength(2)
    expect(store.getState().status).toBe('running')
    agent.streams[1]!.next(ev.runFinished(agent.inputs[1]!.runId))
    await second
    expect(store.getState().status).toBe('idle')
  })

  it('RUN_ERROR frees the store at once too, and the run() promise settles', async () => {
    const agent = new OpenAgent()
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ agent, initialState: {}, onError: (e) => errors.push(e) })
    const first = store.run()
    agent.streams[0]!.next(ev.runError('boom', 'X'))
    await first
    expect(errors.map((e) => [e.code, e.message])).toStrictEqual([['RUN_ERROR', 'boom']])
    expect(store.getState().error).toBe(errors[0])
    const second = store.run()
    expect(agent.inputs).toHaveLength(2)
    store.abort()
    await second
  })

  it('a malformed terminal event of a run ends it and settles its promise', async () => {
    const agent = new OpenAgent()
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ agent, initialState: {}, onError: (e) => errors.push(e) })
    const first = store.run()
    agent.streams[0]!.next({ type: 'RUN_FINISHED' } as BaseEvent)
    await first
    expect(store.getState().status).toBe('error')
    expect(errors.map((e) => e.code)).toStrictEqual(['INVALID_EVENT'])
    const second = store.run()
    expect(agent.inputs).toHaveLength(2)
    store.abort()
    await second
  })

  it('abort() closes the open steps and ends the run idle with no error', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: {} })
    const running = store.run()
    agent.streams[0]!.next(ev.stepStarted('s1'))
    expect(store.getState().steps).toStrictEqual(['s1'])
    store.abort()
    await running
    expect(store.getState()).toMatchObject({ status: 'idle', steps: [], error: undefined })
    expect(agent.streams[0]!.closed).toBe(true)
  })

  it('reset() during a run cuts its request and settles its promise', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: { n: 0 } })
    const running = store.run()
    store.reset({ n: 3 })
    await running
    expect(agent.streams[0]!.closed).toBe(true)
    agent.streams[0]!.next(ev.snapshot({ n: 9 }))
    expect(store.getState()).toMatchObject({ status: 'idle', state: { n: 3 } })
  })

  it("a run's own timeoutMs is used over the store's", async () => {
    const agent = new OpenAgent()
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ agent, initialState: {}, timeoutMs: 60_000, onError: (e) => errors.push(e) })
    const started = Date.now()
    await store.run({ timeoutMs: 20 })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(store.getState().status).toBe('error')
    expect(errors).toHaveLength(1)
  })

  it("the store's timeoutMs is used when the run gives none", async () => {
    const agent = new OpenAgent()
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ agent, initialState: {}, timeoutMs: 20, onError: (e) => errors.push(e) })
    await store.run()
    expect(store.getState().status).toBe('error')
    expect(errors).toHaveLength(1)
  })

  it('run() with no message keeps the conversation array as it was', async () => {
    const agent = new ScriptedAgent({ runs: [done, done] })
    const store = createAgentStore<S>({ agent, initialState: {} })
    await store.run({ message: 'hi' })
    const messages = store.getState().messages
    const running = store.run()
    expect(store.getState().messages).toBe(messages)
    await running
  })

  it('apply() during a run() applies its events to that run', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: { n: 0 } })
    const running = store.run()
    store.apply(ev.delta({ op: 'replace', path: '/n', value: 2 }))
    expect(store.getState()).toMatchObject({ status: 'running', state: { n: 2 } })
    agent.streams[0]!.next(ev.runFinished(agent.inputs[0]!.runId))
    await running
    expect(store.getState()).toMatchObject({ status: 'idle', committed: { n: 2 } })
  })
})

describe('the way to the agent: url or agent', () => {
  /** A fetch that answers every request with one finished run, keeping what it was asked. */
  function answeringFetch() {
    const asked: { url: string; body: { threadId: string; runId: string } }[] = []
    const fetch = async (url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as { threadId: string; runId: string }
      asked.push({ url, body })
      const events = [ev.runStarted(body.runId, body.threadId), ev.runFinished(body.runId, body.threadId)]
      return new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), { headers: { 'Content-Type': 'text/event-stream' } })
    }
    return { asked, fetch }
  }

  it('a store given url runs through it, with a new thread id unless one is given', async () => {
    const { asked, fetch } = answeringFetch()
    const store = createAgentStore<S>({ url: 'https://agent.test/run', fetch, initialState: {} })
    await store.run({ message: 'hi' })
    expect(asked.map((request) => request.url)).toStrictEqual(['https://agent.test/run'])
    expect(asked[0]!.body.threadId).toBe(store.getState().threadId)
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
    expect(createAgentStore<S>({ url: 'https://agent.test/run', fetch, initialState: {}, threadId: 't9' }).getState().threadId).toBe('t9')
  })

  it("every thread of a registry given url runs through it with the thread's own id", async () => {
    const { asked, fetch } = answeringFetch()
    const threads = createAgentThreads<S>({ url: 'https://agent.test/run', fetch, initialState: {} })
    await threads.open('a').run()
    await threads.open('b').run()
    expect(asked.map((request) => [request.url, request.body.threadId])).toStrictEqual([
      ['https://agent.test/run', 'a'],
      ['https://agent.test/run', 'b'],
    ])
    await threads.dispose()
  })

  it('agent and url together are refused at creation, before anything is sent', () => {
    const agent = new ScriptedAgent({ runs: [done] })
    let thrown: unknown
    try {
      createAgentStore<S>({ agent, url: 'https://agent.test/run', initialState: {} })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ name: 'AgentStoreError', code: 'NO_AGENT', message: 'createAgentStore takes either agent or url, not both' })
    expect(agent.inputs).toHaveLength(0)
  })

  it('reconnect() through url needs connectUrl: without it, RECONNECT not-supported and nothing is sent', async () => {
    const { asked, fetch } = answeringFetch()
    const store = createAgentStore<S>({ url: 'https://agent.test/run', fetch, initialState: {} })
    await expect(store.reconnect()).rejects.toMatchObject({ code: 'RECONNECT', reason: 'not-supported', message: 'reconnect() needs a connectUrl beside url' })
    expect(asked).toHaveLength(0)
  })
})
