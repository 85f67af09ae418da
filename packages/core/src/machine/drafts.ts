import type { Message } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { deepEqual, isPlainObject } from '../json/json-value'
import { createPartialJsonReader } from '../json/partial-json'
import { copySnapshot, type Mutable } from '../snapshot/copy'
import { claimChangedKeys, rebaseEdit } from '../state/edit-merge'
import { checkState, stateSize } from '../state/state-rules'
import type { AgentSnapshot, PredictionMapping } from '../types'
import type { MachineConfig, Memo } from './config'
import { copyModel, type Draft, type Model, type Report, type RunContext, report, withSnapshot } from './model'
import { ABSENT, baselineOf, deriveCommitted, derivePredictions, findDraft, valueAt, withKey } from './predictions'

/** Effects the state steps add: reports of errors that did not stop the event. */
type Reports = { push(effect: Report): unknown }

/** A run opened on the model: unnamed until its RUN_STARTED when `runId` is not given; `requestId` when a request streams it. */
export function newRun<S>(model: Model<S>, config: MachineConfig<S>, runId?: string, requestId?: string): RunContext {
  const { messages } = model.snapshot
  return {
    runId,
    requestId,
    base: model.snapshot.committed,
    mappings: config.predict,
    toolCallsBefore: messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : [])),
    messagesBefore: messages.map((message) => message.id),
    onInterrupts: [],
    userKeys: [],
    streaming: {},
    stopped: [],
    sawState: false,
    holding: false,
    resumedCalls: model.outbox?.answered.flatMap((c) => (c.toolCallId === undefined ? [] : [c.toolCallId])) ?? [],
  }
}

/**
 * Derives `state`, `committed` and `predictions` from the model's parts: the server state, the
 * user's edit rebased on it, and the drafts, whose values are read from `snapshot.state` (the
 * latest view). Throws, changing nothing, when the committed state fails the user's validator.
 */
export function settle<S>(
  model: Model<S>,
  snapshot: AgentSnapshot<S>,
  reports: Reports,
  config: MachineConfig<S>,
  values?: ReadonlyMap<string, unknown>,
): Model<S> {
  let view = model.server
  let edit = model.edit
  if (edit) {
    const rebased = rebaseEdit(edit, model.server, config.merge)
    edit = rebased.edit
    view = rebased.value as S
    for (const error of rebased.conflicts) reports.push(report(error))
    if (rebased.conflicts.length > 0) snapshot = { ...snapshot, error: rebased.conflicts.at(-1) }
  }
  for (const draft of model.drafts) {
    const value = values?.has(draft.stateKey) ? values.get(draft.stateKey) : valueAt(snapshot.state, draft.stateKey)
    view = withKey(view, draft.stateKey, value)
  }
  const committed = deriveCommitted(view, model.drafts, snapshot.committed)
  if (committed !== snapshot.committed && committed !== model.snapshot.committed) checkState(committed, config.rules)
  const predictions = derivePredictions(view, model.drafts, snapshot.predictions)
  // Copied field by field, not spread with overrides: every state event comes through here.
  if (view !== snapshot.state || committed !== snapshot.committed || predictions !== snapshot.predictions) {
    const next = copySnapshot(snapshot)
    next.state = view
    next.committed = committed
    next.predictions = predictions
    snapshot = next
  }
  if (model.snapshot === snapshot && model.edit === edit) return model
  const next = copyModel(model)
  next.snapshot = snapshot
  next.edit = edit
  return next
}

/** A server state change (STATE_SNAPSHOT or STATE_DELTA) under the drafts of this run. */
export function acceptServerState<S>(
  model: Model<S>,
  snapshot: AgentSnapshot<S>,
  server: S,
  reports: Reports,
  config: MachineConfig<S>,
  whole: boolean,
): Model<S> {
  const run = model.run
  if (run && !run.sawState && whole && isEmptyObject(server) && !isEmptyObject(run.base)) {
    // LangGraph opens every run with STATE_SNAPSHOT({}) before it has read the thread's state.
    // Held, whether or not the user has edited: the view and the user's edits stay on the state
    // from before until the next state event (showing it would blank the UI for as long as the
    // first node runs, and every edited key would look removed). A delta meanwhile applies to
    // the empty state (`deltaBase`); a run that ends still holding ends on it (`endOfRun`).
    return { ...model, snapshot, run: { ...run, sawState: true, holding: true } }
  }
  const seen = run && (!run.sawState || run.holding) ? { ...run, sawState: true, holding: false } : run
  if (server === model.server && !run?.holding) return { ...model, snapshot, run: seen }
  // A state grown by deltas from the held empty one: drafts compare with that, and what it lacks
  // is not the agent removing the user's keys.
  const grown = run?.holding === true && !whole
  const { drafts, values } = draftsAfterServerChange(grown ? { ...model, server: EMPTY as S } : model, server, seen)
  const next = copyModel(model)
  next.server = server
  next.drafts = drafts
  next.run = seen
  if (grown && next.edit) next.edit = claimChangedKeys(next.edit)
  return settle(next, snapshot, reports, config, values)
}

/** The server's opening empty state while it is held. */
export const EMPTY: Readonly<Record<string, never>> = Object.freeze({})

/** What a STATE_DELTA applies to: the server's state, which is the held empty one while it is held. */
export const deltaBase = <S>(model: Model<S>): S => (model.run?.holding ? (EMPTY as S) : model.server)

const isEmptyObject = (value: unknown) => isPlainObject(value) && Object.keys(value).length === 0

/**
 * A server value for a drafted key that equals the draft's baseline never replaces the draft (a
 * server that has not run the tool yet echoes the old value); one that differs becomes the draft.
 * A mapped key the server changes on its own becomes a draft too.
 */
function draftsAfterServerChange<S>(model: Model<S>, server: S, run: RunContext | undefined) {
  let values: Map<string, unknown> | undefined
  let drafts = model.drafts
  if (drafts.length === 0 && (!run || run.mappings.length === 0)) return { drafts, values }
  for (const draft of model.drafts) {
    const after = valueAt(server, draft.stateKey)
    if (after === valueAt(model.server, draft.stateKey)) continue
    if (!sameValue(after, baselineOf(draft))) (values ??= new Map()).set(draft.stateKey, after)
    else if (draft.toolCallId === undefined) drafts = drafts.filter((other) => other !== draft)
  }
  if (!run) return { drafts, values }
  for (const mapping of run.mappings) {
    const key = mapping.stateKey
    if (findDraft(drafts, key) || run.userKeys.includes(key)) continue
    const after = valueAt(server, key)
    if (after === valueAt(model.server, key) || sameValue(after, valueAt(run.base, key))) continue
    const writer = Object.entries(run.streaming).findLast(([, tool]) => run.mappings.some((m) => m.tool === tool && m.stateKey === key))
    drafts = [...drafts, makeDraft(run, mapping, writer?.[0], writer?.[1], false)]
    ;(values ??= new Map()).set(key, after)
  }
  return { drafts, values }
}

const sameValue = (a: unknown, b: unknown) => a === b || (a !== ABSENT && b !== ABSENT && deepEqual(a, b))

/** A new draft of the mapping's key, whose baseline is the key's value when the run began. */
function makeDraft(run: RunContext, mapping: PredictionMapping, toolCallId: string | undefined, tool: string | undefined, complete: boolean): Draft {
  const baseline = valueAt(run.base, mapping.stateKey)
  return {
    stateKey: mapping.stateKey,
    runId: run.runId,
    toolCallId,
    tool,
    toolArgument: mapping.toolArgument ?? '*',
    complete,
    existed: baseline !== ABSENT,
    baseline: baseline === ABSENT ? undefined : baseline,
  }
}

function argumentsOf(messages: readonly Message[], toolCallId: string): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (message.role !== 'assistant' || !message.toolCalls) continue
    for (const call of message.toolCalls) if (call.id === toolCallId) return call.function.arguments
  }
  return ''
}

/** Feeds the call's reader up to the call's text: from the cache when it has read all but `delta`, else rebuilt. Returns whether the value changed. */
function feedReader<S>(memo: Memo<S>, toolCallId: string, text: string, delta: string | undefined): boolean {
  const cached = memo.readers.get(toolCallId)
  if (cached && cached.consumed === text.length - (delta?.length ?? 0)) {
    cached.consumed = text.length
    return delta === undefined ? cached.reader.end() : cached.reader.push(delta)
  }
  const reader = createPartialJsonReader()
  let changed = text.length > 0 && reader.push(text)
  if (delta === undefined) changed = reader.end() || changed
  memo.readers.set(toolCallId, { reader, consumed: text.length })
  return changed
}

/**
 * Drops the readers of calls that no longer stream. A run that fails, is aborted or reset, or ends
 * without TOOL_CALL_END leaves its calls' readers behind, and the memo lives as long as the store.
 */
export function forgetReaders<S>(memo: Memo<S>, run: RunContext | undefined): void {
  for (const toolCallId of memo.readers.keys()) if (!run || !Object.hasOwn(run.streaming, toolCallId)) memo.readers.delete(toolCallId)
}

function mapsTool(mappings: readonly PredictionMapping[], tool: string): boolean {
  for (const mapping of mappings) if (mapping.tool === tool) return true
  return false
}

/** The model with new parts, copied field by field: it runs once per token (see `withSnapshot`). */
function withDraftParts<S>(model: Model<S>, snapshot: AgentSnapshot<S>, drafts: readonly Draft[], run: RunContext | undefined): Model<S> {
  if (model.snapshot === snapshot && model.drafts === drafts && model.run === run) return model
  const next = copyModel(model)
  next.snapshot = snapshot
  next.drafts = drafts
  next.run = run
  return next
}

/**
 * The arguments of a mapped tool call grew (`delta`) or ended (undefined): each mapped argument's
 * partial value goes into its key. Runs per token: only the drafted key and the predictions change.
 */
export function draftFromArguments<S>(
  model: Model<S>,
  snapshot: AgentSnapshot<S>,
  toolCallId: string,
  delta: string | undefined,
  reports: Reports,
  config: MachineConfig<S>,
  memo: Memo<S>,
): Model<S> {
  let run = model.run
  const tool = run?.streaming[toolCallId]
  if (!run || tool === undefined) return withSnapshot(model, snapshot)
  const complete = delta === undefined
  if (complete) {
    const { [toolCallId]: _ended, ...streaming } = run.streaming
    run = { ...run, streaming }
  }
  if (!mapsTool(run.mappings, tool) || run.stopped.includes(toolCallId)) return withDraftParts(model, snapshot, model.drafts, run)
  const text = argumentsOf(snapshot.messages, toolCallId)
  const changed = feedReader(memo, toolCallId, text, delta)
  const reader = memo.readers.get(toolCallId)!.reader
  if (complete) memo.readers.delete(toolCallId)
  // The draft's depth and size, bounded without walking it: the reader knows how deep it went,
  // and a partial value is never larger than the argument text it came from.
  const { maxDepth, maxStateBytes } = config.rules.limits
  // The whole state stays within the limit too: the rest of it, plus this key at the argument's size.
  const bound = stateSize(model.server, memo.rules) + text.length + 2 * run.mappings.length
  if (reader.depth + 1 > maxDepth || bound > maxStateBytes) {
    memo.readers.delete(toolCallId)
    const limit = bound > maxStateBytes ? 'maxStateBytes' : 'maxDepth'
    const message = `The arguments of tool call ${toolCallId} exceed ${limit}: its draft stops at the last value within the limits`
    reports.push(report(new AgentStoreError('LIMIT_EXCEEDED', message, { limit })))
    return { ...model, snapshot, run: { ...run, stopped: [...run.stopped, toolCallId] } }
  }
  let view = snapshot.state
  let drafts = model.drafts
  for (const mapping of run.mappings) {
    if (mapping.tool !== tool || run.userKeys.includes(mapping.stateKey)) continue
    const value = reader.argument(mapping.toolArgument)
    const written = changed && value !== undefined
    if (written) view = withKey(view, mapping.stateKey, value)
    const held = findDraft(drafts, mapping.stateKey)
    if (!written && !(complete && held?.toolCallId === toolCallId)) continue
    // Most chunks change only the value: the draft stays as it is.
    const argument = mapping.toolArgument ?? '*'
    if (held && held.toolCallId === toolCallId && held.complete === complete && held.toolArgument === argument && held.tool === tool) continue
    const draft = held ? { ...held, toolCallId, tool, toolArgument: argument, complete } : makeDraft(run, mapping, toolCallId, tool, complete)
    drafts = held ? drafts.map((other) => (other === held ? draft : other)) : [...drafts, draft]
  }
  if (view === snapshot.state && drafts === model.drafts) return withDraftParts(model, snapshot, drafts, run)
  // A snapshot other than the model's is the copy this event's reducer just made, seen by nothing
  // yet: it is filled in rather than copied again (a second copy per token would be garbage at once).
  const next = snapshot === model.snapshot ? copySnapshot(snapshot) : (snapshot as Mutable<AgentSnapshot<S>>)
  next.state = view
  next.committed = drafts === model.drafts ? snapshot.committed : deriveCommitted(view, drafts, snapshot.committed)
  next.predictions = derivePredictions(view, drafts, snapshot.predictions)
  return withDraftParts(model, next, drafts, run)
}

/** Mappings that arrive while their tool's calls stream: those calls draft from the text received so far. */
export function predictStreamingCalls<S>(
  model: Model<S>,
  added: readonly PredictionMapping[],
  reports: Reports,
  config: MachineConfig<S>,
  memo: Memo<S>,
): Model<S> {
  let next = model
  for (const [toolCallId, tool] of Object.entries(model.run?.streaming ?? {})) {
    if (!added.some((mapping) => mapping.tool === tool)) continue
    memo.readers.delete(toolCallId)
    // With its reader deleted, the call drafts again from its whole text; '' (not undefined) keeps the call open.
    next = draftFromArguments(next, next.snapshot, toolCallId, '', reports, config, memo)
  }
  return next
}

/** Commits drafts: their current values become the server's, and they stop being drafts. */
export const keepDrafts = <S>(model: Model<S>, keys: readonly string[], values: ReadonlyMap<string, unknown> = new Map()): Model<S> =>
  endDrafts(model, keys, (draft) => (values.has(draft.stateKey) ? values.get(draft.stateKey) : valueAt(model.snapshot.state, draft.stateKey)))

/** Discards drafts: their keys return to their baselines. */
export const discardDrafts = <S>(model: Model<S>, keys: readonly string[]): Model<S> => endDrafts(model, keys, baselineOf)

/** The drafts of `keys` end: the server's state takes each key's `settled` value, and they are drafts no more. */
function endDrafts<S>(model: Model<S>, keys: readonly string[], settled: (draft: Draft) => unknown): Model<S> {
  if (keys.length === 0) return model
  let server = model.server
  for (const draft of model.drafts) if (keys.includes(draft.stateKey)) server = withKey(server, draft.stateKey, settled(draft))
  return { ...model, server, drafts: model.drafts.filter((draft) => !keys.includes(draft.stateKey)) }
}
