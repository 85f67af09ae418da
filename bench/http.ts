// The path users run: server-sent events over HTTP. A node:http server on 127.0.0.1 streams the
// 128k message of scenario 3, the 128k draft of scenario 4 and the 1 MB state + 2,000 deltas of
// scenario 1 from bodies encoded once up front; the same bytes go through store.run() on the
// built-in transport (`url`) and with an HttpAgent, through @ag-ui/client's own
// HttpAgent.runAgent(), through the bare transports that show what reading the stream costs each
// of them, and through a floor: a bare fetch that splits the events and JSON.parses each.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { HttpAgent } from '@ag-ui/client'
import { type BaseEvent, EventType, type RunAgentInput } from '@ag-ui/core'
import { type AgentStore, createAgentStore } from '../packages/core/src/index'
import { defaultLimits } from '../packages/core/src/limits'
import { connectRun } from '../packages/core/src/transport/connect-run'
import { connectHttpRun } from '../packages/core/src/transport/http-transport'
import type { RunHandlers } from '../packages/core/src/transport/run-contract'
import { createSseFramer, wrapFetch } from '../packages/core/src/transport/sse'
import {
  assertProductionMode,
  buildDeltas,
  buildTable,
  buildText,
  expectEqual,
  expectMessage,
  expectNoError,
  messageEvents,
  parseFloor,
  storeRun,
  type TableState,
  wire,
  withLifecycle,
} from './core-state'
import { draftEvents } from './drafts'
import {
  describePairedRatio,
  describeTiming,
  formatBytes,
  formatCount,
  formatRatio,
  formatTime,
  type MeasureOptions,
  measureAgainst,
  measureInterleaved,
  median,
  pairedRatio,
  type Row,
  type Timing,
} from './harness'

const SCENARIO_TEXT = 'HTTP/SSE: 128k streamed message'
const SCENARIO_DRAFT = 'HTTP/SSE: 128k draft from tool arguments'
const SCENARIO_STATE = 'HTTP/SSE: 1 MB state + 2,000 deltas'
const THREAD_ID = 'bench-http-thread'
/** runAgent deep-clones the 1 MB state per delta (tens of ms each): timed on this many deltas. */
const CLIENT_DELTA_COUNT = 25
/** The size of the slices the framer alone is fed: about what node's fetch reads at a time from a local socket. */
const READ_SIZE = 64 * 1024

/** One body the server streams: the events between RUN_STARTED and RUN_FINISHED, encoded once. */
interface Stream {
  path: string
  body: Buffer
  /** Each event's `data:` payload, for the JSON.parse floor. */
  json: string[]
  /** Events on the wire, RUN_STARTED and RUN_FINISHED included. */
  events: number
}

function stream(path: string, events: readonly object[]): Stream {
  const json = events.map((event) => JSON.stringify(event))
  return { path, body: Buffer.from(json.map((text) => `data: ${text}\n\n`).join('')), json, events: json.length + 2 }
}

const frame = (event: object) => `data: ${JSON.stringify(event)}\n\n`

/** What the server pays per request is only the request body and two small frames: the rest is one write of bytes encoded up front. */
async function startServer() {
  const byPath = new Map<string, Stream>()
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RunAgentInput
    const served = byPath.get(request.url ?? '')
    if (!served) {
      response.writeHead(404).end()
      return
    }
    const ids = { threadId: input.threadId, runId: input.runId }
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
    response.write(frame({ type: EventType.RUN_STARTED, ...ids }))
    response.write(served.body)
    response.end(frame({ type: EventType.RUN_FINISHED, ...ids }))
  })
  // Longer than any pause between two trials: a connection the server closes while the client
  // takes it from its pool fails that request (ECONNRESET) instead of timing it.
  server.keepAliveTimeout = 120_000
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    /** Serves `s` from now on, at the address returned. */
    url: (s: Stream) => {
      byPath.set(s.path, s)
      return `http://127.0.0.1:${port}${s.path}`
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
type Server = Awaited<ReturnType<typeof startServer>>

/** `await store.run()` on a fresh store reading `url`: through an HttpAgent, or with `builtIn` through the store's own transport. */
function storeOverHttp<TState>(
  url: string,
  initialState: TState,
  check: (store: AgentStore<TState>) => void,
  builtIn = false,
): MeasureOptions<AgentStore<TState>> {
  return {
    setup: () => {
      const transport = builtIn ? { url, threadId: THREAD_ID } : { agent: new HttpAgent({ url, threadId: THREAD_ID }) }
      const store = createAgentStore<TState>({ initialState, ...transport })
      // A subscriber, as a UI would have.
      store.subscribe(() => {})
      return store
    },
    run: (store) => store.run(),
    check: (store) => {
      expectNoError(store as AgentStore<unknown>, 'store.run over HTTP')
      if (store.getState().status !== 'idle') throw new Error(`Sanity check failed: store.run over HTTP ended with status ${store.getState().status}`)
      check(store)
    },
  }
}

/** `await agent.runAgent()` on @ag-ui/client's HttpAgent, production mode, `agent.state = initialState`. */
function clientOverHttp(url: string, initialState: unknown, check: (agent: HttpAgent) => void): MeasureOptions<HttpAgent> {
  return {
    setup: () => {
      const agent = new HttpAgent({ url, threadId: THREAD_ID })
      agent.state = initialState
      return agent
    },
    run: (agent) => agent.runAgent(),
    check: (agent) => check(agent),
  }
}

/**
 * HttpAgent.run(): fetch, @ag-ui/client's SSE parser and its JSON.parse, no apply. With `framed`,
 * the fetch goes through the store's wrapFetch as connectRun sets it up for every run, so the
 * difference between the two is what the store's framing adds to reading the stream.
 */
function transportOnly(url: string, framed: boolean, expected: number): MeasureOptions<{ agent: HttpAgent; input: RunAgentInput; errors: unknown[] }> {
  return {
    setup: () => {
      const agent = new HttpAgent({ url, threadId: THREAD_ID })
      // The framing reports a bad body through onError and just ends it: kept, so the check fails.
      const errors: unknown[] = []
      if (framed) {
        let lastActivity = 0
        const onActivity = () => {
          // What connectRun's idle timeout does per chunk.
          lastActivity = performance.now()
        }
        const onError = (error: unknown) => errors.push(error, lastActivity)
        agent.fetch = wrapFetch(agent.fetch, { maxEventBytes: defaultLimits.maxEventBytes, onActivity, onError })
      }
      const input: RunAgentInput = { threadId: THREAD_ID, runId: 'bench-run', state: {}, messages: [], tools: [], context: [], forwardedProps: {} }
      return { agent, input, errors }
    },
    run: ({ agent, input }) =>
      new Promise<number>((resolve, reject) => {
        let count = 0
        agent.run(input).subscribe({
          next: () => {
            count++
          },
          error: reject,
          complete: () => resolve(count),
        })
      }),
    check: ({ errors }, count) => {
      if (errors.length > 0) throw new Error(`Sanity check failed: the store's framing stopped the body: ${String(errors[0])}`)
      if (count !== expected) throw new Error(`Sanity check failed: the transport delivered ${count} events, expected ${expected}`)
    },
  }
}

/** The store's SseFramer alone over the body in READ_SIZE slices, in memory: its scan, decode and JSON.parse, without the streams around it. */
function framerOnly(s: Stream): MeasureOptions<Uint8Array[]> {
  // Plain Uint8Arrays, as fetch's body reader gives: a Buffer's subarray() costs more.
  const slices: Uint8Array[] = []
  for (let i = 0; i < s.body.length; i += READ_SIZE) {
    slices.push(new Uint8Array(s.body.buffer, s.body.byteOffset + i, Math.min(READ_SIZE, s.body.length - i)))
  }
  return {
    setup: () => slices,
    run: (chunks) => {
      let events = 0
      const framer = createSseFramer(defaultLimits.maxEventBytes, () => events++)
      for (const chunk of chunks) {
        const error = framer.push(chunk)
        if (error) throw error
      }
      return events
    },
    check: (_chunks, events) => {
      // The body holds the events between RUN_STARTED and RUN_FINISHED, which the server writes apart.
      if (events !== s.json.length) throw new Error(`Sanity check failed: the framer handed on ${events} events of ${s.json.length}`)
    },
  }
}

const perSecond = (events: number, ms: number) => `${formatCount((events / ms) * 1000)} events/s`

/** The median over rounds of (a − b) / c, three timings measured in the same rounds: a share of c that a costs beyond b. */
function pairedShare(a: Timing, b: Timing, c: Timing): number {
  return median(a.samples.map((value, i) => (value - b.samples[i]!) / c.samples[i]!))
}

/** The same events through store.run() from an in-process ScriptedAgent: what the HTTP path adds to the store's own work. */
function inProcessRows(s: Stream, overHttp: Timing, local: Timing): Row[] {
  return [
    {
      name: 'store.run, the same events in process (ScriptedAgent, delay 0)',
      value: perSecond(s.events, local.median),
      note: `parsed event objects, no HTTP, no SSE: ${formatTime(local.median)} a run; ${describeTiming(local)}`,
    },
    {
      name: 'store.run: HttpAgent / in process',
      value: formatRatio(pairedRatio(overHttp, local)),
      target: 'report',
      note: describePairedRatio(overHttp, local),
    },
  ]
}

interface Transport {
  plain: Timing
  framed: Timing
  framer: Timing
  floor: Timing
}

/** The transport's contenders, measured in the same rounds as store.run. */
const transportMeasures = (server: Server, s: Stream) =>
  [transportOnly(server.url(s), false, s.events), transportOnly(server.url(s), true, s.events), framerOnly(s), parseFloor(s.json)] as const

const transportOf = ([plain, framed, framer, floor]: readonly Timing[]): Transport => ({ plain: plain!, framed: framed!, framer: framer!, floor: floor! })

/** Rows that show what reading the stream costs: @ag-ui/client's parser alone, with the store's framing in front, the framer alone and JSON.parse alone. */
function transportRows(s: Stream, { plain, framed, framer, floor }: Transport, store: Timing): Row[] {
  const extra = pairedRatio(framed, plain)
  const share = pairedShare(framed, plain, store)
  return [
    {
      name: 'HttpAgent.run() alone, no store',
      value: perSecond(s.events, plain.median),
      note: `fetch, @ag-ui/client's SSE split and its JSON.parse of every event, nothing applied: ${formatTime(plain.median)}, ${describeTiming(plain)}`,
    },
    {
      name: "HttpAgent.run() through the store's SSE framing, no store",
      value: perSecond(s.events, framed.median),
      note: `the same with the store's wrapFetch in front (as connectRun sets it up for every run): ${formatTime(framed.median)}, ${describeTiming(framed)}`,
    },
    {
      name: "the store's framing: framed / plain transport",
      value: formatRatio(extra),
      target: 'report',
      note: `SseFramer reads the bytes, JSON.parses each event to check it, and hands the original bytes on, which @ag-ui/client parses again: every event is parsed twice. ${describePairedRatio(framed, plain)}`,
    },
    {
      name: "the framing's share of store.run",
      value: `${(share * 100).toFixed(1)}%`,
      target: 'report',
      note: `median over rounds of (framed − plain transport) / store.run: ${formatTime(median(framed.samples.map((value, i) => value - plain.samples[i]!)))} a run`,
    },
    {
      name: "the store's SseFramer alone, in memory",
      value: formatTime(framer.median),
      note: `the body in ${formatBytes(READ_SIZE)} slices through SseFramer.push: its line scan, a TextDecoder call and a JSON.parse per event, and the re-framed bytes; ${describeTiming(framer)}`,
    },
    {
      name: 'JSON.parse of the same events, in memory',
      value: formatTime(floor.median),
      note: `the second parse's floor: framer alone / JSON.parse ${formatRatio(pairedRatio(framer, floor))} (paired); ${describeTiming(floor)}`,
    },
  ]
}

const benchInput = (): RunAgentInput => ({ threadId: THREAD_ID, runId: 'bench-run', state: {}, messages: [], tools: [], context: [], forwardedProps: {} })

/** One run through a transport into handlers that only count: what reaching the store costs, without the store. */
function intoHandlers<TContext>(
  setup: () => TContext,
  open: (context: TContext, input: RunAgentInput, handlers: RunHandlers) => void,
  expected: number,
): MeasureOptions<TContext> {
  return {
    setup,
    run: (context) =>
      new Promise<number>((resolve, reject) => {
        let count = 0
        const handlers: RunHandlers = { event: () => count++, end: (error) => (error ? reject(error) : resolve(count)) }
        open(context, benchInput(), handlers)
      }),
    check: (_context, count) => {
      if (count !== expected) throw new Error(`Sanity check failed: the transport handed on ${count} events, expected ${expected}`)
    },
  }
}

/** The floor of the HTTP path: a bare fetch that decodes the body, splits it into events and JSON.parses each. */
function fetchFloor(url: string, expected: number): MeasureOptions<RunAgentInput> {
  return {
    setup: benchInput,
    run: async (input) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(input),
      })
      const reader = response.body!.getReader()
      const decoder = new TextDecoder()
      let buffer = ''
      let count = 0
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return count
        buffer += decoder.decode(value, { stream: true })
        let start = 0
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
          JSON.parse(buffer.slice(start + 'data: '.length, end))
          count++
          start = end + 2
        }
        buffer = buffer.slice(start)
      }
    },
    check: (_input, count) => {
      if (count !== expected) throw new Error(`Sanity check failed: the floor parsed ${count} events, expected ${expected}`)
    },
  }
}

/** The store end to end on each path: the built-in transport (`url`) and an HttpAgent. */
interface StorePaths {
  builtIn: MeasureOptions<unknown>
  httpAgent: MeasureOptions<unknown>
}

/**
 * The built-in transport against connectRun with an HttpAgent (both into counting handlers, the
 * store left out), the floor, and the store end to end on both paths, measured in the same rounds;
 * @ag-ui/client's runAgent from other rounds.
 */
async function builtInRows(s: Stream, url: string, stores: StorePaths, runAgent: { ms: number; note: string }): Promise<Row[]> {
  const builtIn = intoHandlers(
    () => undefined,
    (_none, input, handlers) => connectHttpRun({ url }, input, handlers),
    s.events,
  )
  const viaHttpAgent = intoHandlers(
    () => new HttpAgent({ url, threadId: THREAD_ID }),
    (agent, input, handlers) => connectRun(agent, input, handlers),
    s.events,
  )
  const [ours, theirs, floor, storeOurs, storeTheirs] = await measureInterleaved(
    [builtIn, viaHttpAgent, fetchFloor(url, s.events), stores.builtIn, stores.httpAgent],
    { warmup: 3, trials: 15, alternate: true },
  )
  const overFloor = pairedRatio(ours, floor)
  const overHttpAgent = pairedRatio(theirs, ours)
  const storeOverHttpAgent = pairedRatio(storeTheirs, storeOurs)
  return [
    {
      name: 'store.run, built-in transport (url)',
      value: perSecond(s.events, storeOurs.median),
      note: `createAgentStore({ url }): the store's own POST and SSE reader, one JSON.parse per event, one subscriber: ${formatTime(storeOurs.median)}, ${describeTiming(storeOurs)}`,
    },
    {
      name: 'store.run, HttpAgent (same rounds)',
      value: perSecond(s.events, storeTheirs.median),
      note: `createAgentStore({ agent: new HttpAgent({ url }) }): ${formatTime(storeTheirs.median)}, ${describeTiming(storeTheirs)}`,
    },
    {
      name: 'store.run: HttpAgent / built-in transport',
      value: formatRatio(storeOverHttpAgent),
      target: '> 1×',
      pass: storeOverHttpAgent > 1,
      note: describePairedRatio(storeTheirs, storeOurs),
    },
    {
      name: 'store.run, built-in transport / floor',
      value: formatRatio(pairedRatio(storeOurs, floor)),
      target: 'report',
      note: `the floor only parses; the store also checks and applies every event. ${describePairedRatio(storeOurs, floor)}`,
    },
    {
      name: 'store.run, HttpAgent / floor',
      value: formatRatio(pairedRatio(storeTheirs, floor)),
      target: 'report',
      note: describePairedRatio(storeTheirs, floor),
    },
    {
      name: '@ag-ui/client runAgent / store.run, built-in transport',
      value: formatRatio(runAgent.ms / storeOurs.median),
      target: 'report',
      note: `ratio of the medians, measured in other rounds: ${runAgent.note}`,
    },
    {
      name: 'built-in transport (connectHttpRun, fetch reader) into handlers',
      value: perSecond(s.events, ours.median),
      note: `POST, the store's SseFramer, one JSON.parse per event, no store: ${formatTime(ours.median)}, ${describeTiming(ours)}`,
    },
    {
      name: 'connectRun with an HttpAgent into handlers',
      value: perSecond(s.events, theirs.median),
      note: `HttpAgent.run() through the store's wrapFetch, transformChunks and verifyEvents, no store: ${formatTime(theirs.median)}, ${describeTiming(theirs)}`,
    },
    {
      name: 'floor: bare fetch, split, JSON.parse',
      value: perSecond(s.events, floor.median),
      note: `${formatTime(floor.median)}, ${describeTiming(floor)}`,
    },
    { name: 'built-in transport / floor', value: formatRatio(overFloor), target: '≤ 2×', pass: overFloor <= 2, note: describePairedRatio(ours, floor) },
    {
      name: 'connectRun with HttpAgent / built-in transport',
      value: formatRatio(overHttpAgent),
      target: '> 1×',
      pass: overHttpAgent > 1,
      note: describePairedRatio(theirs, ours),
    },
    {
      name: '@ag-ui/client runAgent / built-in transport',
      value: formatRatio(runAgent.ms / ours.median),
      target: 'report',
      note: `ratio of the medians, measured in other rounds: ${runAgent.note}`,
    },
  ]
}

function storePaths<TState>(url: string, initialState: TState, check: (store: AgentStore<TState>) => void): StorePaths {
  return {
    builtIn: storeOverHttp(url, initialState, check, true),
    httpAgent: storeOverHttp(url, initialState, check),
  }
}

async function benchDraft(server: Server): Promise<Row[]> {
  const draft = draftEvents(buildText(128 * 1024, 7))
  const s = stream('/draft', draft.events)
  const url = server.url(s)
  type Writer = { document: string }
  // Nothing asks for a confirmation: the run's end commits the draft.
  const check = (st: AgentStore<Writer>) => {
    expectEqual(st.getState().state.document, draft.text, 'the draft over HTTP')
    expectEqual(st.getState().committed.document, draft.text, 'the draft committed at the end of the run')
  }
  const client = clientOverHttp(url, { document: '' }, (agent) => {
    const call =
      agent.messages.at(-1)?.role === 'assistant' ? (agent.messages.at(-1) as { toolCalls?: { function: { arguments: string } }[] }).toolCalls?.[0] : undefined
    expectEqual(call?.function.arguments, JSON.stringify({ document: draft.text }), '@ag-ui/client runAgent holds the arguments')
  })
  // runAgent takes seconds here: each round times it once and the store three times right after.
  const against = await measureAgainst(client, storeOverHttp<Writer>(url, { document: '' }, check, true), { warmup: 1, trials: 3, fastPerRound: 3 })
  return [
    {
      name: 'stream',
      value: `${formatCount(s.events)} events, ${formatBytes(s.body.length)} of SSE`,
      note: "scenario 4's 128k draft: PredictState, TOOL_CALL_START, 4-character TOOL_CALL_ARGS chunks of {\"document\": …}, TOOL_CALL_END, between RUN_STARTED and RUN_FINISHED; the store starts from { document: '' }",
    },
    {
      name: '@ag-ui/client HttpAgent.runAgent()',
      value: perSecond(s.events, against.slow.median),
      note: `${formatTime(against.slow.median)} a run; ${describeTiming(against.slow)}; median of ${against.ratios.length} rounds' ratios over the built-in store run: ${against.ratios.map(formatRatio).join(', ')}`,
    },
    ...(await builtInRows(s, url, storePaths<Writer>(url, { document: '' }, check), {
      ms: against.slow.median,
      note: `runAgent ${formatTime(against.slow.median)} a run`,
    })),
  ].map((row) => ({ scenario: SCENARIO_DRAFT, ...row }))
}

async function benchText(server: Server): Promise<Row[]> {
  const text = buildText(128 * 1024, 4)
  const events = messageEvents(text).events
  const s = stream('/text', events)
  const url = server.url(s)
  const inProcess = storeRun<Record<string, never>>({}, withLifecycle(events), (st) => expectMessage(st.getState().messages, text, 'store.run in process'))
  const store = storeOverHttp<Record<string, never>>(url, {}, (st) => expectMessage(st.getState().messages, text, 'store.run over HTTP'))
  const client = clientOverHttp(url, {}, (agent) => expectMessage(agent.messages, text, '@ag-ui/client runAgent over HTTP'))

  const [overHttp, local, ...transport] = await measureInterleaved([store, inProcess, ...transportMeasures(server, s)], {
    warmup: 3,
    trials: 11,
    alternate: true,
  })
  // runAgent takes seconds here: each round times it once and the store three times right after.
  const against = await measureAgainst(client, store, { warmup: 2, trials: 3, fastPerRound: 3 })

  return [
    {
      name: 'stream',
      value: `${formatCount(s.events)} events, ${formatBytes(s.body.length)} of SSE`,
      note: "scenario 3's 128k text: RUN_STARTED, TEXT_MESSAGE_START, 4-character TEXT_MESSAGE_CONTENT events, TEXT_MESSAGE_END, RUN_FINISHED; node:http on 127.0.0.1 in the same process writes the body encoded up front in one go, so the client reads it in large chunks of many events",
    },
    {
      name: 'store.run, HttpAgent',
      value: perSecond(s.events, overHttp.median),
      note: `${formatTime(overHttp.median)} a run, one subscriber; ${describeTiming(overHttp)}`,
    },
    ...inProcessRows(s, overHttp, local),
    {
      name: '@ag-ui/client HttpAgent.runAgent()',
      value: perSecond(s.events, against.slow.median),
      note: `${formatTime(against.slow.median)} a run; ${describeTiming(against.slow)}`,
    },
    {
      name: 'events per second: store.run / @ag-ui/client runAgent',
      value: formatRatio(against.ratio),
      target: 'report',
      note: `median of ${against.ratios.length} rounds' ratios (${against.ratios.map(formatRatio).join(', ')}), each one runAgent over the median of the three store runs after it`,
    },
    ...transportRows(s, transportOf(transport), overHttp),
    ...(await builtInRows(
      s,
      url,
      storePaths(url, {}, (st) => expectMessage(st.getState().messages, text, 'store.run over HTTP')),
      {
        ms: against.slow.median,
        note: `runAgent ${formatTime(against.slow.median)} a run`,
      },
    )),
  ].map((row) => ({ scenario: SCENARIO_TEXT, ...row }))
}

async function benchState(server: Server): Promise<Row[]> {
  const table = buildTable()
  const snapshot = { type: EventType.STATE_SNAPSHOT, snapshot: table }
  const { events: deltas, expected } = buildDeltas(table)
  const full = stream('/state', [snapshot, ...deltas])
  const empty = stream('/state-snapshot', [snapshot])
  const subset = stream('/state-subset', [snapshot, ...deltas.slice(0, CLIENT_DELTA_COUNT)])
  const subsetExpected = structuredClone(table)
  for (const event of deltas.slice(0, CLIENT_DELTA_COUNT)) {
    const [op] = (event as BaseEvent & { delta: { path: string; value: string }[] }).delta
    subsetExpected.rows[Number(op!.path.split('/')[2])]!.status = op!.value
  }
  const deltaCount = deltas.length
  const initial: TableState = { rows: [] }
  const inProcess = storeRun(initial, withLifecycle(wire([snapshot, ...deltas]).events), (st) =>
    expectEqual(st.getState().state, expected, 'store.run in process'),
  )
  const storeOf = (s: Stream, want: TableState) =>
    storeOverHttp<TableState>(server.url(s), initial, (st) => expectEqual(st.getState().state, want, `store.run over HTTP (${s.path})`))
  const clientOf = (s: Stream, want: TableState) =>
    clientOverHttp(server.url(s), initial, (agent) => expectEqual(agent.state, want, `@ag-ui/client runAgent over HTTP (${s.path})`))

  const [storeFull, storeEmpty, local, ...transport] = await measureInterleaved(
    [storeOf(full, expected), storeOf(empty, table), inProcess, ...transportMeasures(server, full)],
    {
      warmup: 3,
      trials: 15,
      alternate: true,
    },
  )
  const [clientSubset, clientEmpty] = await measureInterleaved([clientOf(subset, subsetExpected), clientOf(empty, table)], { warmup: 1, trials: 3 })

  const storePerDelta = (storeFull.median - storeEmpty.median) / deltaCount
  const clientPerDelta = (clientSubset.median - clientEmpty.median) / CLIENT_DELTA_COUNT
  return [
    {
      name: 'stream',
      value: `${formatCount(full.events)} events, ${formatBytes(full.body.length)} of SSE`,
      note: `scenario 1's table as one STATE_SNAPSHOT event (${formatBytes(full.json[0]!.length)}), then its ${formatCount(deltaCount)} STATE_DELTA events, between RUN_STARTED and RUN_FINISHED; the store and the agent start from { rows: [] }`,
    },
    {
      name: 'store.run, HttpAgent, whole stream',
      value: perSecond(full.events, storeFull.median),
      note: `${formatTime(storeFull.median)} a run, one subscriber; ${describeTiming(storeFull)}`,
    },
    ...inProcessRows(full, storeFull, local),
    {
      name: 'store.run, HttpAgent, per delta',
      value: `${formatCount(1000 / storePerDelta)} deltas/s`,
      note: `(whole stream ${formatTime(storeFull.median)} − the snapshot alone ${formatTime(storeEmpty.median)}) / ${formatCount(deltaCount)} = ${formatTime(storePerDelta)} a delta`,
    },
    {
      name: '@ag-ui/client HttpAgent.runAgent(), per delta',
      value: `${formatCount(1000 / clientPerDelta)} deltas/s`,
      note: `on the first ${CLIENT_DELTA_COUNT} deltas only: (run ${formatTime(clientSubset.median)} − the snapshot alone ${formatTime(clientEmpty.median)}) / ${CLIENT_DELTA_COUNT} = ${formatTime(clientPerDelta)} a delta; medians of ${clientSubset.samples.length} after ${clientSubset.warmup} warm-up, round-robin with the snapshot alone`,
    },
    {
      name: 'deltas per second: store.run / @ag-ui/client runAgent',
      value: formatRatio(clientPerDelta / storePerDelta),
      target: 'report',
    },
    ...transportRows(full, transportOf(transport), storeFull),
    ...(await builtInRows(
      full,
      server.url(full),
      storePaths(server.url(full), initial, (st) => expectEqual(st.getState().state, expected, 'store.run over HTTP')),
      {
        ms: clientEmpty.median + clientPerDelta * deltaCount,
        note: `runAgent on the whole stream estimated from its per-delta time above: ${formatTime(clientEmpty.median)} + ${formatCount(deltaCount)} × ${formatTime(clientPerDelta)}`,
      },
    )),
  ].map((row) => ({ scenario: SCENARIO_STATE, ...row }))
}

export async function benchHttp(): Promise<Row[]> {
  assertProductionMode()
  const server = await startServer()
  try {
    return [...(await benchText(server)), ...(await benchDraft(server)), ...(await benchState(server))]
  } finally {
    await server.close()
  }
}
