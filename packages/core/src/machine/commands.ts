import type { Message, ResumeEntry, RunAgentInput } from '@ag-ui/core'
import { AgentStoreError, messageOf } from '../errors'
import { isPlainObject, measureJson } from '../json/json-value'
import { mergeEdit, recordEdit } from '../state/edit-merge'
import { acceptState } from '../state/state-rules'
import type { Confirmation, RunOptions } from '../types'
import type { MachineConfig, Memo } from './config'
import { type Answer, toWire } from './confirmations'
import { discardDrafts, keepDrafts, settle } from './drafts'
import { type AnswerRestorePoint, type Draft, type Model, type Outbox, type Report, type RunSettings, refused, report, type Step, withError } from './model'
import { ownCopy } from './owned'
import { ABSENT, findDraft, valueAt, withKey } from './predictions'

/** A thrown value as the store's error: its own as they are, anything else wrapped under `code`. */
export function toError(error: unknown, code: 'INVALID_EVENT' | 'VALIDATION'): AgentStoreError {
  if (error instanceof AgentStoreError) return error
  return new AgentStoreError(code, messageOf(error), { cause: error })
}

/**
 * A local edit of the state. Outside a run it changes the state at once; while a run streams it is
 * kept as an edit that follows the server's later changes, and is sent with the next run. The user
 * wins: an edited key is no longer a draft.
 */
export function setUserState<S>(model: Model<S>, update: S | ((previous: S) => S), config: MachineConfig<S>, memo: Memo<S>): Step<S> {
  const effects: Report[] = []
  const view = model.snapshot.state
  try {
    const given = typeof update === 'function' ? (update as (previous: S) => S)(view) : update
    const state = ownCopy(acceptState(view, given, memo.rules, 'setState'), view)
    if (state === view) return { model, effects }
    const touched = touchedKeys(view, state)
    const run = model.run
    let next: Model<S>
    // While a run streams (through run() or apply()), the edit follows the server's later changes.
    if (run && model.snapshot.status === 'running') {
      const drafts = untouchedDrafts(model.drafts, touched)
      const keys = touched === '*' ? model.drafts.map((draft) => draft.stateKey) : touched
      const whole = keys.filter((key) => findDraft(model.drafts, key))
      const edit = recordEdit(model.edit, model.server, state, touched, whole)
      const userKeys = [...new Set([...run.userKeys, ...keys])]
      const userEdits = [...model.userEdits, { base: view, mine: state, whole }]
      next = settle({ ...model, edit, userEdits, drafts, run: { ...run, userKeys } }, { ...model.snapshot, state }, effects, config)
    } else next = editAtRest(model, state, touched, effects, config)
    // Answers not yet delivered may be given back: what they put back must hold this edit too.
    if (model.outbox)
      next = { ...next, outbox: { ...model.outbox, restore: editedRestorePoint(model, model.outbox.restore, view, state, effects, config, memo) } }
    return { model: next, effects }
  } catch (error) {
    return withError(model, toError(error, 'VALIDATION'))
  }
}

/** An edit outside a run: it becomes the server's state at once, and the keys it touches stop being drafts. */
function editAtRest<S>(model: Model<S>, state: S, touched: readonly string[] | '*', effects: Report[], config: MachineConfig<S>): Model<S> {
  const drafts = untouchedDrafts(model.drafts, touched)
  let server = model.server
  if (touched === '*' || !isPlainObject(server)) server = state
  else for (const key of touched) server = withKey(server, key, valueAt(state, key))
  return settle({ ...model, server, drafts }, { ...model.snapshot, state }, effects, config)
}

/**
 * The restore point of the outbox with the user's edit (`view` -> `state`) made on it, as an edit at
 * rest: a give-back then keeps what the user did, as an aborted run keeps the user's edits. The
 * restore point differs from the view only where answers committed or discarded drafts: a key
 * drafted there that the user touched is theirs, whole.
 */
function editedRestorePoint<S>(model: Model<S>, restore: AnswerRestorePoint<S>, view: S, state: S, effects: Report[], config: MachineConfig<S>, memo: Memo<S>) {
  const touched = touchedKeys(view, state)
  const whole = touched === '*' ? [] : touched.filter((key) => findDraft(restore.drafts, key))
  const merged = mergeEdit(view, state, restore.state, config.merge, whole)
  for (const error of merged.conflicts) effects.push(report(error))
  const target = acceptState(restore.state, merged.value, memo.rules, 'setState')
  const snapshot = { ...model.snapshot, state: restore.state, committed: restore.committed, predictions: restore.predictions }
  const at: Model<S> = { ...model, snapshot, server: restore.server, drafts: restore.drafts, edit: undefined }
  const edited = editAtRest(at, target, touchedKeys(restore.state, target), effects, config)
  return { ...restorePoint(edited), confirmations: restore.confirmations, messages: restore.messages }
}

/** The drafts of keys the edit did not touch: the user wins. The same list when it touched none. */
function untouchedDrafts(drafts: readonly Draft[], touched: readonly string[] | '*'): readonly Draft[] {
  const kept = drafts.filter((draft) => !(touched === '*' || touched.includes(draft.stateKey)))
  return kept.length === drafts.length ? drafts : kept
}

/** Top-level keys whose value differs ('*' when the state is not an object). */
function touchedKeys(before: unknown, after: unknown): string[] | '*' {
  if (!isPlainObject(before) || !isPlainObject(after)) return '*'
  const keys = Object.keys(after).filter((key) => !Object.hasOwn(before, key) || before[key] !== after[key])
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) keys.push(key)
  return keys
}

type AnswerInput = { id: string | undefined; answer: Answer; options: RunOptions | undefined; now: number; runId: string; messageId: string }
/** The machine's `startRequest`, passed in so this file does not import the machine. */
type Starter<S> = (
  model: Model<S>,
  runId: string,
  added: readonly Message[],
  settings: RunSettings,
  resume: Pick<RunAgentInput, 'resume'> | undefined,
  timeoutMs: number | undefined,
  config: MachineConfig<S>,
) => Step<S>

/**
 * approve / reject / respond / cancel. The answer is applied at once (drafts committed or
 * discarded) and kept in the outbox; the last open confirmation's answer starts the resumed run,
 * which carries every answer. Refused answers change nothing.
 */
export function answerConfirmation<S>(model: Model<S>, input: AnswerInput, config: MachineConfig<S>, memo: Memo<S>, start: Starter<S>): Step<S> {
  let confirmation: Confirmation
  let answered: Model<S>
  let answer: Answer
  try {
    if (model.request) throw new AgentStoreError('RUN_ACTIVE', 'A run is active: confirmations are answered once it has ended')
    confirmation = findConfirmation(model.snapshot.confirmations, input.id)
    checkAnswer(confirmation, input.answer, input.now, config)
    answer = ownAnswer(input.answer)
    answered = applyAnswer(model, confirmation, answer, config, memo)
  } catch (error) {
    return refused(model, toError(error, 'VALIDATION'))
  }
  const previous = model.outbox
  const outbox: Outbox<S> = {
    answers: [...(previous?.answers ?? []), toWire(confirmation, answer, input.messageId, model.snapshot.messages)],
    answered: [...(previous?.answered ?? []), confirmation],
    settings: { ...previous?.settings, ...pickSettings(input.options) },
    restore: previous?.restore ?? restorePoint(model),
  }
  if (answered.snapshot.confirmations.length > 0) return { model: { ...answered, outbox }, effects: [] }
  if (!config.hasAgent) return { model: answered, effects: [] }
  const settings: RunSettings = { ...model.settings, ...outbox.settings }
  const { messages, resume, command } = resumeParts(outbox)
  const forwardedProps = command === ABSENT ? settings.forwardedProps : withResumeCommand(settings.forwardedProps, command)
  return start(
    { ...answered, outbox },
    input.runId,
    messages,
    { ...settings, forwardedProps },
    resume.length > 0 ? { resume } : undefined,
    input.options?.timeoutMs ?? config.timeoutMs,
    config,
  )
}

/** The user's payload and edits, copied: mutating them afterwards changes nothing the store holds or sends. */
function ownAnswer(answer: Answer): Answer {
  if (answer.kind === 'respond') return { ...answer, payload: ownCopy(answer.payload, undefined) }
  if (answer.kind === 'approve') return { ...answer, edits: ownCopy(answer.edits, undefined) }
  return answer
}

function findConfirmation(open: readonly Confirmation[], id: string | undefined): Confirmation {
  if (id === undefined) {
    if (open.length === 1) return open[0]!
    throw new AgentStoreError(
      'NO_CONFIRMATION',
      open.length === 0 ? 'There is no open confirmation to answer' : `${open.length} confirmations are open: pass the id of the one to answer`,
    )
  }
  const found = open.find((confirmation) => confirmation.id === id)
  if (!found) throw new AgentStoreError('NO_CONFIRMATION', `No open confirmation has the id "${id}"`)
  return found
}

function checkAnswer<S>(confirmation: Confirmation, answer: Answer, now: number, config: MachineConfig<S>) {
  if (answer.kind !== 'cancel' && confirmation.expiresAt !== undefined && Date.parse(confirmation.expiresAt) <= now) {
    throw new AgentStoreError('EXPIRED', `The confirmation "${confirmation.id}" expired at ${confirmation.expiresAt}: it can only be cancelled`)
  }
  const given = answer.kind === 'respond' ? answer.payload : answer.kind === 'approve' ? answer.edits : undefined
  if (given === undefined && answer.kind === 'respond') throw new AgentStoreError('INVALID_ANSWER', 'respond() needs a JSON payload')
  if (given === undefined) return
  const { maxDepth, maxStateBytes } = config.rules.limits
  const measured = measureJson(given, maxDepth, maxStateBytes)
  if (!measured.ok) throw new AgentStoreError('INVALID_ANSWER', `The answer is not plain JSON within the limits: ${measured.reason}`, { path: measured.path })
  if (answer.kind === 'approve' && !isPlainObject(given))
    throw new AgentStoreError('INVALID_ANSWER', 'approve() edits must be an object keyed like the tool arguments')
}

/** The drafts the confirmation governs are committed (with edits) or discarded; it leaves the open list. */
function applyAnswer<S>(model: Model<S>, confirmation: Confirmation, answer: Answer, config: MachineConfig<S>, memo: Memo<S>): Model<S> {
  const keys = confirmation.stateKeys.filter((key) => findDraft(model.drafts, key))
  const accepted = answer.kind === 'approve' || answer.kind === 'respond'
  const values = answer.kind === 'approve' ? editedValues(model, keys, answer.edits) : new Map<string, unknown>()
  const next = accepted ? keepDrafts(model, keys, values) : discardDrafts(model, keys)
  const confirmations = model.snapshot.confirmations.filter((c) => c !== confirmation)
  const snapshot = { ...model.snapshot, confirmations, status: confirmations.length > 0 ? ('interrupted' as const) : ('idle' as const), error: undefined }
  const effects: Report[] = []
  const settled = settle(next, snapshot, effects, config)
  // Edits pass the checks setState applies: the committed state must stay within the limits.
  if (values.size > 0) acceptState(model.snapshot.committed, settled.snapshot.committed, memo.rules, 'approve')
  return settled
}

/**
 * Edits are keyed like the tool's arguments: a mapped argument's edit replaces its key's value;
 * a whole-arguments ('*') mapping merges them into the object.
 */
function editedValues<S>(model: Model<S>, keys: readonly string[], edits: Record<string, unknown> | undefined): Map<string, unknown> {
  const values = new Map<string, unknown>()
  if (!edits) return values
  for (const key of keys) {
    const draft = findDraft(model.drafts, key)!
    const argument = draft.toolArgument
    if (argument === '*') {
      const current = valueAt(model.snapshot.state, key)
      values.set(key, { ...(isPlainObject(current) ? current : {}), ...edits })
    } else if (Object.hasOwn(edits, argument)) values.set(key, edits[argument])
  }
  return values
}

function pickSettings(options: RunOptions | undefined): Partial<RunSettings> {
  if (!options) return {}
  return {
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.context ? { context: options.context } : {}),
    ...(options.forwardedProps !== undefined ? { forwardedProps: options.forwardedProps } : {}),
  }
}

function restorePoint<S>(model: Model<S>): Outbox<S>['restore'] {
  const { state, committed, predictions, confirmations, messages } = model.snapshot
  return { server: model.server, drafts: model.drafts, state, committed, predictions, confirmations, messages }
}

/**
 * What the answers add to the resumed run. LangGraph's `Command.resume` takes one value, which
 * resumes one interrupt, or a map of interrupt id -> value for several (its keys must all be its
 * interrupt ids): one on_interrupt answer goes as its value, several as that map, keyed by the
 * confirmations' ids (LangGraph's own when the on_interrupt events carried them).
 */
function resumeParts<S>(outbox: Outbox<S>) {
  const messages: Message[] = []
  const resume: ResumeEntry[] = []
  const commands: [string, unknown][] = []
  outbox.answers.forEach((answer, i) => {
    if (answer.message) messages.push(answer.message)
    if (answer.resume) resume.push(answer.resume)
    if ('command' in answer) commands.push([outbox.answered[i]!.id, answer.command])
  })
  const command = commands.length === 0 ? ABSENT : commands.length === 1 ? commands[0]![1] : Object.fromEntries(commands)
  return { messages, resume, command }
}

/** LangGraph's resume command, added to the forwardedProps the run it resumes had. */
function withResumeCommand(forwardedProps: unknown, resume: unknown): unknown {
  const props = isPlainObject(forwardedProps) ? forwardedProps : {}
  const command = isPlainObject(props.command) ? props.command : {}
  return { ...props, command: { ...command, resume } }
}
