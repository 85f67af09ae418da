// The built-in HTTP transport against the hostile server, on both of its reading paths: fetch's
// body stream and XMLHttpRequest progress events (over node:http, as a browser behaves). Where
// connectRun with an HttpAgent reads the same bytes, the two must end the same way.
import { HttpAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import type { AgentStoreError } from '@agent-state/core'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { connectRun } from '../../packages/core/src/transport/connect-run'
import { connectHttpRun, type HttpEndpoint } from '../../packages/core/src/transport/http-transport'
import type { ConnectOptions, RunConnection } from '../../packages/core/src/transport/run-contract'
import { NodeXmlHttpRequest } from '../support/node-xhr'
import { type Exchange, ev, type Handler, type HostileServer, httpError, reply, sse, startHostileServer, waitFor } from './hostile-server'

let server: HostileServer
beforeAll(async () => {
  server = await startHostileServer()
  vi.stubGlobal('XMLHttpRequest', NodeXmlHttpRequest)
})
afterAll(async () => {
  vi.unstubAllGlobals()
  await server.close()
})

const MiB = 1024 * 1024
const input: RunAgentInput = { threadId: 't', runId: 'r', state: {}, messages: [], tools: [], context: [], forwardedProps: {} }
const text = 'héllo € 😀 𝄞 ok'
/** One complete run whose text holds 2-, 3- and 4-byte UTF-8 characters. */
const runEvents = [
  ev.started(input),
  ev.textStart('m1'),
  ev.text('m1', text.slice(0, 4)),
  ev.text('m1', text.slice(4)),
  ev.textEnd('m1'),
  ev.delta({ op: 'replace', path: '/count', value: 7 }),
  ev.finished(input),
]

interface Outcome {
  events: BaseEvent[]
  /** Handler calls after the first `end`: must stay 0. */
  lateCalls: number
  ended: boolean
  error: AgentStoreError | undefined
  lastEventId: string | undefined
  elapsed: number
}

interface Run {
  connection: RunConnection
  outcome: Outcome
  done: Promise<Outcome>
}

/** One run on a transport: its events, how it ended, and any handler call after the end. */
function start(open: (handlers: Parameters<typeof connectRun>[2]) => RunConnection): Run {
  const began = performance.now()
  const outcome: Outcome = { events: [], lateCalls: 0, ended: false, error: undefined, lastEventId: undefined, elapsed: 0 }
  let resolve!: (outcome: Outcome) => void
  const done = new Promise<Outcome>((r) => (resolve = r))
  const connection = open({
    event: (event) => {
      if (outcome.ended) outcome.lateCalls++
      else outcome.events.push(event)
    },
    end: (error, lastEventId) => {
      if (outcome.ended) return void outcome.lateCalls++
      Object.assign(outcome, { ended: true, error, lastEventId, elapsed: performance.now() - began })
      resolve(outcome)
    },
  })
  return { connection, outcome, done }
}

const builtIn = (reader: 'fetch' | 'xhr', options: ConnectOptions = {}, endpoint: Partial<HttpEndpoint> = {}) =>
  start((handlers) => connectHttpRun({ url: server.url, reader, ...endpoint }, input, handlers, options))
const viaHttpAgent = (options: ConnectOptions = {}) => start((handlers) => connectRun(new HttpAgent({ url: server.url }), input, handlers, options))

const types = (events: readonly BaseEvent[]) => events.map((event) => event.type)
const lastExchange = () => server.exchanges.at(-1)!
/** The fields a UI matches on, and the message where both readers see the same error. */
const summary = (error: AgentStoreError | undefined) =>
  error && {
    code: error.code,
    reason: (error as { reason?: unknown }).reason,
    status: (error as { status?: unknown }).status,
    limit: (error as { limit?: unknown }).limit,
  }

const cutEvent = 'data: {"type":"STATE_DELTA","delta":[{"op":"replace","path":"/count","val'
const prelude = [ev.started(input), ev.textStart('m1'), ev.text('m1', 'dra')]
const afterPrelude =
  (then: (exchange: Exchange) => unknown): Handler =>
  async (exchange) => {
    exchange.start()
    await exchange.write(sse(prelude))
    await then(exchange)
  }
const endlessErrorBody: Handler = async ({ response }) => {
  response.writeHead(500, { 'Content-Type': 'text/html' })
  for (let i = 0; i < 256; i++) {
    const ok = await new Promise<boolean>((resolve) => response.write(`<p>${'x'.repeat(MiB)}`, (error) => resolve(!error && !response.destroyed)))
    if (!ok) return
  }
  response.end()
}

/** Faults that both transports must end the same way: the events before the fault, then one error. */
const faults: [string, Handler][] = [
  ['the connection drops mid-event', afterPrelude(async (x) => (await x.write(cutEvent), x.destroy()))],
  ['the body ends cleanly mid-event', afterPrelude((x) => x.end(cutEvent))],
  ['the last event, RUN_FINISHED, lacks its blank line', afterPrelude((x) => x.end(`data: ${JSON.stringify(ev.finished(input))}\n`))],
  ['the body ends mid-run with no terminal event', afterPrelude((x) => x.end())],
  ['the connection drops mid-run', afterPrelude((x) => x.destroy())],
  ['headers, then an empty body', (x) => (x.start(), x.end())],
  ['headers, then the connection drops', async (x) => (x.start(), await x.write(''), x.destroy())],
  ['the connection drops before any response', (x) => x.destroy()],
  ['HTTP 400 with a JSON body', httpError(400, 'application/json', '{"detail":"bad input"}')],
  ['HTTP 404 with an HTML body', httpError(404, 'text/html', '<html><body><h1>Not Found</h1></body></html>')],
  ['HTTP 429 with Retry-After', ({ response }) => (response.writeHead(429, { 'Retry-After': '1' }), response.end('slow down'))],
  ['HTTP 502 with an empty body', httpError(502, 'text/plain', '')],
  ['HTTP 503 with malformed JSON', httpError(503, 'application/json', '{"error": ')],
  ['HTTP 500 with an endless body (read only up to 64 KiB)', endlessErrorBody],
  [
    'HTTP 200 with an HTML page',
    ({ response }) => (response.writeHead(200, { 'Content-Type': 'text/html' }), response.end('<!doctype html>\n<html></html>\n\n')),
  ],
  [
    'HTTP 200 with one JSON document instead of SSE',
    (x) => (x.response.writeHead(200, { 'Content-Type': 'application/json' }), x.response.end('{"type":"RUN_STARTED"}')),
  ],
  ['data that is not JSON', afterPrelude((x) => x.end(sse(['{not json}', ev.finished(input)])))],
  ['JSON that is not an event', afterPrelude((x) => x.end(sse(['[{"type":"RUN_FINISHED"}]', ev.finished(input)])))],
  ['an event with an empty type', afterPrelude((x) => x.end(sse(['{"type":""}', ev.finished(input)])))],
  ['text content before its message starts', afterPrelude((x) => x.end(sse([ev.text('m9', 'orphan'), ev.finished(input)])))],
  ['RUN_STARTED again inside the run', afterPrelude((x) => x.end(sse([ev.started(input), ev.finished(input)])))],
  ['RUN_FINISHED while a text message is open', afterPrelude((x) => x.end(sse([ev.finished(input)])))],
  ['an event before RUN_STARTED', reply([ev.delta({ op: 'replace', path: '/count', value: 3 }), ev.started(input), ev.finished(input)])],
  [
    'a step finished by another owner than the one that started it',
    reply([
      ev.started(input),
      { type: 'STEP_STARTED', stepName: 'tools' },
      { type: 'STEP_FINISHED', stepName: 'tools', subagentRunId: 's1' },
      ev.finished(input),
    ]),
  ],
  ['RUN_ERROR mid-run', afterPrelude((x) => x.end(sse([ev.error('model overloaded', 'overloaded'), ev.finished(input)])))],
]
/** The faults of order, in the built-in transport's words: each names the event it refuses. */
const orderMessages: Record<string, string> = {
  'text content before its message starts': 'TEXT_MESSAGE_CONTENT for text message "m9", which is not open',
  'RUN_STARTED again inside the run': 'RUN_STARTED while a run is active',
  'RUN_FINISHED while a text message is open': 'RUN_FINISHED with text message "m1" still open',
  'an event before RUN_STARTED': 'STATE_DELTA before RUN_STARTED',
  'a step finished by another owner than the one that started it': 'STEP_FINISHED for step "tools", which is open under the parent agent, not subagent "s1"',
}

describe.each(['fetch', 'xhr'] as const)('the built-in transport, reading through %s', (reader) => {
  afterEach(async () => {
    // No response left open by any test.
    await waitFor(() => server.activeResponses() === 0, 5_000, 'every response closed')
  })

  describe('framing', () => {
    it.each([
      ['LF', '\n'],
      ['CRLF', '\r\n'],
      ['CR', '\r'],
    ])('hands on each event of a %s stream, parsed, and ends at RUN_FINISHED', async (_name, eol) => {
      server.handle(reply(runEvents, eol))
      const outcome = await builtIn(reader).done
      expect(outcome.error).toBeUndefined()
      expect(outcome.events).toEqual(runEvents)
    })

    it('reads line endings that change from line to line', async () => {
      const endings = ['\r\n', '\n', '\r', '\r\n']
      const body = runEvents.map((event, i) => `data: ${JSON.stringify(event)}${endings[i % 4]}${endings[(i + 1) % 4]}`).join('')
      server.handle((x) => (x.start(), x.end(body)))
      expect((await builtIn(reader).done).events).toEqual(runEvents)
    })

    it.each([
      ['LF', '\n'],
      ['CRLF', '\r\n'],
      ['CR', '\r'],
    ])('gives the same events for every split point of a %s stream, inside UTF-8 characters and line endings', async (_name, eol) => {
      const short = [ev.started(input), ev.textStart('m1'), ev.text('m1', '€😀'), ev.textEnd('m1'), ev.finished(input)]
      const bytes = new TextEncoder().encode(`: ka${eol}${sse(short, eol)}`)
      let split = 0
      server.handle(async (x) => {
        x.start()
        await x.write(bytes.subarray(0, split))
        x.end(bytes.subarray(split))
      })
      for (split = 1; split < bytes.length; split++) {
        const outcome = await builtIn(reader).done
        expect({ split, error: outcome.error, events: outcome.events }).toEqual({ split, error: undefined, events: short })
      }
    })

    it('ignores comments, id/event/retry and unknown fields, strips a BOM and joins multi-line data', async () => {
      const [started, textStart, , , textEnd, delta, finished] = runEvents
      const lines = [
        '\uFEFF: stream opened',
        'retry: 3000',
        `data:${JSON.stringify(started)}`,
        'event: message',
        '',
        ': keep-alive',
        '',
        'unknown-field: whatever',
        `data: ${JSON.stringify(textStart)}`,
        '',
        'data: {"type":"TEXT_MESSAGE_CONTENT",',
        'data',
        `data:  "messageId":"m1","delta":${JSON.stringify(text)}}`,
        '',
        `data: ${JSON.stringify(textEnd)}`,
        '',
        `data: ${JSON.stringify(delta)}`,
        '',
        `data: ${JSON.stringify(finished)}`,
        '',
        '',
      ]
      for (const eol of ['\n', '\r\n', '\r']) {
        server.handle((x) => (x.start(), x.end(lines.join(eol))))
        const outcome = await builtIn(reader).done
        expect(outcome.error).toBeUndefined()
        expect(outcome.events).toEqual([started, textStart, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: text }, textEnd, delta, finished])
      }
    })

    it('decodes invalid UTF-8 as U+FFFD instead of failing', async () => {
      const encoder = new TextEncoder()
      const head = encoder.encode(`${sse([ev.started(input), ev.textStart('m1')])}data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a`)
      const bad = new Uint8Array([0x80, 0xe2, 0x82, 0x41, 0xed, 0xa0, 0x80])
      const tail = encoder.encode(`z"}\n\n${sse([ev.textEnd('m1'), ev.finished(input)])}`)
      server.handle((x) => (x.start(), x.end(Buffer.concat([head, bad, tail]))))
      const outcome = await builtIn(reader).done
      expect(outcome.error).toBeUndefined()
      expect((outcome.events[2] as unknown as { delta: string }).delta).toBe('a\uFFFD\uFFFDA\uFFFD\uFFFD\uFFFDz')
    })
  })

  describe('event size', () => {
    const snapshotOfSize = (bytes: number) => {
      const shell = JSON.stringify({ type: 'STATE_SNAPSHOT', snapshot: { doc: '' } })
      const room = bytes - shell.length
      return shell.replace('"doc":""', `"doc":"${'é'.repeat(Math.floor(room / 2))}${'x'.repeat(room % 2)}"`)
    }

    it('hands on an event of exactly maxEventBytes, counted in UTF-8 bytes', async () => {
      const fits = snapshotOfSize(4096)
      expect(Buffer.byteLength(fits)).toBe(4096)
      server.handle(reply([ev.started(input), fits, ev.finished(input)]))
      const outcome = await builtIn(reader, { maxEventBytes: 4096 }).done
      expect(outcome.error).toBeUndefined()
      expect(types(outcome.events)).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED'])
    })

    it('fails with LIMIT_EXCEEDED two bytes over, after the events before it, without reading the rest', async () => {
      const limit = MiB
      const over = snapshotOfSize(limit + 2)
      let written = 0
      server.handle(async (x) => {
        x.start()
        await x.write(sse(prelude))
        if (!(await x.write(`data: ${over}`))) return
        for (let i = 0; i < 64 && (await x.write('x'.repeat(MiB))); i++) written += MiB
        x.end()
      })
      const outcome = await builtIn(reader, { maxEventBytes: limit }).done
      expect(outcome.events).toEqual(prelude)
      expect(outcome.error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxEventBytes' })
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(true)
      expect(written).toBeLessThan(16 * MiB)
    })

    it('fails a line that never ends at the limit, whatever the field', async () => {
      server.handle(async (x) => {
        x.start()
        await x.write(': a comment that never ends ')
        for (let i = 0; i < 64 && (await x.write('y'.repeat(MiB))); i++);
        x.end()
      })
      const outcome = await builtIn(reader, { maxEventBytes: MiB }).done
      expect(outcome.error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxEventBytes' })
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(true)
    })
  })

  describe('ends each fault as connectRun with an HttpAgent does', () => {
    it.each(faults)('%s', async (name, handler) => {
      server.handle(handler)
      const expected = await viaHttpAgent().done
      await waitFor(() => server.activeResponses() === 0)
      const outcome = await builtIn(reader).done
      expect(outcome.ended).toBe(true)
      expect(summary(outcome.error)).toEqual(summary(expected.error))
      expect(outcome.events).toEqual(expected.events)
      expect(outcome.lateCalls).toBe(0)
      // The messages are the same too, but for a network failure, whose words are the reader's, and
      // a fault of order, which the built-in transport words its own way.
      if (orderMessages[name]) expect(outcome.error?.message).toBe(orderMessages[name])
      else if (reader === 'fetch' || expected.error?.reason !== 'network') expect(outcome.error?.message).toBe(expected.error?.message)
      expect(outcome.error?.message ?? '').not.toMatch(/<html|<p>|detail|slow down/i)
    })

    it('reads at most 64 KiB of an error body, and keeps it in the cause only', async () => {
      server.handle(endlessErrorBody)
      const outcome = await builtIn(reader).done
      expect(outcome.error).toMatchObject({ code: 'TRANSPORT', reason: 'http', status: 500, message: 'The agent answered HTTP 500' })
      const cause = outcome.error!.cause as Error & { status: number; payload: string }
      expect(cause.status).toBe(500)
      expect(cause.payload.length).toBeLessThanOrEqual(64 * 1024)
      expect(cause.payload.startsWith('<p>xxx')).toBe(true)
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(true)
    })

    it('reports a server that is not there as network', async () => {
      const gone = await startHostileServer()
      const { url } = gone
      await gone.close()
      const outcome = await builtIn(reader, {}, { url }).done
      expect(outcome.error).toMatchObject({ code: 'TRANSPORT', reason: 'network' })
      expect(outcome.error!.message).toMatch(/^The connection to the agent failed: /)
    })
  })

  describe('the end of the run', () => {
    it('hands on nothing after the first RUN_FINISHED, and cancels a response that keeps sending', async () => {
      server.handle(async (x) => {
        x.start()
        await x.write(sse([ev.started(input), ev.finished(input)]))
        await x.write(sse([ev.finished(input), ev.delta({ op: 'add', path: '/late', value: 1 })]))
        await x.closed
      })
      const outcome = await builtIn(reader, { drainMs: 10_000 }).done
      expect(outcome.error).toBeUndefined()
      expect(types(outcome.events)).toEqual(['RUN_STARTED', 'RUN_FINISHED'])
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(true)
      expect(outcome.lateCalls).toBe(0)
    })

    it('lets a server that closes within drainMs complete its response', async () => {
      server.handle(async (x) => {
        x.start()
        await x.write(sse([ev.started(input), ev.error('boom', 'E1')]))
        await new Promise((resolve) => setTimeout(resolve, 30))
        x.end(': bye\n\n')
      })
      const outcome = await builtIn(reader, { drainMs: 2_000 }).done
      expect(types(outcome.events)).toEqual(['RUN_STARTED', 'RUN_ERROR'])
      expect(outcome.error).toBeUndefined()
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(false)
    })

    it('cancels a response still open drainMs after RUN_FINISHED', async () => {
      server.handle(async (x) => {
        x.start()
        await x.write(sse([ev.started(input), ev.finished(input)]))
        await x.closed
      })
      const outcome = await builtIn(reader, { drainMs: 50 }).done
      expect(outcome.error).toBeUndefined()
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(true)
    })

    it('never fails a run over garbage after its RUN_FINISHED', async () => {
      server.handle(reply([ev.started(input), ev.finished(input), '{not json}']))
      const outcome = await builtIn(reader).done
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(outcome.error).toBeUndefined()
      expect(outcome.lateCalls).toBe(0)
    })
  })

  describe('idle timeout', () => {
    it('ends a request that never gets headers with TRANSPORT, reason timeout, and closes it', async () => {
      server.handle((x) => x.closed)
      const outcome = await builtIn(reader, { timeoutMs: 150 }).done
      expect(outcome.events).toEqual([])
      expect(outcome.error).toMatchObject({ code: 'TRANSPORT', reason: 'timeout', message: 'The agent sent nothing for 150 ms' })
      expect(outcome.elapsed).toBeGreaterThanOrEqual(140)
      expect(outcome.elapsed).toBeLessThan(2_000)
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(true)
    })

    it('ends a stream that stalls mid-run', async () => {
      server.handle(afterPrelude((x) => x.closed))
      const outcome = await builtIn(reader, { timeoutMs: 150 }).done
      expect(outcome.events).toEqual(prelude)
      expect(outcome.error).toMatchObject({ code: 'TRANSPORT', reason: 'timeout' })
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(true)
    })

    it('counts keep-alive comments as life', async () => {
      server.handle(async (x) => {
        x.start()
        await x.write(sse([ev.started(input)]))
        for (let i = 0; i < 8; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50))
          await x.write(': keep-alive\n')
        }
        x.end(sse([ev.finished(input)]))
      })
      const outcome = await builtIn(reader, { timeoutMs: 150 }).done
      expect(outcome.error).toBeUndefined()
      expect(types(outcome.events)).toEqual(['RUN_STARTED', 'RUN_FINISHED'])
      expect(outcome.elapsed).toBeGreaterThan(300)
    })

    it('releases its timers however the run ends', async () => {
      const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length
      const before = timers()
      server.handle(reply([ev.started(input), ev.finished(input)]), (x) => x.destroy(), httpError(500, 'text/plain', 'no'))
      for (let i = 0; i < 3; i++) await builtIn(reader, { timeoutMs: 10_000, drainMs: 10_000 }).done
      await waitFor(() => timers() <= before, 2_000, 'the timers released')
    })
  })

  describe('cancel', () => {
    it('before headers: no handler is called, and the request is closed', async () => {
      server.handle((x) => x.closed)
      const run = builtIn(reader)
      await waitFor(() => server.activeResponses() === 1)
      run.connection.cancel()
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(run.outcome).toMatchObject({ ended: false, events: [], lateCalls: 0 })
    })

    it('mid-stream: nothing more is handed on, and the request is closed', async () => {
      server.handle(async (x) => {
        x.start()
        await x.write(sse([ev.started(input)]))
        await new Promise((resolve) => setTimeout(resolve, 50))
        await x.write(sse([ev.textStart('m1')]))
        await x.closed
      })
      const run = builtIn(reader)
      await waitFor(() => run.outcome.events.length === 1)
      run.connection.cancel()
      await lastExchange().closed
      expect(lastExchange().abandoned()).toBe(true)
      expect(run.outcome).toMatchObject({ ended: false, lateCalls: 0 })
      expect(types(run.outcome.events)).toEqual(['RUN_STARTED'])
    })

    it('from inside an event handler: no later event, no end', async () => {
      server.handle(reply(runEvents))
      const seen: string[] = []
      let connection: RunConnection | undefined
      let ended = false
      connection = connectHttpRun({ url: server.url, reader }, input, {
        event: (event) => {
          seen.push(event.type)
          connection?.cancel()
        },
        end: () => {
          ended = true
        },
      })
      await waitFor(() => seen.length > 0)
      await new Promise((resolve) => setTimeout(resolve, 30))
      expect(seen).toEqual(['RUN_STARTED'])
      expect(ended).toBe(false)
    })
  })

  describe('event ids', () => {
    it('gives the SSE id of the last event received when the run fails, and an empty id clears it', async () => {
      server.handle(async (x) => {
        x.start()
        x.end(`id: e1\n${sse([ev.started(input)])}id: e2\n${sse([ev.textStart('m1')])}`)
      })
      const outcome = await builtIn(reader).done
      expect(outcome.error).toMatchObject({ reason: 'incomplete' })
      expect(outcome.lastEventId).toBe('e2')
      server.handle(async (x) => {
        x.start()
        x.end(`id: e1\n${sse([ev.started(input)])}id\n${sse([ev.textStart('m1')])}`)
      })
      expect((await builtIn(reader).done).lastEventId).toBeUndefined()
    })

    it('sends Last-Event-ID with a connect request to connectUrl, and a terminal event does not end it', async () => {
      server.handle(reply([ev.started(input), ev.finished(input), ev.started({ ...input, runId: 'r2' })]))
      const connectUrl = `${server.url}/connect`
      const outcome = await builtIn(reader, { connect: true, lastEventId: 'cursor-7' }, { connectUrl }).done
      expect(types(outcome.events)).toEqual(['RUN_STARTED', 'RUN_FINISHED', 'RUN_STARTED'])
      expect(outcome.error).toMatchObject({ reason: 'incomplete' })
      expect(lastExchange().request.url).toBe('/agent/connect')
      expect(lastExchange().request.headers['last-event-id']).toBe('cursor-7')
    })

    it('verifies a connect stream that replays from RUN_STARTED, and not one that resumes mid-run from a cursor', async () => {
      const connectUrl = `${server.url}/connect`
      server.handle(reply([ev.started(input), ev.text('m9', 'orphan')]))
      const replayed = await builtIn(reader, { connect: true }, { connectUrl }).done
      expect(types(replayed.events)).toEqual(['RUN_STARTED'])
      expect(replayed.error).toMatchObject({ code: 'INVALID_EVENT', message: 'TEXT_MESSAGE_CONTENT for text message "m9", which is not open' })
      server.handle(reply([ev.text('m1', 'rest'), ev.textEnd('m1'), ev.finished(input)]))
      const resumed = await builtIn(reader, { connect: true, lastEventId: 'e7' }, { connectUrl }).done
      expect(types(resumed.events)).toEqual(['TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_FINISHED'])
      expect(resumed.error).toMatchObject({ reason: 'incomplete' })
    })

    it('reports connect as not supported without a connectUrl, as for an agent without connect', async () => {
      const before = server.requests.length
      const outcome = await builtIn(reader, { connect: true }).done
      const expected = await start((handlers) => connectRun(new HttpAgent({ url: server.url }), input, handlers, { connect: true })).done
      expect(summary(outcome.error)).toEqual(summary(expected.error))
      expect(outcome.error).toMatchObject({ code: 'RECONNECT', reason: 'not-supported', message: expected.error!.message })
      expect(server.requests.length).toBe(before)
    })
  })
})

describe('the XHR reader on a platform without TextDecoder and TextEncoder (React Native before 0.85)', () => {
  it('reads a whole run, multi-byte characters split across progress events', async () => {
    const events = [ev.started(input), ev.textStart('m1'), ev.text('m1', 'é😀 café 😀'), ev.textEnd('m1'), ev.finished(input)]
    const body = Buffer.from(sse(events))
    const e = body.indexOf(Buffer.from('é'))
    const grin = body.indexOf(Buffer.from('😀'))
    // Cut inside é (2 bytes) and twice inside 😀 (4 bytes): each piece is a progress event of its own.
    const cuts = [0, e + 1, grin + 1, grin + 3, body.length]
    server.handle(async (x) => {
      x.start()
      for (let i = 1; i < cuts.length - 1; i++) {
        await x.write(body.subarray(cuts[i - 1], cuts[i]))
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      x.end(body.subarray(cuts.at(-2)))
    })
    const { TextDecoder, TextEncoder } = globalThis
    Reflect.deleteProperty(globalThis, 'TextDecoder')
    Reflect.deleteProperty(globalThis, 'TextEncoder')
    let outcome: Outcome
    try {
      expect([typeof globalThis.TextDecoder, typeof globalThis.TextEncoder]).toEqual(['undefined', 'undefined'])
      outcome = await builtIn('xhr').done
    } finally {
      Object.assign(globalThis, { TextDecoder, TextEncoder })
    }
    expect(outcome.error).toBeUndefined()
    expect(outcome.events).toEqual(events)
  })
})
