import type { Model } from '../machine/model'
import type { SavedModel, SavedThread } from '../types'

// The saved-thread format, declared apart from the model: these types are what storage holds, and
// `savedFromModel` / `modelFromSaved` are the only places that know both. The compiler checks the
// two against each other, so a change to the model that would change the format fails here: map
// the new field to the old saved one, or bump FORMAT_VERSION and read the older format in
// `serialize.ts` (`upgradeFormat`). Today the two have the same layout and the mapping copies nothing.

/** The layout storage holds today; formats 1 (no `appVersion`) and 2 (no conversation tree) are read too. */
export const FORMAT_VERSION: SavedThread['version'] = 3

/** The model in the saved layout. */
export const savedFromModel = (model: Model<unknown>): SavedModel => model

/** A saved conversation (checked already) as the model. */
export function modelFromSaved<S>(saved: SavedModel): Model<S> {
  const model: Model<unknown> = saved
  return model as Model<S>
}
