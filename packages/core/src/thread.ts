import { MessageSchema } from '@ag-ui/core/schemas'
import { AgentStoreError, messageOf } from './errors'
import { isPlainObject } from './json-value'
import type { Model } from './model'
import { decodeModel, encodeModel } from './model-io'
import { acceptState, checkState, type StateRules } from './reduce/state'

// A thread saved as one plain JSON value, and read back with every part checked: it may come
// from an older release, another tab or a damaged storage, and a bad one must not reach the view.

export const THREAD_VERSION = 1

/** Everything a store needs to continue a conversation: `JSON.stringify` round-trips it. */
export interface SerializedThread {
  readonly version: typeof THREAD_VERSION
  readonly threadId: string
  /** `Date.now()` when it was taken. */
  readonly savedAt: number
  /**
   * The store's model: messages, committed state, drafts with their baselines, open confirmations,
   * answers not yet delivered, the user's edits not yet sent, the interrupts already answered and
   * the last run's options. Its layout belongs to the store: read it through a store, not directly.
   */
  readonly model: unknown
}

export function serializeThread(model: Model<unknown>, now: number): SerializedThread {
  return { version: THREAD_VERSION, threadId: model.snapshot.threadId, savedAt: now, model: encodeModel(model) }
}

/** The model of a saved thread; throws RESTORE (with `reason`) for an unknown version or a damaged value. */
export function readThread<S>(saved: unknown, rules: StateRules<S>): Model<S> {
  if (!isPlainObject(saved)) throw refused('not-a-thread', 'The saved thread is not an object')
  if (saved.version !== THREAD_VERSION) {
    throw refused('unknown-version', `The saved thread has version ${JSON.stringify(saved.version)}; this store reads version ${THREAD_VERSION}`)
  }
  let model: Model<S>
  try {
    model = decodeModel<S>(saved.model)
    checkModel(model, saved.threadId)
    // The limits and the validator, as for a state from the server: storage is no more trusted than the network.
    for (const state of [model.snapshot.state, model.snapshot.committed, model.server]) checkState(acceptState(undefined as S, state, rules, 'restore'), rules)
  } catch (error) {
    if (error instanceof AgentStoreError && error.code === 'RESTORE') throw error
    throw refused('damaged', `The saved thread is damaged: ${messageOf(error)}`, error)
  }
  return model
}

const statuses = new Set(['idle', 'running', 'interrupted', 'error'])

/** The parts every transition relies on, with the types it relies on. */
function checkModel(model: Model<unknown>, threadId: unknown): void {
  const part = (ok: boolean, what: string) => {
    if (!ok) throw refused('damaged', `The saved thread is damaged: ${what}`)
  }
  part(isPlainObject(model), 'no model')
  const { snapshot } = model
  part(isPlainObject(snapshot) && typeof snapshot.threadId === 'string' && snapshot.threadId === threadId, 'its thread id')
  part(statuses.has(snapshot.status) && Array.isArray(snapshot.steps), 'its status')
  part(Array.isArray(snapshot.messages) && snapshot.messages.every((m) => MessageSchema.safeParse(m).success), 'its messages')
  part(Array.isArray(snapshot.confirmations) && snapshot.confirmations.every((c) => isPlainObject(c) && typeof c.id === 'string'), 'its confirmations')
  for (const list of [snapshot.predictions, snapshot.subagents, snapshot.subagentSteps, model.userEdits]) part(Array.isArray(list), 'a list')
  part(Array.isArray(model.drafts) && model.drafts.every((d) => isPlainObject(d) && typeof d.stateKey === 'string'), 'its drafts')
  part(Array.isArray(model.answeredInterrupts) && model.answeredInterrupts.every((id) => typeof id === 'string'), 'its answered interrupts')
  part(isPlainObject(model.settings) && Array.isArray(model.settings.tools) && Array.isArray(model.settings.context), 'its run options')
  part(model.run === undefined || isPlainObject(model.run), 'its run')
  part(model.outbox === undefined || (isPlainObject(model.outbox) && Array.isArray(model.outbox.answers)), 'its answers')
}

const refused = (reason: string, message: string, cause?: unknown) =>
  new AgentStoreError('RESTORE', message, cause === undefined ? { reason } : { reason, cause })
