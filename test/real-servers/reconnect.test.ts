// Reconnect against the CopilotKit runtime 1.75 (v2): a proxy breaks the run's response after its
// k-th event, store.reconnect() re-attaches through AG-UI connect (the runtime replays the thread:
// finished runs compacted, the run in progress from its start and then live), and the store must
// end exactly where a store that was never cut ends: same snapshot, same next RunAgentInput,
// nothing applied twice.
import { randomUUID } from 'node:crypto'
import { HttpAgent } from '@ag-ui/client'
import type { Message, RunAgentInput } from '@ag-ui/core'
import {
  type AgentSnapshot,
  type AgentStore,
  type AgentStoreError,
  createAgentStore,
  restoreThread,
  type SerializedThread,
  serializeThread,
} from '@agent-state/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConnectingHttpAgent, connectUrlFor } from './connecting-agent'
import { type DropProxy, type ProxiedEvent, startDropProxy } from './drop-proxy'
import { script, servers, type Turn } from './support'

const base = servers.copilotkit
const OLD = 'The old document.'
const NEW = 'A brand new document about the sea, written line by line.'

interface WriterState {
  document: string
  title: string
}
const initialState: WriterState = { document: OLD, title: '' }
// Per model stream part: wide enough that a reconnect made right after the drop finds the run still streaming.
const livePaceMs = 150
const predict = [{ stateKey: 'document', tool: 'write_document', toolArgument: 'document' }]

let proxy: DropProxy
beforeAll(async () => {
  proxy = await startDropProxy(base)
})
afterAll(async () => {
  await proxy?.close()
})

const runUrl = () => `${proxy.url}/api/agent/writer/run`

/** Holds each of the thread's model stream parts for `delayMs` on the server (test-only route of servers/copilotkit.ts). */
async function pace(threadId: string, delayMs: number): Promise<void> {
  const response = await fetch(`${base}/__pace`, { method: 'POST', body: JSON.stringify({ threadId, delayMs }) })
  if (!response.ok) throw new Error(`pace: HTTP ${response.status}`)
}

/** Reads the runtime's connect stream for a thread to its end, past the proxy: it ends when the thread's run in progress ends. */
async function runEnded(threadId: string): Promise<ProxiedEvent[]> {
  const response = await fetch(`${base}/api/agent/writer/connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ threadId, runId: randomUUID(), messages: [], tools: [], context: [], state: {} }),
    signal: AbortSignal.timeout(20_000),
  })
  const text = await response.text()
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data:'))
    .map((block) => JSON.parse(block.slice(5)) as ProxiedEvent)
}

interface Thread {
  threadId: string
  store: AgentStore<WriterState>
  errors: AgentStoreError[]
  snapshots: AgentSnapshot<WriterState>[]
}

/** The thread id a 'lost' agent connects to instead of its own: one the server never had. */
const lostThreads = new Map<string, string>()

/** Connects to a thread the server never had, as after the runtime evicted or lost the thread. */
class LostThreadAgent extends ConnectingHttpAgent {
  protected override connect(input: RunAgentInput): ReturnType<ConnectingHttpAgent['run']> {
    const lost = randomUUID()
    lostThreads.set(input.threadId, lost)
    return super.connect({ ...input, threadId: lost })
  }
}

/** `url`: the store's built-in transport, with the runtime's connect route as its connectUrl. */
type AgentKind = 'connecting' | 'plain' | 'lost' | 'url'

function open(agentKind: AgentKind, saved?: SerializedThread, threadId: string = randomUUID()): Thread {
  const config = { url: runUrl(), threadId }
  const link =
    agentKind === 'url'
      ? { url: config.url, connectUrl: connectUrlFor(config.url) }
      : { agent: agentKind === 'connecting' ? new ConnectingHttpAgent(config) : agentKind === 'lost' ? new LostThreadAgent(config) : new HttpAgent(config) }
  const errors: AgentStoreError[] = []
  const snapshots: AgentSnapshot<WriterState>[] = []
  const store = createAgentStore<WriterState>({
    ...link,
    threadId,
    initialState,
    predict,
    restore: restoreThread(saved),
    onError: (error) => void errors.push(error),
  })
  store.subscribe((snapshot) => void snapshots.push(snapshot))
  return { threadId, store, errors, snapshots }
}

const ID = /^(?:text-|call_)?[0-9a-f]{8}(?:-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?$/i

/**
 * The value with every id (thread, run, message, tool call) replaced by its order of first
 * appearance, keys sorted: two threads that went the same way canonicalize to the same value.
 */
function canonical(value: unknown, names = new Map<string, string>()): unknown {
  if (typeof value === 'string' && ID.test(value)) {
    if (!names.has(value)) names.set(value, `<id ${names.size}>`)
    return names.get(value)
  }
  if (Array.isArray(value)) return value.map((item) => canonical(item, names))
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, canonical((value as Record<string, unknown>)[key], names)]),
    )
  return value
}

/** What must match an uninterrupted run (ids named by where they first appear). */
const outcome = (snapshot: AgentSnapshot<WriterState>) =>
  canonical({
    threadId: snapshot.threadId,
    runId: snapshot.runId,
    status: snapshot.status,
    error: snapshot.error?.code,
    messages: snapshot.messages,
    state: snapshot.state,
    committed: snapshot.committed,
    confirmations: snapshot.confirmations,
    predictions: snapshot.predictions,
    steps: snapshot.steps,
    runOutcome: snapshot.run?.outcome,
  })

/** No message id and no tool call id twice. */
function expectNoDuplicates(messages: readonly Message[]): void {
  const messageIds = messages.map((message) => message.id)
  expect(new Set(messageIds).size).toBe(messageIds.length)
  const callIds = messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : []))
  expect(new Set(callIds).size).toBe(callIds.length)
}

/** Every text a snapshot showed is a prefix of the final text of its message: nothing was appended twice. */
function expectTextsGrowOnly(snapshots: readonly AgentSnapshot<WriterState>[], final: AgentSnapshot<WriterState>): void {
  const finalText = new Map(final.messages.map((message) => [message.id, typeof message.content === 'string' ? message.content : '']))
  const finalArgs = new Map(
    final.messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : [])).map((call) => [call.id, call.function.arguments]),
  )
  for (const snapshot of snapshots) {
    expectNoDuplicates(snapshot.messages)
    for (const message of snapshot.messages) {
      if (typeof message.content === 'string' && finalText.has(message.id)) expect(finalText.get(message.id)!.startsWith(message.content)).toBe(true)
      for (const call of message.role === 'assistant' ? (message.toolCalls ?? []) : [])
        if (finalArgs.has(call.id)) expect(finalArgs.get(call.id)!.startsWith(call.function.arguments)).toBe(true)
    }
  }
}

/** Resolves once the store is no longer running (and `until` holds), or rejects after `ms`. */
function settled(thread: Thread, until: () => boolean = () => true, ms = 15_000): Promise<AgentSnapshot<WriterState>> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const snapshot = thread.store.getState()
      if (snapshot.status !== 'running' && until()) {
        clearTimeout(timer)
        unsubscribe()
        resolve(snapshot)
      }
    }
    const timer = setTimeout(() => {
      unsubscribe()
      reject(new Error(`not settled after ${ms} ms: ${JSON.stringify({ status: thread.store.getState().status, error: thread.store.getState().error?.code })}`))
    }, ms)
    const unsubscribe = thread.store.subscribe(check)
    check()
  })
}

interface Scenario {
  name: string
  /** A turn the thread has finished, uncut, before the one that is cut: its replay must be passed over. */
  prelude?: { turns: Turn[]; message: string }
  turns: Turn[]
  message: string
  /** The status the first run ends in. */
  status: 'idle' | 'interrupted'
  /** What the thread does next: its request body is compared too. */
  next(thread: Thread): Promise<void>
}

const nextTurn: Turn[] = [{ text: 'Anything else?' }]

const titleTurn: Turn[] = [{ tool: 'AGUISendStateDelta', args: { delta: [{ op: 'replace', path: '/title', value: 'Sea' }] } }, { text: 'Titled.' }]

const scenarios: Record<'text' | 'draft' | 'stateDelta' | 'draftAfterTurn', Scenario> = {
  text: {
    name: 'a text reply',
    turns: [{ text: 'One two three four five six seven.' }],
    message: 'Count to seven',
    status: 'idle',
    async next(thread) {
      await script(base, thread.threadId, nextTurn)
      await thread.store.run({ message: 'Thanks' })
    },
  },
  draft: {
    name: 'a drafted document awaiting approval',
    turns: [{ tool: 'write_document', args: { document: NEW }, chunkSize: 7 }, { text: 'Saved.' }],
    message: 'Write about the sea',
    status: 'interrupted',
    async next(thread) {
      await thread.store.approve()
    },
  },
  stateDelta: {
    name: 'a server state change',
    turns: titleTurn,
    message: 'Set a title',
    status: 'idle',
    async next(thread) {
      await script(base, thread.threadId, nextTurn)
      await thread.store.run({ message: 'Thanks' })
    },
  },
  draftAfterTurn: {
    name: 'a drafted document after a finished turn that set the title',
    prelude: { turns: titleTurn, message: 'Set a title' },
    turns: [{ tool: 'write_document', args: { document: NEW }, chunkSize: 7 }, { text: 'Saved.' }],
    message: 'Write about the sea',
    status: 'interrupted',
    async next(thread) {
      await thread.store.approve()
    },
  },
}

/** Plays the scenario's prelude turn, if any, and scripts its turns. */
async function begin(thread: Thread, scenario: Scenario): Promise<void> {
  if (scenario.prelude) {
    await script(base, thread.threadId, scenario.prelude.turns)
    await thread.store.run({ message: scenario.prelude.message })
    expect(thread.store.getState()).toMatchObject({ status: 'idle', error: undefined })
  }
  await script(base, thread.threadId, scenario.turns)
}

/** The scenario's cut run and the one after it, as the proxy saw them. */
function runsOf(thread: Thread, scenario: Scenario) {
  const [run, next] = proxy.requestsOf(thread.threadId, 'run').slice(scenario.prelude ? 1 : 0)
  return { run: run!, next }
}

interface Baseline {
  /** The first run's events as the server sent them. */
  types: string[]
  /** The snapshot after the first run. */
  first: unknown
  /** The request body of the next run and the snapshot after it. */
  nextBody: unknown
  last: unknown
}

const baselines = new Map<Scenario, Promise<Baseline>>()

/** The same scenario on a thread that was never cut. */
function baseline(scenario: Scenario): Promise<Baseline> {
  let result = baselines.get(scenario)
  if (!result) {
    result = (async () => {
      const thread = open('plain')
      await begin(thread, scenario)
      await thread.store.run({ message: scenario.message })
      const first = thread.store.getState()
      expect(first.status).toBe(scenario.status)
      expect(first.error).toBeUndefined()
      await scenario.next(thread)
      const last = thread.store.getState()
      expect(last).toMatchObject({ status: 'idle', error: undefined })
      const { run, next } = runsOf(thread, scenario)
      expect(run.cut).toBe(false)
      return {
        types: run.events.map((event) => event.type),
        first: outcome(first),
        nextBody: canonical({ threadId: thread.threadId, body: next!.body }),
        last: outcome(last),
      }
    })()
    baselines.set(scenario, result)
  }
  return result
}

/** Where to cut a scenario's first run, by the events an uncut run sends. */
type Cut = { label: string; at(types: string[]): number }

const cuts = {
  afterRunStarted: { label: 'after RUN_STARTED', at: () => 1 },
  midText: { label: 'in the middle of the text', at: (types: string[]) => types.indexOf('TEXT_MESSAGE_CONTENT') + 2 },
  midArgs: {
    label: "in the middle of the tool call's arguments",
    at: (types: string[]) => types.indexOf('TOOL_CALL_ARGS') + Math.floor(types.filter((type) => type === 'TOOL_CALL_ARGS').length / 2),
  },
  afterDelta: { label: 'just after STATE_DELTA', at: (types: string[]) => types.indexOf('STATE_DELTA') + 1 },
  beforeFinished: { label: 'just before RUN_FINISHED', at: (types: string[]) => types.indexOf('RUN_FINISHED') },
} satisfies Record<string, Cut>

// [scenario, cut, also while the server still streams]. A run that ends in text has no live rest
// after its last event but one: the runtime sends TEXT_MESSAGE_END and RUN_FINISHED together, at the model's finish.
const table: [Scenario, Cut, boolean][] = [
  [scenarios.text, cuts.afterRunStarted, true],
  [scenarios.text, cuts.midText, true],
  [scenarios.text, cuts.beforeFinished, false],
  [scenarios.draft, cuts.afterRunStarted, true],
  [scenarios.draft, cuts.midArgs, true],
  [scenarios.draft, cuts.beforeFinished, true],
  [scenarios.stateDelta, cuts.afterDelta, true],
  [scenarios.stateDelta, cuts.beforeFinished, false],
  [scenarios.draftAfterTurn, cuts.afterRunStarted, true],
  [scenarios.draftAfterTurn, cuts.midArgs, true],
]

/**
 * Runs the scenario on a fresh thread with its first response broken after k events. `live`: the
 * server's model is paced so the run is still streaming at the reconnect; else the reconnect waits
 * for the server to finish the run, whose replay is then compacted.
 */
async function dropped(scenario: Scenario, k: number, live: boolean, agentKind: AgentKind = 'connecting'): Promise<Thread> {
  const thread = open(agentKind)
  await begin(thread, scenario)
  if (live) await pace(thread.threadId, livePaceMs)
  proxy.drop(thread.threadId, 'run', k)
  await thread.store.run({ message: scenario.message })
  const { run } = runsOf(thread, scenario)
  expect(run).toMatchObject({ cut: true })
  expect(run.events).toHaveLength(k)
  expect(thread.store.getState().error?.code).toBe('TRANSPORT')
  if (!live) await runEnded(thread.threadId)
  return thread
}

/** Drops the scenario's run after the cut, reconnects, and checks the thread ends as one never cut does. */
async function expectReconnectEqualsUninterrupted(scenario: Scenario, cut: Cut, live: boolean, agentKind: AgentKind): Promise<void> {
  const expected = await baseline(scenario)
  const k = cut.at(expected.types)
  expect(k).toBeGreaterThan(0)
  expect(k).toBeLessThan(expected.types.length)
  const thread = await dropped(scenario, k, live, agentKind)
  const from = thread.snapshots.length

  await thread.store.reconnect()
  const rejoined = thread.store.getState()
  expect(outcome(rejoined)).toEqual(expected.first)
  expectTextsGrowOnly(thread.snapshots.slice(from), rejoined)
  const [connect, ...more] = proxy.requestsOf(thread.threadId, 'connect')
  expect(more).toEqual([])
  // The replay went the way this case is meant to test: the run in progress sent raw, or finished and compacted.
  const ownStart = connect!.events.findIndex((event) => event.type === 'RUN_STARTED' && event.runId === rejoined.runId)
  expect(ownStart).toBeGreaterThanOrEqual(scenario.prelude ? 1 : 0)
  if (scenario.prelude) expect(connect!.events[0]).toMatchObject({ type: 'RUN_STARTED' })
  const replayed = connect!.events.slice(ownStart).filter((event) => event.type === 'TEXT_MESSAGE_CONTENT' || event.type === 'TOOL_CALL_ARGS').length
  const original = expected.types.filter((type) => type === 'TEXT_MESSAGE_CONTENT' || type === 'TOOL_CALL_ARGS').length
  if (live) expect(replayed).toBe(original)
  else expect(replayed).toBeLessThan(original)

  await scenario.next(thread)
  const { next } = runsOf(thread, scenario)
  expect(canonical({ threadId: thread.threadId, body: next!.body })).toEqual(expected.nextBody)
  const last = thread.store.getState()
  expect(outcome(last)).toEqual(expected.last)
  expectNoDuplicates(last.messages)
  expect(thread.errors.map((error) => error.code)).toEqual(['TRANSPORT'])
}

const reconnected = (live: boolean) => (live ? 'while the server still streams' : 'after the server finished')

describe('CopilotKit: reconnect after a dropped stream equals the uninterrupted run', () => {
  for (const live of [false, true]) {
    for (const [scenario, cut, liveToo] of table) {
      if (live && !liveToo) continue
      it(`${scenario.name}, cut ${cut.label}, reconnected ${reconnected(live)}`, () => expectReconnectEqualsUninterrupted(scenario, cut, live, 'connecting'))
    }
  }

  it('a reconnect whose own stream drops can be retried, and still ends as the uninterrupted run', async () => {
    const scenario = scenarios.draft
    const expected = await baseline(scenario)
    const thread = await dropped(scenario, cuts.midArgs.at(expected.types), true)
    proxy.drop(thread.threadId, 'connect', 2)
    await thread.store.reconnect().catch(() => undefined)
    expect(thread.store.getState().error?.code).toBe('TRANSPORT')
    await runEnded(thread.threadId)
    await thread.store.reconnect()
    expect(outcome(thread.store.getState())).toEqual(expected.first)
    expect(proxy.requestsOf(thread.threadId, 'connect').map((request) => request.cut)).toEqual([true, false])
    await scenario.next(thread)
    const [, next] = proxy.requestsOf(thread.threadId, 'run')
    expect(canonical({ threadId: thread.threadId, body: next!.body })).toEqual(expected.nextBody)
    expect(outcome(thread.store.getState())).toEqual(expected.last)
  })
})

describe('CopilotKit through url and connectUrl (the built-in transport): reconnect equals the uninterrupted run', () => {
  for (const [scenario, cut, live] of [
    [scenarios.text, cuts.midText, true],
    [scenarios.draft, cuts.midArgs, true],
    [scenarios.draft, cuts.midArgs, false],
    [scenarios.stateDelta, cuts.afterDelta, false],
  ] as const)
    it(`${scenario.name}, cut ${cut.label}, reconnected ${reconnected(live)}`, () => expectReconnectEqualsUninterrupted(scenario, cut, live, 'url'))
})

describe('CopilotKit: reconnect after a cut at every event of the run', () => {
  for (const scenario of [scenarios.text, scenarios.draft, scenarios.stateDelta, scenarios.draftAfterTurn])
    it(`${scenario.name}: cut after each event k, reconnected after the server finished`, async () => {
      const expected = await baseline(scenario)
      // Bounded by the run's length (10 to 20 events).
      expect(expected.types.length).toBeLessThan(30)
      for (let k = 1; k < expected.types.length; k++) {
        const thread = await dropped(scenario, k, false)
        await thread.store.reconnect()
        expect(outcome(thread.store.getState()), `cut after event ${k}`).toEqual(expected.first)
        await scenario.next(thread)
        const { next } = runsOf(thread, scenario)
        expect(canonical({ threadId: thread.threadId, body: next!.body }), `cut after event ${k}`).toEqual(expected.nextBody)
        expect(outcome(thread.store.getState()), `cut after event ${k}`).toEqual(expected.last)
      }
    })
})

/** A thread serialized after its run's k-th event (as a page persisting it would have it), the page then gone: its connection broken there. */
async function savedMidStream(scenario: Scenario, k: number, agentKind: AgentKind) {
  const before = open(agentKind)
  await begin(before, scenario)
  let saved: string | undefined
  let seen = 0
  before.store.onEvent(() => {
    if (++seen === k) saved = JSON.stringify(serializeThread(before.store))
  })
  await pace(before.threadId, livePaceMs)
  proxy.drop(before.threadId, 'run', k)
  await before.store.run({ message: scenario.message })
  expect(runsOf(before, scenario).run).toMatchObject({ cut: true })
  expect(saved).toBeDefined()
  return { threadId: before.threadId, saved: JSON.parse(saved!) as SerializedThread }
}

describe.each([
  ['a connecting HttpAgent', 'connecting'],
  ['url and connectUrl', 'url'],
] as const)('CopilotKit through %s: a thread saved mid-stream and restored rejoins its run by itself', (_, agentKind) => {
  for (const scenario of [scenarios.draft, scenarios.draftAfterTurn])
    for (const live of [true, false]) {
      it(`${scenario.name}, restored ${live ? 'while the server still streams' : 'after the server finished'}, then approved`, async () => {
        const expected = await baseline(scenario)
        const k = cuts.midArgs.at(expected.types)
        const { threadId, saved } = await savedMidStream(scenario, k, agentKind)
        if (!live) await runEnded(threadId)

        const after = open(agentKind, saved, threadId)
        const rejoined = await settled(after, () => proxy.requestsOf(after.threadId, 'connect').length > 0)
        expect(outcome(rejoined)).toEqual(expected.first)
        expectTextsGrowOnly([after.store.getInitialState(), ...after.snapshots], rejoined)
        expect(proxy.requestsOf(after.threadId, 'connect')).toHaveLength(1)
        await scenario.next(after)
        const { next } = runsOf(after, scenario)
        expect(canonical({ threadId: after.threadId, body: next!.body })).toEqual(expected.nextBody)
        expect(outcome(after.store.getState())).toEqual(expected.last)
        expect(after.errors).toEqual([])
      })
    }
})

describe('CopilotKit: reconnect to a thread the server does not have', () => {
  it('an empty replay reports RECONNECT (not-found), leaves the thread as it was, and the thread runs again', async () => {
    const scenario = scenarios.text
    const expected = await baseline(scenario)
    const thread = await dropped(scenario, cuts.midText.at(expected.types), false, 'lost')
    const before = thread.store.getState()
    await thread.store.reconnect()
    const [connect] = proxy.requestsOf(lostThreads.get(thread.threadId)!, 'connect')
    // The runtime answers connect for a thread it never had (or evicted) with an empty stream.
    expect(connect).toMatchObject({ cut: false, events: [] })
    expect(thread.errors.map((error) => [error.code, error.reason])).toEqual([
      ['TRANSPORT', 'network'],
      ['RECONNECT', 'not-found'],
    ])
    // Reported only: the snapshot is the one the drop left.
    expect(thread.store.getState()).toBe(before)

    await script(base, thread.threadId, nextTurn)
    await thread.store.run({ message: 'Are you there?' })
    const next = thread.store.getState()
    expect(next).toMatchObject({ status: 'idle', error: undefined })
    expect(next.messages[next.messages.length - 1]).toMatchObject({ role: 'assistant', content: 'Anything else?' })
    expectNoDuplicates(next.messages)
  })
})

/** Assistant tool calls that no tool message answers: CopilotKit's BuiltInAgent refuses a conversation holding one. */
function callsWithoutResult(messages: readonly Message[]): string[] {
  const answered = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])))
  return messages
    .flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
    .flatMap((call) => (answered.has(call.id) ? [] : [call.id]))
}

/** The next turn after a run that could not be re-attached: it must reach the model and come back. */
async function expectNextTurnWorks(thread: Thread): Promise<void> {
  await script(base, thread.threadId, nextTurn)
  await thread.store.run({ message: 'Are you there?' })
  const body = proxy.requestsOf(thread.threadId, 'run').at(-1)!.body as RunAgentInput
  // A half-streamed call of the failed run, sent back without a result, fails the turn ("Tool result is missing").
  expect(callsWithoutResult(body.messages)).toEqual([])
  const next = thread.store.getState()
  expect(next).toMatchObject({ status: 'idle', error: undefined, state: initialState })
  expect(next.messages[next.messages.length - 1]).toMatchObject({ role: 'assistant', content: 'Anything else?' })
  expectNoDuplicates(next.messages)
}

describe('CopilotKit: reconnect without connect support', () => {
  for (const [scenario, cut] of [
    [scenarios.text, cuts.midText],
    [scenarios.draft, cuts.midArgs],
  ] as const)
    it(`${scenario.name} cut ${cut.label}: a plain HttpAgent gives RECONNECT (not-supported), sends nothing, and the thread runs again`, async () => {
      const expected = await baseline(scenario)
      const thread = await dropped(scenario, cut.at(expected.types), false, 'plain')
      const before = thread.store.getState()
      await expect(thread.store.reconnect()).rejects.toMatchObject({ code: 'RECONNECT', reason: 'not-supported' })
      // Refused before anything happened: no request, the snapshot untouched, nothing reported twice.
      expect(proxy.requestsOf(thread.threadId, 'connect')).toEqual([])
      expect(thread.store.getState()).toBe(before)
      expect(before).toMatchObject({ status: 'error', error: { code: 'TRANSPORT' }, state: initialState, committed: initialState })
      expect(thread.errors.map((error) => error.code)).toEqual(['TRANSPORT'])
      await expectNextTurnWorks(thread)
    })

  it('a thread saved mid-stream and restored on a plain HttpAgent comes back idle without its draft, connects nowhere, and runs again', async () => {
    const scenario = scenarios.draft
    const expected = await baseline(scenario)
    const { threadId, saved } = await savedMidStream(scenario, cuts.midArgs.at(expected.types), 'connecting')
    await runEnded(threadId)
    const after = open('plain', saved, threadId)
    // Room for a rejoin that should not happen (it is queued, not synchronous).
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(proxy.requestsOf(threadId, 'connect')).toEqual([])
    expect(after.store.getState()).toMatchObject({ status: 'idle', state: initialState, committed: initialState, predictions: [], confirmations: [] })
    expect(after.errors).toEqual([])
    await expect(after.store.reconnect()).rejects.toMatchObject({ code: 'RECONNECT', reason: 'not-supported' })
    await expectNextTurnWorks(after)
  })
})
