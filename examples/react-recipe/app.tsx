import { useAgentStore } from '@agent-state/react'
import { statusView } from '../shared/view'
import { Chat } from './chat'
import { RecipeCard } from './recipe-card'
import { store } from './store'

export function App() {
  const status = useAgentStore(store, (s) => s.status)
  const steps = useAgentStore(store, (s) => s.steps)
  const view = statusView({ status, steps })
  return (
    <>
      <header className="topbar">
        <a className="home" href="../">
          ← Examples
        </a>
        <h1>Recipe</h1>
        <span className="framework">React · shared state</span>
        <span className="spacer" />
        <span className={`status ${view.kind}`} data-testid="status">
          {view.label}
          {view.step && <span className="status-step">{view.step}</span>}
        </span>
        <button type="button" className="button small" onClick={() => store.reset(undefined, { newThread: true })}>
          New chat
        </button>
      </header>
      <main className="layout">
        <RecipeCard />
        <Chat />
      </main>
    </>
  )
}
