import { AgentStoreError, messageOf } from './errors'
import { isPlainObject } from './json-value'
import type { Model } from './model'
import { decodeModel, encodeModel } from './model-io'
import { acceptState, checkState, type StateRules } from './reduce/state'
import { checkSavedValues } from './reduce/value-limits'
import { misfitOf } from './saved-format'
import type { SerializedThread } from './types'

// A thread saved as one plain JSON value, and read back with every part checked: it may come
// from an older release, another tab or a damaged storage, and a bad one must not reach the view.

export const THREAD_VERSION: SerializedThread['version'] = 1

export function serializeThread(model: Model<unknown>, now: number): SerializedThread {
  return { version: THREAD_VERSION, threadId: model.snapshot.threadId, savedAt: now, model: encodeModel(model) }
}

/** The model of a saved thread; throws RESTORE (with `reason`) for an unknown version or a damaged value. */
export function readThread<S>(saved: unknown, rules: StateRules<S>): Model<S> {
  if (!isPlainObject(saved)) throw refused('not-a-thread', 'The saved thread is not an object')
  if (saved.version !== THREAD_VERSION) {
    throw refused('unknown-version', `The saved thread has version ${JSON.stringify(saved.version)}; this store reads version ${THREAD_VERSION}`)
  }
  // Measured before it is decoded: decoding walks it, as every later save would.
  const beyond = checkSavedValues(saved.model, rules.limits)
  if (beyond) throw refused('damaged', `The saved thread is damaged: ${beyond.message}`, beyond)
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

/** Every part of the model, by the saved format; and the thread it says it is. */
function checkModel(model: Model<unknown>, threadId: unknown): void {
  const misfit = misfitOf(model)
  if (misfit) throw refused('damaged', `The saved thread is damaged: ${misfit} has the wrong shape`)
  if (model.snapshot.threadId !== threadId) throw refused('damaged', 'The saved thread is damaged: its thread id')
}

const refused = (reason: string, message: string, cause?: unknown) =>
  new AgentStoreError('RESTORE', message, cause === undefined ? { reason } : { reason, cause })
