/** @jsxImportSource solid-js */
// The thread as a page shows it, rendered on the server (ssr-server.tsx) and hydrated on the client (ssr.test.tsx).
import { type AgentStore, useAgentStore } from '@agent-state/solid'
import { For } from 'solid-js'

export interface Doc {
  document: string
}

export function Thread(props: { store: AgentStore<Doc> }) {
  const snapshot = useAgentStore(() => props.store)
  return (
    <main>
      <p data-status="">{snapshot().status}</p>
      <article>{snapshot().state.document}</article>
      <ul>
        <For each={snapshot().messages}>{(message) => <li>{`${message.role}: ${typeof message.content === 'string' ? message.content : ''}`}</li>}</For>
      </ul>
      <For each={snapshot().confirmations}>{(confirmation) => <button type="button">{`Approve ${confirmation.id}`}</button>}</For>
    </main>
  )
}
