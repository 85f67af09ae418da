// Category 2: truncation and faults, over real HTTP through HttpAgent and the store.
import { HttpAgent } from '@ag-ui/client'
import type { RunAgentInput } from '@ag-ui/core'
import type { AgentStoreError, RunOptions } from '@agent-state/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRun } from '../../packages/core/src/transport/connect-run'
import { type Exchange, ev, type Handler, type HostileServer, httpError, reply, sse, startHostileServer, waitFor } from './hostile-server'
import { type Doc, expectDraftInFlight, expectFailed, expectReady, healthy, initialState, prelude, storeOn } from './scenario'

let server: HostileServer
beforeAll(async () => {
  server = await startHostileServer()
})
afterAll(() => server.close())

const MiB = 1024 * 1024
const cutEvent = 'data: {"type":"STATE_DELTA","delta":[{"op":"replace","path":"/count","val'

/** Sends the prelude (a committed change and a draft), then does `then`. */
const afterDraft =
  (then: (exchange: Exchange) => void | Promise<unknown>): Handler =>
  async (exchange) => {
    exchange.start()
    await exchange.write(sse(prelude(exchange.input)))
    await then(exchange)
  }

interface Fault {
  name: string
  handler: Handler
  code: 'TRANSPORT' | 'RUN_ERROR'
  /** The committed state the failure must leave: the one from before the run. */
  committed: Doc
  /** Whether the fault comes after the prelude's draft streamed. */
  drafted?: boolean
  status?: number
}

const faults: Fault[] = [
  {
    name: 'the connection drops mid-event',
    handler: afterDraft(async (x) => (await x.write(cutEvent), x.destroy())),
    code: 'TRANSPORT',
    committed: initialState,
    drafted: true,
  },
  { name: 'the body ends cleanly mid-event', handler: afterDraft((x) => x.end(cutEvent)), code: 'TRANSPORT', committed: initialState, drafted: true },
  {
    name: 'the last event, RUN_FINISHED, lacks its blank line',
    handler: afterDraft((x) => x.end(`${sse([ev.toolEnd('c1')])}data: ${JSON.stringify(ev.finished(x.input))}\n`)),
    code: 'TRANSPORT',
    committed: initialState,
    drafted: true,
  },
  { name: 'the body ends mid-run with no terminal event', handler: afterDraft((x) => x.end()), code: 'TRANSPORT', committed: initialState, drafted: true },
  { name: 'the connection drops mid-run', handler: afterDraft((x) => x.destroy()), code: 'TRANSPORT', committed: initialState, drafted: true },
  {
    name: 'the body ends after RUN_STARTED only',
    handler: (x) => (x.start(), x.end(sse([ev.started(x.input)]))),
    code: 'TRANSPORT',
    committed: initialState,
  },
  {
    name: 'the connection drops after RUN_STARTED only',
    handler: async (x) => (x.start(), await x.write(sse([ev.started(x.input)])), x.destroy()),
    code: 'TRANSPORT',
    committed: initialState,
  },
  { name: 'headers, then an empty body', handler: (x) => (x.start(), x.end()), code: 'TRANSPORT', committed: initialState },
  { name: 'headers, then the connection drops', handler: async (x) => (x.start(), await x.write(''), x.destroy()), code: 'TRANSPORT', committed: initialState },
  { name: 'the connection drops before any response', handler: (x) => x.destroy(), code: 'TRANSPORT', committed: initialState },
  {
    name: 'HTTP 400 with a JSON body',
    handler: httpError(400, 'application/json', '{"detail":"bad input"}'),
    code: 'TRANSPORT',
    committed: initialState,
    status: 400,
  },
  {
    name: 'HTTP 401 with a JSON body',
    handler: httpError(401, 'application/json', '{"error":"unauthorized"}'),
    code: 'TRANSPORT',
    committed: initialState,
    status: 401,
  },
  {
    name: 'HTTP 404 with an HTML body',
    handler: httpError(404, 'text/html', '<html><body><h1>Not Found</h1></body></html>'),
    code: 'TRANSPORT',
    committed: initialState,
    status: 404,
  },
  {
    name: 'HTTP 422 with a validation error',
    handler: httpError(422, 'application/json', JSON.stringify({ detail: [{ loc: ['body', 'messages'], msg: 'field required' }] })),
    code: 'TRANSPORT',
    committed: initialState,
    status: 422,
  },
  {
    name: 'HTTP 429 with Retry-After',
    handler: ({ response }) => (response.writeHead(429, { 'Retry-After': '1' }), response.end('slow down')),
    code: 'TRANSPORT',
    committed: initialState,
    status: 429,
  },
  {
    name: 'HTTP 500 with an HTML body',
    handler: httpError(500, 'text/html', '<html><body>Internal Server Error</body></html>'),
    code: 'TRANSPORT',
    committed: initialState,
    status: 500,
  },
  { name: 'HTTP 502 with an empty body', handler: httpError(502, 'text/plain', ''), code: 'TRANSPORT', committed: initialState, status: 502 },
  { name: 'HTTP 503 with malformed JSON', handler: httpError(503, 'application/json', '{"error": '), code: 'TRANSPORT', committed: initialState, status: 503 },
  {
    name: 'HTTP 500 with an endless body (read only up to 64 KiB)',
    handler: async ({ response }) => {
      response.writeHead(500, { 'Content-Type': 'text/html' })
      for (let i = 0; i < 256; i++) {
        const ok = await new Promise<boolean>((resolve) => response.write('<p>' + 'x'.repeat(MiB), (error) => resolve(!error && !response.destroyed)))
        if (!ok) return
      }
      response.end()
    },
    code: 'TRANSPORT',
    committed: initialState,
    status: 500,
  },
  {
    name: 'HTTP 200 with an HTML page',
    handler: ({ response }) => (
      response.writeHead(200, { 'Content-Type': 'text/html' }), response.end('<!doctype html>\n<html><body>Welcome</body></html>\n\n')
    ),
    code: 'TRANSPORT',
    committed: initialState,
  },
  {
    name: 'HTTP 200 with one JSON document instead of SSE',
    handler: (x) => (x.response.writeHead(200, { 'Content-Type': 'application/json' }), x.response.end(JSON.stringify(ev.started(x.input)))),
    code: 'TRANSPORT',
    committed: initialState,
  },
  {
    name: 'RUN_ERROR mid-run',
    handler: afterDraft((x) => x.end(sse([ev.error('model overloaded', 'overloaded')]))),
    code: 'RUN_ERROR',
    committed: initialState,
    drafted: true,
  },
]

it('shows the prelude of every fault as a draft while it streams', async () => {
  server.handle(async (exchange) => {
    exchange.start()
    await exchange.write(sse(prelude(exchange.input)))
    await exchange.closed
  })
  const { store } = storeOn(server)
  const done = store.run()
  await waitFor(() => store.getState().predictions.length === 1)
  expectDraftInFlight(store)
  store.abort()
  await done
  // abort() rolls back what the run changed, as a failure does, but is no error.
  expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: initialState, predictions: [] })
})

describe('each fault ends the run in error, drafts discarded, committed state intact, ready for the next run', () => {
  it.each(faults)('$name', async ({ handler, code, committed, drafted, status }) => {
    server.handle(handler, healthy)
    const { store, errors } = storeOn(server)
    let sawDraft = false
    const unsubscribe = store.subscribe((snapshot) => {
      if (snapshot.predictions.length > 0) {
        expectDraftInFlight(store)
        sawDraft = true
      }
    })
    await store.run()
    unsubscribe()
    expect(sawDraft).toBe(drafted === true)
    expectFailed(store, code, committed)
    const error = store.getState().error!
    // A RUN_ERROR is the server's report, not the store's: see the separate onError test below.
    if (code !== 'RUN_ERROR') expect(errors).toEqual([error])
    if (status !== undefined) expect(error.status).toBe(status)
    // Short and stable: no response body in the message.
    expect(error.message).not.toMatch(/<html|<p>|detail|unauthorized|field required|slow down/i)
    if (code === 'RUN_ERROR') expect(error.serverCode).toBe('overloaded')
    await waitFor(() => server.activeResponses() === 0, 5_000, 'the server to see the response closed')
    await expectReady(store, server, committed)
  })
})

it('reports a RUN_ERROR to onError, as it does every other way a run fails', async () => {
  server.handle(
    afterDraft((x) => x.end(sse([ev.error('model overloaded', 'overloaded')]))),
    healthy,
  )
  const { store, errors } = storeOn(server)
  await store.run()
  expectFailed(store, 'RUN_ERROR')
  expect(errors).toEqual([store.getState().error])
})

it('survives connection drops mid-body without an unhandled rejection (@ag-ui/client alone leaks one)', async () => {
  const unhandled: unknown[] = []
  const record = (reason: unknown) => unhandled.push(reason)
  process.on('unhandledRejection', record)
  try {
    server.handle(
      afterDraft((x) => x.destroy()),
      afterDraft(async (x) => (await x.write(cutEvent), x.destroy())),
      healthy,
    )
    const { store } = storeOn(server)
    await store.run()
    expectFailed(store, 'TRANSPORT')
    await store.run()
    expectFailed(store, 'TRANSPORT')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(unhandled).toEqual([])
  } finally {
    process.off('unhandledRejection', record)
  }
})

describe('a server that never answers', () => {
  const silent: Handler = (exchange) => exchange.closed

  it('abort() ends the run as idle, with no error, and closes the request', async () => {
    server.handle(silent, healthy)
    const { store, errors } = storeOn(server)
    const done = store.run()
    await waitFor(() => server.activeResponses() === 1)
    expect(store.getState().status).toBe('running')
    store.abort()
    await done
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: initialState, predictions: [] })
    expect(errors).toEqual([])
    await server.exchanges.at(-1)!.closed
    expect(server.exchanges.at(-1)!.abandoned()).toBe(true)
    await expectReady(store, server, initialState)
  })

  it('abort() after a draft streamed rolls the run back and closes the request', async () => {
    server.handle(
      afterDraft((x) => x.closed),
      healthy,
    )
    const { store } = storeOn(server)
    const done = store.run()
    await waitFor(() => store.getState().predictions.length === 1)
    store.abort()
    await done
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: initialState, committed: initialState, predictions: [] })
    await server.exchanges.at(-1)!.closed
    expect(server.exchanges.at(-1)!.abandoned()).toBe(true)
    await expectReady(store, server)
  })
})

/** A run on the transport alone, with its events and how it ended. */
function connect(agent: HttpAgent, timeoutMs: number) {
  const input: RunAgentInput = { threadId: 't', runId: 'r', state: {}, messages: [], tools: [], context: [], forwardedProps: {} }
  const events: string[] = []
  const started = performance.now()
  return new Promise<{ events: string[]; error: AgentStoreError | undefined; elapsed: number }>((resolve) => {
    connectRun(
      agent,
      input,
      { event: (event) => events.push(event.type), end: (error) => resolve({ events, error, elapsed: performance.now() - started }) },
      { timeoutMs },
    )
  })
}

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length

describe('idle timeout (connectRun option timeoutMs)', () => {
  it('ends a request that never gets headers with TRANSPORT, reason timeout, and closes it', async () => {
    server.handle((exchange) => exchange.closed)
    const { events, error, elapsed } = await connect(new HttpAgent({ url: server.url }), 150)
    expect(events).toEqual([])
    expect(error).toMatchObject({ code: 'TRANSPORT', reason: 'timeout' })
    expect(elapsed).toBeGreaterThanOrEqual(140)
    expect(elapsed).toBeLessThan(2_000)
    await server.exchanges.at(-1)!.closed
    expect(server.exchanges.at(-1)!.abandoned()).toBe(true)
  })

  it('ends a stream that stalls mid-run', async () => {
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(sse([ev.started(exchange.input), ev.textStart('m')]))
      await exchange.closed
    })
    const { events, error } = await connect(new HttpAgent({ url: server.url }), 150)
    expect(events).toEqual(['RUN_STARTED', 'TEXT_MESSAGE_START'])
    expect(error).toMatchObject({ code: 'TRANSPORT', reason: 'timeout' })
    await server.exchanges.at(-1)!.closed
    expect(server.exchanges.at(-1)!.abandoned()).toBe(true)
  })

  it('counts keep-alive comments as life: a slow stream outlives the timeout', async () => {
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(sse([ev.started(exchange.input)]))
      for (let i = 0; i < 8; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        await exchange.write(': keep-alive\n')
      }
      exchange.end(sse([ev.finished(exchange.input)]))
    })
    const { events, error, elapsed } = await connect(new HttpAgent({ url: server.url }), 150)
    expect(error).toBeUndefined()
    expect(events).toEqual(['RUN_STARTED', 'RUN_FINISHED'])
    expect(elapsed).toBeGreaterThan(300)
  })

  it('releases its timer however the run ends', async () => {
    const before = timers()
    server.handle(
      reply((input) => [ev.started(input), ev.finished(input)]),
      (x) => x.destroy(),
      httpError(500, 'text/plain', 'no'),
    )
    for (let i = 0; i < 3; i++) await connect(new HttpAgent({ url: server.url }), 10_000)
    // Not one per run left behind (a timer of the test runner's own may come or go meanwhile).
    expect(timers()).toBeLessThanOrEqual(before)
  })
})

describe('idle timeout through the store (needs the store to pass timeoutMs to connectRun)', () => {
  it('run({ timeoutMs }) ends a stalled run in error, drafts discarded, and the store runs again', async () => {
    server.handle(
      afterDraft((x) => x.closed),
      healthy,
    )
    const { store } = storeOn(server)
    const done = store.run({ timeoutMs: 150 } as RunOptions & { timeoutMs: number })
    // Bounded even while the option is not wired: give up after 2 s and stop the run by hand.
    const ended = await Promise.race([done.then(() => true), new Promise<false>((resolve) => setTimeout(resolve, 2_000, false))])
    if (!ended) store.abort()
    expect(ended).toBe(true)
    expectFailed(store, 'TRANSPORT')
    expect(store.getState().error).toMatchObject({ reason: 'timeout' })
    await expectReady(store, server)
  })
})
