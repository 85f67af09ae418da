// Nothing the user did is lost across tabs, reloads, evictions and deletions, nor an answer or an
// edit around a reload: each case a few steps long (the persistence fuzz explores the rest).
// Each test names the promise it holds the store to; a saved thread is read back as a new page would.
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type AgentStore,
  type AgentThreads,
  createAgentStore,
  createAgentThreads,
  type PersistStorage,
  persistThread,
  restoreThread,
  serializeThread,
} from '../../src'
import { MapStorage, SteppedAgent, sleep, throughJson } from './support-threads'

type Doc = Record<string, unknown>
const initialState: Doc = { document: 'first' }
const accepted = { type: 'object', properties: { accepted: { type: 'boolean' } }, required: ['accepted'] }

/** A page: a registry over the storage, one SteppedAgent per thread (kept to stream into). */
function page(storage: PersistStorage, maxThreads = 10) {
  const agents = new Map<string, SteppedAgent>()
  const threads = createAgentThreads<Doc>({
    initialState,
    maxThreads,
    persist: persistThread({ storage }),
    onError: () => {},
    createAgent: (threadId) => {
      const agent = new SteppedAgent({ threadId })
      agents.set(threadId, agent)
      return agent
    },
  })
  return { threads, agents }
}

const listed = (threads: AgentThreads<Doc>) => threads.getState().threads.map((s) => s.id)
const savedList = (storage: MapStorage) => (JSON.parse(storage.items.get('agent-state:threads')!) as { threads: { id: string }[] }).threads.map((s) => s.id)
const savedThread = (storage: MapStorage, id: string) => JSON.parse(storage.items.get(`agent-state:${id}`)!)

const started = (input: RunAgentInput) => ({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }) as BaseEvent
const finished = (input: RunAgentInput, outcome?: unknown) =>
  ({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId, ...(outcome ? { outcome } : {}) }) as BaseEvent

/** A run that drafts `document` and ends asking through the given interrupts. */
function interruptedRun(input: RunAgentInput, interrupts: { id: string; toolCallId: string }[], value = 'draft'): BaseEvent[] {
  return [
    started(input),
    ...interrupts.flatMap(({ toolCallId }) => [
      { type: 'CUSTOM', name: 'PredictState', value: [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }] },
      { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'write_document' },
      { type: 'TOOL_CALL_ARGS', toolCallId, delta: JSON.stringify({ document: value }) },
      { type: 'TOOL_CALL_END', toolCallId },
    ]),
    finished(input, { type: 'interrupt', interrupts: interrupts.map((i) => ({ ...i, reason: 'tool_call', responseSchema: accepted })) }),
  ] as BaseEvent[]
}

/** A store on its own agent, run once until it ends asking through `interrupts`. */
async function interruptedStore(interrupts: { id: string; toolCallId: string }[]) {
  const agent = new SteppedAgent({ threadId: 't' })
  const store = createAgentStore<Doc>({ agent, initialState, threadId: 't', onError: () => {} })
  void store.run({ message: 'write' })
  for (const event of interruptedRun(agent.inputs[0]!, interrupts)) agent.push(event)
  expect(store.getState().status).toBe('interrupted')
  return { agent, store }
}

/** What a new page makes of a saved thread. */
const reloaded = (store: AgentStore<Doc>, agent = new SteppedAgent({ threadId: 't' })) => ({
  agent,
  store: createAgentStore<Doc>({ agent, initialState, threadId: 't', restore: restoreThread(throughJson(serializeThread(store))), onError: () => {} }),
})

describe('two tabs on one storage', () => {
  it('a thread created in one tab stays in the saved list when the other tab writes it, and a reload opens it', async () => {
    const storage = new MapStorage()
    const first = page(storage)
    first.threads.open('a').setState({ document: 'from a' })
    const second = page(storage)
    second.threads.open('b').setState({ document: 'from b' })
    await second.threads.flush()
    first.threads.open('a')
    await first.threads.flush()

    expect(savedList(storage).sort()).toEqual(['a', 'b'])
    const again = page(storage)
    expect(listed(again.threads).sort()).toEqual(['a', 'b'])
    expect(again.threads.store('b')?.getState().state).toEqual({ document: 'from b' })
  })

  it('a thread deleted in one tab does not come back through the list the other tab writes', async () => {
    const storage = new MapStorage()
    const first = page(storage)
    first.threads.open('a').setState({ document: 'from a' })
    await first.threads.flush()
    const second = page(storage)
    await first.threads.delete('a')
    second.threads.open('b')
    await second.threads.flush()

    expect(storage.items.has('agent-state:a')).toBe(false)
    expect(savedList(storage)).toEqual(['b'])
    expect(listed(page(storage).threads)).toEqual(['b'])
  })

  it('a thread the other tab opened as its shown one and a run here ended in error: after the other tab writes the list, a reload lists it as it opens', async () => {
    // A fast run: its summaries (opened, running, failed) all fall within one millisecond.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const storage = new MapStorage()
      const first = page(storage)
      const a = first.threads.open('a')
      await first.threads.flush()
      // A new tab opens the thread the stored list says is shown (a), then the user opens another there.
      const second = page(storage)
      expect(second.threads.getState().activeThreadId).toBe('a')
      second.threads.open('b').setState({ document: 'from b' })
      await second.threads.flush()
      void a.run({ message: 'go' })
      const agent = first.agents.get('a')!
      agent.push(started(agent.inputs[0]!))
      agent.push({ type: 'RUN_ERROR', message: 'the model failed' } as BaseEvent)
      await first.threads.flush()
      // The second tab writes the list again, merging what storage holds with what it has of a.
      second.threads.open('c').setState({ document: 'from c' })
      await second.threads.flush()

      const after = page(storage)
      const summary = after.threads.getState().threads.find((s) => s.id === 'a')
      expect(after.threads.store('a')!.getState().status).toBe('error')
      expect({ status: summary?.status, hasConfirmation: summary?.hasConfirmation }).toEqual({ status: 'error', hasConfirmation: false })
      expect(second.threads.getState().threads.find((s) => s.id === 'a')?.status).toBe('error')
    } finally {
      vi.useRealTimers()
    }
  })
})

/** A storage that answers every call a microtask later, as IndexedDB wrappers do. */
class AsyncMapStorage {
  readonly items = new Map<string, string>()
  async getItem(key: string) {
    return this.items.get(key) ?? null
  }
  async setItem(key: string, value: string) {
    this.items.set(key, value)
  }
  async removeItem(key: string) {
    this.items.delete(key)
  }
}

describe('a thread two tabs hold', () => {
  // Date frozen: every summary's stamp ties, as within one millisecond, and the list must still pick the right one.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /** Tab one runs a, streaming; tab two opens on the list tab one wrote: it restores a (its shown thread) idle, then opens b. */
  async function runningInOneShownInTwo(storage: PersistStorage) {
    const first = page(storage)
    await first.threads.whenRestored()
    const a = first.threads.open('a')
    await a.whenRestored()
    void a.run({ message: 'go' })
    const agent = first.agents.get('a')!
    agent.push(started(agent.inputs[0]!))
    await first.threads.flush()
    const second = page(storage)
    await second.threads.whenRestored()
    expect(second.threads.getState().activeThreadId).toBe('a')
    const restored = second.threads.store('a')!
    await restored.whenRestored()
    expect(restored.getState()).toMatchObject({ status: 'idle', messages: [{ role: 'user', content: 'go' }] })
    second.threads.open('b').setState({ document: 'from b' })
    await second.threads.flush()
    return { first, second, a, agent }
  }

  /** The other tab writes the list again; then a new page reads what its list says of a, and what a opens as. */
  async function afterTheOtherTabWritesAndAReload(storage: PersistStorage, second: AgentThreads<Doc>) {
    second.open('c').setState({ document: 'from c' })
    await second.flush()
    const after = page(storage)
    await after.threads.whenRestored()
    const listedAs = after.threads.getState().threads.find((s) => s.id === 'a')?.status
    const opened = after.threads.store('a')!
    await opened.whenRestored()
    return { listedAs, opensAs: opened.getState().status }
  }

  it('the run ends in error in the tab that runs it: after the other tab, which restored it, writes the list, a reload lists it as error', async () => {
    const storage = new MapStorage()
    const { first, second, agent } = await runningInOneShownInTwo(storage)
    agent.push({ type: 'RUN_ERROR', message: 'the model failed' } as BaseEvent)
    await first.threads.flush()

    expect(await afterTheOtherTabWritesAndAReload(storage, second.threads)).toEqual({ listedAs: 'error', opensAs: 'error' })
  })

  it("over an async storage: the other tab's restore, arriving late, is no change of the thread (an answer not received yet shows its confirmation there)", async () => {
    const storage = new AsyncMapStorage()
    const first = page(storage)
    await first.threads.whenRestored()
    const a = first.threads.open('a')
    await a.whenRestored()
    void a.run({ message: 'go' })
    const agent = first.agents.get('a')!
    for (const event of interruptedRun(agent.inputs[0]!, [{ id: 'i1', toolCallId: 'tc1' }])) agent.push(event)
    void a.approve({ id: 'i1' })
    await first.threads.flush()
    const second = page(storage)
    await second.threads.whenRestored()
    const restored = second.threads.store('a')!
    await restored.whenRestored()
    expect(restored.getState()).toMatchObject({ status: 'interrupted', confirmations: [{ id: 'i1' }] })
    second.threads.open('b').setState({ document: 'from b' })
    await second.threads.flush()
    agent.push(started(agent.inputs[1]!))
    agent.push({ type: 'RUN_ERROR', message: 'the model failed' } as BaseEvent)
    await first.threads.flush()

    expect(await afterTheOtherTabWritesAndAReload(storage, second.threads)).toEqual({ listedAs: 'error', opensAs: 'error' })
  })

  it('the tab running it lists it as running while it runs, though the other tab ran it too since and listed its own end', async () => {
    const storage = new MapStorage()
    const { first, second, a } = await runningInOneShownInTwo(storage)
    const there = second.threads.store('a')!
    void there.run({ message: 'here too' })
    const agent = second.agents.get('a')!
    agent.push(started(agent.inputs[0]!))
    agent.push({ type: 'RUN_ERROR', message: 'the model failed' } as BaseEvent)
    await second.threads.flush()
    expect(second.threads.getState().threads.find((s) => s.id === 'a')?.status).toBe('error')
    // The first tab writes the list again, merging what the second wrote.
    first.threads.open('c')
    await first.threads.flush()

    expect(a.getState().status).toBe('running')
    expect(first.threads.getState().threads.find((s) => s.id === 'a')?.status).toBe('running')
  })
})

describe('the thread list after a reload', () => {
  it('a background thread that was streaming when the page closed is listed as what it opens as: idle, not running', async () => {
    const storage = new MapStorage()
    const before = page(storage)
    const store = before.threads.open('a')
    void store.run({ message: 'go' })
    before.agents.get('a')!.push(started(before.agents.get('a')!.inputs[0]!))
    // The user moves to another thread; a streams in the background.
    before.threads.open('b')
    await before.threads.flush()
    expect(before.threads.getState().threads.find((s) => s.id === 'a')?.status).toBe('running')

    const after = page(storage)
    const summary = after.threads.getState().threads.find((s) => s.id === 'a')
    const opened = after.threads.store('a')!.getState()
    expect(opened.status).toBe('idle')
    expect({ status: summary?.status, hasConfirmation: summary?.hasConfirmation }).toEqual({ status: 'idle', hasConfirmation: false })
  })
})

describe('a thread brought back from storage', () => {
  it('the store that store(id) returns is kept while the app uses it: an edit made on it is saved, though the other live threads are running or shown', async () => {
    const storage = new MapStorage()
    const app = page(storage, 2)
    app.threads.open('a').setState({ document: 'a1' })
    void app.threads.open('b').run({ message: 'busy' })
    app.threads.open('c')
    await app.threads.flush()
    // a was dropped from memory (idle, least recently used); b runs and c is shown.
    const again = app.threads.store('a')!
    expect(again.getState().state).toEqual({ document: 'a1' })
    // The user edits a moment later.
    await app.threads.flush()
    again.setState({ document: 'a2' })
    await app.threads.flush()

    expect(savedThread(storage, 'a')).toBeDefined()
    expect(page(storage).threads.store('a')!.getState().state).toEqual({ document: 'a2' })
  })

  it('a thread dropped from memory while the storage was full is saved once the storage recovers and flush() is called', async () => {
    const storage = new MapStorage()
    const app = page(storage, 1)
    app.threads.open('a').setState({ document: 'a1' })
    await app.threads.flush()
    storage.failWith = new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    app.threads.store('a')!.setState({ document: 'a2' })
    app.threads.open('b')
    await app.threads.flush()
    storage.failWith = undefined
    await app.threads.flush()

    expect(page(storage).threads.store('a')!.getState().state).toEqual({ document: 'a2' })
  })
})

/** An async storage whose writes of one thread's key take `slowMs`, everything else at once. */
class OneSlowKey {
  readonly items = new Map<string, string>()
  started = 0
  constructor(
    private readonly slowKey: string,
    private readonly slowMs: number,
  ) {}
  async getItem(key: string) {
    return this.items.get(key) ?? null
  }
  async setItem(key: string, value: string) {
    if (key === this.slowKey) {
      this.started++
      await sleep(this.slowMs)
    }
    this.items.set(key, value)
  }
  async removeItem(key: string) {
    this.items.delete(key)
  }
}

describe('an async storage that takes its time', () => {
  it('threads.flush() resolves only once a thread just dropped from memory has been written', async () => {
    const storage = new OneSlowKey('agent-state:a', 30)
    const app = page(storage, 1)
    await app.threads.whenRestored()
    const a = app.threads.open('a')
    await a.whenRestored()
    a.setState({ document: 'a1' })
    // a is dropped (least recently used, idle) as b opens; the app flushes on pagehide right away.
    app.threads.open('b')
    await app.threads.flush()
    expect(JSON.parse(storage.items.get('agent-state:a') ?? 'null')).not.toBeNull()
    const saved = createAgentStore<Doc>({ initialState, threadId: 'a', restore: restoreThread(JSON.parse(storage.items.get('agent-state:a')!)) })
    expect(saved.getState().state).toEqual({ document: 'a1' })
  })

  it("delete(id) while that thread's save is in flight: the thread is not in storage afterwards", async () => {
    const storage = new OneSlowKey('agent-state:a', 30)
    const app = page(storage)
    await app.threads.whenRestored()
    const a = app.threads.open('a')
    await a.whenRestored()
    a.setState({ document: 'a1' })
    await sleep(1)
    expect(storage.started).toBe(1)
    await app.threads.delete('a')
    await sleep(60)
    expect(storage.items.has('agent-state:a')).toBe(false)
  })
})

describe('answers and edits across a reload', () => {
  it("an edit made while an answer waits for the resumed run's first event survives a reload", async () => {
    const { store } = await interruptedStore([{ id: 'i1', toolCallId: 'tc1' }])
    void store.approve({ id: 'i1' })
    store.setState((previous) => ({ ...previous, note: 'mine' }))
    expect(store.getState().state.note).toBe('mine')

    const { store: after, agent } = reloaded(store)
    expect(after.getState().status).toBe('interrupted')
    expect(after.getState().state.note).toBe('mine')
    void after.approve({ id: 'i1' })
    expect(agent.inputs[0]?.state).toMatchObject({ note: 'mine' })
  })

  it('a new run asking with an interrupt id answered before shows it as a confirmation and commits nothing unapproved', async () => {
    const { agent, store } = await interruptedStore([{ id: 'i1', toolCallId: 'tc1' }])
    void store.approve({ id: 'i1' })
    agent.push(started(agent.inputs[1]!))
    agent.push(finished(agent.inputs[1]!))
    expect(store.getState().status).toBe('idle')
    void store.run({ message: 'again' })
    for (const event of interruptedRun(agent.inputs[2]!, [{ id: 'i1', toolCallId: 'tc2' }], 'second draft')) agent.push(event)

    expect(store.getState().status).toBe('interrupted')
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['i1'])
    // Shown as a draft, committed only once approved: the first run's approved value stays committed.
    expect(store.getState().state.document).toBe('second draft')
    expect(store.getState().committed.document).toBe('draft')
  })
})

describe("LangGraph's opening STATE_SNAPSHOT({})", () => {
  it("an edit made before it stays shown and wins on its key when the first node's snapshot echoes the old state", () => {
    const agent = new SteppedAgent({ threadId: 't' })
    const errors: string[] = []
    const store = createAgentStore<Doc>({ agent, initialState, threadId: 't', onError: (e) => errors.push(e.code) })
    void store.run({ message: 'go' })
    const input = agent.inputs[0]!
    agent.push(started(input))
    store.setState((previous) => ({ ...previous, note: 'mine' }))
    agent.push({ type: 'STATE_SNAPSHOT', snapshot: {} } as BaseEvent)
    expect(store.getState().state).toEqual({ document: 'first', note: 'mine' })
    agent.push({ type: 'STATE_SNAPSHOT', snapshot: { ...input.state, server: 1 } } as BaseEvent)
    agent.push(finished(input))
    expect(store.getState().state).toEqual({ document: 'first', server: 1, note: 'mine' })
    expect(errors).toEqual([])
  })
})

/** LangGraph's `forwardedProps.command.resume` of a request, as JSON text. */
const resumeSent = (input: RunAgentInput | undefined) =>
  JSON.stringify((input?.forwardedProps as { command?: { resume?: unknown } } | undefined)?.command?.resume)

describe("LangGraph's on_interrupt", () => {
  /** A run that drafts two keys and asks twice through on_interrupt, then a plain RUN_FINISHED. */
  async function askedTwice() {
    const agent = new SteppedAgent({ threadId: 't' })
    const store = createAgentStore<Doc>({ agent, initialState, threadId: 't', onError: () => {} })
    void store.run({ message: 'write' })
    const input = agent.inputs[0]!
    agent.push(started(input))
    for (const toolCallId of ['tc1', 'tc2'])
      agent.push({ type: 'CUSTOM', name: 'on_interrupt', value: JSON.stringify({ toolCallId, message: `${toolCallId}?` }) } as BaseEvent)
    agent.push(finished(input))
    expect(store.getState().confirmations).toHaveLength(2)
    return { agent, store }
  }

  it('two confirmations answered: the resumed run carries both answers in forwardedProps.command.resume', async () => {
    const { agent, store } = await askedTwice()
    const [first, second] = store.getState().confirmations
    void store.respond({ id: first!.id, payload: 'answer one' })
    void store.respond({ id: second!.id, payload: 'answer two' })
    const resume = resumeSent(agent.inputs[1])
    expect(resume).toContain('answer one')
    expect(resume).toContain('answer two')
  })

  it('one of two answered, then a reload: answering the other sends both', async () => {
    const { store } = await askedTwice()
    const [first, second] = store.getState().confirmations
    void store.respond({ id: first!.id, payload: 'answer one' })
    const { agent, store: after } = reloaded(store)
    for (const { id } of after.getState().confirmations) void after.respond({ id, payload: id === second!.id ? 'answer two' : 'answer one again' })
    const resume = resumeSent(agent.inputs[0])
    expect(resume).toContain('answer one')
    expect(resume).toContain('answer two')
  })
})
