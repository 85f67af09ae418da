// For the devtools and other packages of this project: the store's model and its transition.
// Not part of the public API; it may change with any release of the core.
export type { Effect, Input } from './machine'
export type { Draft, Model } from './model'
export { decodeModel, encodeModel } from './model-io'
export { createStoreFrom, type Observer, type StoreInternals, storeInternals } from './store'
