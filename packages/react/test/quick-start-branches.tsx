import { type AgentStore, canRun, useAgentStore } from '@agent-state/react'

// ‹ 2 / 3 › under a message with versions; store.edit({ messageId, content }) and store.regenerate({ messageId }) make new ones.
export function Versions({ store, messageId }: { store: AgentStore<{ document: string }>; messageId: string }) {
  const at = useAgentStore(store, (s) => s.branches[messageId]) // { index, count }, or undefined: no other versions
  const ready = useAgentStore(store, canRun) // the store refuses a switch while a run is active or a confirmation is open
  if (!at) return null
  return <span><button type="button" disabled={!ready || at.index === 0} onClick={() => store.switchBranch({ messageId, index: at.index - 1 })}>‹</button>
    {` ${at.index + 1} / ${at.count} `}<button type="button" disabled={!ready || at.index === at.count - 1} onClick={() => store.switchBranch({ messageId, index: at.index + 1 })}>›</button></span>
}
