// The persistence fuzz's commands and the checks made after each of them. The test drives only the
// public API (createAgentThreads, the stores it returns) against the in-process server of
// persistence-world.ts; what the fuzz remembers of the user's actions is the reference.
import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import fc from 'fast-check'
import { Observable } from 'rxjs'
import {
  type AgentSnapshot,
  type AgentStore,
  type AgentStoreError,
  type AgentThreads,
  canAnswer,
  canRun,
  createAgentStore,
  createAgentThreads,
  persistThread,
  restoreThread,
  serializeThread,
} from '../../src'
import { strictlyEqual } from '../threads/support-threads'
import { type ScriptKind, type Server, Server as ServerClass, type ServerRequest, SharedStorage, type StorageKind, scriptKinds } from './persistence-world'

export type Doc = Record<string, unknown>
export const initialState: Doc = { document: 'first', title: 'untitled' }
const PREFIX = 'agent-state'
const MAX_THREADS = 2

/** A broken promise of the README, found after a step. */
export class Violation extends Error {
  constructor(
    readonly rule: string,
    detail: string,
  ) {
    super(`[${rule}] ${detail}`)
  }
}

/**
 * Rules to look past while their fix is pending, to see what else breaks: `FUZZ_IGNORE=rule,rule`
 * (never set by an npm script). Each ignored violation is still counted in `ignored`.
 */
const IGNORE = new Set((process.env.FUZZ_IGNORE ?? '').split(',').filter(Boolean))
export const ignored = new Map<string, number>()

function violate(rule: string, detail: string): void {
  if (IGNORE.has(rule)) {
    ignored.set(rule, (ignored.get(rule) ?? 0) + 1)
    return
  }
  throw new Violation(rule, detail)
}

interface Answer {
  readonly confirmationId: string
  readonly source: string
  readonly toolCallId: string | undefined
  readonly kind: AnswerKind
  readonly marker: string
  /** A request carrying it got its first event: the server has it. */
  delivered: boolean
  refused: boolean
  /** Answered again after it was given back: the later answer stands for it. */
  superseded: boolean
}

interface Thread {
  readonly id: string
  /** The tab that may act on it (0: the page under test; 1: the second tab). */
  tab: 0 | 1
  /** The user's last value of `note`, the key only the user writes. */
  note: string | undefined
  deleted: boolean
  readonly answers: Answer[]
}

interface Handle {
  readonly store: AgentStore<Doc>
  /** The last snapshot this handle's listener saw, once the store had read its saved thread. */
  seen: AgentSnapshot<Doc>
}

interface Tab {
  readonly serverTab: number
  readonly registry: AgentThreads<Doc>
  readonly view: ReturnType<SharedStorage['view']>
  readonly handles: Map<string, Handle>
  readonly errors: AgentStoreError[]
  /** Its last flush met a full storage: what it holds may not be in storage yet (it is, once it flushes again). */
  flushedFull: boolean
}

/** Everything one fuzz case runs against. */
export class World {
  readonly storage: SharedStorage
  readonly server: Server = new ServerClass()
  readonly threads = new Map<string, Thread>()
  tabs: [Tab, Tab | undefined]
  private tabCount = 0
  private count = 0
  /** Interrupts a server just finished a run with, by thread: the store must be showing them. */
  private asked = new Map<string, string[]>()
  readonly refusals: string[] = []

  constructor(kind: StorageKind, seed: number) {
    this.storage = new SharedStorage(kind, seed)
    this.tabs = [this.newTab(), undefined]
  }

  next(): number {
    return ++this.count
  }

  private newTab(): Tab {
    const serverTab = this.tabCount++
    const view = this.storage.view()
    const errors: AgentStoreError[] = []
    const registry = createAgentThreads<Doc>({
      initialState,
      maxThreads: MAX_THREADS,
      persist: persistThread({ storage: view }),
      onError: (error) => errors.push(error),
      createAgent: (threadId) => this.server.agentFor(serverTab, threadId),
    })
    return { serverTab, registry, view, handles: new Map(), errors, flushedFull: false }
  }

  get page(): Tab {
    return this.tabs[0]
  }

  /** Threads the page under test may act on. */
  own(): Thread[] {
    return [...this.threads.values()].filter((t) => !t.deleted && t.tab === 0)
  }

  pick(index: number): Thread | undefined {
    const own = this.own()
    return own.length === 0 ? undefined : own[index % own.length]
  }

  /** The thread's store in a tab, as the app gets it (restored if it was dropped); tracked with a listener. */
  async storeOf(tab: Tab, id: string, open = false): Promise<AgentStore<Doc> | undefined> {
    const store = open ? tab.registry.open(id) : tab.registry.store(id)
    if (!store) return undefined
    const known = tab.handles.get(id)
    if (known?.store === store) return store
    const handle: Handle = { store, seen: store.getState() }
    store.subscribe((snapshot) => {
      handle.seen = snapshot
    })
    tab.handles.set(id, handle)
    await store.whenRestored()
    handle.seen = store.getState()
    // "What is not [restored]: a request."
    if (store.getState().status === 'running' && !this.server.openRequest(tab.serverTab, id))
      violate('restored-running', `thread ${id} came back from storage running, with no request`)
    return store
  }

  newThread(tab: 0 | 1): Thread {
    const thread: Thread = { id: `thread-${this.next()}`, tab, note: undefined, deleted: false, answers: [] }
    this.threads.set(thread.id, thread)
    return thread
  }

  edit(store: AgentStore<Doc>, thread: Thread): void {
    const note = `note-${this.next()}`
    thread.note = note
    store.setState((previous) => ({ ...previous, note }))
  }

  /** Records a refusal the store's selectors said it would not make. */
  watch(what: string, promise: Promise<void>, allowed: boolean, thread: Thread, answer?: Answer): void {
    void promise.catch((error: AgentStoreError) => {
      if (answer) answer.refused = true
      if (allowed) this.refusals.push(`${what} on ${thread.id} refused with ${error.code} while the selectors allowed it`)
    })
  }

  answer(store: AgentStore<Doc>, thread: Thread, pick: number, kind: AnswerKind): void {
    const { confirmations } = store.getState()
    const confirmation = confirmations[pick % Math.max(1, confirmations.length)]
    if (!confirmation) return
    const marker = `answer-${this.next()}`
    for (const earlier of thread.answers) if (earlier.confirmationId === confirmation.id) earlier.superseded = true
    const answer: Answer = {
      confirmationId: confirmation.id,
      source: confirmation.source,
      toolCallId: confirmation.toolCallId,
      kind,
      marker,
      delivered: false,
      refused: false,
      superseded: false,
    }
    thread.answers.push(answer)
    const allowed = canAnswer(store.getState())
    const id = confirmation.id
    const promise =
      kind === 'approve'
        ? store.approve({ id })
        : kind === 'reject'
          ? store.reject({ id, reason: 'no' })
          : kind === 'cancel'
            ? store.cancel({ id })
            : store.respond({ id, payload: { accepted: true, marker } })
    this.watch(kind, promise, allowed, thread, answer)
  }

  /** Streams events into the thread's open request; the answers it carried are delivered at its first event. */
  push(thread: Thread, count: number): void {
    const request = this.server.openRequest(this.page.serverTab, thread.id)
    if (!request) return
    if (request.sent === 0) for (const answer of thread.answers) if (!answer.refused && carries(request.input, answer)) answer.delivered = true
    const pushed = this.server.push(request, count)
    const end = pushed.at(-1) as { type: string; outcome?: { interrupts?: { id: string }[] } } | undefined
    if (end?.type === 'RUN_FINISHED' && end.outcome?.interrupts)
      this.asked.set(
        thread.id,
        end.outcome.interrupts.map((i) => i.id),
      )
  }

  fail(thread: Thread, how: 'http' | 'network' | 'drop'): void {
    const request = this.server.openRequest(this.page.serverTab, thread.id)
    if (!request) return
    this.server.fail(request, how === 'http' && request.sent > 0 ? 'network' : how)
  }

  /** A reload: the app flushes on `pagehide`, the page goes, a new one reads what storage holds. */
  async reload(): Promise<void> {
    const old = this.page
    // A full storage loses what it could not take, as documented (PERSIST): the quota is freed before the page goes.
    this.storage.full = false
    await old.registry.flush()
    await this.storage.settle()
    old.view.close()
    this.server.closeTab(old.serverTab)
    this.tabs[0] = this.newTab()
    await this.page.registry.whenRestored()
    for (const thread of this.threads.values()) if (thread.tab === 0 || !this.tabs[1]) thread.tab = 0
    const listed = new Set(this.page.registry.getState().threads.map((s) => s.id))
    // "A thread survives a reload, a new tab, …": every thread of either tab is listed after a reload.
    // A thread of the second tab, still open, is in storage once that tab has flushed since the quota was freed.
    const unsaved = (thread: Thread) => thread.tab === 1 && this.tabs[1]?.flushedFull === true
    for (const thread of this.threads.values())
      if (!thread.deleted && !unsaved(thread) && !listed.has(thread.id)) violate('list-lost-thread', `after a reload the list lacks ${thread.id}`)
  }

  async secondTab(): Promise<void> {
    this.tabs[1] ??= this.newTab()
    const tab = this.tabs[1]
    const thread = this.newThread(1)
    const store = (await this.storeOf(tab, thread.id, true))!
    this.edit(store, thread)
    await this.flush(tab)
  }

  private async flush(tab: Tab): Promise<void> {
    const full = this.storage.full
    await tab.registry.flush()
    tab.flushedFull = full
  }

  async closeSecondTab(): Promise<void> {
    const tab = this.tabs[1]
    if (!tab) return
    this.storage.full = false
    await tab.registry.flush()
    await this.storage.settle()
    tab.view.close()
    this.server.closeTab(tab.serverTab)
    this.tabs[1] = undefined
  }

  async remove(thread: Thread): Promise<void> {
    await this.page.registry.delete(thread.id)
    thread.deleted = true
    this.page.handles.delete(thread.id)
  }

  /** Every summary of the list against the thread it names, as the user opening each would see it. */
  async checkList(): Promise<void> {
    const summaries = this.page.registry.getState().threads
    for (const summary of summaries) {
      const thread = this.threads.get(summary.id)
      if (thread?.tab !== 0) continue
      const store = await this.storeOf(this.page, summary.id)
      if (!store) {
        violate('list-matches-threads', `the list names ${summary.id} but store() refuses it`)
        continue
      }
      const state = store.getState()
      const hasConfirmation = state.confirmations.length > 0
      // "the list changes when a status, a message count or a confirmation does"
      if (summary.status !== state.status || summary.hasConfirmation !== hasConfirmation)
        violate(
          'list-matches-threads',
          `${summary.id} listed as ${summary.status}${summary.hasConfirmation ? ' with a confirmation' : ''}, opens as ${state.status}${hasConfirmation ? ' with a confirmation' : ''}`,
        )
    }
  }

  /** The checks made after every step. */
  async check(): Promise<void> {
    // No waiting on the storage beyond flush(): "Writes every pending change to storage" is the promise.
    for (const tab of this.tabs) if (tab) await this.flush(tab)
    // core README: "`canRun(snapshot)` and `canAnswer(snapshot)` say in advance whether `run()` or an answer would be accepted"
    if (this.refusals.length > 0) violate('selectors-agree', this.refusals.join('; '))
    this.checkAsked()
    for (const tab of this.tabs) if (tab) this.checkTab(tab)
    if (!this.storage.full) this.checkIndex()
  }

  private checkAsked() {
    for (const [id, ids] of this.asked) {
      const store = this.page.handles.get(id)?.store
      const open = new Set(store?.getState().confirmations.map((c) => c.id))
      // "Otherwise the snapshot lists a confirmation … and status is 'interrupted'" (answered ids stay closed for "a replay or a restore", not for a new run).
      if (store && (store.getState().status !== 'interrupted' || !ids.every((i) => open.has(i))))
        violate('interrupt-shown', `${id}: the run ended asking ${ids.join(', ')}, the store shows ${store.getState().status} with [${[...open].join(', ')}]`)
    }
    this.asked.clear()
  }

  private checkTab(tab: Tab) {
    const { registry } = tab
    const listed = registry.getState()
    const active = listed.activeThreadId
    // "its snapshot is the active thread's, with `threads`"; "the list changes when a status, a message count or a confirmation does"
    if (active !== undefined) {
      const summary = listed.threads.find((s) => s.id === active)
      if (summary && (summary.status !== listed.status || summary.hasConfirmation !== listed.confirmations.length > 0))
        violate('list-matches-threads', `the active thread ${active} is listed as ${summary.status}, shows ${listed.status}`)
    }
    for (const [id, handle] of tab.handles) {
      const thread = this.threads.get(id)!
      if (thread.deleted) continue
      this.checkHandle(tab, thread, handle)
    }
  }

  private checkHandle(tab: Tab, thread: Thread, handle: Handle) {
    const { store } = handle
    const now = store.getState()
    // "every listener sees snapshots in order and ends on the latest"
    if (handle.seen !== now) violate('listener-latest', `${thread.id}: the listener's last snapshot is not the store's`)
    // "A run that fails (RUN_ERROR, HTTP error, dropped or truncated stream, …) ends with `status: 'error'`": once its request is gone, no run is left running.
    if (now.status === 'running' && !this.server.openRequest(tab.serverTab, thread.id))
      violate('running-without-request', `${thread.id} is running with no request in flight`)
    // core README: "`setState` … (a local edit; during a run it is replayed over everything the server sends and never lost)"
    if (thread.note !== undefined && now.state.note !== thread.note)
      violate('edit-lost', `${thread.id}: the user set note ${thread.note}, the store shows ${String(now.state.note)}`)
    if (this.storage.full) return
    const text = this.storage.items.get(`${PREFIX}:${thread.id}`)
    // A thread never changed is not written: a reload gives it back blank, which the check below compares.
    const saved = text === undefined ? undefined : (JSON.parse(text) as { model: unknown })
    this.checkRestore(thread, handle, saved, store)
  }

  /** A new page's store, made from what storage holds, against what the user saw and did. */
  private checkRestore(thread: Thread, handle: Handle, saved: unknown, store: AgentStore<Doc>) {
    const errors: AgentStoreError[] = []
    const restored = createAgentStore<Doc>({
      initialState,
      threadId: thread.id,
      ...(saved ? { restore: restoreThread(saved as never) } : {}),
      onError: (e) => errors.push(e),
    })
    const back = restored.getState()
    // "Writes are ordered and coalesced …", "the least recently used idle ones are saved and dropped", and
    // `threads.flush()` "Writes every pending change to storage" (its doc): storage gives back what the store would save now.
    const latest = createAgentStore<Doc>({ initialState, threadId: thread.id, restore: restoreThread(serializeThread(store)) }).getState()
    if (!strictlyEqual(comparable(back), comparable(latest)))
      violate('saved-latest', `${thread.id}: after flush() storage restores to ${describe(comparable(back))}, the store to ${describe(comparable(latest))}`)
    // `serializeThread()`: "the thread as plain JSON, for `restore`"; only "a damaged one or of another version is refused"
    if (errors.length > 0) violate('restore-accepted', `${thread.id}: its own saved thread is refused: ${errors.map((e) => e.message).join('; ')}`)
    // "What is not [restored]: a request. A thread saved while a run streamed comes back as abort() would leave it"
    if (back.status === 'running') violate('restored-running', `${thread.id} restores as running, with no request`)
    // "What is restored: … the user's edits not yet sent"
    if (thread.note !== undefined && back.state.note !== thread.note)
      violate('edit-lost', `${thread.id}: the user set note ${thread.note}, a reload shows ${String(back.state.note)}`)
    const pending = thread.answers.filter((a) => !a.delivered && !a.refused && !a.superseded)
    // "An answer saved before the server received it comes back as its confirmation, open again"; one
    // given while another confirmation stays open may also come back still given: then answering
    // the rest must send it.
    const open = new Set(back.confirmations.map((c) => c.id))
    const kept = pending.filter((a) => !open.has(a.confirmationId))
    if (kept.length > 0) {
      const body = answeringTheRest(thread.id, saved)
      for (const answer of kept)
        if (!body || !carries(body, answer))
          violate(
            answer.source === 'on_interrupt' ? 'answer-lost-on-interrupt' : 'answer-lost',
            `${thread.id}: ${answer.kind} of ${answer.confirmationId} never reached the server; a reload neither reopens it nor sends it with the other answers (${back.status}, open: [${[...open].join(', ')}])`,
          )
    }
    // "What is restored: the messages, the committed state, drafts …, open confirmations, … and the status"
    const seen = handle.seen
    const givenBack = pending.length > kept.length
    if (seen.status !== 'running' && !givenBack && !strictlyEqual(comparable(back), comparable(seen)))
      violate('restores-to-seen', `${thread.id}: a reload shows ${describe(comparable(back))}, the listener last saw ${describe(comparable(seen))}`)
  }

  /** The saved list names every thread of every tab, and no deleted one; nothing deleted stays in storage. */
  private checkIndex() {
    const text = this.storage.items.get(`${PREFIX}:threads`)
    const ids = new Set<string>(text ? (JSON.parse(text) as { threads: { id: string }[] }).threads.map((s) => s.id) : [])
    for (const thread of this.threads.values()) {
      if (thread.deleted) {
        // "`delete(id)` stops its run and removes it from storage."
        if (this.storage.items.has(`${PREFIX}:${thread.id}`)) violate('deleted-stays', `${thread.id} was deleted and is still in storage`)
        if (ids.has(thread.id)) violate('deleted-stays-listed', `${thread.id} was deleted and is still in the saved list`)
        continue
      }
      // "A thread survives … a new tab": no tab's list drops another tab's thread.
      if (!ids.has(thread.id)) violate('list-lost-thread', `the saved list lacks ${thread.id} (tab ${thread.tab})`)
    }
  }
}

/** A page that reloads the thread and cancels every confirmation still open: the body it sends, if any. */
function answeringTheRest(threadId: string, saved: unknown): RunAgentInput | undefined {
  if (!saved) return undefined
  const agent = new RecordingAgent({ threadId })
  const store = createAgentStore<Doc>({ initialState, threadId, agent, restore: restoreThread(saved as never) })
  for (const { id } of store.getState().confirmations) void store.cancel({ id }).catch(() => {})
  store.abort()
  return agent.inputs[0]
}

/** An agent that records the body of each request and never answers. */
class RecordingAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    return new Observable<BaseEvent>(() => {})
  }
}

export type AnswerKind = 'approve' | 'reject' | 'cancel' | 'respond'

/** Whether a request body carries an answer, in the shape its confirmation is answered with. */
function carries(input: RunAgentInput, answer: Answer): boolean {
  if (answer.source === 'interrupt')
    return (input as { resume?: { interruptId: string }[] }).resume?.some((r) => r.interruptId === answer.confirmationId) ?? false
  if (answer.source === 'tool') return input.messages.some((m) => m.role === 'tool' && m.toolCallId === answer.confirmationId)
  const resume = (input.forwardedProps as { command?: { resume?: unknown } } | undefined)?.command?.resume
  if (resume === undefined) return false
  return answer.kind === 'respond' ? JSON.stringify(resume).includes(answer.marker) : true
}

/** A snapshot as a reload can give it back: errors by code and message (their causes are not JSON). */
function comparable(snapshot: AgentSnapshot<Doc>): unknown {
  const { error, ...rest } = snapshot
  return { ...rest, error: error ? { code: error.code, message: error.message } : undefined }
}

const describe = (value: unknown) => {
  const { status, state, confirmations, messages, predictions } = value as AgentSnapshot<Doc>
  return JSON.stringify({ status, state, confirmations: confirmations.map((c) => c.id), messages: messages.length, predictions: predictions.length })
}

// The commands. Each names what the user, the server or the browser does; `toString` is what a
// shrunk counterexample prints.

type Act = (world: World) => Promise<void>

class Step implements fc.AsyncCommand<object, World> {
  constructor(
    private readonly name: string,
    private readonly act: Act,
  ) {}
  check = () => true
  async run(_model: object, world: World) {
    await this.act(world)
    await world.check()
  }
  toString = () => this.name
}

const onThread = (name: string, index: number, act: (world: World, store: AgentStore<Doc>, thread: Thread) => void | Promise<void>) =>
  new Step(`${name} #${index}`, async (world) => {
    const found = world.pick(index)
    const thread = found ?? world.newThread(0)
    const store = await world.storeOf(world.page, thread.id, !found)
    if (store) await act(world, store, thread)
  })

const thread = fc.nat({ max: 3 })
const script = fc.constantFrom(...scriptKinds)

const weighted = <T>(arbitrary: fc.Arbitrary<T>, weight: number) => Array.from({ length: weight }, () => arbitrary)

export const commands = (kind: StorageKind) =>
  [
    // Opened and flushed at once (an app flushing on pagehide): a thread this drops from memory must be written by then.
    thread.map(
      (i) =>
        new Step(`open #${i}, edit, open a new thread and flush at once`, async (world) => {
          const t = world.pick(i)
          const store = t && (await world.storeOf(world.page, t.id, true))
          if (t && store) world.edit(store, t)
          world.page.registry.open(world.newThread(0).id)
        }),
    ),
    fc.constant(new Step('open a new thread', async (world) => void (await world.storeOf(world.page, world.newThread(0).id, true)))),
    thread.map(
      (i) =>
        new Step(`open #${i}`, async (world) => {
          const t = world.pick(i)
          if (t) await world.storeOf(world.page, t.id, true)
        }),
    ),
    ...weighted(
      fc.tuple(thread, script).map(([i, s]) =>
        onThread(`run ${s}`, i, (world, store, t) => {
          world.server.nextScript.set(t.id, s)
          world.watch('run', store.run({ message: `hello ${world.next()}` }), canRun(store.getState()), t)
        }),
      ),
      3,
    ),
    ...weighted(
      fc
        .tuple(thread, fc.nat({ max: 3 }), fc.constantFrom<AnswerKind>('approve', 'reject', 'cancel', 'respond'), script)
        .map(([i, c, k, s]) =>
          onThread(`${k} confirmation ${c} (then ${s})`, i, (world, store, t) => (world.server.nextScript.set(t.id, s), world.answer(store, t, c, k))),
        ),
      6,
    ),
    thread.map((i) => onThread('edit', i, (world, store, t) => world.edit(store, t))),
    thread.map((i) => onThread('abort', i, (_world, store) => store.abort())),
    ...weighted(
      fc.tuple(thread, fc.integer({ min: 1, max: 6 })).map(([i, n]) => onThread(`server sends ${n}`, i, (world, _store, t) => world.push(t, n))),
      3,
    ),
    ...weighted(
      fc.tuple(thread, fc.integer({ min: 1, max: 40 })).map(([i, n]) => onThread(`server sends ${n}`, i, (world, _store, t) => world.push(t, n))),
      3,
    ),
    fc
      .tuple(thread, fc.constantFrom<'http' | 'network' | 'drop'>('http', 'network', 'drop'))
      .map(([i, how]) => onThread(`request fails (${how})`, i, (world, _store, t) => world.fail(t, how))),
    fc.constant(new Step('reload', (world) => world.reload())),
    thread.map(
      (i) =>
        new Step(`delete #${i}`, async (world) => {
          const t = world.pick(i)
          if (t) await world.remove(t)
        }),
    ),
    thread.map(
      (i) =>
        new Step(`edit #${i} and delete it at once`, async (world) => {
          const t = world.pick(i)
          const store = t && (await world.storeOf(world.page, t.id))
          if (!t || !store) return
          world.edit(store, t)
          // The edit's write has started (an async storage still holds it) when the delete comes.
          await Promise.resolve()
          await Promise.resolve()
          await world.remove(t)
        }),
    ),
    fc.constant(new Step('second tab opens a thread', (world) => world.secondTab())),
    fc.constant(new Step('second tab closes', (world) => world.closeSecondTab())),
    fc.constant(new Step('open every listed thread', (world) => world.checkList())),
    ...(kind === 'throwing'
      ? [
          fc.constant(
            new Step('storage full', async (world) => {
              world.storage.full = true
            }),
          ),
          fc.constant(
            new Step('storage freed', async (world) => {
              world.storage.full = false
            }),
          ),
        ]
      : []),
  ] as fc.Arbitrary<fc.AsyncCommand<object, World>>[]

export type { ScriptKind, ServerRequest }
