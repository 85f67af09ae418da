import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { type AgentSnapshot, type AgentStore, createAgentStore } from '@agent-state/core'
import fc from 'fast-check'
import { Observable, type Subscriber } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { restoreModel, snapshotModel } from '../../packages/core/src/shell/store-model'

type Item = { id: string; text: string }
type State = { a: number; b: number; document: string; items: Item[]; tags: string[] }
/** How a confirmation is answered: `edit` approves with edits, `respond` sends a payload. */
type Kind = 'approve' | 'reject' | 'cancel' | 'edit' | 'respond'

const event = (value: Record<string, unknown>) => value as unknown as BaseEvent

/** An agent the test drives event by event: a request opens on run(); `start` sends its first events. */
class DrivenAgent extends AbstractAgent {
  inputs: RunAgentInput[] = []
  started = false
  private subscriber: Subscriber<BaseEvent> | undefined
  get open() {
    return this.subscriber !== undefined && !this.subscriber.closed
  }
  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    return new Observable<BaseEvent>((subscriber) => {
      this.subscriber = subscriber
      this.started = false
    })
  }
  start() {
    const { threadId, runId } = this.inputs[this.inputs.length - 1]!
    this.started = true
    this.push({ type: 'RUN_STARTED', threadId, runId })
    this.push({ type: 'CUSTOM', name: 'PredictState', value: [{ state_key: 'document', tool: 'write', tool_argument: 'document' }] })
  }
  push(value: Record<string, unknown>) {
    this.subscriber?.next(event(value))
  }
  /** The last event of the request, then its end: of this request, even if a listener opened the next one meanwhile. */
  end(value: Record<string, unknown>) {
    const subscriber = this.subscriber
    subscriber?.next(event(value))
    subscriber?.complete()
  }
  fail() {
    this.subscriber?.error(new Error('connection reset'))
  }
}

interface ItemEdit {
  base: string
  value: string
  alive: boolean
  /** After a rollback that brought its element back: whether the edit comes back too is not specified. */
  ambiguous: boolean
}
interface TagEdit {
  original: string
  value: string
  alive: boolean
  /** The server reordered the array since: the minimal diff may see the element as moved, so dropping the edit is allowed. */
  ambiguous: boolean
}

/**
 * The documented semantics in their plainest form. Plain keys are committed as the server sends
 * them unless the user edited them during the run (the user wins); `document` is drafted from the
 * `write` tool's arguments, committed when the run ends with nothing to confirm, held by interrupts
 * until answered. A failed run (RUN_ERROR, transport failure, abort) rolls back everything it
 * changed, keeping the user's edits made during it. Array edits follow their element: records by
 * `id`, strings by a minimal diff; an edit whose element is gone is dropped (EDIT_CONFLICT).
 * Answers stay in the outbox until the resumed run's first event; a request that fails before it
 * gives them back (the confirmations reopen as they were).
 */
class Reference {
  committed: State
  shown: State
  status: 'idle' | 'running' | 'interrupted' | 'error' = 'idle'
  draft: string | undefined
  held = false
  confirmations: string[] = []
  /** The call the interrupts' first confirmation names. */
  started = false
  base: State
  userKeys = new Set<'a' | 'b' | 'document'>()
  userScalars: Partial<State> = {}
  serverItems: Item[] = []
  serverTags: string[] = []
  itemEdits = new Map<string, ItemEdit>()
  itemDeletes = new Set<string>()
  itemAppends = new Set<string>()
  tagEdits: TagEdit[] = []
  tagAppends = new Set<string>()
  reordered = false
  /** The model as it was before the answers in the outbox were given. */
  restorePoint: Reference | undefined
  constructor(initial: State) {
    this.committed = structuredClone(initial)
    this.shown = structuredClone(initial)
    this.base = structuredClone(initial)
    this.serverItems = structuredClone(initial.items)
    this.serverTags = [...initial.tags]
  }
  copy(): Reference {
    const copy = Object.assign(Object.create(Reference.prototype) as Reference, this)
    for (const key of ['committed', 'shown', 'base', 'userScalars', 'serverItems', 'serverTags', 'tagEdits', 'confirmations'] as const) {
      ;(copy as unknown as Record<string, unknown>)[key] = structuredClone(this[key])
    }
    copy.userKeys = new Set(this.userKeys)
    copy.itemEdits = new Map([...this.itemEdits].map(([id, edit]) => [id, { ...edit }]))
    copy.itemDeletes = new Set(this.itemDeletes)
    copy.itemAppends = new Set(this.itemAppends)
    copy.tagAppends = new Set(this.tagAppends)
    return copy
  }
  open(restorePoint?: Reference) {
    this.status = 'running'
    this.started = false
    this.restorePoint = restorePoint
    this.base = structuredClone(this.committed)
    this.userKeys.clear()
    this.userScalars = {}
    this.draft = undefined
    this.held = false
    this.serverItems = structuredClone(this.committed.items)
    this.serverTags = [...this.committed.tags]
    this.itemEdits.clear()
    this.itemDeletes.clear()
    this.itemAppends.clear()
    this.tagEdits = []
    this.tagAppends.clear()
    this.reordered = false
  }
  serverSet(key: 'a' | 'b', value: number) {
    if (this.userKeys.has(key)) return
    this.committed[key] = value
    this.shown[key] = value
  }
  chunk(text: string) {
    if (this.userKeys.has('document')) return
    this.draft = (this.draft ?? '') + text
    this.shown.document = this.draft
  }
  userSet(key: 'a' | 'document', value: number | string) {
    ;(this.committed as Record<string, unknown>)[key] = value
    ;(this.shown as Record<string, unknown>)[key] = value
    if (this.status === 'running') {
      this.userKeys.add(key)
      ;(this.userScalars as Record<string, unknown>)[key] = value
    }
    if (key === 'document') {
      this.draft = undefined
      this.held = false
    }
  }
  /** The server changed an array: edits whose element is gone die. */
  serverArrays() {
    for (const [id, edit] of this.itemEdits) if (!this.serverItems.some((item) => item.id === id)) edit.alive = false
    for (const edit of this.tagEdits) if (!this.serverTags.includes(edit.original)) edit.alive = false
  }
  finish(interrupts: string[]) {
    if (interrupts.length > 0 && this.draft !== undefined) this.held = true
    else this.keepDraft()
    this.confirmations = interrupts
    this.status = interrupts.length > 0 ? 'interrupted' : 'idle'
  }
  keepDraft() {
    if (this.draft !== undefined) {
      this.committed.document = this.draft
      this.shown.document = this.draft
    }
    this.draft = undefined
    this.held = false
  }
  dropDraft() {
    this.shown.document = this.committed.document
    this.draft = undefined
    this.held = false
  }
  /** A failed or aborted run: back to the state before it, with the user's own edits made during it. */
  rollBack(status: 'idle' | 'error') {
    const items = this.base.items.filter((item) => !this.itemDeletes.has(item.id))
    for (const [id, edit] of this.itemEdits) {
      const back = items.some((i) => i.id === id)
      if (back && !edit.alive) Object.assign(edit, { alive: true, ambiguous: true })
      if (!back) edit.alive = false
    }
    for (const edit of this.tagEdits) {
      const back = this.base.tags.includes(edit.original)
      if (back && (!edit.alive || this.reordered)) Object.assign(edit, { alive: true, ambiguous: true })
      if (!back) edit.alive = false
    }
    this.serverItems = items
    this.serverTags = [...this.base.tags]
    const scalars = { a: this.base.a, b: this.base.b, document: this.base.document, ...this.userScalars }
    this.committed = { ...this.committed, ...scalars }
    this.shown = { ...this.shown, ...scalars }
    this.draft = undefined
    this.held = false
    this.status = status
  }
  /** Out of a run, the store's arrays (already checked) are the truth: edits have folded into them. */
  settleArrays(committed: State) {
    this.committed.items = structuredClone(committed.items)
    this.committed.tags = [...committed.tags]
    this.shown.items = this.committed.items
    this.shown.tags = this.committed.tags
    this.serverItems = structuredClone(committed.items)
    this.serverTags = [...committed.tags]
    this.itemEdits.clear()
    this.itemDeletes.clear()
    this.itemAppends.clear()
    this.tagEdits = []
    this.tagAppends.clear()
    this.reordered = false
  }
}

let unique = 0
const fresh = (prefix: string) => `${prefix}${++unique}`

/** Checks the store's arrays against the reference's; out of a run, the store's arrays (checked) become the reference's. */
function checkArrays(snapshot: AgentSnapshot<State>, model: Reference, live: boolean) {
  for (const view of [snapshot.state, snapshot.committed]) {
    const items = view.items.filter((item) => !model.itemAppends.has(item.id))
    const expected = model.serverItems
      .filter((item) => !model.itemDeletes.has(item.id))
      .map((item, i) => {
        const edit = model.itemEdits.get(item.id)
        if (!edit?.alive) return item
        if (edit.ambiguous && items[i]?.id === item.id && items[i]?.text === item.text) {
          edit.alive = false
          return item
        }
        return { ...item, text: edit.value }
      })
    expect(items).toEqual(expected)
    // What the user appended stays at the end, in the order appended.
    expect(view.items.slice(view.items.length - model.itemAppends.size).map((item) => item.id)).toStrictEqual([...model.itemAppends])
    const tags = view.tags.filter((tag) => !model.tagAppends.has(tag))
    expect(tags).toHaveLength(model.serverTags.length)
    model.serverTags.forEach((tag, i) => {
      const edit = model.tagEdits.find((e) => e.alive && e.original === tag)
      if (!edit) {
        expect(tags[i]).toBe(tag)
        return
      }
      if (tags[i] === edit.value) return
      // Never on another element: either the user's value in place of the original, or the edit dropped.
      expect(edit.ambiguous && tags[i] === tag).toBe(true)
      edit.alive = false
    })
    expect(view.tags.slice(view.tags.length - model.tagAppends.size)).toStrictEqual([...model.tagAppends])
  }
  // Once a run ends its edits are part of the state: the store's arrays become the reference's.
  if (!live) model.settleArrays(snapshot.committed)
}

/** No listener may see a half-applied event. */
function checkCoherent(snapshot: AgentSnapshot<State>) {
  expect(snapshot.status === 'interrupted').toBe(snapshot.confirmations.length > 0)
  const drafted = new Set(snapshot.predictions.map((p) => p.stateKey))
  for (const key of ['a', 'b', 'items', 'tags', 'document'] as const) {
    if (!drafted.has(key)) expect(snapshot.state[key]).toEqual(snapshot.committed[key])
  }
  for (const prediction of snapshot.predictions) expect(snapshot.state[prediction.stateKey as keyof State]).toEqual(prediction.value)
}

const answerOrder = fc.record({
  kinds: fc.tuple(
    fc.constantFrom<Kind>('approve', 'reject', 'cancel', 'edit', 'respond'),
    fc.constantFrom<Kind>('approve', 'reject', 'cancel', 'edit', 'respond'),
  ),
  bFirst: fc.boolean(),
})

/** Most requests get their first events at once; the rest wait for a `start` step, or fail before it. */
const often = fc.nat(3).map((n) => n > 0)

const op = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('run' as const), start: often }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'start' as const }), weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant('server-set' as const),
      key: fc.constantFrom('a' as const, 'b' as const),
      value: fc.nat(9),
      /** What a listener does on the notification this delta causes: a nested run() (refused) or abort(). */
      listener: fc.constantFrom('none' as const, 'none' as const, 'run' as const, 'abort' as const),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('chunk' as const), text: fc.stringMatching(/^[a-z ]{1,4}$/) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('user-set' as const), key: fc.constantFrom('a' as const, 'document' as const), value: fc.nat(9) }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('server-array' as const),
      target: fc.constantFrom('items' as const, 'tags' as const),
      action: fc.constantFrom('insert' as const, 'remove' as const, 'move' as const),
      at: fc.nat(20),
      to: fc.nat(20),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('user-array' as const),
      target: fc.constantFrom('items' as const, 'tags' as const),
      action: fc.constantFrom('edit' as const, 'edit' as const, 'delete' as const, 'append' as const),
      at: fc.nat(20),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('finish' as const),
      interrupts: fc.nat(2),
      /** AG-UI interrupts, or (one) confirm_changes tool call left unanswered. */
      via: fc.constantFrom('interrupt' as const, 'interrupt' as const, 'tool' as const),
      listener: fc.constantFrom('none' as const, 'none' as const, 'answer' as const, 'run' as const),
      order: answerOrder,
      start: often,
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ kind: 'error' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'fail' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'abort' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('answer' as const), order: answerOrder, start: often }), weight: 4 },
  { arbitrary: fc.constant({ kind: 'restore' as const }), weight: 1 },
  // The server's whole state as it knows it: its document is still the one from before the run (its tool has not run).
  { arbitrary: fc.constant({ kind: 'server-echo' as const }), weight: 2 },
)
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

/** A snapshot with its error as plain data: an error's `cause` (any object the transport threw) is not part of the model. */
const comparable = (snapshot: AgentSnapshot<State>) => {
  const { error } = snapshot
  return { ...snapshot, error: error && { name: error.name, message: error.message, ...Object.fromEntries(Object.entries(error)) } }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

async function allSettle(promises: Promise<unknown>[]) {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), 1000)))
  const outcome = await Promise.race([Promise.allSettled(promises).then(() => 'settled' as const), timeout])
  clearTimeout(timer)
  return outcome
}

async function scenario(ops: readonly Op[]) {
  const initial: State = { a: 0, b: 0, document: 'start', items: [{ id: 'i0', text: 't0' }], tags: ['g0', 'g1'] }
  const agent = new DrivenAgent()
  let store: AgentStore<State> = createAgentStore<State>({ agent, initialState: initial })
  const model = new Reference(initial)
  const promises: Promise<unknown>[] = []
  const refusedNested: Promise<unknown>[] = []
  // Kept to check that each settles; a rejection is checked where it is expected, never left unhandled.
  const keep = (promise: Promise<unknown>, into = promises) => {
    promise.catch(() => {})
    into.push(promise)
  }
  const delivered = new Set<string>()
  let toolCall = 0
  let interrupts = 0
  let openCall: string | undefined
  let requests = 0
  let expectedResume: { interruptId: string; status: string; payload?: unknown }[] | undefined
  /** The confirm_changes answers the resumed request must carry as tool messages: call id → content. */
  let expectedToolAnswers: Record<string, string> = {}
  let nestedOnNext = false
  let abortOnNext = false
  let onInterrupted: ((snapshot: AgentSnapshot<State>) => void) | undefined
  let onIdle: (() => void) | undefined

  const listenerFailures: unknown[] = []
  let tokensChecked = 0
  const listener = (snapshot: AgentSnapshot<State>, previous: AgentSnapshot<State>) => {
    try {
      checkCoherent(snapshot)
    } catch (error) {
      listenerFailures.push(error)
    }
    if (abortOnNext && snapshot.status === 'running') {
      abortOnNext = false
      store.abort()
    }
    if (nestedOnNext && snapshot.status === 'running') {
      nestedOnNext = false
      keep(store.run(), refusedNested)
    }
    if (onInterrupted && snapshot.status === 'interrupted') {
      const handler = onInterrupted
      onInterrupted = undefined
      handler(snapshot)
    }
    if (onIdle && previous.status === 'running' && snapshot.status === 'idle') {
      const handler = onIdle
      onIdle = undefined
      handler()
    }
  }
  store.subscribe(listener)
  // A streamed token never changes the status or the confirmations: persist relies on it to skip
  // checking them on every token (only a delivery of answers is checked there).
  let lastChange: { snapshot: AgentSnapshot<State>; previous: AgentSnapshot<State> } | undefined
  const watchTokens = (watched: AgentStore<State>) => {
    watched.subscribe((snapshot, previous) => {
      lastChange = { snapshot, previous }
    })
    watched.onEvent((event, snapshot) => {
      const token = event.type === 'TEXT_MESSAGE_CONTENT' || event.type === 'TOOL_CALL_ARGS' || event.type === 'REASONING_MESSAGE_CONTENT'
      if (!token || lastChange?.snapshot !== snapshot) return
      tokensChecked++
      if (lastChange.previous.status !== snapshot.status || lastChange.previous.confirmations !== snapshot.confirmations) {
        listenerFailures.push(new Error(`${event.type} changed the status or the confirmations`))
      }
    })
  }
  watchTokens(store)

  /** A request opened: check what it carries, and open the reference's run. */
  const opened = (restorePoint?: Reference) => {
    requests++
    expect(agent.inputs).toHaveLength(requests)
    const input = agent.inputs[requests - 1]!
    expect(input.state).toEqual(model.committed)
    const resume = [...(input.resume ?? [])].sort((x, y) => x.interruptId.localeCompare(y.interruptId))
    expect(resume).toStrictEqual(expectedResume ?? [])
    for (const entry of resume) expect(delivered.has(entry.interruptId)).toBe(false)
    // Every tool call gets at most one answer in the conversation (a resend after a give-back adds none).
    const toolMessages = input.messages.filter((m) => m.role === 'tool')
    expect(new Set(toolMessages.map((m) => m.toolCallId)).size).toBe(toolMessages.length)
    for (const [id, content] of Object.entries(expectedToolAnswers)) {
      expect(toolMessages.filter((m) => m.toolCallId === id).map((m) => m.content)).toStrictEqual([content])
    }
    expectedToolAnswers = {}
    model.open(restorePoint)
    openCall = undefined
  }

  type Order = { kinds: readonly Kind[]; bFirst: boolean }
  /** The open confirmations in the order the step answers them, each with its kind. */
  const sequence = (ids: readonly string[], order: Order) =>
    (order.bFirst ? [...ids].sort().reverse() : [...ids].sort()).map((id, i) => ({ id, kind: order.kinds[i]! }))
  /** Gives the answers to the store; the last one opens the resumed request. */
  const answerStore = (ids: readonly string[], order: Order) => {
    for (const { id, kind } of sequence(ids, order)) {
      if (kind === 'approve') keep(store.approve({ id }))
      else if (kind === 'edit') keep(store.approve({ id, edits: { document: `edited ${id}` } }))
      else if (kind === 'respond') keep(store.respond({ id, payload: { note: id } }))
      else keep(kind === 'reject' ? store.reject({ id }) : store.cancel({ id }))
    }
  }
  /** The same answers in the model: what the resumed request must carry, and what a give-back returns to. */
  const answerModel = (order: Order) => {
    const restorePoint = model.copy()
    const resume: { interruptId: string; status: string; payload?: unknown }[] = []
    const toolAnswers: Record<string, string> = {}
    for (const { id, kind } of sequence(model.confirmations, order)) {
      // Only the first confirmation (…a) names the tool call: its answer decides the draft.
      if (id.startsWith('cc')) {
        // A confirm_changes call is answered by a tool message, not in resume[].
        if (model.held) {
          if (kind === 'edit') model.draft = `edited ${id}`
          if (kind === 'reject' || kind === 'cancel') model.dropDraft()
          else model.keepDraft()
        }
        toolAnswers[id] = kind === 'respond' ? JSON.stringify({ note: id }) : JSON.stringify({ accepted: kind === 'approve' || kind === 'edit' })
        continue
      }
      if (id.endsWith('a') && model.held) {
        if (kind === 'edit') model.draft = `edited ${id}`
        if (kind === 'approve' || kind === 'edit' || kind === 'respond') model.keepDraft()
        else model.dropDraft()
      }
      if (kind === 'cancel') resume.push({ interruptId: id, status: 'cancelled' })
      else if (kind === 'respond') resume.push({ interruptId: id, status: 'resolved', payload: { note: id } })
      else if (kind === 'edit') resume.push({ interruptId: id, status: 'resolved', payload: { document: `edited ${id}`, accepted: true } })
      else resume.push({ interruptId: id, status: 'resolved', payload: { accepted: kind === 'approve' } })
    }
    model.confirmations = []
    expectedResume = resume.sort((x, y) => x.interruptId.localeCompare(y.interruptId))
    expectedToolAnswers = toolAnswers
    return restorePoint
  }

  /** The open request's first events arrive: from now on the answers it carries are delivered. */
  const startRequest = () => {
    agent.start()
    model.started = true
    for (const entry of expectedResume ?? []) delivered.add(entry.interruptId)
    expectedResume = undefined
    model.restorePoint = undefined
  }

  const running = () => model.status === 'running'
  const streaming = () => running() && model.started

  for (const step of ops) {
    switch (step.kind) {
      case 'run':
        if (running() || model.status === 'interrupted') {
          await expect(store.run()).rejects.toMatchObject({ code: running() ? 'RUN_ACTIVE' : 'PENDING_CONFIRMATION' })
          continue
        }
        keep(store.run())
        await flush()
        expectedResume = undefined
        opened()
        if (step.start) startRequest()
        break
      case 'start':
        if (!running() || model.started) continue
        startRequest()
        break
      case 'server-echo': {
        if (!streaming()) continue
        const server = {
          a: model.userKeys.has('a') ? model.base.a : model.committed.a,
          b: model.committed.b,
          document: model.base.document,
          items: model.serverItems,
          tags: model.serverTags,
        }
        const before = store.getState()
        agent.push({ type: 'STATE_SNAPSHOT', snapshot: structuredClone(server) })
        // It says nothing new: nothing the user sees changes, drafts included.
        expect(store.getState().state).toEqual(before.state)
        expect(store.getState().committed).toEqual(before.committed)
        expect(store.getState().predictions).toEqual(before.predictions)
        break
      }
      case 'server-set':
        if (!streaming()) continue
        // A listener's command needs a notification: a delta that changes nothing causes none.
        if (step.listener !== 'none' && (store.getState().state[step.key] === step.value || model.userKeys.has(step.key))) continue
        nestedOnNext = step.listener === 'run'
        abortOnNext = step.listener === 'abort'
        agent.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: `/${step.key}`, value: step.value }] })
        nestedOnNext = false
        abortOnNext = false
        model.serverSet(step.key, step.value)
        if (step.listener === 'abort') {
          // The listener saw the delta applied; its abort() ran right after: the run is rolled back.
          await flush()
          model.rollBack('idle')
          checkArrays(store.getState(), model, false)
        }
        break
      case 'chunk':
        if (!streaming()) continue
        if (!openCall) {
          openCall = `call-${++toolCall}`
          agent.push({ type: 'TOOL_CALL_START', toolCallId: openCall, toolCallName: 'write' })
          agent.push({ type: 'TOOL_CALL_ARGS', toolCallId: openCall, delta: `{"document":"${step.text}` })
        } else agent.push({ type: 'TOOL_CALL_ARGS', toolCallId: openCall, delta: step.text })
        model.chunk(step.text)
        break
      case 'user-set': {
        // Not while a request waits for its first event: what a give-back does to such an edit is not specified.
        if (running() && !model.started) continue
        const value = step.key === 'document' ? `user ${step.value}` : step.value
        if (store.getState().state[step.key] === value) continue
        store.setState((s) => ({ ...s, [step.key]: value }))
        model.userSet(step.key, value)
        break
      }
      case 'server-array': {
        if (!streaming()) continue
        const list: unknown[] = step.target === 'items' ? model.serverItems : model.serverTags
        const path = `/${step.target}`
        if (step.action === 'insert') {
          const at = step.at % (list.length + 1)
          const value = step.target === 'items' ? { id: fresh('s'), text: fresh('st') } : fresh('sg')
          list.splice(at, 0, value)
          agent.push({ type: 'STATE_DELTA', delta: [{ op: 'add', path: `${path}/${at}`, value }] })
        } else if (list.length === 0) continue
        else if (step.action === 'remove') {
          const at = step.at % list.length
          list.splice(at, 1)
          agent.push({ type: 'STATE_DELTA', delta: [{ op: 'remove', path: `${path}/${at}` }] })
        } else {
          const from = step.at % list.length
          const to = step.to % list.length
          if (from === to) continue
          const [moved] = list.splice(from, 1)
          list.splice(to, 0, moved)
          if (step.target === 'tags') {
            model.reordered = true
            for (const edit of model.tagEdits) edit.ambiguous = true
          }
          agent.push({ type: 'STATE_DELTA', delta: [{ op: 'move', from: `${path}/${from}`, path: `${path}/${to}` }] })
        }
        model.serverArrays()
        break
      }
      case 'user-array': {
        if (running() && !model.started) continue
        const live = running()
        const current = store.getState().state
        if (step.target === 'items') {
          const items = current.items
          if (step.action === 'append') {
            const item = { id: fresh('u'), text: fresh('ut') }
            store.setState((s) => ({ ...s, items: [...s.items, item] }))
            if (live) model.itemAppends.add(item.id)
            else model.settleArrays({ ...model.committed, items: [...model.committed.items, item] })
            break
          }
          if (items.length === 0) continue
          const target = items[step.at % items.length]!
          // Only elements the server knows and the user has not touched yet (see the class comment).
          if (live && (model.itemAppends.has(target.id) || model.itemEdits.has(target.id))) continue
          if (step.action === 'delete') {
            store.setState((s) => ({ ...s, items: s.items.filter((item) => item.id !== target.id) }))
            if (live) model.itemDeletes.add(target.id)
            else model.settleArrays({ ...model.committed, items: model.committed.items.filter((item) => item.id !== target.id) })
          } else {
            const text = fresh('ue')
            store.setState((s) => ({ ...s, items: s.items.map((item) => (item.id === target.id ? { ...item, text } : item)) }))
            if (live) model.itemEdits.set(target.id, { base: target.text, value: text, alive: true, ambiguous: false })
            else model.settleArrays({ ...model.committed, items: model.committed.items.map((item) => (item.id === target.id ? { ...item, text } : item)) })
          }
        } else {
          const tags = current.tags
          if (step.action === 'append') {
            const tag = fresh('ug')
            store.setState((s) => ({ ...s, tags: [...s.tags, tag] }))
            if (live) model.tagAppends.add(tag)
            else model.settleArrays({ ...model.committed, tags: [...model.committed.tags, tag] })
            break
          }
          // Strings: edits only (a deletion of a moved string has no single right answer).
          if (tags.length === 0 || step.action === 'delete') continue
          const index = step.at % tags.length
          const original = tags[index]!
          if (live && (model.tagAppends.has(original) || model.tagEdits.some((e) => e.value === original || e.original === original))) continue
          const value = fresh('ge')
          store.setState((s) => ({ ...s, tags: s.tags.map((tag, i) => (i === index ? value : tag)) }))
          if (live) model.tagEdits.push({ original, value, alive: true, ambiguous: false })
          else model.settleArrays({ ...model.committed, tags: model.committed.tags.map((tag, i) => (i === index ? value : tag)) })
        }
        break
      }
      case 'finish': {
        if (!streaming()) continue
        if (openCall) {
          agent.push({ type: 'TOOL_CALL_ARGS', toolCallId: openCall, delta: '"}' })
          agent.push({ type: 'TOOL_CALL_END', toolCallId: openCall })
        }
        const n = ++interrupts
        const tool = step.via === 'tool' && step.interrupts > 0
        const ids = tool ? [`cc${n}`] : step.interrupts === 0 ? [] : step.interrupts === 1 ? [`i${n}a`] : [`i${n}a`, `i${n}b`]
        const list = tool ? [] : ids.map((id) => ({ id, reason: 'tool_call', ...(id.endsWith('a') && openCall ? { toolCallId: openCall } : {}) }))
        if (tool) {
          agent.push({ type: 'TOOL_CALL_START', toolCallId: ids[0], toolCallName: 'confirm_changes' })
          agent.push({ type: 'TOOL_CALL_ARGS', toolCallId: ids[0], delta: JSON.stringify(openCall ? { function_call_id: openCall } : {}) })
          agent.push({ type: 'TOOL_CALL_END', toolCallId: ids[0] })
        }
        let answered = false
        if (step.listener === 'answer' && ids.length > 0) {
          onInterrupted = (snapshot) => {
            answered = true
            answerStore(
              snapshot.confirmations.map((c) => c.id),
              step.order,
            )
          }
        }
        let reran = false
        if (step.listener === 'run' && ids.length === 0) {
          onIdle = () => {
            reran = true
            keep(store.run())
          }
        }
        const input = agent.inputs[requests - 1]!
        agent.end({
          type: 'RUN_FINISHED',
          threadId: input.threadId,
          runId: input.runId,
          ...(list.length > 0 ? { outcome: { type: 'interrupt', interrupts: list } } : {}),
        })
        onInterrupted = undefined
        onIdle = undefined
        await flush()
        checkArrays(store.getState(), model, true)
        model.finish(ids)
        checkArrays(store.getState(), model, false)
        if (answered) {
          // The listener answered as soon as it saw `interrupted`: the model answers the same way.
          opened(answerModel(step.order))
          if (step.start) startRequest()
        } else if (reran) {
          expectedResume = undefined
          opened()
          if (step.start) startRequest()
        }
        break
      }
      case 'error':
      case 'fail':
      case 'abort': {
        if (!running()) continue
        if (step.kind === 'error' && !model.started) continue
        if (step.kind === 'error') {
          agent.end({ type: 'RUN_ERROR', message: 'boom' })
        } else if (step.kind === 'fail') agent.fail()
        else store.abort()
        await flush()
        const status = step.kind === 'abort' ? 'idle' : 'error'
        if (!model.started && model.restorePoint) {
          // Given back: the answers never reached the server.
          Object.assign(model, model.restorePoint.copy())
          model.restorePoint = undefined
          expectedResume = undefined
          expectedToolAnswers = {}
          if (step.kind !== 'abort') expect(store.getState().error?.code).toBe('TRANSPORT')
        } else {
          model.rollBack(status)
          checkArrays(store.getState(), model, false)
        }
        break
      }
      case 'restore': {
        // Between requests the model is one JSON value: a store restored from it carries on exactly as this one would.
        if (running()) continue
        const saved = JSON.parse(JSON.stringify(snapshotModel(store)))
        const restored = restoreModel<State>({ agent, initialState: initial }, saved)
        expect(comparable(restored.getState())).toStrictEqual(comparable(store.getState()))
        store = restored
        store.subscribe(listener)
        watchTokens(store)
        break
      }
      case 'answer': {
        if (model.status !== 'interrupted') {
          await expect(store.approve()).rejects.toMatchObject({ code: running() ? 'RUN_ACTIVE' : 'NO_CONFIRMATION' })
          continue
        }
        answerStore(model.confirmations, step.order)
        await flush()
        opened(answerModel(step.order))
        if (step.start) startRequest()
        break
      }
    }
    await flush()
    const snapshot = store.getState()
    expect(snapshot.status).toBe(model.status)
    if (snapshot.status === 'running') expect(agent.open).toBe(true)
    expect([snapshot.state.a, snapshot.state.b, snapshot.state.document]).toEqual([model.shown.a, model.shown.b, model.shown.document])
    expect([snapshot.committed.a, snapshot.committed.b, snapshot.committed.document]).toEqual([model.committed.a, model.committed.b, model.committed.document])
    checkArrays(snapshot, model, running())
    expect(snapshot.confirmations.map((c) => c.id).sort()).toStrictEqual([...model.confirmations].sort())
    checkCoherent(snapshot)
    expect(listenerFailures).toStrictEqual([])
  }
  store.abort()
  expect(await allSettle(promises)).toBe('settled')
  for (const nested of refusedNested) await expect(nested).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
  expect(agent.inputs).toHaveLength(requests)
  return tokensChecked
}

describe('store operations against a reference model (fast-check)', () => {
  it('state, committed, status, confirmations and every request agree with the model, with reentrant listeners, failing requests and array edits', async () => {
    let tokensChecked = 0
    const numRuns = Number(process.env.FUZZ_RUNS ?? 600)
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        tokensChecked += await scenario(ops)
      }),
      { numRuns },
    )
    // The token invariant was checked, not skipped: the runs streamed tokens that changed the snapshot
    // (5 to 9 per 100 runs, 55 in the default 600: a fixed 10 failed the 100 runs `npm run mutate` makes).
    expect(tokensChecked).toBeGreaterThan(numRuns / 50)
  })
})
