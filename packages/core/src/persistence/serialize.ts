import { AgentStoreError, messageOf } from '../errors'
import { isPlainObject } from '../json/json-value'
import type { Model } from '../machine/model'
import { acceptState, checkState, type StateRules } from '../state/state-rules'
import { checkSavedValues } from '../state/value-limits'
import type { PersistOptions, SavedModel, SavedRejoin, SavedThread, SavedView, SerializedThread } from '../types'
import { misfitOf, treeMisfitOf } from './check-saved'
import { decodeModel, encodeModel } from './model-codec'
import { FORMAT_VERSION, modelFromSaved, savedFromModel } from './saved-thread'

// A thread saved as one plain JSON value, and read back with every part checked: it may come
// from an older release, another tab or a damaged storage, and a bad one must not reach the view.
// Two versions travel with it: the library's format (read from every older one here) and the
// app's persist `version` (an app whose state changed shape gives `migrate`).

/** What a store checks a saved thread's app version against: its persist options, if any. */
export type AppVersioning = Pick<PersistOptions, 'version' | 'migrate'>

/** A model as the saved-thread format: `JSON.stringify` round-trips it. */
export function encodeThread(model: Model<unknown>, now: number, versioning?: AppVersioning): SerializedThread {
  return {
    version: FORMAT_VERSION,
    threadId: model.snapshot.threadId,
    savedAt: now,
    ...(versioning ? { appVersion: versioning.version ?? 0 } : {}),
    model: encodeModel(savedFromModel(model) as Model<unknown>),
  }
}

/**
 * The model of a saved thread; throws RESTORE (with `reason`) for an unknown format, a damaged
 * value, or an app version that differs with no `migrate` (or one that throws).
 */
export function readThread<S>(value: unknown, rules: StateRules<S>, versioning?: AppVersioning): Model<S> {
  const upgraded = upgradeFormat(value)
  // Measured before it is decoded: decoding walks it, as every later save would.
  const beyond = checkSavedValues(upgraded.model, rules.limits)
  if (beyond) throw refused('damaged', `The saved thread is damaged: ${beyond.message}`, beyond)
  let model: Model<S>
  try {
    const { from, ...thread } = upgraded
    const read = decodeModel<unknown>(upgraded.model)
    const decoded: SavedThread = { ...thread, model: from < 3 ? withoutTree(read) : read }
    checkModel(decoded)
    const saved = migrated(decoded, versioning)
    if (saved !== decoded) checkModel(saved)
    model = modelFromSaved<S>(saved.model)
    // The limits and the validator, as for a state from the server: storage is no more trusted than the network.
    for (const state of [model.snapshot.state, model.snapshot.committed, model.server]) checkState(acceptState(undefined as S, state, rules, 'restore'), rules)
  } catch (error) {
    if (error instanceof AgentStoreError && error.code === 'RESTORE') throw error
    throw refused('damaged', `The saved thread is damaged: ${messageOf(error)}`, error)
  }
  return model
}

/** A saved thread of any format this store reads, in today's layout but for its model, still encoded and of format `from`. */
function upgradeFormat(saved: unknown): Omit<SavedThread, 'model'> & { model: unknown; from: number } {
  if (!isPlainObject(saved)) throw refused('not-a-thread', 'The saved thread is not an object')
  const { version, threadId, savedAt, model } = saved
  // Format 1 had no app version: it was saved before the app could declare one.
  if (version === 1) return { version: FORMAT_VERSION, threadId: threadId as string, savedAt: savedAt as number, appVersion: 0, model, from: 1 }
  if (version !== FORMAT_VERSION && version !== 2) {
    throw refused('unknown-version', `The saved thread has format ${JSON.stringify(version)}; this store reads formats 1 to ${FORMAT_VERSION}`)
  }
  const appVersion = saved.appVersion
  if (appVersion !== undefined && typeof appVersion !== 'number') throw refused('damaged', 'The saved thread is damaged: its appVersion')
  return { version: FORMAT_VERSION, threadId: threadId as string, savedAt: savedAt as number, appVersion, model, from: version }
}

/** A model of formats 1 and 2, which had no conversation tree: every snapshot in it gets `branches: {}`. */
function withoutTree(model: SavedModel): SavedModel
function withoutTree(model: SavedModel | undefined): SavedModel | undefined
function withoutTree(model: SavedModel | undefined): SavedModel | undefined {
  if (!isPlainObject(model)) return model
  const view = (snapshot: SavedView) => (isPlainObject(snapshot) ? { ...snapshot, branches: {} } : snapshot)
  const rejoin = (rejoin: SavedRejoin | undefined) =>
    isPlainObject(rejoin) ? { ...rejoin, start: withoutTree(rejoin.start), cut: withoutTree(rejoin.cut) } : rejoin
  const { request } = model
  const unchanged = request?.unchanged
  return {
    ...model,
    snapshot: view(model.snapshot),
    rejoin: rejoin(model.rejoin),
    tree: undefined,
    request: isPlainObject(request)
      ? {
          ...request,
          start: withoutTree(request.start),
          rejoining: rejoin(request.rejoining),
          unchanged: isPlainObject(unchanged) ? { shown: view(unchanged.shown), before: view(unchanged.before) } : unchanged,
        }
      : request,
  }
}

/** The thread in the app's current version: `migrate` runs when the saved one differs. */
function migrated(saved: SavedThread, versioning: AppVersioning | undefined): SavedThread {
  const current = versioning?.version ?? 0
  // A store without `persist` declares no version; a thread without one came from such a store.
  if (!versioning || saved.appVersion === undefined || saved.appVersion === current) return saved
  if (!versioning.migrate) {
    throw refused('no-migrate', `The saved thread has app version ${saved.appVersion}; this store is version ${current} and has no persist.migrate`)
  }
  let result: unknown
  try {
    result = versioning.migrate(saved, saved.appVersion)
  } catch (error) {
    throw refused('migrate-failed', `persist.migrate threw on app version ${saved.appVersion}: ${messageOf(error)}`, error)
  }
  if (!isPlainObject(result) || isPromise(result))
    throw refused('migrate-failed', 'persist.migrate returned no saved thread (it must return one, synchronously)')
  return { ...(result as unknown as SavedThread), appVersion: current }
}

/** Every part of the saved conversation, by the saved format; and the thread it says it is. */
function checkModel(saved: SavedThread): void {
  const misfit = misfitOf(saved.model)
  if (misfit) throw refused('damaged', `The saved thread is damaged: ${misfit} has the wrong shape`)
  const impossible = treeMisfitOf(saved.model)
  if (impossible) throw refused('damaged', `The saved thread is damaged: ${impossible}`)
  if (saved.model.snapshot.threadId !== saved.threadId) throw refused('damaged', 'The saved thread is damaged: its thread id')
}

const isPromise = (value: object) => typeof (value as { then?: unknown }).then === 'function'

const refused = (reason: AgentStoreError<'RESTORE'>['reason'], message: string, cause?: unknown) =>
  new AgentStoreError('RESTORE', message, cause === undefined ? { reason } : { reason, cause })
