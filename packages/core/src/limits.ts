import type { AgentStoreLimits } from './types'

/** What a store allows when its options set no limit; the transport and the state rules both read it. */
export const defaultLimits: AgentStoreLimits = {
  maxDepth: 512,
  maxOpsPerDelta: 10_000,
  maxStateBytes: 16 * 1024 * 1024,
  // As large as the largest state: a STATE_SNAPSHOT of it must still fit in one event.
  maxEventBytes: 16 * 1024 * 1024,
}
