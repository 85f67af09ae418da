import { AgentStoreError, messageOf } from '../errors'
import { initialModel, type Model } from '../machine/model'
import { withoutLostRun } from '../machine/restore'
import { type AppVersioning, encodeThread, readThread } from '../persistence/serialize'
import type { AgentStore, ReadableAgentStore, SerializedThread, ThreadRestore } from '../types'
import { type HydrationOptions, persistParts, type RestoreParts, startFrom } from './hydration'
import { storeInternals } from './store'

// A thread taken as one JSON value and continued elsewhere: `serializeThread(store)` on the server
// (or before a reload), `restore: restoreThread(saved)` on the client. Functions of their own
// rather than parts of the store: an app that does not save threads does not ship the code.

/** The whole thread as plain JSON, for `restore: restoreThread(saved)` after a reload, on another page or on the client after SSR. */
export function serializeThread<TState>(store: ReadableAgentStore<TState> | AgentStore<TState>): SerializedThread {
  const { model, options } = storeInternals<TState>(store)
  return encodeThread(model() as Model<unknown>, Date.now(), persistParts(options.persist)?.options)
}

/**
 * A thread from `serializeThread` for a store's `restore` option. One of an unknown format, damaged,
 * or of another app version without a working `migrate` is refused when the store is created
 * (RESTORE, through `onError` and `error`) and the store starts from `initialState`.
 */
export function restoreThread(saved: SerializedThread | null | undefined): ThreadRestore {
  const parts: RestoreParts = { saved, hydrate: (hydration) => startFrom(hydration.given ?? readSaved(saved, hydration, undefined), hydration) }
  return parts as unknown as ThreadRestore
}

/**
 * The model of a saved thread, checked; a bad one is reported (after `refused`, which keeps it
 * elsewhere) and the store starts from `initialState`. Nothing for none.
 */
export function readSaved<S>(
  value: unknown,
  hydration: HydrationOptions<S>,
  versioning: AppVersioning | undefined,
  refused?: () => void,
): Model<S> | undefined {
  if (value == null) return undefined
  try {
    return withoutLostRun(readThread(value, hydration.memo.rules, versioning), hydration.config)
  } catch (error) {
    refused?.()
    return notRestored(error, hydration)
  }
}

/** Reported, and shown as the store's error: the store starts from `initialState`. */
export function notRestored<S>(cause: unknown, { config, report }: HydrationOptions<S>): Model<S> {
  const error = cause instanceof AgentStoreError ? cause : notReadError(cause)
  report(error)
  return { ...initialModel(config.initial), snapshot: { ...config.initial, error } }
}

const notReadError = (error: unknown) =>
  new AgentStoreError('PERSIST', `The saved thread could not be read: ${messageOf(error)}`, { reason: 'read', cause: error })
