import type { MachineConfig } from './config'
import { initialModel, type Model } from './model'
import { failRun } from './run-end'
import { dropRequest, withRequestShown } from './transition'
import { followBranch } from './tree'

// What a store starts from: a thread read back (from storage, `restore`, or the devtools), or the
// blank thread. The shell reads and checks the saved text; what becomes of the run it held is
// decided here.

/**
 * A restored model starts without a request: the one it had belongs to another page. A run that was
 * streaming ends as an abort() would end it: drafts discarded, answers not yet delivered given back,
 * and a regenerate that had no message yet gives back the answer it was to replace.
 */
export function startingModel<S>(restored: Model<S> | undefined, config: MachineConfig<S>): Model<S> {
  if (!restored) return initialModel(config.initial)
  // A thread saved before snapshots said whether a request was open says so now.
  if (!restored.request) return withRequestShown(followBranch(restored))
  return withRequestShown(followBranch(dropRequest(restored, undefined, config).model))
}

/**
 * A saved thread `running` with no request: a run fed through apply() goes on with the app's next
 * events; one that a request streamed (a devtools jump saved mid-run, an older release) ends as
 * abort() would. (A model given directly, as the devtools' replay gives one, is taken as it is.)
 */
export function withoutLostRun<S>(model: Model<S>, config: MachineConfig<S>): Model<S> {
  if (model.request || model.snapshot.status !== 'running') return model
  if (model.run && model.run.requestId === undefined) return model
  const ended = model.run ? failRun(model, { ...model.snapshot, steps: [] }, undefined, config).model : model
  if (ended.snapshot.status !== 'running') return ended
  const status = ended.snapshot.confirmations.length > 0 ? 'interrupted' : 'idle'
  return { ...ended, snapshot: { ...ended.snapshot, status, steps: [] } }
}
