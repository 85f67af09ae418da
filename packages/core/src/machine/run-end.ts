import type { Message, RunFinishedEvent, ToolCall } from '@ag-ui/core'
import type { AgentStoreError } from '../errors'
import { endRunWork } from '../snapshot/lifecycle'
import { claimChangedKeys, mergeEdit, rebaseEdit } from '../state/edit-merge'
import type { AgentSnapshot } from '../types'
import type { MachineConfig } from './config'
import { answeredCalls, collectConfirmations, onInterruptIds } from './confirmations'
import { discardDrafts, EMPTY, keepDrafts, newRun, settle } from './drafts'
import { type Model, type Report, report } from './model'

type Ended<S> = { model: Model<S>; effects: Report[] }

/** RUN_FINISHED: the run finished, or the server cancelled it (its outcome says which). */
export const finishRun = <S>(model: Model<S>, snapshot: AgentSnapshot<S>, event: RunFinishedEvent, config: MachineConfig<S>): Ended<S> =>
  endOfRun(model, snapshot, event, undefined, config)

/** RUN_ERROR, a transport failure or a truncated stream, with its error; abort() or a run superseded, without. */
export const failRun = <S>(model: Model<S>, snapshot: AgentSnapshot<S>, error: AgentStoreError | undefined, config: MachineConfig<S>): Ended<S> =>
  endOfRun(model, snapshot, undefined, error, config)

/**
 * The end of a run. Finished: the user's edits fold into the server state, drafts nobody has to
 * confirm are committed, the others are held by the confirmations the run leaves open. Failed or
 * cancelled: every state change the run made is rolled back to the committed state from before
 * it, keeping the user's own edits (unless `keepFailedRunChanges`); the conversation stays.
 */
function endOfRun<S>(
  model: Model<S>,
  snapshot: AgentSnapshot<S>,
  finished: RunFinishedEvent | undefined,
  failure: AgentStoreError | undefined,
  config: MachineConfig<S>,
): Ended<S> {
  const effects: Report[] = []
  // A recording fed to apply() may end a run it never started: its interrupts still count.
  const run = model.run ?? (finished ? newRun(model, config, finished.runId) : undefined)
  if (!run) return { model: { ...model, snapshot }, effects }
  const completed = finished !== undefined && finished.outcome?.type !== 'cancelled'
  // A finished run's steps and subagents were closed by RUN_FINISHED's reducer; status and error are set below.
  if (!completed) {
    const error = failure ?? snapshot.error
    // Open steps close, and subagents still running end as failed with their run.
    const ended = endRunWork(snapshot, { message: error?.message ?? 'The run was stopped', ...(error?.code ? { code: error.code } : {}) })
    // A failed run's cut calls go; a run the server cancelled keeps what the server sent.
    const cut = finished ? [] : Object.keys(run.streaming)
    snapshot = { ...ended, status: failure ? 'error' : 'idle', error, messages: withoutCutCalls(ended.messages, cut, run.messagesBefore) }
  }
  const runKeys = model.drafts.filter((draft) => draft.runId === run.runId).map((draft) => draft.stateKey)
  if (!completed && !config.keepFailedRunChanges) {
    // The user's own edits are replayed, as they were made, on the state from before the run.
    let server = run.base
    for (const edit of model.userEdits) {
      const merged = mergeEdit(edit.base, edit.mine, server, config.merge, edit.whole)
      for (const error of merged.conflicts) effects.push(report(error))
      server = merged.value
    }
    const drafts = model.drafts.filter((draft) => !runKeys.includes(draft.stateKey))
    const rolledBack = { ...model, server: server as S, edit: undefined, userEdits: [], run: undefined, drafts }
    return { model: settle(rolledBack, snapshot, effects, config), effects }
  }
  let next: Model<S> = { ...model, run: undefined, userEdits: [] }
  // Still holding the opening empty snapshot: that is the server's last word, and the user's keys stay theirs.
  if (run.holding) next = { ...next, server: EMPTY as S, edit: next.edit && claimChangedKeys(next.edit) }
  if (next.edit) next = { ...next, server: rebaseEdit(next.edit, next.server, config.merge).value as S, edit: undefined }
  if (!completed) return commitRunDrafts(next, snapshot, runKeys, effects, config)
  const ids = onInterruptIds(run)
  const found = collectConfirmations(finished!, run, snapshot.messages, config.confirmTools, model.drafts, ids)
  // An interrupt whose answer already reached the server is never opened again by a replay of its
  // run (events fed through apply(), after a restore too). A run this store's request streams is
  // live: what it asks is its own, whatever id the server reuses (agent-framework names interrupts
  // after tool calls, which some models number from 0 every turn).
  const live = run.requestId !== undefined
  const confirmations = live ? found : found.filter((c) => c.source !== 'interrupt' || !model.answeredInterrupts.includes(c.id))
  const held = new Set(confirmations.flatMap((c) => c.stateKeys))
  const open = [...snapshot.confirmations, ...confirmations]
  snapshot = { ...snapshot, confirmations: open, status: open.length > 0 ? 'interrupted' : 'idle', steps: [] }
  return commitRunDrafts(
    next,
    snapshot,
    runKeys.filter((key) => !held.has(key)),
    effects,
    config,
  )
}

/**
 * Tool calls cut off in the middle of their arguments were never made: sent back, their half JSON
 * and missing result make the next run fail (the CopilotKit runtime refuses it). They go, and so
 * does an assistant message this run made for them alone. A call whose arguments are whole, or
 * that has a result, stays.
 */
function withoutCutCalls(messages: readonly Message[], streaming: readonly string[], before: readonly string[]): readonly Message[] {
  if (streaming.length === 0) return messages
  const answered = answeredCalls(messages)
  const isCut = (call: ToolCall) => streaming.includes(call.id) && !answered.has(call.id) && !isWholeJson(call.function.arguments)
  const kept: Message[] = []
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.toolCalls?.some(isCut)) {
      kept.push(message)
      continue
    }
    const { toolCalls, ...rest } = message
    const calls = toolCalls.filter((call) => !isCut(call))
    if (calls.length > 0) kept.push({ ...rest, toolCalls: calls })
    else if (rest.content !== undefined || before.includes(message.id)) kept.push(rest)
  }
  return kept
}

function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * Drafts are not validated while they stream; a committed state is. Drafts the validator refuses
 * when their run ends are discarded instead, and said so.
 */
function commitRunDrafts<S>(model: Model<S>, snapshot: AgentSnapshot<S>, keys: string[], effects: Report[], config: MachineConfig<S>) {
  const kept = keepDrafts({ ...model, snapshot }, keys)
  try {
    return { model: settle(kept, snapshot, effects, config), effects }
  } catch (error) {
    const refused = error as AgentStoreError
    effects.push(report(refused))
    const discarded = discardDrafts(model, keys)
    return { model: settle(discarded, { ...snapshot, error: refused }, effects, config), effects }
  }
}
