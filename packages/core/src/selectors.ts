// Small pure questions about a snapshot, for enabling buttons: they say what the store would accept
// right now, so a UI that disables its controls with them never triggers a refused action.
import type { AgentSnapshot } from './types'

/** Whether `run()` would start a run now: nothing is running and no confirmation is open. */
export const canRun = (snapshot: AgentSnapshot<unknown>): boolean =>
  (snapshot.status === 'idle' || snapshot.status === 'error') && snapshot.confirmations.length === 0

/** Whether an answer (`approve`, `reject`, `respond`, `cancel`) would be accepted now: the run has ended with a confirmation open. With several open, pass the id. */
export const canAnswer = (snapshot: AgentSnapshot<unknown>): boolean => snapshot.status === 'interrupted' && snapshot.confirmations.length > 0
