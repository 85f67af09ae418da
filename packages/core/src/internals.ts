// For the devtools and other packages of this project: the store's model and its transition.
// Not part of the public API; it may change with any release of the core.

export type { Draft, Model } from './machine/model'
export type { Effect, Input } from './machine/transition'
export { decodeModel, encodeModel } from './persistence/model-codec'
export { createStoreFrom, type Observer, type StoreInternals, storeInternals } from './shell/store'
export { restoreModel, snapshotModel, storeModel } from './shell/store-model'
