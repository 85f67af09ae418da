// Small pure questions about a snapshot, for enabling buttons: they say what the store would accept
// right now, so a UI that disables its controls with them never triggers a refused action. They
// read `requesting`, not `status`: a reconnect is a request whatever the status, and a run fed
// through apply() is 'running' with none. (A store made without an agent refuses every run().)
import type { AgentSnapshot } from './types'

/** Whether `run()` would start a run now: no request is open and no confirmation waits for an answer. */
export const canRun = (snapshot: AgentSnapshot<unknown>): boolean => !snapshot.requesting && snapshot.confirmations.length === 0

/** Whether an answer (`approve`, `reject`, `respond`, `cancel`) would be accepted now: a confirmation is open and no request is. With several open, pass the id. */
export const canAnswer = (snapshot: AgentSnapshot<unknown>): boolean => !snapshot.requesting && snapshot.confirmations.length > 0

/** Whether `abort()` would stop something: a request (a run, an answer's run, a reconnect) is open. */
export const canAbort = (snapshot: AgentSnapshot<unknown>): boolean => snapshot.requesting
