// Category 1: SSE framing, over real HTTP through HttpAgent and the store.
import { HttpAgent, type HttpAgentFetchFn } from '@ag-ui/client'
import type { RunAgentInput } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSseFramer } from '../../packages/core/src/transport/sse'
import { ev, gate, type HostileServer, reply, sse, startHostileServer } from './hostile-server'
import { type Doc, expectFailed, expectReady, healthy, prelude, storeOn } from './scenario'

let server: HostileServer
beforeAll(async () => {
  server = await startHostileServer()
})
afterAll(() => server.close())

const text = 'héllo € 😀 𝄞 ok'
const fixed = { threadId: 't', runId: 'r' } as RunAgentInput
/** One complete run whose text holds 2-, 3- and 4-byte UTF-8 characters. */
const runEvents = [
  ev.started(fixed),
  ev.textStart('m1'),
  ev.text('m1', text.slice(0, 4)),
  ev.text('m1', text.slice(4)),
  ev.textEnd('m1'),
  ev.delta({ op: 'replace', path: '/count', value: 7 }),
  ev.custom('progress', { done: '✓' }),
  ev.finished(fixed),
]

function expectApplied(store: { getState(): { status: string; error: unknown; state: unknown; messages: readonly { content?: unknown }[] } }) {
  const snapshot = store.getState()
  expect(snapshot.error).toBeUndefined()
  expect(snapshot.status).toBe('idle')
  expect(snapshot.state).toEqual({ doc: 'before', count: 7 })
  expect(snapshot.messages.map((m) => m.content)).toEqual([text])
}

describe('line endings', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('applies a run framed with %s line endings', async (_name, eol) => {
    server.handle(reply(runEvents, eol))
    const { store, errors } = storeOn(server)
    await store.run()
    expectApplied(store)
    expect(errors).toEqual([])
  })

  it('applies a run whose line endings change from line to line', async () => {
    const endings = ['\r\n', '\n', '\r', '\r\n']
    const body = runEvents.map((event, i) => `data: ${JSON.stringify(event)}${endings[i % 4]}${endings[(i + 1) % 4]}`).join('')
    server.handle((exchange) => {
      exchange.start()
      exchange.end(body)
    })
    const { store } = storeOn(server)
    await store.run()
    expectApplied(store)
  })

  // Why our transport layer exists: without it, @ag-ui/client 1.0.0 cannot read these streams at all.
  it.each([
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('@ag-ui/client alone fails on %s (the upstream bug our layer fixes)', async (_name, eol) => {
    server.handle(reply(runEvents, eol))
    const agent = new HttpAgent({ url: server.url })
    const outcome = await new Promise<string>((resolve) => {
      agent.run({ ...fixed, state: {}, messages: [], tools: [], context: [], forwardedProps: {} }).subscribe({
        next: () => {},
        error: (error: Error) => resolve(`error: ${error.name}`),
        complete: () => resolve('complete'),
      })
    })
    expect(outcome).toBe('error: SyntaxError')
  })
})

describe('events split at every byte boundary', () => {
  // Counts the reads the client made, to show the splits really reached it as separate chunks.
  interface Counter {
    reads: number
    firstRead: ReturnType<typeof gate>
  }
  function countingFetch(counter: Counter): HttpAgentFetchFn {
    return async (url, init) => {
      const response = await fetch(url, init)
      const counted = response.body!.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            counter.reads++
            counter.firstRead.open()
            controller.enqueue(chunk)
          },
        }),
      )
      return new Response(counted, response)
    }
  }

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('applies the same run for every split point of a %s stream, inside UTF-8 characters and line endings included', async (_name, eol) => {
    const bytes = new TextEncoder().encode(`: keep-alive${eol}id: 1${eol}${sse(runEvents, eol)}`)
    let split = 0
    let counter: Counter = { reads: 0, firstRead: gate() }
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(bytes.subarray(0, split))
      // Server and client share one event loop: wait until the client has read the first part, so
      // the two parts cannot merge into one read.
      await Promise.race([counter.firstRead.promise, new Promise((resolve) => setTimeout(resolve, 1_000))])
      exchange.end(bytes.subarray(split))
    })
    const merged: number[] = []
    for (split = 1; split < bytes.length; split++) {
      counter = { reads: 0, firstRead: gate() }
      const store = createAgentStore({ agent: new HttpAgent({ url: server.url, fetch: countingFetch(counter) }), initialState: { doc: 'before', count: 0 } })
      await store.run()
      expectApplied(store)
      if (counter.reads < 2) merged.push(split)
    }
    // Split one byte before the end of a CRLF stream, the final blank line is already complete
    // (CR ends a line): the run ends at RUN_FINISHED and the last LF is never read.
    expect(merged).toEqual(eol === '\r\n' ? [bytes.length - 1] : [])
  })

  it('frames identically whatever the chunking: every split in two, and one byte per chunk (framer in process)', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const bytes = new TextEncoder().encode(`\uFEFF: ka${eol}retry: 10${eol}${sse(runEvents, eol)}`)
      const expected = runEvents.map((event) => JSON.stringify(event))
      const frame = (chunks: Uint8Array[]) => {
        const texts: string[] = []
        const framer = createSseFramer(1 << 20, (event, text) => {
          expect(event).toEqual(JSON.parse(text))
          texts.push(text)
        })
        for (const chunk of chunks) expect(framer.push(chunk)).toBeUndefined()
        return texts
      }
      for (let split = 0; split <= bytes.length; split++) {
        expect(frame([bytes.subarray(0, split), bytes.subarray(split)])).toEqual(expected)
      }
      expect(frame([...bytes].map((byte) => new Uint8Array([byte])))).toEqual(expected)
    }
  })
})

describe('fields, comments and keep-alives', () => {
  it('ignores comments, keep-alives, id/event/retry and unknown fields, strips a BOM and joins multi-line data', async () => {
    const [started, textStart, , , , delta, custom, finished] = runEvents
    const lines = [
      '\uFEFF: stream opened',
      ':',
      'retry: 3000',
      'id: 0',
      '',
      `data:${JSON.stringify(started)}`, // no space after the colon
      'id: 1',
      'event: message',
      '',
      ': keep-alive',
      '',
      '',
      'event: ping',
      'id', // a field without a colon
      'unknown-field: whatever',
      '',
      `data: ${JSON.stringify(textStart)}`,
      '',
      // One event over three data lines; the lines between them are part of the JSON text.
      'data: {"type":"TEXT_MESSAGE_CONTENT",',
      'data',
      `data:  "messageId":"m1","delta":${JSON.stringify(text)}}`,
      ': a comment inside an event',
      '',
      `data: ${JSON.stringify({ type: 'TEXT_MESSAGE_END', messageId: 'm1' })}`,
      'retry: not-a-number',
      '',
      `data: ${JSON.stringify(delta)}`,
      '',
      `data: ${JSON.stringify(custom)}`,
      '',
      `data: ${JSON.stringify(finished)}`,
      '',
      '',
    ]
    for (const eol of ['\n', '\r\n', '\r']) {
      server.handle((exchange) => {
        exchange.start()
        exchange.end(lines.join(eol))
      })
      const { store, errors } = storeOn(server)
      await store.run()
      expectApplied(store)
      expect(errors).toEqual([])
    }
  })

  it('keeps a slow stream of keep-alive comments between events', async () => {
    server.handle(async (exchange) => {
      exchange.start()
      const events = sse(runEvents).split('\n\n')
      for (const event of events) {
        for (let i = 0; i < 3; i++) await exchange.write(': ping\r\n')
        await exchange.write(event === '' ? '' : `${event}\r\n\r\n`)
      }
      exchange.end()
    })
    const { store } = storeOn(server)
    await store.run()
    expectApplied(store)
  })

  it('decodes invalid UTF-8 as U+FFFD, as the standard says, instead of failing', async () => {
    const encoder = new TextEncoder()
    const head = encoder.encode(sse([ev.started(fixed), ev.textStart('m1')]) + 'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a')
    // A lone continuation byte, a truncated 3-byte sequence, and an encoded surrogate (CESU-8).
    const bad = new Uint8Array([0x80, 0xe2, 0x82, 0x41, 0xed, 0xa0, 0x80])
    const tail = encoder.encode('z"}\n\n' + sse([ev.textEnd('m1'), ev.finished(fixed)]))
    server.handle((exchange) => {
      exchange.start()
      exchange.end(Buffer.concat([head, bad, tail]))
    })
    const { store } = storeOn(server)
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
    const content = store.getState().messages[0]!.content as string
    expect(content).toBe('a\uFFFD\uFFFDA\uFFFD\uFFFD\uFFFDz')
    expect(content).not.toMatch(/[\uD800-\uDFFF]/)
  })
})

describe('event size', () => {
  const MiB = 1024 * 1024
  const defaultLimit = 16 * MiB

  /** A STATE_SNAPSHOT whose JSON text is exactly `bytes` long (ASCII). */
  function snapshotOfSize(bytes: number, extra: Record<string, unknown> = {}) {
    const shell = JSON.stringify({ type: 'STATE_SNAPSHOT', snapshot: { ...extra, doc: '' } })
    return shell.replace('"doc":""', `"doc":"${'x'.repeat(bytes - shell.length)}"`)
  }

  it('applies one event of exactly the default maxEventBytes (16 MiB)', async () => {
    const big = snapshotOfSize(defaultLimit, { count: 1 })
    expect(Buffer.byteLength(big)).toBe(defaultLimit)
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(sse([ev.started(exchange.input)]))
      for (let i = 0; i < big.length; i += MiB) await exchange.write(`${i === 0 ? 'data: ' : ''}${big.slice(i, i + MiB)}`)
      exchange.end(`\n\n${sse([ev.finished(exchange.input)])}`)
    })
    const { store, errors } = storeOn(server)
    await store.run()
    expect(errors).toEqual([])
    expect(store.getState().status).toBe('idle')
    expect((store.getState().state as Doc).doc).toHaveLength(big.length - JSON.stringify({ type: 'STATE_SNAPSHOT', snapshot: { count: 1, doc: '' } }).length)
  })

  it('fails a run with LIMIT_EXCEEDED for one byte over, without reading the rest, and stays ready', async () => {
    const big = snapshotOfSize(defaultLimit + 1)
    let written = 0
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(sse(prelude(exchange.input)))
      for (let i = 0; i < big.length; i += MiB) {
        if (!(await exchange.write(`${i === 0 ? 'data: ' : ''}${big.slice(i, i + MiB)}`))) return
        written += Math.min(MiB, big.length - i)
      }
      // A server that keeps going after the event: the client must not wait for any of it.
      for (let i = 0; i < 64 && (await exchange.write('x'.repeat(MiB))); i++) written += MiB
      exchange.end()
    }, healthy)
    const { store, errors } = storeOn(server)
    const drafts: unknown[] = []
    const unsubscribe = store.subscribe((s) => {
      if (s.predictions.length > 0) drafts.push(s.state)
    })
    await store.run()
    unsubscribe()
    expect(drafts.length).toBeGreaterThan(0)
    expectFailed(store, 'LIMIT_EXCEEDED')
    expect(store.getState().error).toMatchObject({ limit: 'maxEventBytes' })
    expect(errors.map((e) => e.code)).toEqual(['LIMIT_EXCEEDED'])
    await server.exchanges.at(-1)!.closed
    expect(server.exchanges.at(-1)!.abandoned()).toBe(true)
    expect(written).toBeLessThan(defaultLimit + 8 * MiB)
    await expectReady(store, server)
  })

  it('fails a line that never ends at the limit, whatever the field', async () => {
    let written = 0
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(sse(prelude(exchange.input)))
      await exchange.write(': a comment that never ends ')
      for (let i = 0; i < 64 && (await exchange.write('y'.repeat(MiB))); i++) written += MiB
      exchange.end()
    }, healthy)
    const { store } = storeOn(server)
    await store.run()
    expectFailed(store, 'LIMIT_EXCEEDED')
    expect(written).toBeLessThan(defaultLimit + 8 * MiB)
    await expectReady(store, server)
  })

  it('counts the limit in UTF-8 bytes, and over many data lines', () => {
    const json = (delta: string) => `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m",\n"delta":"${delta}"}`
    const event = (delta: string) => new TextEncoder().encode(`data: ${json(delta).replace('\n', '\ndata: ')}\n\n`)
    // The size is the JSON text's, in UTF-8 bytes (3 per €), the LF that joins the two data lines included.
    const limit = Buffer.byteLength(json('€€€€'))
    expect(limit).toBe(json('€€€€').length + 8)
    const fits = event('€€€€')
    const over = event('€€€€x')
    const handed: string[] = []
    expect(createSseFramer(limit, (_event, text) => handed.push(text)).push(fits)).toBeUndefined()
    expect(handed).toEqual([json('€€€€')])
    expect(createSseFramer(limit, (_event, text) => handed.push(text)).push(over)).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxEventBytes' })
    expect(handed).toEqual([json('€€€€')])
  })

  it('honours a configured limits.maxEventBytes through the store', async () => {
    const limit = 4096
    const fits = snapshotOfSize(limit, { count: 1 })
    const over = snapshotOfSize(limit + 1, { count: 1 })
    server.handle(
      reply((input) => [ev.started(input), fits, ev.finished(input)]),
      async (exchange) => {
        exchange.start()
        exchange.end(sse([...prelude(exchange.input), over, ev.toolEnd('c1'), ev.finished(exchange.input)]))
      },
      healthy,
    )
    const { store } = storeOn(server, { limits: { maxEventBytes: limit } })
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { count: 1 } })
    store.setState({ doc: 'before', count: 0 })
    await store.run()
    expectFailed(store, 'LIMIT_EXCEEDED')
    await expectReady(store, server)
  })
})
