import type { Model } from '../machine/model'
import { decodeModel, encodeModel } from '../persistence/model-codec'
import type { AgentStore, AgentStoreOptions } from '../types'
import { createStoreFrom, storeInternals } from './store'

// A store's whole model as JSON, and a store that continues from it: for the devtools and tests.
// Unlike a saved thread it carries no version and is not checked: the value is trusted.

/** The model a store holds right now. */
export const storeModel = (store: object): Model<unknown> => storeInternals(store).model()

/** The store's model as a plain JSON value: `JSON.stringify` round-trips it. */
export const snapshotModel = (store: object): unknown => encodeModel(storeModel(store))

/** A store that continues from a model taken by `snapshotModel`. */
export function restoreModel<S>(options: AgentStoreOptions<S>, model: unknown): AgentStore<S> {
  return createStoreFrom(options, decodeModel<S>(model))
}
