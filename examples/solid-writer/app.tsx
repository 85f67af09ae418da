/** @jsxImportSource solid-js */
import { useAgentStore } from '@agent-state/solid'
import { Show } from 'solid-js'
import { statusView } from '../shared/view'
import { Chat } from './chat'
import { DocumentPanel } from './document-panel'
import { store } from './store'

export function App() {
  const status = useAgentStore(store, (s) => s.status)
  const steps = useAgentStore(store, (s) => s.steps)
  const view = () => statusView({ status: status(), steps: steps() })
  return (
    <>
      <header class="topbar">
        <a class="home" href="../">
          ← Examples
        </a>
        <h1>Writer</h1>
        <span class="framework">Solid · approve or reject a draft</span>
        <span class="spacer" />
        <span class={`status ${view().kind}`} data-testid="status">
          {view().label}
          <Show when={view().step}>{(step) => <span class="status-step">{step()}</span>}</Show>
        </span>
        <button type="button" class="button small" onClick={() => store.reset(undefined, { newThread: true })}>
          New chat
        </button>
      </header>
      <main class="layout">
        <DocumentPanel />
        <Chat />
      </main>
    </>
  )
}
