// The built-in HTTP transport's request, its choice of reader, and the events it hands on for the
// recorded real-server streams, each against what @ag-ui/client's HttpAgent does with the same.
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { HttpAgent, transformChunks, verifyEvents } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { type AgentStoreError, createAgentStore } from '@agent-state/core'
import { from, lastValueFrom, toArray } from 'rxjs'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { connectRun } from '../packages/core/src/transport/connect-run'
import { connectHttpRun, type HttpEndpoint } from '../packages/core/src/transport/http-transport'
import type { RunHandlers } from '../packages/core/src/transport/run-contract'
import { ev, sse } from './reliability/hostile-server'
import { readBody } from './support/agui-server'
import { listenOnLoopback } from './support/loopback'
import { NodeXmlHttpRequest } from './support/node-xhr'

interface Received {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/** An endpoint that keeps each request exactly as it arrived and streams `events(input)` back. */
async function startRecordingServer(events: (input: RunAgentInput) => readonly unknown[]) {
  const received: Received[] = []
  const server = createServer(async (request, response) => {
    const body = await readBody(request)
    received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body })
    response.writeHead(200, { 'Content-Type': 'text/event-stream' })
    response.end(sse(events(JSON.parse(body) as RunAgentInput)))
  })
  const loopback = await listenOnLoopback(server)
  return { url: loopback.url, received, close: loopback.close }
}
type RecordingServer = Awaited<ReturnType<typeof startRecordingServer>>

interface Outcome {
  events: BaseEvent[]
  error: AgentStoreError | undefined
}

function collect(open: (handlers: RunHandlers) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const events: BaseEvent[] = []
    open({ event: (event) => events.push(event), end: (error) => resolve({ events, error }) })
  })
}
const builtIn = (endpoint: HttpEndpoint, input: RunAgentInput) => collect((handlers) => connectHttpRun(endpoint, input, handlers))
const viaHttpAgent = (url: string, input: RunAgentInput, headers?: Record<string, string>) =>
  collect((handlers) => connectRun(new HttpAgent({ url, ...(headers ? { headers } : {}) }), input, handlers))

const input: RunAgentInput = {
  threadId: 'thread-1',
  runId: 'run-1',
  state: { doc: 'naïve € 😀', items: [1, { nested: null }] },
  messages: [
    { id: 'u1', role: 'user', content: 'Write it' },
    { id: 'a1', role: 'assistant', content: 'Done', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'write', arguments: '{"text":"x"}' } }] },
    { id: 't1', role: 'tool', toolCallId: 'c1', content: 'ok' },
  ],
  tools: [{ name: 'write', description: 'Writes', parameters: { type: 'object', properties: { text: { type: 'string' } } } }],
  context: [{ description: 'today', value: 'Thursday' }],
  forwardedProps: { model: 'small' },
}
const fullRun = (request: RunAgentInput) => [ev.started(request), ev.finished(request)]

beforeAll(() => {
  vi.stubGlobal('XMLHttpRequest', NodeXmlHttpRequest)
})
afterAll(() => {
  vi.unstubAllGlobals()
})

describe.each(['fetch', 'xhr'] as const)('the request, read through %s', (reader) => {
  let server: RecordingServer
  beforeAll(async () => {
    server = await startRecordingServer(fullRun)
  })
  afterAll(() => server.close())

  it('POSTs the RunAgentInput as JSON, byte for byte, with the headers HttpAgent sends', async () => {
    const headers = { Authorization: 'Bearer token', 'X-Tenant': 'acme' }
    const outcome = await builtIn({ url: server.url, reader, headers }, input)
    expect(outcome.error).toBeUndefined()
    const ours = server.received.at(-1)!
    expect(ours.method).toBe('POST')
    expect(ours.url).toBe('/agent')
    expect(ours.body).toBe(JSON.stringify(input))
    expect(ours.headers).toMatchObject({ 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer token', 'x-tenant': 'acme' })

    await viaHttpAgent(server.url, input, headers)
    const theirs = server.received.at(-1)!
    expect(JSON.parse(ours.body)).toEqual(JSON.parse(theirs.body))
    const sent = (h: IncomingHttpHeaders) => ({
      method: theirs.method,
      contentType: h['content-type'],
      accept: h.accept,
      auth: h.authorization,
      tenant: h['x-tenant'],
    })
    expect(sent(ours.headers)).toEqual(sent(theirs.headers))
  })

  it('leaves out a null subagentRunId, as HttpAgent does', async () => {
    const tagged = { ...input, messages: [{ id: 'u1', role: 'user', content: 'hi', subagentRunId: null } as unknown as RunAgentInput['messages'][number]] }
    await builtIn({ url: server.url, reader }, tagged)
    expect(JSON.parse(server.received.at(-1)!.body).messages).toEqual([{ id: 'u1', role: 'user', content: 'hi' }])
  })

  it('calls a headers function once per run, and awaits it', async () => {
    let calls = 0
    const headers = async () => {
      calls++
      await new Promise((resolve) => setTimeout(resolve, 5))
      return { Authorization: `Bearer ${calls}` }
    }
    const endpoint: HttpEndpoint = { url: server.url, reader, headers }
    await builtIn(endpoint, input)
    await builtIn(endpoint, { ...input, runId: 'run-2' })
    expect(calls).toBe(2)
    expect(server.received.slice(-2).map((r) => r.headers.authorization)).toEqual(['Bearer 1', 'Bearer 2'])
  })

  it('fails the run as network, without a request, when the headers function throws', async () => {
    const before = server.received.length
    const outcome = await builtIn(
      {
        url: server.url,
        reader,
        headers: () => {
          throw new Error('no token')
        },
      },
      input,
    )
    expect(outcome.error).toMatchObject({ code: 'TRANSPORT', reason: 'network', message: 'The connection to the agent failed: no token' })
    expect(server.received.length).toBe(before)
  })
})

describe('the reader', () => {
  let server: RecordingServer
  beforeAll(async () => {
    server = await startRecordingServer(fullRun)
  })
  afterAll(() => server.close())
  afterEach(() => {
    vi.stubGlobal('XMLHttpRequest', NodeXmlHttpRequest)
  })

  it('is XMLHttpRequest by default where fetch cannot stream a body', async () => {
    vi.stubGlobal('ReadableStream', undefined)
    const before = NodeXmlHttpRequest.sent.length
    try {
      const outcome = await builtIn({ url: server.url }, input)
      expect(outcome.error).toBeUndefined()
      expect(outcome.events.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_FINISHED'])
    } finally {
      vi.unstubAllGlobals()
    }
    expect(NodeXmlHttpRequest.sent.length).toBe(before + 1)
  })

  it('is fetch by default where fetch streams, and whenever a fetch is given', async () => {
    const before = NodeXmlHttpRequest.sent.length
    await builtIn({ url: server.url }, input)
    let fetched = 0
    const fetchFn = (url: string, init: RequestInit) => (fetched++, fetch(url, init))
    await builtIn({ url: server.url, fetch: fetchFn }, input)
    expect(fetched).toBe(1)
    expect(NodeXmlHttpRequest.sent.length).toBe(before)
  })

  it('reads the body whole from a given fetch that cannot stream it', async () => {
    const events = [ev.started(input), ev.textStart('m1'), ev.text('m1', 'hi'), ev.textEnd('m1'), ev.finished(input)]
    const noStream = async () => ({ ok: true, status: 200, headers: new Headers(), body: null, text: async () => sse(events, '\r\n') }) as unknown as Response
    const outcome = await builtIn({ url: server.url, fetch: noStream }, input)
    expect(outcome).toEqual({ events, error: undefined })
  })

  it('fails as network when XMLHttpRequest is asked for and missing', async () => {
    vi.stubGlobal('XMLHttpRequest', undefined)
    const outcome = await builtIn({ url: server.url, reader: 'xhr' }, input)
    expect(outcome.error).toMatchObject({
      code: 'TRANSPORT',
      reason: 'network',
      message: 'The connection to the agent failed: XMLHttpRequest is not available',
    })
  })
})

/** Every run the real-server suite recorded (LangGraph, the CopilotKit runtime, Mastra): its input and the events the server sent. */
function recordedRuns(): { name: string; input: RunAgentInput; events: BaseEvent[] }[] {
  const folder = new URL('./real-servers/recordings/', import.meta.url)
  return readdirSync(folder)
    .sort()
    .flatMap((file) => {
      const recording = JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as { runs: { body: RunAgentInput; events: BaseEvent[] }[] }
      return recording.runs.map((run, i) => ({ name: `${file} run ${i + 1}`, input: run.body, events: run.events }))
    })
}

/** The events up to and with the first terminal one: what one run hands on. */
const oneRun = (events: readonly BaseEvent[]) => {
  const end = events.findIndex((event) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR')
  return end === -1 ? [...events] : events.slice(0, end + 1)
}

describe('recorded real-server streams', () => {
  const runs = recordedRuns()
  let served: BaseEvent[] = []
  let server: RecordingServer
  beforeAll(async () => {
    server = await startRecordingServer(() => served)
  })
  afterAll(() => server.close())

  it('covers every recording', () => {
    expect(runs.length).toBeGreaterThan(40)
  })

  it.each(runs.map((run) => [run.name, run] as const))('%s: the events as sent, on both readers and through an HttpAgent', async (_name, run) => {
    served = run.events
    const expected = oneRun(run.events)
    const viaFetch = await builtIn({ url: server.url, reader: 'fetch' }, run.input)
    const viaXhr = await builtIn({ url: server.url, reader: 'xhr' }, run.input)
    const agent = await viaHttpAgent(server.url, run.input)
    expect(viaFetch).toEqual({ events: expected, error: undefined })
    expect(viaXhr).toEqual({ events: expected, error: undefined })
    expect(agent).toEqual({ events: expected, error: undefined })
  })

  // Why both transports hand chunks on as they came: the store expands them itself.
  const withChunks = runs.filter((run) => run.events.some((event) => event.type.endsWith('_CHUNK')))
  it.each(withChunks.map((run) => [run.name, run] as const))(
    '%s: the store reaches the same snapshot from the chunks as from their expansion',
    async (_name, run) => {
      const expanded = await lastValueFrom(from(run.events).pipe(transformChunks(false), verifyEvents(false), toArray()))
      const applied = (events: readonly BaseEvent[]) => {
        const store = createAgentStore({ initialState: run.input.state ?? {} })
        store.apply(events)
        const { messages, state, status, error } = store.getState()
        return { messages, state, status, error }
      }
      expect(expanded.length).toBeGreaterThan(run.events.length)
      expect(applied(run.events)).toEqual(applied(expanded))
    },
  )
})
