import { useAgentStore } from '@agent-state/react'
import { statusView } from '../shared/view'
import { Chat } from './chat'
import { RecipeCard } from './recipe-card'
import { newThread, threads } from './store'
import { ThreadList } from './thread-list'

export function App() {
  const status = useAgentStore(threads, (s) => s.status)
  const steps = useAgentStore(threads, (s) => s.steps)
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
        <button type="button" className="button small" onClick={newThread}>
          New chat
        </button>
      </header>
      <ThreadList />
      <main className="layout">
        <RecipeCard />
        <Chat />
      </main>
    </>
  )
}
