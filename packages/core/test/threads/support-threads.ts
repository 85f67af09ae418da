// What the restore and persist tests share: every recorded conversation as runs of events with
// the store options they need, an agent the test streams into event by event, and fake storages.
import { readdirSync, readFileSync } from 'node:fs'
import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'
import type { AgentStore, AgentStoreOptions, PredictionMapping } from '../../src'

export type Doc = Record<string, unknown>

export interface RecordedRunOf {
  /** The body the recording's client sent (absent for a stream recorded alone). */
  input: RunAgentInput | undefined
  events: BaseEvent[]
}

export interface Conversation {
  name: string
  options: Pick<AgentStoreOptions<Doc>, 'initialState' | 'threadId' | 'predict'>
  runs: RecordedRunOf[]
}

interface CoreRecording {
  input: RunAgentInput
  events: BaseEvent[]
  nextRuns?: { input: RunAgentInput; events: BaseEvent[] }[]
}

interface ServerRecording {
  server: string
  runs: { body: RunAgentInput; events: BaseEvent[] }[]
}

const readJson = <T>(url: URL): T => JSON.parse(readFileSync(url, 'utf8')) as T
const jsonFiles = (folder: URL) =>
  readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()

// test/fixtures holds byte-identical copies of two of these (02 and 14): not loaded twice.
const coreFolder = new URL('../fixtures/recordings/', import.meta.url)
const serverFolder = new URL('../../../../test/real-servers/recordings/', import.meta.url)

// CopilotKit and Mastra announce no PredictState: their tests draft through the store's `predict` option.
const writerPredict: PredictionMapping[] = [{ stateKey: 'document', tool: 'write_document', toolArgument: 'document' }]

export const conversations: Conversation[] = [
  ...jsonFiles(coreFolder).map((file): Conversation => {
    const recording = readJson<CoreRecording>(new URL(file, coreFolder))
    return {
      name: `core/${file}`,
      options: { initialState: (recording.input.state ?? {}) as Doc, threadId: recording.input.threadId },
      runs: [{ input: recording.input, events: recording.events }, ...(recording.nextRuns ?? [])],
    }
  }),
  ...jsonFiles(serverFolder).map((file): Conversation => {
    const recording = readJson<ServerRecording>(new URL(file, serverFolder))
    const first = recording.runs[0]!.body
    return {
      name: `real-servers/${file}`,
      options: {
        initialState: (first.state ?? {}) as Doc,
        threadId: first.threadId,
        ...(recording.server === 'langgraph' ? {} : { predict: writerPredict }),
      },
      runs: recording.runs.map((run) => ({ input: run.body, events: run.events })),
    }
  }),
]

// Driving a recorded conversation as a client would: each run started by run() or by answering
// what the previous run left open, its recorded events then streamed into the request.

export type Step =
  | { kind: 'start'; run: number }
  | { kind: 'event'; run: number; event: BaseEvent }
  /** The user edits the state while the run streams. */
  | { kind: 'edit'; run: number; key: string; value: string }

const isEnd = (event: BaseEvent) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR'

// A request hands on nothing after its run's end (LangGraph goes on sending after RUN_ERROR).
export const throughEnd = (events: readonly BaseEvent[]) => events.slice(0, events.findIndex(isEnd) + 1)

/**
 * The steps of a conversation. With `edits`, the user edits the state twice in each run while it
 * streams: a key of their own early on, and halfway a key the run may be drafting (`document`).
 */
export function stepsOf(conversation: Conversation, { edits = false } = {}): Step[] {
  const drafted = Object.hasOwn(conversation.options.initialState, 'document') ? 'document' : 'note'
  return conversation.runs.flatMap((run, index): Step[] => {
    const steps = throughEnd(run.events).map((event): Step => ({ kind: 'event', run: index, event }))
    if (edits && steps.length >= 3) {
      steps.splice(Math.floor(steps.length / 2), 0, { kind: 'edit', run: index, key: drafted, value: `mine-${index}` })
      steps.splice(1, 0, { kind: 'edit', run: index, key: 'note', value: `note-${index}` })
    }
    return [{ kind: 'start', run: index }, ...steps]
  })
}

/** One step: the user's move, an event streamed into the open request, or an edit. */
export function performStep(store: AgentStore<Doc>, agent: SteppedAgent, conversation: Conversation, step: Step, outcomes: string[]): void {
  if (step.kind === 'start') startRun(store, conversation, step.run, outcomes)
  else if (step.kind === 'event') agent.push(step.event)
  else store.setState((previous) => ({ ...previous, [step.key]: step.value }))
}

// Streamed through a request: those whose every run is one lifecycle (20 has no RUN_STARTED).
export const streamable = conversations.filter((conversation) =>
  conversation.runs.every(({ events }) => events[0]?.type === 'RUN_STARTED' && events.some(isEnd)),
)

/** The payload the recording's next body resumed this interrupt with, else a plain one. */
function payloadFor(id: string, next: RunAgentInput | undefined): unknown {
  const resume = (next as { resume?: { interruptId: string; payload?: unknown }[] } | undefined)?.resume
  return resume?.find((entry) => entry.interruptId === id)?.payload ?? { response: 'yes' }
}

/** What the user does to start run `index`: answer what is open (as the scenario is named), or send its new messages. */
export function startRun(store: AgentStore<Doc>, conversation: Conversation, index: number, outcomes: string[]): void {
  const settle = (promise: Promise<void>) =>
    void promise.then(
      () => outcomes.push('ok'),
      (error: { code?: string }) => outcomes.push(`refused ${error.code}`),
    )
  const { confirmations, messages } = store.getState()
  const input = conversation.runs[index]?.input
  if (confirmations.length > 0) {
    for (const confirmation of confirmations) {
      const { id } = confirmation
      if (/reject/.test(conversation.name)) settle(store.reject({ id, reason: 'not this' }))
      else if (/cancel/.test(conversation.name)) settle(store.cancel({ id }))
      else if (confirmation.reason === 'input_required') settle(store.respond({ id, payload: payloadFor(id, input) }))
      else settle(store.approve({ id }))
    }
    return
  }
  const known = new Set(messages.map((message) => message.id))
  const added = withIds(input?.messages ?? [], `m${index}`).filter((message) => !known.has(message.id))
  settle(store.run({ messages: added.length > 0 ? added : [{ id: `next-${index}`, role: 'user', content: 'Go on' }] }))
}

/** Recorded inputs may lack message ids; a run needs them. */
export const withIds = (messages: readonly Message[], prefix: string): Message[] =>
  messages.map((message, index) => ({ ...message, id: message.id ?? `${prefix}-${index}` }) as Message)

export const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/**
 * An agent the test streams into by hand, one event at a time and synchronously: a store can be
 * cut (serialized) at any point of a run, with its request still open. Every input is recorded.
 */
export class SteppedAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  private subscriber: Subscriber<BaseEvent> | undefined

  run(input: RunAgentInput): Observable<BaseEvent> {
    this.inputs.push(structuredClone(input))
    return new Observable<BaseEvent>((subscriber) => {
      this.subscriber = subscriber
      return () => {
        if (this.subscriber === subscriber) this.subscriber = undefined
      }
    })
  }

  /** Whether a request is open (started and not ended or cancelled). */
  get open(): boolean {
    return this.subscriber !== undefined && !this.subscriber.closed
  }

  push(event: BaseEvent): void {
    const subscriber = this.subscriber
    if (!subscriber || subscriber.closed) throw new Error(`No open request for ${event.type}`)
    subscriber.next(event)
    // The server closes the response after the run's last event.
    if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') subscriber.complete()
  }
}

/** A run that only starts and finishes, with the ids of the input it answers. */
export const finishing = (input: RunAgentInput, outcome?: unknown): BaseEvent[] => [
  { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId } as BaseEvent,
  { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId, ...(outcome === undefined ? {} : { outcome }) } as BaseEvent,
]

/** A small seeded generator (mulberry32): the fake storages' delays and failures repeat run to run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** A synchronous Web-Storage-shaped Map that records every call. */
export class MapStorage {
  readonly items = new Map<string, string>()
  readonly writes: { key: string; value: string; at: number }[] = []
  reads = 0
  /** While set, setItem throws it (a full quota). */
  failWith: unknown

  getItem(key: string): string | null {
    this.reads++
    return this.items.get(key) ?? null
  }

  setItem(key: string, value: string): void {
    if (this.failWith !== undefined) throw this.failWith
    this.writes.push({ key, value, at: performance.now() })
    this.items.set(key, value)
  }

  removeItem(key: string): void {
    this.items.delete(key)
  }
}

/** What a full localStorage throws: a DOMException named QuotaExceededError (Node has DOMException too). */
export const quotaError = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError')

export interface AsyncStorageOptions {
  random: () => number
  /** Each call takes between 0 and this many milliseconds. */
  maxDelayMs: number
  /** The chance that a setItem fails (after its delay). */
  failRate?: number
}

/**
 * An async storage with random, bounded delays and failures. Every setItem is recorded when it
 * starts and when it lands; a value lands only if no value started later has landed already, so
 * an out-of-order pair of writes shows in `landed`.
 */
export class AsyncStorage {
  readonly items = new Map<string, string>()
  readonly started: string[] = []
  readonly landed: string[] = []
  readonly failed: string[] = []
  inFlight = 0
  maxInFlight = 0
  /** The chance that a setItem fails; set to 0 when the storage recovers. */
  failRate: number
  private readonly options: AsyncStorageOptions

  constructor(options: AsyncStorageOptions) {
    this.options = options
    this.failRate = options.failRate ?? 0
  }

  private delay(): Promise<void> {
    const ms = Math.floor(this.options.random() * (this.options.maxDelayMs + 1))
    return new Promise((resolve) => setTimeout(resolve, ms))
  }

  async getItem(key: string): Promise<string | null> {
    await this.delay()
    return this.items.get(key) ?? null
  }

  async setItem(key: string, value: string): Promise<void> {
    this.started.push(value)
    this.inFlight++
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    const fails = this.options.random() < this.failRate
    try {
      await this.delay()
      if (fails) {
        this.failed.push(value)
        throw new Error('storage unavailable')
      }
      this.landed.push(value)
      this.items.set(key, value)
    } finally {
      this.inFlight--
    }
  }

  async removeItem(key: string): Promise<void> {
    await this.delay()
    this.items.delete(key)
  }
}

/** Waits until `done()` holds, checking every few milliseconds; fails after `timeoutMs`, never hangs. */
export async function until(done: () => boolean, timeoutMs = 2_000, what = 'the condition'): Promise<void> {
  const start = performance.now()
  while (!done()) {
    if (performance.now() - start > timeoutMs) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Deep equality as strict as `toStrictEqual` for the store's data (the same prototypes, the same
 * keys, `undefined`-valued keys included; errors by name, message, cause and own fields), and
 * much cheaper: the property tests compare hundreds of thousands of snapshots.
 */
export function strictlyEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  if (Array.isArray(a)) {
    const other = b as unknown[]
    if (a.length !== other.length) return false
    for (let i = 0; i < a.length; i++) {
      if (!(i in a) || !(i in other) || !strictlyEqual(a[i], other[i])) return false
    }
    return true
  }
  if (a instanceof Error) {
    const other = b as Error
    if (a.name !== other.name || a.message !== other.message || !strictlyEqual(a.cause, other.cause)) return false
  }
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !strictlyEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false
  }
  return true
}
