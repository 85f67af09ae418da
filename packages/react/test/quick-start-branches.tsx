import { type AgentStore, canRun, useAgentStore } from '@agent-state/react'

// ‹ 2 / 3 › under a message with versions: store.edit({ messageId, content })
// and store.regenerate({ messageId }) make new ones.
type Props = { store: AgentStore<{ document: string }>; messageId: string }

export function Versions({ store, messageId }: Props) {
  // { index, count }, or undefined: no other versions
  const at = useAgentStore(store, (s) => s.branches[messageId])
  // the store refuses a switch while a run is active or a confirmation is open
  const ready = useAgentStore(store, canRun)
  if (!at) return null
  const step = (by: number) => store.switchBranch({ messageId, index: at.index + by })
  return (
    <span>
      <button type="button" disabled={!ready || at.index === 0} onClick={() => step(-1)}>
        ‹
      </button>
      {` ${at.index + 1} / ${at.count} `}
      <button type="button" disabled={!ready || at.index === at.count - 1} onClick={() => step(1)}>
        ›
      </button>
    </span>
  )
}
