// The store's behaviour is the same whichever way it reaches the agent: the built-in transport
// (`createAgentStore({ url })`, its body read through fetch or through XMLHttpRequest) and
// @ag-ui/client's HttpAgent (`createAgentStore({ agent })`). Each scenario runs through all three
// against a real server on 127.0.0.1, and asserts what the store shows and what the server received.
import { enforceOutgoingInput, HttpAgent, runHttpRequest, transformHttpEventStream } from '@ag-ui/client'
import type { RunAgentInput } from '@ag-ui/core'
import { type AgentStore, type AgentStoreError, type AgentStoreOptions, createAgentStore, restoreThread, serializeThread } from '@agent-state/core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Exchange, ev, type HostileServer, httpError, reply, sse, startHostileServer, waitFor } from './reliability/hostile-server'
import { NodeXmlHttpRequest } from './support/node-xhr'

type Doc = Record<string, unknown>

/** An HttpAgent whose `connect` posts to `<url>/connect`, as HttpAgent builds its run request. */
class ResumingAgent extends HttpAgent {
  protected override connect(input: RunAgentInput): ReturnType<HttpAgent['run']> {
    return transformHttpEventStream(
      runHttpRequest(() => this.fetch(`${this.url}/connect`, this.requestInit(enforceOutgoingInput(input)))),
      this.debugLogger,
    )
  }
}

interface Transport {
  readonly name: string
  /** The options that point a store at `url`, able to reconnect through `<url>/connect`. */
  link(url: string): Partial<AgentStoreOptions<Doc>>
}

const transports: readonly Transport[] = [
  { name: 'url, read through fetch', link: (url) => ({ url, reader: 'fetch', connectUrl: `${url}/connect` }) },
  { name: 'url, read through XMLHttpRequest', link: (url) => ({ url, reader: 'xhr', connectUrl: `${url}/connect` }) },
  { name: 'HttpAgent', link: (url) => ({ agent: new ResumingAgent({ url }) }) },
]

let server: HostileServer
beforeAll(async () => {
  vi.stubGlobal('XMLHttpRequest', NodeXmlHttpRequest)
  server = await startHostileServer()
})
afterAll(async () => {
  vi.unstubAllGlobals()
  await server.close()
})

/** The last request the server received. */
const lastExchange = (): Exchange => server.exchanges.at(-1)!
const lastRequest = (): RunAgentInput => server.requests.at(-1)!

const predictDoc = ev.predict('doc', 'write_doc', 'text')
const onDoc = { id: 'i1', reason: 'tool_call', toolCallId: 'w1' }

/** Run 1 drafts `doc` through the tool call w1 and asks to confirm it. */
const drafted = reply((input) => [
  ev.started(input),
  predictDoc,
  ev.toolStart('w1', 'write_doc', 'm1'),
  ev.toolArgs('w1', '{"text":"draft"}'),
  ev.toolEnd('w1'),
  ev.finished(input, { type: 'interrupt', interrupts: [onDoc] }),
])
const finished = reply((input) => [ev.started(input), ev.finished(input)])

describe.each(transports)('the store through $name', (transport) => {
  let errors: AgentStoreError[]
  beforeEach(() => {
    errors = []
  })
  afterEach(() => {
    server.handle()
  })

  function open(options: Partial<AgentStoreOptions<Doc>> = {}): AgentStore<Doc> {
    return createAgentStore<Doc>({
      ...transport.link(server.url),
      initialState: { doc: 'before' },
      threadId: 't1',
      onError: (error) => errors.push(error),
      ...options,
    })
  }

  it('streams a text run and sends the whole input', async () => {
    server.handle(
      reply((input) => [ev.started(input), ev.textStart('a1'), ev.text('a1', 'Hello '), ev.text('a1', 'world'), ev.textEnd('a1'), ev.finished(input)]),
    )
    const store = open()
    await store.run({
      message: { id: 'u1', role: 'user', content: 'hi' },
      tools: [{ name: 'write_doc', description: 'Writes', parameters: { type: 'object' } }],
      context: [{ description: 'today', value: 'Thursday' }],
      forwardedProps: { model: 'small' },
    })
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, requesting: false })
    expect(store.getState().messages).toStrictEqual([
      { id: 'u1', role: 'user', content: 'hi' },
      { id: 'a1', role: 'assistant', content: 'Hello world' },
    ])
    expect(lastRequest()).toStrictEqual({
      threadId: 't1',
      runId: store.getState().run?.runId,
      state: { doc: 'before' },
      messages: [{ id: 'u1', role: 'user', content: 'hi' }],
      tools: [{ name: 'write_doc', description: 'Writes', parameters: { type: 'object' } }],
      context: [{ description: 'today', value: 'Thursday' }],
      forwardedProps: { model: 'small' },
    })
    expect(lastExchange().request.method).toBe('POST')
    expect(lastExchange().request.headers).toMatchObject({ 'content-type': 'application/json', accept: 'text/event-stream' })
    expect(errors).toStrictEqual([])
  })

  it('applies a state snapshot and a delta, and sends the result with the next run', async () => {
    server.handle(
      reply((input) => [
        ev.started(input),
        ev.snapshot({ doc: 'a', todos: [{ title: 'milk', done: false }] }),
        ev.delta({ op: 'replace', path: '/todos/0/done', value: true }),
        ev.finished(input),
      ]),
      finished,
    )
    const store = open()
    await store.run()
    const expected = { doc: 'a', todos: [{ title: 'milk', done: true }] }
    expect(store.getState()).toMatchObject({ status: 'idle', state: expected, committed: expected })
    await store.run()
    expect(lastRequest().state).toStrictEqual(expected)
  })

  it('shows a drafted tool call with its interrupt, and approve() sends the resume with the approved draft', async () => {
    server.handle(drafted, finished)
    const store = open()
    await store.run({ message: { id: 'u1', role: 'user', content: 'write' } })
    const asked = store.getState()
    expect(asked).toMatchObject({ status: 'interrupted', state: { doc: 'draft' }, committed: { doc: 'before' } })
    expect(asked.confirmations.map((c) => c.id)).toStrictEqual(['i1'])
    const firstRunId = server.requests.at(-1)!.runId

    await store.approve({ id: 'i1' })
    expect(lastRequest()).toStrictEqual({
      threadId: 't1',
      runId: expect.not.stringMatching(`^${firstRunId}$`),
      state: { doc: 'draft' },
      messages: [
        { id: 'u1', role: 'user', content: 'write' },
        {
          id: 'm1',
          role: 'assistant',
          toolCalls: [{ id: 'w1', type: 'function', function: { name: 'write_doc', arguments: '{"text":"draft"}' } }],
        },
        { id: expect.any(String), role: 'tool', toolCallId: 'w1', content: '{"accepted":true}' },
      ],
      tools: [],
      context: [],
      forwardedProps: {},
      resume: [{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }],
    })
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { doc: 'draft' }, committed: { doc: 'draft' }, confirmations: [] })
  })

  it('abort() cuts the request: the run ends idle with its changes rolled back, and the server sees the client go', async () => {
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(sse([ev.started(exchange.input), ev.delta({ op: 'replace', path: '/doc', value: 'mid' })]))
    })
    const store = open()
    const running = store.run()
    await waitFor(() => store.getState().state.doc === 'mid', 5_000, 'the delta')
    store.abort()
    await running
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, requesting: false, state: { doc: 'before' } })
    await lastExchange().closed
    expect(lastExchange().abandoned()).toBe(true)
  })

  it('HTTP 503 on a run ends it as TRANSPORT http 503, and on an answer gives the answer back', async () => {
    server.handle(httpError(503, 'text/plain', 'overloaded'))
    const store = open()
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'error', error: { code: 'TRANSPORT', reason: 'http', status: 503 }, state: { doc: 'before' } })

    server.handle(drafted, httpError(503, 'text/plain', 'overloaded'), finished)
    await store.run()
    const asked = store.getState()
    await store.approve({ id: 'i1' })
    const given = store.getState()
    expect(given).toMatchObject({ status: 'interrupted', error: { code: 'TRANSPORT', reason: 'http', status: 503 }, state: { doc: 'draft' } })
    expect(given.confirmations).toStrictEqual(asked.confirmations)
    await store.approve({ id: 'i1' })
    expect(lastRequest().resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, committed: { doc: 'draft' } })
    expect(errors.map((error) => error.code)).toStrictEqual(['TRANSPORT', 'TRANSPORT'])
  })

  it('fails a run the agent goes silent on as TRANSPORT timeout, and closes the request', async () => {
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(sse([ev.started(exchange.input)]))
    })
    const store = open({ timeoutMs: 100 })
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'error', error: { code: 'TRANSPORT', reason: 'timeout' } })
    await lastExchange().closed
    expect(lastExchange().abandoned()).toBe(true)
  })

  it('reconnect() after a dropped stream resumes after Last-Event-ID and ends the run as if nothing dropped', async () => {
    server.handle(async (exchange) => {
      exchange.start()
      const { input } = exchange
      await exchange.write(`id: 1\n${sse([ev.started(input)])}id: 2\n${sse([ev.textStart('a1')])}id: 3\n${sse([ev.text('a1', 'Hello ')])}`)
      exchange.destroy()
    })
    const store = open()
    await store.run({ message: { id: 'u1', role: 'user', content: 'hi' } })
    expect(store.getState()).toMatchObject({ status: 'error', error: { code: 'TRANSPORT' } })
    const { runId } = lastRequest()

    let cursor: string | string[] | undefined
    server.handle((exchange) => {
      cursor = exchange.request.headers['last-event-id']
      exchange.start()
      exchange.end(`id: 4\n${sse([ev.text('a1', 'world')])}id: 5\n${sse([ev.textEnd('a1')])}id: 6\n${sse([ev.finished({ ...exchange.input, runId })])}`)
    })
    await store.reconnect()
    expect(lastExchange().request.url).toBe('/agent/connect')
    expect(cursor).toBe('3')
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
    expect(store.getState().messages).toStrictEqual([
      { id: 'u1', role: 'user', content: 'hi' },
      { id: 'a1', role: 'assistant', content: 'Hello world' },
    ])
  })
})

describe('what the store sends through url', () => {
  afterEach(() => {
    server.handle()
  })

  it('calls a headers function once per request, a run and an answer each, and sends what it returns', async () => {
    server.handle(drafted, finished)
    let calls = 0
    const headers = async () => ({ Authorization: `Bearer token-${++calls}` })
    const store = createAgentStore<Doc>({ url: server.url, headers, initialState: {}, threadId: 't1' })
    await store.run()
    expect(calls).toBe(1)
    expect(lastExchange().request.headers.authorization).toBe('Bearer token-1')
    await store.approve({ id: 'i1' })
    expect(calls).toBe(2)
    expect(lastExchange().request.headers.authorization).toBe('Bearer token-2')
  })

  it('the same request body and protocol headers as HttpAgent', async () => {
    server.handle(finished)
    const runOptions = {
      message: { id: 'u1', role: 'user' as const, content: 'naïve € 😀' },
      tools: [{ name: 'write', description: 'Writes', parameters: { type: 'object' } }],
      context: [{ description: 'today', value: 'Thursday' }],
      forwardedProps: { model: 'small' },
    }
    const headers = { Authorization: 'Bearer t' }
    const sent = async (options: Partial<AgentStoreOptions<Doc>>) => {
      const store = createAgentStore<Doc>({ ...options, initialState: { doc: { items: [1, null] } }, threadId: 't1' })
      await store.run(runOptions)
      const { request } = lastExchange()
      return { body: { ...lastRequest(), runId: 'run' }, method: request.method, url: request.url, headers: protocolHeaders(request.headers) }
    }
    const builtIn = await sent({ url: server.url, headers })
    expect(builtIn).toStrictEqual(await sent({ agent: new HttpAgent({ url: server.url, headers }) }))
    expect(builtIn.headers).toStrictEqual({ authorization: 'Bearer t', 'content-type': 'application/json', accept: 'text/event-stream' })
  })

  it('goes through the fetch given', async () => {
    server.handle(finished)
    const calls: string[] = []
    const store = createAgentStore<Doc>({
      url: server.url,
      fetch: (url, init) => {
        calls.push(`${init.method} ${url}`)
        return fetch(url, init)
      },
      initialState: {},
    })
    await store.run()
    expect(calls).toStrictEqual([`POST ${server.url}`])
    expect(store.getState().status).toBe('idle')
  })

  it('reconnect() without connectUrl rejects as not supported, sending nothing', async () => {
    const store = createAgentStore<Doc>({ url: server.url, initialState: {} })
    const before = server.requests.length
    await expect(store.reconnect()).rejects.toMatchObject({ code: 'RECONNECT', reason: 'not-supported', message: 'reconnect() needs a connectUrl beside url' })
    expect(server.requests.length).toBe(before)
  })

  it('re-attaches a restored thread whose run was streaming through connectUrl by itself', async () => {
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(`id: 1\n${sse([ev.started(exchange.input)])}id: 2\n${sse([ev.delta({ op: 'replace', path: '/doc', value: 'mid' })])}`)
    })
    const first = createAgentStore<Doc>({ url: server.url, connectUrl: `${server.url}/connect`, initialState: { doc: 'before' }, threadId: 't1' })
    void first.run()
    await waitFor(() => first.getState().state.doc === 'mid', 5_000, 'the delta')
    const saved = JSON.parse(JSON.stringify(serializeThread(first)))
    const { runId } = lastRequest()
    first.abort()

    let cursor: string | string[] | undefined
    server.handle((exchange) => {
      cursor = exchange.request.headers['last-event-id']
      exchange.start()
      // The cursor is known only once a stream has dropped: a thread saved mid-stream has none, and the run is replayed.
      const run = { ...exchange.input, runId }
      exchange.end(
        sse([
          ev.started(run),
          ev.delta({ op: 'replace', path: '/doc', value: 'mid' }),
          ev.delta({ op: 'replace', path: '/doc', value: 'after' }),
          ev.finished(run),
        ]),
      )
    })
    const restored = createAgentStore<Doc>({
      url: server.url,
      connectUrl: `${server.url}/connect`,
      initialState: { doc: 'before' },
      restore: restoreThread(saved),
    })
    // At first as the reload left it: idle, the run's change discarded.
    expect(restored.getState()).toMatchObject({ status: 'idle', state: { doc: 'before' } })
    await waitFor(() => restored.getState().state.doc === 'after', 5_000, 'the re-attached run')
    expect(lastExchange().request.url).toBe('/agent/connect')
    expect(cursor).toBeUndefined()
    expect(restored.getState()).toMatchObject({ error: undefined, state: { doc: 'after' }, committed: { doc: 'after' } })
  })
})

/** The headers both transports must agree on: the app's and the protocol's, not those fetch adds. */
function protocolHeaders(headers: Record<string, string | string[] | undefined>) {
  return { authorization: headers.authorization, 'content-type': headers['content-type'], accept: headers.accept }
}
