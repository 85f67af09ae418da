import type { Message, MessagesSnapshotEvent, RunStartedEvent } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { messagesForServer } from '../snapshot/messages'
import { withKeysChanged } from '../state/edit-merge'
import type { AgentSnapshot, Branching, BranchPosition, RunOptions } from '../types'
import { type Branch, type Model, refused, type Sent, type Step, type Tree } from './model'

// The conversation as a tree: the current branch is the model itself (`messages` stays linear, so
// every selector keeps working), and each version of a message that is not on it keeps its branch
// as last shown, whole. Branches share every message and state part they have in common, so
// keeping one costs what differs. A user message sent with a run remembers the committed state it
// was sent with: editing it or regenerating its answer starts again from there.
//
// With branching 'langgraph' the server keeps the thread and forks from its own checkpoints: an
// edited message keeps, on the wire, the id of the message it replaces (`wireIds`), and once the
// view leaves the branch the server holds (`serverBranch`), a request is sent only where the server
// can fork, never one it would append to its other branch.
//
// With branching 'new-thread' (Mastra with memory, which keeps each thread's history and moves a
// message to whichever thread last sent its id) every fork is a server thread of its own: the
// branch up to the fork goes there under fresh ids (`threadWireIds`), and each branch remembers its
// thread (`thread`), so a run after a switch goes on where that branch's history is.

export type TreeInput =
  | { type: 'edit'; messageId: string; content: string; newMessageId: string; runId: string; options: RunOptions }
  | { type: 'regenerate'; messageId: string | undefined; runId: string; options: RunOptions }
  | { type: 'switchBranch'; messageId: string; index: number }

/** How a fork starts its run: the shell's startRequest, with the messages the run adds. */
export type StartFork<S> = (model: Model<S>, runId: string, added: readonly Message[], options: RunOptions, parentRunId: string | undefined) => Step<S>

const emptyTree: Tree<never> = { sent: {}, versions: {}, shelved: {} }

/** Why a command names no message it can take: the message says which command and message. */
const whys = {
  'unknown-message': 'is not on the current branch',
  'wrong-role': 'has the wrong role',
  'no-versions': 'has no other versions',
  'no-such-version': 'has no such version',
  'nothing-to-regenerate': 'has no answer to regenerate',
  'server-branch': 'is not on the branch the server’s thread holds: the server would answer on that branch',
} as const
type Why = keyof typeof whys

const branchError = (command: TreeInput['type'] | 'run', reason: Why, messageId = '') =>
  new AgentStoreError('BRANCH', `${command}(): message "${messageId}" ${whys[reason]}`, { reason, messageId })

/** The id of the message before `index`: the fork point a version there hangs from. */
const forkKey = (messages: readonly Message[], index: number) => (index > 0 ? messages[index - 1]!.id : '')

/** The current branch, to put away. */
function shelve<S>({ snapshot, server, drafts, settings, tree }: Model<S>): Branch<S> {
  const thread = tree?.thread
  return thread === undefined ? { snapshot, server, drafts, settings } : { snapshot, server, drafts, settings, thread }
}

/** Remembers a user message sent with a run: the committed state and the run before it. */
export function rememberSent<S>(model: Model<S>, messageId: string): Model<S> {
  const { committed, subagents, runId } = model.snapshot
  const tree = model.tree ?? emptyTree
  return { ...model, tree: { ...tree, sent: { ...tree.sent, [messageId]: { committed, subagents, parentRunId: runId } } } }
}

/** `refusal`: the run() refusals (RUN_ACTIVE, PENDING_CONFIRMATION, NO_AGENT but for a switch), checked by the caller. */
export function branchStep<S>(model: Model<S>, input: TreeInput, refusal: AgentStoreError | undefined, start: StartFork<S>, branching: Branching): Step<S> {
  if (refusal) return refused(model, refusal)
  if (input.type === 'switchBranch') return switchBranch(model, input.messageId, input.index, branching)
  return input.type === 'edit' ? edit(model, input, start, branching) : regenerate(model, input, start, branching)
}

function edit<S>(model: Model<S>, input: Extract<TreeInput, { type: 'edit' }>, start: StartFork<S>, branching: Branching): Step<S> {
  const { messages } = model.snapshot
  const at = messages.findIndex((message) => message.id === input.messageId)
  const original = messages[at]
  if (original?.role !== 'user') return refused(model, branchError('edit', original ? 'wrong-role' : 'unknown-message', input.messageId))
  const off = offServerBranch(model, at)
  if (off !== undefined) return refused(model, branchError('edit', 'server-branch', off))
  const edited: Message = { ...original, id: input.newMessageId, content: input.content }
  const { forked, sent } = fork(model, at, input.newMessageId)
  const wired =
    branching === 'langgraph' ? withWireId(forked, input.newMessageId, original.id) : branching === 'new-thread' ? onNewThread(forked, input.runId) : forked
  return start(rememberSent(wired, input.newMessageId), input.runId, [edited], input.options, sent?.parentRunId)
}

function regenerate<S>(model: Model<S>, input: Extract<TreeInput, { type: 'regenerate' }>, start: StartFork<S>, branching: Branching): Step<S> {
  const { messages } = model.snapshot
  const target = input.messageId ?? messages.findLast((message) => message.role === 'assistant')?.id
  const at = messages.findIndex((message) => message.id === target)
  const role = messages[at]?.role
  const asked = messages.findLastIndex((message, index) => index < at && message.role === 'user')
  const why =
    target === undefined
      ? 'nothing-to-regenerate'
      : !role
        ? 'unknown-message'
        : role !== 'assistant'
          ? 'wrong-role'
          : asked === -1
            ? 'nothing-to-regenerate'
            : undefined
  if (why) return refused(model, branchError('regenerate', why, target))
  const off = offServerBranch(model, asked)
  if (off !== undefined) return refused(model, branchError('regenerate', 'server-branch', off))
  // The new answer is a version of the first message after the question, once it comes.
  const { forked, sent } = fork(model, asked + 1, undefined)
  const wired = branching === 'new-thread' ? onNewThread(forked, input.runId) : forked
  const pending = { after: messages[asked]!.id, replaced: messages[asked + 1]!.id }
  return start({ ...wired, tree: { ...wired.tree!, pending } }, input.runId, [], input.options, sent?.parentRunId)
}

/**
 * The current branch put away as the version at `at`, and the model cut just before it, with the
 * state it had when the user message that version answers (or is) was sent. `added` joins the versions.
 */
function fork<S>(model: Model<S>, at: number, added: string | undefined): { forked: Model<S>; sent: Sent<S> | undefined } {
  const { messages } = model.snapshot
  const key = forkKey(messages, at)
  const replaced = messages[at]!.id
  const tree = model.tree ?? emptyTree
  const known = tree.versions[key] ?? [replaced]
  const question = messages[at]!.role === 'user' ? replaced : key
  const sent = tree.sent[question]
  const committed = sent ? sent.committed : model.snapshot.committed
  const snapshot: AgentSnapshot<S> = {
    ...model.snapshot,
    messages: messages.slice(0, at),
    state: committed,
    committed,
    predictions: [],
    subagents: sent ? sent.subagents : model.snapshot.subagents,
    runId: sent ? sent.parentRunId : model.snapshot.runId,
  }
  const versions = { ...tree.versions, [key]: added === undefined ? known : [...known, added] }
  const forked: Model<S> = {
    ...model,
    snapshot,
    server: committed,
    drafts: [],
    run: undefined,
    rejoin: undefined,
    tree: { ...tree, versions, shelved: { ...tree.shelved, [replaced]: shelve(model) }, pending: undefined },
  }
  return { forked, sent }
}

function switchBranch<S>(model: Model<S>, messageId: string, index: number, branching: Branching): Step<S> {
  const { messages } = model.snapshot
  const at = messages.findIndex((message) => message.id === messageId)
  const versions = at === -1 ? undefined : model.tree?.versions[forkKey(messages, at)]
  const listed = Number.isInteger(index) ? versions?.[index] : undefined
  // A version no branch holds any more (a server's snapshot renamed it away) cannot be shown.
  const target = listed === messageId || (listed !== undefined && Object.hasOwn(model.tree!.shelved, listed)) ? listed : undefined
  // A regenerate that gave its answer back leaves a fork point with one version: still no other versions.
  const hasOthers = versions !== undefined && versions.length > 1 && versions.includes(messageId)
  const why = at === -1 ? 'unknown-message' : !hasOthers ? 'no-versions' : target === undefined ? 'no-such-version' : undefined
  if (why) return refused(model, branchError('switchBranch', why, messageId))
  if (target === messageId) return { model, effects: [] }
  const left = model.tree!
  // The branch left is the one the server holds, until a request is sent from another.
  const serverBranch = branching === 'langgraph' ? (left.serverBranch ?? serverIds(left, messages)) : undefined
  const tree = serverBranch ? { ...left, serverBranch } : left
  const { [target!]: branch, ...others } = tree.shelved
  const shown = unshelve(model, branch!, branch!.snapshot.error, { ...tree, shelved: { ...others, [messageId]: shelve(model) } })
  return { model: { ...shown, run: undefined, rejoin: undefined }, effects: [] }
}

/**
 * A branch put away, shown again in this thread (`error`: the snapshot's error from now on), with
 * `tree` as the tree, sending on the branch's own server thread.
 */
function unshelve<S>(model: Model<S>, { snapshot, server, drafts, settings, thread }: Branch<S>, error: AgentSnapshot<S>['error'], tree: Tree<S>): Model<S> {
  const shown: AgentSnapshot<S> = { ...snapshot, threadId: model.snapshot.threadId, requesting: false, error }
  return { ...model, snapshot: shown, server, drafts, settings, tree: tree.thread === thread ? tree : { ...tree, thread } }
}

/**
 * After each step: a regenerated answer's first message joins the versions; a regenerated run that
 * ended before it wrote anything gives back the answer it was to replace, with the run's error and
 * the user's edits made while it ran. One that suspended before it wrote anything (Mastra never
 * shows a suspending call) waits for its answer.
 */
export function followBranch<S>(model: Model<S>): Model<S> {
  const tree = model.tree
  const pending = tree?.pending
  if (!pending) return model
  const { messages } = model.snapshot
  const at = messages.findIndex((message) => message.id === pending.after)
  const answer = at === -1 ? undefined : messages[at + 1]
  if (answer) {
    const known = tree.versions[pending.after] ?? []
    const { [answer.id]: _same, ...shelved } = tree.shelved
    const versions = known.includes(answer.id) ? tree.versions : { ...tree.versions, [pending.after]: [...known, answer.id] }
    return { ...model, tree: { ...tree, versions, shelved, pending: undefined } }
  }
  if (model.request || model.snapshot.confirmations.length > 0) return model
  const { [pending.replaced]: branch, ...shelved } = tree.shelved
  // A run that did not complete was rolled back, so what changed since it started is the user's: not
  // lost with it. One that completed without a message (only state) keeps its changes off the answer.
  const outcome = model.snapshot.run?.outcome
  const completed = outcome === 'success' || outcome === 'interrupt'
  const started = tree.sent[pending.after]?.committed ?? branch!.snapshot.committed
  const kept = completed ? branch! : withChangesSince(branch!, started, model.snapshot.committed)
  return unshelve(model, kept, model.snapshot.error, { ...tree, shelved, pending: undefined })
}

/** The branch with the keys that changed from `before` to `now` changed alike, in what it shows, commits and holds as the server's. */
function withChangesSince<S>(branch: Branch<S>, before: S, now: S): Branch<S> {
  if (before === now) return branch
  const { snapshot, server } = branch
  const state = withKeysChanged(snapshot.state, before, now)
  const committed = withKeysChanged(snapshot.committed, before, now)
  return { ...branch, snapshot: { ...snapshot, state, committed }, server: withKeysChanged(server, before, now) }
}

/**
 * A regenerated run re-attached (reconnect) after its failure gave back the answer it was to
 * replace: the rejoined run, with the branch given back put away as that answer's again, as it has
 * been shown since (the user's edits there stay there). Undefined when nothing was given back.
 */
export function rejoinedOverGiveBack<S>(rejoined: Model<S>, shown: Model<S>): Model<S> | undefined {
  const tree = rejoined.tree
  if (!tree?.pending || shown.tree?.pending) return undefined
  const branch = shelve({ ...shown, snapshot: { ...shown.snapshot, requesting: false, error: undefined } })
  return { ...rejoined, tree: { ...tree, shelved: { ...tree.shelved, [tree.pending.replaced]: branch } } }
}

const noBranches: Readonly<Record<string, BranchPosition>> = Object.freeze({})

const hasVersions = (tree: Tree<unknown>) => hasKeys(tree.versions)

function hasKeys(record: object): boolean {
  for (const _ in record) return true
  return false
}

/** Where each message of the current branch with other versions stands among them. */
export function branchesOf(messages: readonly Message[], tree: Tree<unknown> | undefined, previous: Readonly<Record<string, BranchPosition>>) {
  // Most conversations never fork: no message to look up, and the empty `branches` stays as it is.
  if (!tree || !hasVersions(tree)) return hasKeys(previous) ? noBranches : previous
  const branches: Record<string, BranchPosition> = {}
  let same = true
  let count = 0
  messages.forEach((message, at) => {
    const versions = tree.versions[forkKey(messages, at)]
    const index = versions ? versions.indexOf(message.id) : -1
    if (index === -1 || versions!.length < 2) return
    const position = previous[message.id]
    count++
    if (position?.index === index && position.count === versions!.length) branches[message.id] = position
    else {
      branches[message.id] = { index, count: versions!.length }
      same = false
    }
  })
  return same && count === Object.keys(previous).length ? previous : count === 0 ? noBranches : branches
}

/** The ids the server thread of the current branch knows its messages by, where they differ from the store's. */
const wireIdsOf = (tree: Tree<unknown> | undefined) => (tree?.thread === undefined ? tree?.wireIds : tree.threadWireIds?.[tree.thread])

/** The id the server knows a message by. */
const wireIdOf = (tree: Tree<unknown> | undefined, id: string) => wireIdsOf(tree)?.[id] ?? id

/** The thread a request of the current branch goes to: its own server thread, or the store's. */
export const serverThreadOf = <S>(model: Model<S>): string => model.tree?.thread ?? model.snapshot.threadId

/**
 * Branching 'new-thread': the fork run `runId` goes to a server thread of its own, named after the
 * store's thread and the run, where every message of the branch so far is a copy under a fresh id
 * (a server that keeps history by message id would otherwise move them out of the other thread).
 */
function onNewThread<S>(model: Model<S>, runId: string): Model<S> {
  const tree = model.tree!
  const thread = `${model.snapshot.threadId}~${runId}`
  const wireIds: Record<string, string> = {}
  for (const message of model.snapshot.messages) wireIds[message.id] = `${message.id}~${runId}`
  return { ...model, tree: { ...tree, thread, threadWireIds: { ...tree.threadWireIds, [thread]: wireIds } } }
}

const serverIds = (tree: Tree<unknown> | undefined, messages: readonly Message[]) => messagesForServer(messages).map((message) => wireIdOf(tree, message.id))

/** An edit of `replaced` that the server knows by the id `replaced` has there. */
function withWireId<S>(model: Model<S>, edited: string, replaced: string): Model<S> {
  const tree = model.tree!
  return { ...model, tree: { ...tree, wireIds: { ...tree.wireIds, [edited]: wireIdOf(tree, replaced) } } }
}

/**
 * Branching 'langgraph', once the view has left the server's branch: the first message up to
 * `through` (the whole branch when not given) that is not where the server's branch has it, or
 * undefined when the server can take the request. A fork goes through the user message it sends:
 * the server forks at the checkpoint before that message, found by its id on its own branch.
 */
function offServerBranch<S>(model: Model<S>, through?: number): string | undefined {
  const held = model.tree?.serverBranch
  if (!held) return undefined
  const { messages } = model.snapshot
  const sent = through === undefined ? messages : messages.slice(0, through + 1)
  const ids = serverIds(model.tree, sent)
  const at = ids.findIndex((id, i) => held[i] !== id)
  return at === -1 ? undefined : messagesForServer(sent)[at]!.id
}

/**
 * run() on a branch the server's thread does not hold: refused (branching 'langgraph'). The answers
 * need no check: no branch is left, so none is shelved, while a confirmation is open.
 */
export function refuseOffServerBranch<S>(model: Model<S>): Step<S> | undefined {
  const off = offServerBranch(model)
  return off === undefined ? undefined : refused(model, branchError('run', 'server-branch', off))
}

/** The messages as the server knows them: an edit under the id of the message it replaced, a copy under its id on a branch's thread. */
export function toWire(tree: Tree<unknown> | undefined, messages: Message[]): Message[] {
  const wireIds = wireIdsOf(tree)
  if (!wireIds) return messages
  return messages.map((message) => {
    const id = wireIds[message.id]
    return id === undefined ? message : ({ ...message, id } as Message)
  })
}

/** Whether the server knows some message of the current branch by another id: its events that list messages are read through fromWire. */
export const hasWireIds = (tree: Tree<unknown> | undefined): boolean => wireIdsOf(tree) !== undefined

/**
 * An event that lists messages under the server's ids (MESSAGES_SNAPSHOT, the input RUN_STARTED
 * echoes), with the current branch's own ids where they differ.
 */
export function fromWire<S, E extends MessagesSnapshotEvent | RunStartedEvent>(model: Model<S>, event: E): E {
  const wireIds = wireIdsOf(model.tree)!
  const local = new Map<string, string>()
  for (const message of model.snapshot.messages) {
    const id = wireIds[message.id]
    if (id !== undefined) local.set(id, message.id)
  }
  const listed = 'messages' in event ? event.messages : event.input?.messages
  if (!listed?.some((message) => local.has(message.id))) return event
  const messages = listed.map((message) => {
    const id = local.get(message.id)
    return id === undefined ? message : ({ ...message, id } as Message)
  })
  return 'messages' in event ? { ...event, messages } : { ...event, input: { ...event.input!, messages } }
}
