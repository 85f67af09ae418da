// The conversation-tree fuzz's reference and the checks made after each step. The test drives only
// the public API (run, edit, regenerate, switchBranch, setState, abort, cancel, serializeThread and
// restoreThread, persistThread) against an in-process agent whose runs the test streams event by
// event, so the user can act while one is open; the reference is a tree of messages, the version
// shown below each fork point, and each branch's view as it was last shown.
import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'
import {
  type AgentSnapshot,
  type AgentStore,
  type AgentStoreError,
  type Branching,
  type BranchPosition,
  createAgentStore,
  type PersistStorage,
  persistThread,
  type RunStatus,
  restoreThread,
  serializeThread,
} from '../../src'

export interface Doc {
  /** What the last run answered: the text of the user message it answered. */
  topic: string
  /** How many runs led to this state on its branch. */
  runs: number
  /** The run that wrote the state last. */
  last?: string
  /** The user's own key: no run writes it. */
  note?: string
}

export const initialState: Doc = { topic: '', runs: 0 }

/**
 * How the agent answers a run: one or two text messages then the state; a RUN_ERROR before
 * anything or after a message and the state (which the store rolls back); or a message, the state,
 * and an interrupt that asks the user.
 */
export type Outcome = 'one' | 'two' | 'failEarly' | 'failLate' | 'ask'

/** A broken promise of the branches guide or the spec, found after a step. */
export class Violation extends Error {
  constructor(rule: string, detail: string) {
    super(`[${rule}] ${detail}`)
  }
}

const violate = (rule: string, detail: string): never => {
  throw new Violation(rule, detail)
}

const show = (value: unknown) => JSON.stringify(value)

function same(rule: string, actual: unknown, expected: unknown): void {
  if (show(actual) !== show(expected)) violate(rule, `got ${show(actual)}, expected ${show(expected)}`)
}

/** What the agent writes for a run: derived from the state it was sent, the question and the run. */
const written = (sent: Doc, question: string, runId: string): Doc => ({ ...sent, topic: question, runs: sent.runs + 1, last: runId })

const lastUserText = (input: RunAgentInput) => String(input.messages.findLast((message) => message.role === 'user')?.content ?? '')

function answer(input: RunAgentInput, outcome: Outcome, viaDelta: boolean): BaseEvent[] {
  const { threadId, runId } = input
  const question = lastUserText(input)
  const next = written(input.state as Doc, question, runId)
  const write = viaDelta
    ? { type: 'STATE_DELTA', delta: (['topic', 'runs', 'last'] as const).map((key) => ({ op: 'add', path: `/${key}`, value: next[key] })) }
    : { type: 'STATE_SNAPSHOT', snapshot: next }
  const text = (id: string, content: string) => [
    { type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: content },
    { type: 'TEXT_MESSAGE_END', messageId: id },
  ]
  const started = { type: 'RUN_STARTED', threadId, runId }
  const finished = (outcome?: unknown) => ({ type: 'RUN_FINISHED', threadId, runId, ...(outcome ? { outcome } : {}) })
  const failed = { type: 'RUN_ERROR', message: 'the model failed' }
  const first = text(`a-${runId}`, `About ${question}`)
  const body = {
    one: [...first, write, finished()],
    two: [...first, ...text(`b-${runId}`, `More on ${question}`), write, finished()],
    failEarly: [failed],
    failLate: [...first, write, failed],
    ask: [...first, write, finished({ type: 'interrupt', interrupts: [{ id: `i-${runId}`, reason: 'input_required' }] })],
  }[outcome]
  return [started, ...body] as BaseEvent[]
}

/** The request open on the agent: the test streams its events. */
interface Request {
  readonly events: readonly BaseEvent[]
  sent: number
  subscriber: Subscriber<BaseEvent> | undefined
  closed: boolean
}

/** An agent whose runs wait for the test to stream them. */
class SteppedAgent extends AbstractAgent {
  constructor(private readonly opened: (input: RunAgentInput) => Request) {
    super({})
  }

  run(input: RunAgentInput) {
    const request = this.opened(input)
    return new Observable<BaseEvent>((subscriber) => {
      request.subscriber = subscriber
      return () => {
        request.closed = true
      }
    })
  }
}

/** Streams up to `count` more events; the response closes after the run's last one. */
function stream(request: Request, count: number): void {
  for (let i = 0; i < count && !request.closed && request.sent < request.events.length; i++) {
    const event = request.events[request.sent++]!
    request.subscriber!.next(event)
    if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') {
      request.closed = true
      request.subscriber!.complete()
    }
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * What the user does while a request is open, right after RUN_STARTED (`early`) or just before the
 * run's last event: sets their note, aborts, tries every command a run refuses, or reloads the page
 * (the thread serialized and restored into a fresh store; the old page's request goes with it).
 */
export interface During {
  readonly act: 'note' | 'abort' | 'refuse' | 'reload'
  readonly early: boolean
}

/** One request a command sends: how the agent answers it, and what the user gives and does meanwhile. */
export interface Plan {
  readonly outcome: Outcome
  /** The state written with a STATE_DELTA (else a STATE_SNAPSHOT). */
  readonly viaDelta: boolean
  readonly during?: During | undefined
  /** The `context` the command is given: one entry with this value. */
  readonly context?: string | undefined
}

/** For a command that sends no request (a switch, or a refused command). */
const noRequest: Plan = { outcome: 'one', viaDelta: false }

const contextOf = (value: string | undefined) => (value === undefined ? [] : [{ description: 'turn', value }])

/** The run options a command is given. */
const given = ({ context }: Plan) => (context === undefined ? {} : { context: contextOf(context) })

/** A message of the tree; `parent` is the message before it ('' at the start): its fork point. */
interface Node {
  readonly id: string
  readonly role: 'user' | 'assistant'
  readonly content: string
  readonly parent: string
  /** A user message: the committed state it was sent with, and the run before it on its branch. */
  readonly sent?: { readonly state: Doc; readonly runBefore: string | undefined }
}

/** What a branch shows besides its messages. */
interface View {
  readonly state: Doc
  readonly runId: string | undefined
  readonly status: RunStatus
  readonly asking: boolean
  /** Branching 'new-thread': the server thread the branch is sent on, when not the store's own. */
  readonly thread: string | undefined
  /** The context its last request sent: a fork sends it again unless given another. */
  readonly context: string | undefined
}

/** What a request should carry. */
interface Expected {
  readonly messages: readonly Node[]
  readonly state: Doc
  readonly parentRunId: string | undefined
  readonly thread: string | undefined
  readonly context: string | undefined
}

const project = (messages: readonly Pick<Message, 'id' | 'role' | 'content'>[]) => messages.map(({ id, role, content }) => ({ id, role, content }))

/** The snapshot parts a reload must give back. */
const restorable = ({ threadId, messages, branches, state, committed, status, confirmations, runId }: AgentSnapshot<Doc>) => ({
  threadId,
  messages: project(messages),
  branches,
  state,
  committed,
  status,
  confirmations: confirmations.map((confirmation) => confirmation.id),
  runId,
})

/** One fuzz case: the store under test, its agent, and the reference. */
export class TreeWorld {
  store: AgentStore<Doc>
  /** Every request the agent received, as it received it. */
  readonly inputs: RunAgentInput[] = []
  readonly errors: AgentStoreError[] = []
  /** How the agent answers the next request. */
  private outcome: Outcome = 'one'
  private viaDelta = false
  /** The last request, and what the user did while it was open. */
  private request: Request | undefined
  private noteWhileOpen: string | undefined
  private aborted: 'early' | 'late' | undefined
  private count = 0
  private readonly nodes = new Map<string, Node>()
  /** The versions after each fork point, oldest first. */
  private readonly versions = new Map<string, string[]>()
  /** The version shown after each fork point. */
  private readonly shown = new Map<string, string>()
  private view: View = { state: initialState, runId: undefined, status: 'idle', asking: false, thread: undefined, context: undefined }
  /** Branching 'new-thread': the id each message has on each branch's server thread, where not its own. */
  private readonly wireIds = new Map<string, Map<string, string>>()
  /** The store's thread. */
  private threadId: string
  /** Each branch's view as last shown, by the last message of the branch. */
  private readonly saved = new Map<string, View>()
  /** What storage holds: each page's store saves its thread there, through a view that closes when the page goes. */
  private readonly storage = new Map<string, string>()
  private closePage = () => {}

  constructor(private readonly branching: Exclude<Branching, 'langgraph'>) {
    this.store = this.newStore(undefined)
    this.threadId = this.store.getState().threadId
  }

  /**
   * The store of a new page, saving its thread to storage: blank, restored from the old page's
   * serializeThread, or from what the old page saved (persistThread reads it back).
   */
  private newStore(restore: 'serialized' | 'persisted' | undefined): AgentStore<Doc> {
    const agent = new SteppedAgent((input) => {
      this.inputs.push(structuredClone(input))
      this.request = { events: answer(input, this.outcome, this.viaDelta), sent: 0, subscriber: undefined, closed: false }
      return this.request
    })
    const onError = (error: AgentStoreError) => void this.errors.push(error)
    const saved = restore === 'serialized' ? { restore: restoreThread(JSON.parse(JSON.stringify(serializeThread(this.store)))) } : {}
    // The old page is gone: what it would write now goes nowhere.
    this.closePage()
    let open = true
    this.closePage = () => {
      open = false
    }
    const items = this.storage
    const storage: PersistStorage = {
      getItem: (key) => items.get(key) ?? null,
      setItem: (key, value) => void (open && items.set(key, value)),
      removeItem: (key) => void (open && items.delete(key)),
    }
    const persist = persistThread({ storage, key: 'tree' })
    return createAgentStore<Doc>({ agent, initialState, onError, branching: this.branching, persist, ...saved })
  }

  private next(): number {
    return ++this.count
  }

  /** The current branch, from the first message. */
  path(): Node[] {
    const path: Node[] = []
    for (let id = this.shown.get(''); id !== undefined; id = this.shown.get(id)) path.push(this.nodes.get(id)!)
    return path
  }

  private leaf(): string {
    return this.path().at(-1)?.id ?? ''
  }

  private addVersion(node: Node): void {
    this.nodes.set(node.id, node)
    this.versions.set(node.parent, [...(this.versions.get(node.parent) ?? []), node.id])
    this.shown.set(node.parent, node.id)
  }

  private expectedBranches(): Record<string, BranchPosition> {
    const branches: Record<string, BranchPosition> = {}
    for (const node of this.path()) {
      const versions = this.versions.get(node.parent)!
      if (versions.length > 1) branches[node.id] = { index: versions.indexOf(node.id), count: versions.length }
    }
    return branches
  }

  /** Calls a command whose request goes as `plan` says; returns the request the agent received, or the refusal. */
  private async send(call: () => Promise<void>, { outcome, viaDelta, during }: Plan) {
    this.outcome = outcome
    this.viaDelta = viaDelta
    this.request = undefined
    this.noteWhileOpen = undefined
    this.aborted = undefined
    const before = this.inputs.length
    let settled = false
    const result = call()
      .then(
        () => undefined,
        (error: AgentStoreError) => error,
      )
      .finally(() => {
        settled = true
      })
    // A request is subscribed to within a few ticks; a refused command settles at once.
    const opened = () => this.request as Request | undefined
    for (let i = 0; i < 20 && !settled && !opened()?.subscriber; i++) await tick()
    const request = opened()
    if (request?.subscriber) {
      if (during) {
        stream(request, during.early ? 1 : request.events.length - 1)
        await tick()
        await this.whileOpen(during)
      }
      stream(request, request.events.length)
    } else if (!settled) violate('request', 'the command neither sent a request nor settled')
    const refusal = await result
    const input = this.inputs.length > before ? this.inputs.at(-1) : undefined
    if (this.inputs.length > before + 1) violate('one-request', `one command sent ${this.inputs.length - before} requests`)
    return { refusal, input }
  }

  private async whileOpen({ act, early }: During): Promise<void> {
    if (act === 'note') this.noteWhileOpen = this.newNote()
    else if (act === 'abort') {
      this.store.abort()
      this.aborted = early ? 'early' : 'late'
    } else if (act === 'reload') {
      // "A run that was streaming ends as an abort() would end it."
      const page = this.store
      this.store = this.newStore('serialized')
      await this.store.whenRestored()
      page.abort()
      this.aborted = early ? 'early' : 'late'
    } else await this.refusedWhileOpen()
  }

  /** Every command a run refuses, tried while the request is open: RUN_ACTIVE, and nothing changes or is sent. */
  private async refusedWhileOpen(): Promise<void> {
    const first = this.store.getState().messages[0]?.id ?? 'missing'
    const calls = {
      run: () => this.store.run({ message: 'more' }),
      edit: () => this.store.edit({ messageId: first, content: 'other' }),
      regenerate: () => this.store.regenerate(),
      switchBranch: () => this.store.switchBranch({ messageId: first, index: 0 }),
    }
    for (const [what, call] of Object.entries(calls)) {
      const before = this.store.getState()
      const inputs = this.inputs.length
      const refusal = await call().then(
        () => undefined,
        (error: AgentStoreError) => error,
      )
      same(`${what}-while-running`, refusal?.code, 'RUN_ACTIVE')
      if (this.store.getState() !== before || this.inputs.length !== inputs) violate(`${what}-while-running`, 'a refused command changed something')
    }
  }

  /** A command the reference says is refused: the promise rejects with `code` (and `reason`), nothing changes or is sent. */
  private async refused(what: string, call: () => Promise<void>, code: string, reason?: string): Promise<void> {
    const before = this.store.getState()
    const { refusal, input } = await this.send(call, noRequest)
    same(`${what}-refused`, [refusal?.code, refusal?.reason], [code, reason])
    if (input) violate(`${what}-refused`, 'a refused command sent a request')
    if (this.store.getState() !== before) violate(`${what}-refused`, 'a refused command changed the snapshot')
  }

  /**
   * The request a run sent, against what it should be: the branch's messages (each under the id it
   * has on the branch's server thread), `state`, `parentRunId` only for a fork, and the context.
   */
  private checkRequest(what: string, input: RunAgentInput | undefined, expected: Expected): void {
    if (!input) return violate(`${what}-request`, 'no request was sent')
    const { messages, state, parentRunId, thread, context } = expected
    const wire = thread === undefined ? undefined : this.wireIds.get(thread)
    same(`${what}-request-thread`, input.threadId, thread ?? this.threadId)
    same(`${what}-request-messages`, project(input.messages), project(messages.map((node) => ({ ...node, id: wire?.get(node.id) ?? node.id }))))
    same(`${what}-request-state`, input.state, state)
    same(`${what}-request-parentRunId`, input.parentRunId, parentRunId)
    same(`${what}-request-context`, input.context, contextOf(context))
  }

  /**
   * The server thread a fork run `runId` goes to: with branching 'new-thread' a thread of its own,
   * where every message of the branch before the fork (`before`) is a copy under a fresh id.
   */
  private forkThread(runId: string, before: readonly Node[]): string | undefined {
    if (this.branching === 'history') return undefined
    const thread = `${this.threadId}~${runId}`
    this.wireIds.set(thread, new Map(before.map((node) => [node.id, `${node.id}~${runId}`])))
    return thread
  }

  /** What the run `runId` added to the branch and the view it left, as the request's outcome and the user say. */
  private ended(runId: string, question: string, outcome: Outcome, { state: sent, thread, context }: Expected): void {
    const aborted = this.aborted
    const messages = aborted === 'early' ? 0 : { one: 1, two: 2, failEarly: 0, failLate: 1, ask: 1 }[outcome]
    for (let i = 0; i < messages; i++) {
      const id = `${i === 0 ? 'a' : 'b'}-${runId}`
      this.addVersion({ id, role: 'assistant', content: `${i === 0 ? 'About' : 'More on'} ${question}`, parent: this.leaf() })
    }
    // A failed or aborted run's changes to the state are rolled back; the user's edits stay.
    const failed = !aborted && (outcome === 'failEarly' || outcome === 'failLate')
    const asking = !aborted && outcome === 'ask'
    const state = aborted || failed ? sent : written(sent, question, runId)
    const status = failed ? 'error' : asking ? 'interrupted' : 'idle'
    this.view = { state: this.withNoteWhileOpen(state), runId, status, asking, thread, context }
  }

  private withNoteWhileOpen(state: Doc): Doc {
    return this.noteWhileOpen === undefined ? state : { ...state, note: this.noteWhileOpen }
  }

  async run(plan: Plan): Promise<void> {
    const n = this.next()
    const message = { id: `u-${n}`, role: 'user' as const, content: `q${n}` }
    const call = () => this.store.run({ message, ...given(plan) })
    if (this.view.asking) return this.refused('run', call, 'PENDING_CONFIRMATION')
    const state = this.view.state
    this.addVersion({ ...message, parent: this.leaf(), sent: { state, runBefore: this.view.runId } })
    const { refusal, input } = await this.send(call, plan)
    if (refusal) violate('run', `refused with ${refusal.code}`)
    // An ordinary run sends the context it is given, none otherwise, and no parentRunId.
    const expected = { messages: this.path(), state, parentRunId: undefined, thread: this.view.thread, context: plan.context }
    this.checkRequest('run', input, expected)
    this.ended(input!.runId, message.content, plan.outcome, expected)
  }

  async edit(pick: number, plan: Plan): Promise<void> {
    const path = this.path()
    const questions = path.filter((node) => node.role === 'user')
    const target = questions[pick % Math.max(1, questions.length)]
    const content = `e${this.next()}`
    const call = () => this.store.edit({ messageId: target?.id ?? 'missing', content, ...given(plan) })
    if (this.view.asking) return this.refused('edit', call, 'PENDING_CONFIRMATION')
    if (!target) return this.refused('edit', call, 'BRANCH', 'unknown-message')
    this.saved.set(this.leaf(), this.view)
    const { refusal, input } = await this.send(call, plan)
    if (refusal) violate('edit', `refused with ${refusal.code}`)
    const id = input?.messages.at(-1)?.id ?? ''
    if (this.nodes.has(id)) violate('edit-new-id', `the new version has the id ${id} of a message already in the tree`)
    const { state, runBefore } = target.sent!
    const runId = input!.runId
    const thread = this.forkThread(runId, path.slice(0, path.indexOf(target)))
    this.addVersion({ id, role: 'user', content, parent: target.parent, sent: target.sent! })
    // A fork sends the last run's context unless given another.
    const expected = { messages: this.path(), state, parentRunId: runBefore, thread, context: plan.context ?? this.view.context }
    this.checkRequest('edit', input, expected)
    this.ended(runId, content, plan.outcome, expected)
  }

  /** `pick` undefined: regenerate() of the last answer. */
  async regenerate(pick: number | undefined, plan: Plan): Promise<void> {
    const path = this.path()
    const answers = path.filter((node) => node.role === 'assistant')
    const target = pick === undefined ? answers.at(-1) : answers[pick % Math.max(1, answers.length)]
    const named = pick === undefined ? {} : { messageId: target?.id ?? 'missing' }
    const call = () => this.store.regenerate({ ...named, ...given(plan) })
    if (this.view.asking) return this.refused('regenerate', call, 'PENDING_CONFIRMATION')
    if (!target) return this.refused('regenerate', call, 'BRANCH', pick === undefined ? 'nothing-to-regenerate' : 'unknown-message')
    const asked = path.findLastIndex((node, index) => index < path.indexOf(target) && node.role === 'user')
    const question = path[asked]!
    const { state, runBefore } = question.sent!
    this.saved.set(this.leaf(), this.view)
    const { refusal, input } = await this.send(call, plan)
    if (refusal) violate('regenerate', `refused with ${refusal.code}`)
    const messages = path.slice(0, asked + 1)
    const thread = this.forkThread(input!.runId, messages)
    const expected = { messages, state, parentRunId: runBefore, thread, context: plan.context ?? this.view.context }
    this.checkRequest('regenerate', input, expected)
    // A run that wrote no message gives back the answer it was to replace, the branch as it was.
    if (plan.outcome === 'failEarly' || this.aborted === 'early') {
      this.view = { ...this.view, state: this.withNoteWhileOpen(this.view.state) }
      return
    }
    this.shown.delete(question.id)
    this.ended(input!.runId, question.content, plan.outcome, expected)
  }

  async switchBranch(pick: number, index: number): Promise<void> {
    const path = this.path()
    const forked = path.filter((node) => this.versions.get(node.parent)!.length > 1)
    const target = forked[pick % Math.max(1, forked.length)]
    const versions = target ? this.versions.get(target.parent)! : []
    const to = index % (versions.length + 1)
    const messageId = target?.id ?? path[pick % Math.max(1, path.length)]?.id ?? 'missing'
    const call = () => this.store.switchBranch({ messageId, index: to })
    if (this.view.asking) return this.refused('switchBranch', call, 'PENDING_CONFIRMATION')
    if (!target) return this.refused('switchBranch', call, 'BRANCH', path.length === 0 ? 'unknown-message' : 'no-versions')
    if (to === versions.length) return this.refused('switchBranch', call, 'BRANCH', 'no-such-version')
    const before = this.store.getState()
    const { refusal, input } = await this.send(call, noRequest)
    if (refusal) violate('switchBranch', `refused with ${refusal.code}`)
    if (input) violate('switchBranch', 'a switch sent a request')
    if (versions[to] === target.id) {
      if (this.store.getState() !== before) violate('switchBranch-same', 'a switch to the version shown changed the snapshot')
      return
    }
    this.saved.set(this.leaf(), this.view)
    this.shown.set(target.parent, versions[to]!)
    const view = this.saved.get(this.leaf())
    if (!view) throw new Error(`reference: no view saved for the branch ending at ${this.leaf()}`)
    this.view = view
  }

  private newNote(): string {
    const note = `note-${this.next()}`
    this.store.setState((previous) => ({ ...previous, note }))
    return note
  }

  setNote(): void {
    const note = this.newNote()
    this.view = { ...this.view, state: { ...this.view.state, note } }
  }

  /** The user cancels the open confirmation: the run it resumes goes on on the same branch. */
  async cancel(plan: Plan): Promise<void> {
    if (!this.view.asking) return
    const { state, thread } = this.view
    const { refusal, input } = await this.send(() => this.store.cancel(given(plan)), plan)
    if (refusal) violate('cancel', `refused with ${refusal.code}`)
    const path = this.path()
    // The resumed run sends the context it is given, else the one of the run it resumes.
    const expected = { messages: path, state, parentRunId: undefined, thread, context: plan.context ?? this.view.context }
    this.checkRequest('cancel', input, expected)
    this.ended(input!.runId, path.findLast((node) => node.role === 'user')!.content, plan.outcome, expected)
  }

  /**
   * A reload at rest: a fresh store from the saved thread, which must show what the old one showed.
   * Every command is written at once ("urgent"): storage holds it once the writes have landed.
   */
  async reload(how: 'serialized' | 'persisted'): Promise<void> {
    const before = restorable(this.store.getState())
    const errors = this.errors.length
    await tick()
    // A thread never changed is never written: the new page starts a blank one of its own.
    const unsaved = how === 'persisted' && !this.storage.has('tree')
    this.store = this.newStore(how)
    await this.store.whenRestored()
    if (this.errors.length > errors) violate('reload', `restoring reported ${this.errors.slice(errors).map((error) => error.code)}`)
    if (unsaved) this.threadId = this.store.getState().threadId
    same(`reload-${how}`, restorable(this.store.getState()), { ...before, threadId: this.threadId })
  }

  /** The checks made after every step. */
  check(): void {
    const snapshot = this.store.getState()
    same('messages', project(snapshot.messages), project(this.path()))
    same('branches', snapshot.branches, this.expectedBranches())
    same('state', snapshot.state, this.view.state)
    same('committed', snapshot.committed, this.view.state)
    same('status', [snapshot.status, snapshot.requesting, snapshot.confirmations.length], [this.view.status, false, this.view.asking ? 1 : 0])
    same('runId', snapshot.runId, this.view.runId)
    const unexpected = this.errors.filter((error) => error.code !== 'RUN_ERROR')
    if (unexpected.length > 0) violate('errors', unexpected.map((error) => `${error.code}: ${error.message}`).join('; '))
  }
}
