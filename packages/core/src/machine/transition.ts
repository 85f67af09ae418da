import type { CustomEvent, Event, Message, MessagesSnapshotEvent, RunAgentInput, RunStartedEvent } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { EventType } from '../event-types'
import { type ChunkEvent, expandChunk, isChunk } from '../snapshot/chunks'
import { blankSnapshot } from '../snapshot/copy'
import { checkedType, reduceEvent } from '../snapshot/reduce-event'
import { withKeysChanged } from '../state/edit-merge'
import { acceptState, applyDelta, checkState } from '../state/state-rules'
import { checkRunValues } from '../state/value-limits'
import type { AgentSnapshot, RunOptions } from '../types'
import { answerConfirmation, setUserState, toError } from './commands'
import type { MachineConfig, Memo } from './config'
import { type Answer, parseOnInterrupt, rememberAnswered } from './confirmations'
import { acceptServerState, deltaBase, draftFromArguments, forgetReaders, newRun, predictStreamingCalls, settle } from './drafts'
import {
  type Effect,
  initialModel,
  type Model,
  noEffects,
  type RunContext,
  type RunSettings,
  refused,
  release,
  report,
  type Step,
  unchanged,
  withError,
  withSnapshot,
} from './model'
import { ownCopy } from './owned'
import { parsePredictState } from './predictions'
import { failRun, finishRun } from './run-end'
import {
  branchesOf,
  branchStep,
  followBranch,
  fromWire,
  hasWireIds,
  refuseOffServerBranch,
  rejoinedOverGiveBack,
  rememberSent,
  type StartFork,
  serverThreadOf,
  type TreeInput,
  toWire,
} from './tree'

export type { MachineConfig, Memo } from './config'
export type { Effect, Step } from './model'
export { toError }

// The pure heart of the store: (model, input) -> { model, effects }. Inputs are server events,
// user commands and transport outcomes; effects are data the shell carries out after it has
// published the new snapshot. Nothing here performs I/O, reads a clock or makes an id: inputs
// carry the ids and the time they need. The config is read-only; the memo holds caches derived
// from the model (config.ts).

export type Input<S> =
  | { type: 'event'; event: unknown; requestId?: string }
  | { type: 'run'; runId: string; messages: readonly Message[]; options: RunOptions }
  | { type: 'answer'; id: string | undefined; answer: Answer; options: RunOptions | undefined; now: number; runId: string; messageId: string }
  | { type: 'setState'; update: S | ((previous: S) => S) }
  | { type: 'abort' }
  /** `state` as the app gave it, or the initial state; checked here: a state the rules refuse is a refusal. */
  | { type: 'reset'; state: S; threadId: string }
  /** The request failed (HTTP error, network, timeout) or its stream ended without a terminal event. */
  | { type: 'failed'; requestId: string; error: AgentStoreError; lastEventId?: string | undefined }
  /** Re-attach the run whose stream dropped, through the agent's `connect`. */
  | { type: 'reconnect'; requestId: string }
  | TreeInput

const show: Effect = Object.freeze({ type: 'show' })
/**
 * A streamed token's show: the same data, its own object, so the write's urgency goes by it. The
 * token was told by its type as the protocol's constant, where a later check would compare strings.
 */
const showToken: Effect = Object.freeze({ type: 'show' })
/** The effects of most events: shown, nothing else. */
const shownOnly: readonly Effect[] = Object.freeze([show])
const tokenShown: readonly Effect[] = Object.freeze([showToken])

export function transition<S>(model: Model<S>, input: Input<S>, config: MachineConfig<S>, memo: Memo<S>): Step<S> {
  const step = withBranches(model, handle(model, input, config, memo))
  // A token leaves the streaming calls as they were: only a call's start or end, or its run's, prunes.
  if (memo.readers.size > 0 && step.model.run?.streaming !== model.run?.streaming) forgetReaders(memo, step.model.run)
  if (step.refusal) return step
  const next = withRequestShown(step.model)
  // A token's step that receive() found written later is complete as it is: no copy per token.
  if (config.persists && next !== model && step.effects !== tokenWrittenLater) return { model: next, effects: withWrite(input, model, step) }
  return next === step.model ? step : { model: next, effects: step.effects }
}

const persistNow: Effect = Object.freeze({ type: 'persist', urgent: true })
const persistLater: Effect = Object.freeze({ type: 'persist', urgent: false })
const tokenWrittenLater: readonly Effect[] = Object.freeze([persistLater, showToken])

/** The write first. A token's step that delivers nothing, the common one, is written later and shares one frozen list. */
function withWrite<S>(input: Input<S>, before: Model<S>, step: Step<S>): readonly Effect[] {
  if (step.effects === tokenShown && before.outbox === step.model.outbox) return tokenWrittenLater
  return [persistence(input, before, step), ...step.effects]
}

/**
 * Whether a reload may lose the change. A streamed token taken in never changes the status or the
 * confirmations (a run's start and end do), so it is checked for delivery alone, which
 * @ag-ui/client's own check (RUN_STARTED first) leaves to RUN_STARTED in practice.
 */
function persistence<S>(input: Input<S>, before: Model<S>, step: Step<S>): Effect {
  const after = step.model
  if (input.type !== 'event' || before.outbox !== after.outbox) return persistNow
  if (step.effects[step.effects.length - 1] === showToken) return persistLater
  const { status, confirmations } = before.snapshot
  return status !== after.snapshot.status || confirmations !== after.snapshot.confirmations ? persistNow : persistLater
}

/** The snapshot says whether a request is open, which is what run(), the answers and abort() go by. */
export function withRequestShown<S>(model: Model<S>): Model<S> {
  const requesting = model.request !== undefined
  return model.snapshot.requesting === requesting ? model : withSnapshot(model, { ...model.snapshot, requesting })
}

function handle<S>(model: Model<S>, input: Input<S>, config: MachineConfig<S>, memo: Memo<S>): Step<S> {
  switch (input.type) {
    case 'event':
      return receive(model, input.event, input.requestId, config, memo)
    case 'failed':
      return failed(model, input.requestId, input.error, input.lastEventId, config)
    case 'run':
      return refuseValues(model, input.messages, input.options, config) ?? refuseOffServerBranch(model) ?? startRun(model, input, config)
    case 'answer':
      return refuseValues(model, [], input.options, config) ?? answerConfirmation(model, input, config, memo, startRequest)
    case 'setState':
      return setUserState(model, input.update, config, memo)
    case 'abort':
      return abort(model, config)
    case 'reset':
      return reset(model, input.state, input.threadId, config, memo)
    case 'reconnect':
      return reconnect(model, input.requestId, config)
    case 'edit':
    case 'regenerate':
      return refuseValues(model, [], input.options, config) ?? branchStep(model, input, refuseRun(model, config), startFork(config), config.branching)
    case 'switchBranch':
      return branchStep(model, input, refuseRun(model, { hasAgent: true }), startFork(config), config.branching)
  }
}

/**
 * A model taken as it is (a restored thread): its tree follows as after a step, so a regenerated run
 * that ended before it wrote anything gives back the answer it was to replace, and `branches` is
 * what the tree says.
 */
export const withTreeFollowed = <S>(model: Model<S>): Model<S> => (model.tree ? withBranches(model, { model, effects: noEffects }).model : model)

/** The tree follows each step: a regenerated answer joins its versions, and `branches` shows where the branch stands. */
function withBranches<S>(before: Model<S>, step: Step<S>): Step<S> {
  if (step.refusal || !step.model.tree) return step
  const model = followBranch(step.model)
  const { snapshot } = model
  // A token changes a message's content, never which messages the branch holds.
  if (model.tree === before.tree && snapshot.messages.length === before.snapshot.messages.length && step.effects === tokenShown) return step
  const branches = branchesOf(snapshot.messages, model.tree, snapshot.branches)
  if (branches === snapshot.branches) return model === step.model ? step : { ...step, model }
  return { ...step, model: withSnapshot(model, { ...snapshot, branches }) }
}

/**
 * A fork's run: the run options given replace the last run's, and the request names the run it
 * branches from. With branching 'langgraph' it starts with a system message the server has never
 * seen (its id made from the run's): what makes @ag-ui/langgraph fork from the checkpoint before the
 * last user message instead of appending to the thread. The server drops it before its model.
 */
const startFork =
  <S>(config: MachineConfig<S>): StartFork<S> =>
  (model, runId, added, options, parentRunId) => {
    const given = (key: keyof RunSettings) => (options[key] === undefined ? model.settings[key] : options[key])
    const settings = { tools: given('tools'), context: given('context'), forwardedProps: given('forwardedProps') } as RunSettings
    const step = startRequest(model, runId, added, settings, undefined, options.timeoutMs ?? config.timeoutMs, config)
    if (parentRunId === undefined && config.branching !== 'langgraph') return step
    const [effect] = step.effects as [Extract<Effect, { type: 'start' }>]
    const input = { ...effect.input, ...(parentRunId === undefined ? {} : { parentRunId }) }
    if (config.branching === 'langgraph') input.messages = [{ id: `fork-${runId}`, role: 'system', content: forkNote }, ...input.messages]
    return { ...step, effects: [{ ...effect, input }] }
  }

/** The content of the leading system message of a LangGraph fork; the server never stores it. */
const forkNote = 'Branch from the checkpoint before the last user message.'

/** A command whose messages or run options are deeper or larger than the store keeps changes nothing. */
function refuseValues<S>(model: Model<S>, messages: readonly Message[], options: RunOptions | undefined, config: MachineConfig<S>): Step<S> | undefined {
  const refusal = checkRunValues(messages, options, config.rules.limits)
  return refusal ? refused(model, refusal) : undefined
}

/** A result for a call an answered confirmation named, while no message of the conversation holds that call. */
function isOrphanOfAnswer<S>(model: Model<S>, toolCallId: string): boolean {
  if (!model.run?.resumedCalls.includes(toolCallId)) return false
  return !model.snapshot.messages.some((message) => message.role === 'assistant' && message.toolCalls?.some((call) => call.id === toolCallId))
}

/** The events that list messages by id: the snapshot, and the input a RUN_STARTED may echo. */
const listsMessages = (type: string) => type === EventType.MESSAGES_SNAPSHOT || type === EventType.RUN_STARTED

const isTerminal = (type: unknown) => type === EventType.RUN_FINISHED || type === EventType.RUN_ERROR

/** The events that stream by the thousand, by their constants: a token changes no status, confirmation or answer. */
const isStreamed = (type: EventType) =>
  type === EventType.TEXT_MESSAGE_CONTENT || type === EventType.REASONING_MESSAGE_CONTENT || type === EventType.TOOL_CALL_ARGS

/** One event from the server or from apply(): all of it, or (with an error) none of it. */
function receive<S>(model: Model<S>, raw: unknown, requestId: string | undefined, config: MachineConfig<S>, memo: Memo<S>): Step<S> {
  const before = model
  // A request the store has let go of (aborted, ended, superseded) changes nothing any more.
  if (requestId !== undefined && model.request?.id !== requestId) return unchanged(model)
  if (requestId !== undefined && model.request!.rejoining) {
    const request = model.request!
    const { runId, cut } = request.rejoining!
    if (isStartOf(raw, runId)) model = rejoinedRun(model, 'start', config, memo)
    // A first event that starts no run: the server resumes from a cursor, with what the dropped stream missed.
    else if (!request.replaying && cut && !isStart(raw)) model = rejoinedRun(model, 'cut', config, memo)
    // The replay of earlier runs changes nothing: they are applied already.
    else return { model: request.replaying ? model : { ...model, request: { ...request, replaying: true } }, effects: noEffects }
  }
  const delivered = requestId !== undefined && !model.request!.delivered ? deliver(model) : model
  try {
    const type = checkedType(raw, config.rules.limits)
    // An event type from a newer protocol: ignored, but listeners still see it.
    if (type === undefined) return { model: delivered, effects: shownOnly }
    const event = raw as Event
    const effects: Effect[] = []
    let next: Model<S>
    if (isChunk(type)) {
      next = delivered
      for (const one of expandChunk(next.snapshot, event as ChunkEvent)) next = reduceOne(next, one, effects, config, memo)
    } else next = reduceOne(delivered, event, effects, config, memo)
    if (isTerminal(type) && requestId !== undefined) effects.push(release(requestId, 'drain'))
    const token = isStreamed(type)
    if (effects.length === 0) return { model: next, effects: token ? tokenEffects(before, delivered, next, config) : shownOnly }
    effects.push(token ? showToken : show)
    return { model: next, effects }
  } catch (error) {
    // checkedType and the reducers throw only AgentStoreError, which toError returns as it is.
    return malformed(delivered, raw, toError(error, 'INVALID_EVENT'), requestId, config)
  }
}

/**
 * A token's effects. In a persisted store, one that changed the model as it came (no rejoin rebuilt
 * the run, no answer was delivered) is written later (see `persistence`): one shared list, no step copied per token.
 */
const tokenEffects = <S>(before: Model<S>, delivered: Model<S>, next: Model<S>, config: MachineConfig<S>) =>
  config.persists && delivered === before && next !== before ? tokenWrittenLater : tokenShown

/** The resumed run's first event: the answers it carried have reached the server. */
function deliver<S>(model: Model<S>): Model<S> {
  const outbox = model.outbox
  const answered = outbox ? outbox.answered.filter((c) => c.source === 'interrupt').map((c) => c.id) : []
  return {
    ...model,
    request: { ...model.request!, delivered: true },
    outbox: undefined,
    answeredInterrupts: rememberAnswered(model.answeredInterrupts, answered),
  }
}

/** A rejected event changes no state; a malformed terminal event still ends its run, as a failure. */
function malformed<S>(model: Model<S>, raw: unknown, error: AgentStoreError, requestId: string | undefined, config: MachineConfig<S>): Step<S> {
  if (!isTerminal((raw as { type?: unknown } | null)?.type)) return withError(model, error)
  const effects: Effect[] = []
  const ended = endedRequest(failRun(model, model.snapshot, error, config), effects, error)
  if (requestId !== undefined) effects.push(release(requestId, 'drain'))
  return { model: ended, effects }
}

/** A run's end that also ends its request: the end's reports, then the error that ended it, join the step's effects. */
function endedRequest<S>(ended: { model: Model<S>; effects: readonly Effect[] }, effects: Effect[], error?: AgentStoreError): Model<S> {
  effects.push(...ended.effects)
  if (error) effects.push(report(error))
  return { ...ended.model, request: undefined }
}

function reduceOne<S>(model: Model<S>, given: Event, effects: Effect[], config: MachineConfig<S>, memo: Memo<S>): Model<S> {
  // The server may know a message by another id (an edit under the id it replaced, a copy on a branch's thread).
  const event = listsMessages(given.type) && hasWireIds(model.tree) ? fromWire(model, given as MessagesSnapshotEvent | RunStartedEvent) : given
  const snapshot = reduceEvent(model.snapshot, event, config.rules.limits)
  // The events that stream by the thousand first: a switch on strings tests its cases in order.
  switch (event.type) {
    case EventType.TEXT_MESSAGE_CONTENT:
    case EventType.REASONING_MESSAGE_CONTENT:
      return withSnapshot(model, snapshot)
    case EventType.TOOL_CALL_ARGS:
      return draftFromArguments(model, snapshot, event.toolCallId, event.delta, effects, config, memo)
    case EventType.RUN_STARTED:
      return startedRun(model, snapshot, event, config)
    case EventType.STATE_SNAPSHOT:
      return acceptServerState(model, snapshot, acceptState(model.server, event.snapshot, memo.rules, 'STATE_SNAPSHOT'), effects, config, true)
    case EventType.STATE_DELTA:
      return acceptServerState(model, snapshot, applyDelta(deltaBase(model), event.delta, memo.rules), effects, config, false)
    case EventType.CUSTOM:
      return custom(model, snapshot, event, effects, config, memo)
    case EventType.TOOL_CALL_RESULT:
      if (isOrphanOfAnswer(model, event.toolCallId)) {
        // Mastra's suspended tool: its call was never shown, so its result would be a tool message
        // without a call, which providers refuse. Dropped, and said so.
        const message = `TOOL_CALL_RESULT for tool call ${event.toolCallId}, which the conversation never showed: dropped`
        effects.push(report(new AgentStoreError('INVALID_EVENT', message, { eventType: event.type, reason: 'orphan-result' })))
        return model
      }
      return withSnapshot(model, snapshot)
    case EventType.TOOL_CALL_START: {
      const run = model.run ?? newRun(model, config)
      const streaming = { ...run.streaming, [event.toolCallId]: event.toolCallName }
      return { ...model, snapshot, run: { ...run, streaming } }
    }
    case EventType.TOOL_CALL_END:
      return draftFromArguments(model, snapshot, event.toolCallId, undefined, effects, config, memo)
    case EventType.RUN_FINISHED:
      return endedRequest(finishRun(model, snapshot, event, config), effects)
    case EventType.RUN_ERROR:
      return endedRequest(failRun(model, snapshot, snapshot.error, config), effects, snapshot.error)
    default:
      return withSnapshot(model, snapshot)
  }
}

function startedRun<S>(model: Model<S>, snapshot: AgentSnapshot<S>, event: RunStartedEvent, config: MachineConfig<S>): Model<S> {
  const { runId } = event
  const run = model.run
  if (run?.runId === runId) return { ...model, snapshot }
  if (run && run.runId === undefined) {
    // Events before RUN_STARTED (apply(), or a server that sends its tool calls first) opened this
    // run unnamed: its drafts take the name too, so the run's end settles them.
    const drafts = model.drafts.some((draft) => draft.runId === undefined)
      ? model.drafts.map((draft) => (draft.runId === undefined ? { ...draft, runId } : draft))
      : model.drafts
    return { ...model, snapshot, drafts, run: { ...run, runId } }
  }
  if (!run) return { ...model, snapshot, run: newRun(model, config, runId) }
  // A new run through apply() while an earlier one never ended: that one is settled as truncated
  // (its drafts, subagents and cut calls), and the new one starts from what that leaves.
  const settled = failRun(model, model.snapshot, undefined, config).model
  const started = reduceEvent(settled.snapshot, event, config.rules.limits)
  return { ...settled, snapshot: started, run: newRun(settled, config, runId) }
}

function custom<S>(model: Model<S>, snapshot: AgentSnapshot<S>, event: CustomEvent, effects: Effect[], config: MachineConfig<S>, memo: Memo<S>): Model<S> {
  const { name, value } = event
  if (name !== 'PredictState' && name !== 'on_interrupt') return { ...model, snapshot }
  const run = model.run ?? newRun(model, config)
  if (name === 'on_interrupt') return { ...model, snapshot, run: { ...run, onInterrupts: [...run.onInterrupts, parseOnInterrupt(value, event.rawEvent)] } }
  const added = parsePredictState(value)
  const next = { ...model, snapshot, run: { ...run, mappings: [...run.mappings, ...added] } }
  // Calls already streaming when their mapping arrives draft from the text received so far.
  return predictStreamingCalls(next, added, effects, config, memo)
}

/** The request failed or its stream ended early. Answers it carried and the server never saw are given back. */
function failed<S>(model: Model<S>, requestId: string, error: AgentStoreError, lastEventId: string | undefined, config: MachineConfig<S>): Step<S> {
  if (model.request?.id !== requestId) return unchanged(model)
  const released = release(requestId, 'none')
  if (model.request.rejoining) {
    // The replay never reached the run: the thread stays as it was, still rejoinable.
    const reason = error.reason === 'not-supported' ? 'not-supported' : 'not-found'
    const notFound = new AgentStoreError('RECONNECT', `The run could not be re-attached: ${error.message}`, { reason, cause: error })
    return { model: rejoinEnded(model), effects: [report(notFound), released] }
  }
  const dropped = dropRequest(model, error, config, lastEventId)
  return { model: dropped.model, effects: [...dropped.effects, report(error), released] }
}

/**
 * The request is gone (a failure, or a page that reloaded while it streamed). Undelivered answers
 * are given back; a run that had begun is rolled back, and can be re-attached by reconnect().
 */
export function dropRequest<S>(
  model: Model<S>,
  error: AgentStoreError | undefined,
  config: MachineConfig<S>,
  lastEventId?: string,
): { model: Model<S>; effects: Effect[] } {
  const request = model.request!
  // A replay cut short (a thread saved while reconnect() ran): the run it was after is still the one to rejoin.
  if (request.rejoining) return { model: rejoinEnded(model), effects: [] }
  if (!request.delivered && model.outbox) return { model: giveBack(model, error), effects: [] }
  const runId = model.run?.runId ?? request.id
  const ended = failRun(model, model.snapshot, error, config)
  const after = ended.model.snapshot.committed
  const cut = { ...model, request: undefined, rejoin: undefined }
  const rejoin = request.start && request.delivered ? { runId, start: request.start, cut, after, lastEventId } : undefined
  return { model: { ...ended.model, request: undefined, rejoin }, effects: ended.effects }
}

function refuseReconnect<S>(model: Model<S>, config: MachineConfig<S>): AgentStoreError | undefined {
  if (model.request) return new AgentStoreError('RUN_ACTIVE', 'A run is already active on this store')
  if (!model.rejoin) return new AgentStoreError('RECONNECT', 'No run to re-attach: none dropped', { reason: 'nothing-to-rejoin' })
  if (!config.hasAgent) return new AgentStoreError('NO_AGENT', 'reconnect() needs an agent')
  return undefined
}

function reconnect<S>(model: Model<S>, requestId: string, config: MachineConfig<S>): Step<S> {
  const refusal = refuseReconnect(model, config)
  if (refusal) return refused(model, refusal)
  const rejoin = model.rejoin!
  const input = runInput(rejoin.start, rejoin.runId, config)
  const shown = { ...model.snapshot, requesting: true }
  const request = { id: requestId, delivered: true, rejoining: rejoin, unchanged: { shown, before: model.snapshot } }
  const { lastEventId } = rejoin
  const effect: Effect = { type: 'connect', requestId, input, timeoutMs: config.timeoutMs, ...(lastEventId === undefined ? {} : { lastEventId }) }
  return { model: { ...model, snapshot: shown, request }, effects: [effect] }
}

/** A reconnect that never reached the run: the thread as it was, the very snapshot when nothing changed meanwhile. */
function rejoinEnded<S>(model: Model<S>): Model<S> {
  const unchanged = model.request!.unchanged
  const snapshot = unchanged && model.snapshot === unchanged.shown ? unchanged.before : model.snapshot
  return { ...model, snapshot, request: undefined }
}

const isStart = (raw: unknown) => (raw as { type?: unknown } | null)?.type === EventType.RUN_STARTED
const isStartOf = (raw: unknown, runId: string) => isStart(raw) && (raw as { runId?: unknown }).runId === runId

/**
 * The dropped run re-attached, so that nothing is applied twice: a server resuming from a cursor
 * goes on from the model the stream dropped at (`cut`), and sends what that stream never brought;
 * a replay that reached the run starts it again from the model it began with (`start`), and brings
 * it back event by event. The user's changes since that model are made again, as edits during the run.
 */
function rejoinedRun<S>(model: Model<S>, from: 'cut' | 'start', config: MachineConfig<S>, memo: Memo<S>): Model<S> {
  const { start, cut, after } = model.request!.rejoining!
  const request = { id: model.request!.id, delivered: from === 'cut', start }
  const rejoined: Model<S> = { ...(from === 'cut' ? cut! : start), request, rejoin: undefined }
  // What the user changed since was made on the branch given back: it stays there.
  const overGiveBack = rejoinedOverGiveBack(rejoined, model)
  if (overGiveBack) return overGiveBack
  const before = from === 'cut' ? (after as S) : start.snapshot.committed
  const now = model.snapshot.committed
  if (before === now) return rejoined
  // Only the keys the user changed are set again.
  return setUserState(rejoined, withKeysChanged(rejoined.snapshot.state, before, now), config, memo).model
}

/** The confirmations reopen as they were, drafts held and `committed` unchanged, so answering again resends. */
function giveBack<S>(model: Model<S>, error: AgentStoreError | undefined): Model<S> {
  const { restore } = model.outbox!
  const snapshot: AgentSnapshot<S> = {
    ...model.snapshot,
    state: restore.state,
    committed: restore.committed,
    predictions: restore.predictions,
    confirmations: restore.confirmations,
    messages: restore.messages,
    status: 'interrupted',
    steps: [],
    subagentSteps: [],
    error,
  }
  return {
    ...model,
    snapshot,
    server: restore.server,
    drafts: restore.drafts,
    edit: undefined,
    userEdits: [],
    run: undefined,
    request: undefined,
    outbox: undefined,
  }
}

function abort<S>(model: Model<S>, config: MachineConfig<S>): Step<S> {
  const request = model.request
  if (!request) return unchanged(model)
  const cancel = release(request.id, 'cancel')
  if (request.rejoining) return { model: rejoinEnded(model), effects: [cancel] }
  if (!request.delivered && model.outbox) return { model: giveBack(model, undefined), effects: [cancel] }
  const effects: Effect[] = []
  const ended = endedRequest(failRun(model, { ...model.snapshot, steps: [] }, undefined, config), effects)
  effects.push(cancel)
  return { model: ended, effects }
}

/** A new blank thread; a state the rules refuse is a refusal, and the thread stays as it is. */
function reset<S>(model: Model<S>, given: S, threadId: string, config: MachineConfig<S>, memo: Memo<S>): Step<S> {
  const { initial } = config
  let state = given
  // The initial state was checked when the store was made, and is the app's own constant.
  if (given !== initial.state) {
    try {
      state = ownCopy(acceptState(model.snapshot.committed, given, memo.rules, 'reset'), undefined)
      checkState(state, config.rules)
    } catch (error) {
      return refused(model, toError(error, 'VALIDATION'))
    }
  }
  const effects: Effect[] = model.request ? [release(model.request.id, 'cancel')] : []
  const blank = initialModel(threadId === initial.threadId && state === initial.state ? initial : blankSnapshot(threadId, state))
  return { model: blank, effects }
}

function startRun<S>(model: Model<S>, input: Extract<Input<S>, { type: 'run' }>, config: MachineConfig<S>): Step<S> {
  const refusal = refuseRun(model, config)
  if (refusal) return refused(model, refusal)
  // Drafts left open by apply() events that never ended are settled as a truncated run would be.
  const settled = model.run ? failRun(model, model.snapshot, undefined, config).model : model
  const { options } = input
  const settings: RunSettings = {
    tools: options.tools ?? [],
    context: options.context ?? [],
    forwardedProps: options.forwardedProps ?? {},
  }
  const asked = input.messages.findLast((message) => message.role === 'user')
  const ready = asked ? rememberSent({ ...settled, run: undefined }, asked.id) : { ...settled, run: undefined }
  return startRequest(ready, input.runId, input.messages, settings, undefined, options.timeoutMs ?? config.timeoutMs, config)
}

function refuseRun<S>(model: Model<S>, config: Pick<MachineConfig<S>, 'hasAgent'>): AgentStoreError | undefined {
  if (model.request) return new AgentStoreError('RUN_ACTIVE', 'A run is already active on this store: await it or abort() it first')
  if (model.snapshot.confirmations.length > 0) {
    return new AgentStoreError('PENDING_CONFIRMATION', 'Confirmations are open: answer them with approve(), reject(), respond() or cancel() first')
  }
  if (!config.hasAgent) return new AgentStoreError('NO_AGENT', 'run() needs an agent: pass createAgentStore({ url }) or ({ agent })')
  return undefined
}

/** Starts a request: the committed state and the conversation go to the server, which takes them as the truth. */
export function startRequest<S>(
  model: Model<S>,
  runId: string,
  added: readonly Message[],
  settings: RunSettings,
  resume: Pick<RunAgentInput, 'resume'> | undefined,
  timeoutMs: number | undefined,
  config: MachineConfig<S>,
): Step<S> {
  const { snapshot } = model
  const messages = added.length > 0 ? [...snapshot.messages, ...added] : snapshot.messages
  const started: Model<S> = {
    ...model,
    snapshot: { ...snapshot, messages, status: 'running', requesting: true, runId, steps: [], subagentSteps: [], run: { runId }, error: undefined },
    server: snapshot.committed,
    edit: undefined,
    userEdits: [],
    // A placeholder: replaced below by the request with its start, before anything reads it.
    request: { id: runId, delivered: false },
    rejoin: undefined,
    settings,
    // The server's thread goes on from the branch this request is sent from.
    tree: model.tree?.serverBranch ? { ...model.tree, serverBranch: undefined } : model.tree,
  }
  const withRun = { ...started, run: newRun(started, config, undefined, runId) }
  const input: RunAgentInput = { ...runInput(started, runId, config), ...(resume?.resume ? { resume: resume.resume } : {}) }
  // A throwaway list: no edit is pending at a run's start, so settle reports nothing into it.
  const settled = settle(withRun, withRun.snapshot, [], config)
  const start = { ...settled, request: undefined }
  return {
    model: { ...settled, request: { id: runId, delivered: false, start } },
    effects: [{ type: 'start', requestId: runId, input, timeoutMs }],
  }
}

/** What the server is sent: the committed state and the conversation, which it takes as the truth, with the run's settings. */
function runInput<S>(model: Model<S>, runId: string, config: MachineConfig<S>): RunAgentInput {
  const { snapshot, settings } = model
  return {
    threadId: serverThreadOf(model),
    runId,
    state: snapshot.committed,
    messages: toWire(model.tree, config.messagesForServer(snapshot.messages)),
    tools: settings.tools.slice(),
    context: settings.context.slice(),
    forwardedProps: settings.forwardedProps,
  }
}

export type { RunContext }
