// A server that resumes a dropped stream from a cursor: each SSE event carries an `id:`, and a
// connect request with `Last-Event-ID` gets only the events after it, continuing the dropped run
// with no RUN_STARTED. The store continues that run from where its stream dropped: it ends as if the
// stream had never dropped, nothing applied twice. A server that replays instead (RUN_STARTED
// first) still rebuilds the run from its start. Real HTTP on 127.0.0.1.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { enforceOutgoingInput, HttpAgent, runHttpRequest, transformHttpEventStream } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readBody } from '../../../test/support/agui-server'
import { listenOnLoopback } from '../../../test/support/loopback'
import { type AgentSnapshot, type AgentStoreError, createAgentStore, restoreThread, serializeThread } from '../src'
import { writerRun } from './helpers'

type Doc = Record<string, unknown>

const RUN_EVENTS = writerRun('x', 0).length

interface Connect {
  lastEventId: string | undefined
  runId: string
  sent: number
}

/**
 * One thread's runs, each event numbered across the thread (`id: <n>`). `POST /agent` runs (and
 * breaks the response after `dropAfter` events, as a dropped network does); `POST /agent/connect`
 * resumes after `Last-Event-ID`, or without one (or with `replay` set) sends the run in progress
 * again from its RUN_STARTED.
 */
async function startCursorServer() {
  const log: { id: number; event: BaseEvent }[] = []
  const connects: Connect[] = []
  const state = { runs: 0, dropAfter: undefined as number | undefined, connectDropAfter: undefined as number | undefined, replay: false }

  /** Writes the events, or the first `limit` of them and then breaks the response. */
  async function send(response: ServerResponse, entries: readonly { id: number; event: BaseEvent }[], limit = entries.length) {
    for (const { id, event } of entries.slice(0, limit)) response.write(`id: ${id}\ndata: ${JSON.stringify(event)}\n\n`)
    if (limit >= entries.length) return void response.end()
    // Written, then the socket closed under the open chunked body: the client sees a broken connection.
    await new Promise<void>((resolve) => response.write(': cut\n\n', () => resolve()))
    response.socket?.destroy()
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const input = JSON.parse(await readBody(request)) as RunAgentInput
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    if (request.url?.endsWith('/connect')) {
      const header = request.headers['last-event-id']
      const lastEventId = typeof header === 'string' ? header : undefined
      const runStart = log.findLastIndex((entry) => entry.event.type === 'RUN_STARTED')
      const from = lastEventId === undefined || state.replay ? runStart : log.findIndex((entry) => entry.id === Number(lastEventId)) + 1
      const sent = log.slice(from)
      const limit = Math.min(state.connectDropAfter ?? sent.length, sent.length)
      state.connectDropAfter = undefined
      connects.push({ lastEventId, runId: input.runId, sent: limit })
      return send(response, sent, limit)
    }
    // The server keeps the whole run: it goes on after the client's stream drops.
    const events = writerRun(input.runId, state.runs++).map((event, i) => ({ id: log.length + i + 1, event }))
    log.push(...events)
    const limit = state.dropAfter ?? events.length
    state.dropAfter = undefined
    return send(response, events, limit)
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy())
  })
  const loopback = await listenOnLoopback(server)
  return { url: loopback.url, log, connects, state, close: loopback.close }
}

/** An HttpAgent whose `connect` posts to `<url>/connect`, as HttpAgent builds its run request. */
class ResumingAgent extends HttpAgent {
  protected override connect(input: RunAgentInput): ReturnType<HttpAgent['run']> {
    return transformHttpEventStream(
      runHttpRequest(() => this.fetch(`${this.url}/connect`, this.requestInit(enforceOutgoingInput(input)))),
      this.debugLogger,
    )
  }
}

let server: Awaited<ReturnType<typeof startCursorServer>>
beforeAll(async () => {
  server = await startCursorServer()
})
afterAll(() => server.close())

function reset() {
  server.log.length = 0
  server.connects.length = 0
  Object.assign(server.state, { runs: 0, dropAfter: undefined, connectDropAfter: undefined, replay: false })
}

const visible = (snapshot: AgentSnapshot<Doc>) => ({
  messages: snapshot.messages,
  state: snapshot.state,
  committed: snapshot.committed,
  confirmations: snapshot.confirmations,
  predictions: snapshot.predictions,
  status: snapshot.status,
  requesting: snapshot.requesting,
})

const idsOf = (snapshot: AgentSnapshot<Doc>) => [
  ...snapshot.messages.map((m) => m.id),
  ...snapshot.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])),
]

function open() {
  const errors: AgentStoreError[] = []
  const store = createAgentStore<Doc>({
    agent: new ResumingAgent({ url: server.url, threadId: 't1' }),
    initialState: {},
    threadId: 't1',
    onError: (e) => errors.push(e),
  })
  return { store, errors }
}

/** The snapshot after two runs on a stream that never dropped, and the second request's body. */
async function uninterrupted() {
  reset()
  const { store } = open()
  await store.run({ message: { id: 'u1', role: 'user', content: 'Write a story' } })
  await store.run({ message: { id: 'u2', role: 'user', content: 'Thanks' } })
  return visible(store.getState())
}

describe('reconnect() to a server that resumes from a cursor', () => {
  it('continues the dropped run with the events after Last-Event-ID, for every event the stream can drop after', async () => {
    const expected = await uninterrupted()
    for (let k = 1; k < RUN_EVENTS; k++) {
      reset()
      const { store, errors } = open()
      server.state.dropAfter = k
      await store.run({ message: { id: 'u1', role: 'user', content: 'Write a story' } })
      expect(store.getState().status, `k=${k}`).toBe('error')
      expect(errors.map((e) => e.code)).toEqual(['TRANSPORT'])

      await store.reconnect()
      // The cursor is the id of the k-th event, and the server sent only the rest, no RUN_STARTED.
      expect(server.connects, `k=${k}`).toEqual([{ lastEventId: String(k), runId: expect.any(String), sent: RUN_EVENTS - k }])
      const after = store.getState()
      expect(new Set(idsOf(after)).size, `k=${k}: no id twice`).toBe(idsOf(after).length)
      expect(after.status, `k=${k}`).toBe('idle')

      await store.run({ message: { id: 'u2', role: 'user', content: 'Thanks' } })
      expect(visible(store.getState()), `k=${k}`).toEqual(expected)
      expect(errors.map((e) => e.code)).toEqual(['TRANSPORT'])
    }
  })

  it("keeps the user's edits made while the stream was down, and the edits made during the run before it dropped", async () => {
    reset()
    const { store } = open()
    server.state.dropAfter = 6
    let edited = false
    const stop = store.subscribe((snapshot) => {
      if (!edited && snapshot.status === 'running' && snapshot.messages.length > 1) {
        edited = true
        store.setState((previous) => ({ ...previous, title: 'Draft' }))
      }
    })
    await store.run({ message: 'Write a story' })
    stop()
    expect(edited).toBe(true)
    store.setState((previous) => ({ ...previous, author: 'Me' }))
    await store.reconnect()
    expect(server.connects[0]!.lastEventId).toBe('6')
    expect(store.getState().state).toEqual({ title: 'Draft', author: 'Me', document: 'Once upon a time', words: 4 })
    expect(store.getState().committed).toEqual(store.getState().state)
    expect(store.getState().status).toBe('idle')
  })

  it('a resumed run that drops again resumes again from its new cursor', async () => {
    const expected = await uninterrupted()
    reset()
    const { store, errors } = open()
    server.state.dropAfter = 3
    await store.run({ message: { id: 'u1', role: 'user', content: 'Write a story' } })
    // The resumed stream breaks too, after 4 more events: the run is cut again, further on.
    server.state.connectDropAfter = 4
    await store.reconnect()
    expect(store.getState().status).toBe('error')
    expect(errors.map((e) => e.code)).toEqual(['TRANSPORT', 'TRANSPORT'])
    await store.reconnect()
    expect(server.connects.map((c) => [c.lastEventId, c.sent])).toEqual([
      ['3', 4],
      ['7', RUN_EVENTS - 7],
    ])
    expect(store.getState().status).toBe('idle')
    await store.run({ message: { id: 'u2', role: 'user', content: 'Thanks' } })
    expect(visible(store.getState())).toEqual(expected)
  })

  it('a server that replays instead (RUN_STARTED first, whatever the cursor) still rebuilds the run from its start', async () => {
    const expected = await uninterrupted()
    reset()
    const { store } = open()
    server.state.dropAfter = 7
    server.state.replay = true
    await store.run({ message: { id: 'u1', role: 'user', content: 'Write a story' } })
    await store.reconnect()
    expect(server.connects).toEqual([{ lastEventId: '7', runId: expect.any(String), sent: RUN_EVENTS }])
    await store.run({ message: { id: 'u2', role: 'user', content: 'Thanks' } })
    expect(visible(store.getState())).toEqual(expected)
  })

  it('after a reload the cursor is unknown: no Last-Event-ID, and the replay rebuilds the run', async () => {
    const expected = await uninterrupted()
    reset()
    const { store } = open()
    let saved: unknown
    const stop = store.subscribe((snapshot) => {
      if (saved === undefined && snapshot.state.document === 'Once upon') saved = JSON.parse(JSON.stringify(serializeThread(store)))
    })
    await store.run({ message: { id: 'u1', role: 'user', content: 'Write a story' } })
    stop()
    const restored = createAgentStore<Doc>({
      agent: new ResumingAgent({ url: server.url, threadId: 't1' }),
      initialState: {},
      restore: restoreThread(saved as never),
    })
    for (let i = 0; i < 200 && restored.getState().state.words !== 4; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(server.connects).toEqual([{ lastEventId: undefined, runId: expect.any(String), sent: RUN_EVENTS }])
    await restored.run({ message: { id: 'u2', role: 'user', content: 'Thanks' } })
    expect(visible(restored.getState())).toEqual(expected)
  })
})
