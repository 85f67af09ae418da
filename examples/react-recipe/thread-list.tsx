import { useAgentStore } from '@agent-state/react'
import { deleteShownThread, showThread, threads } from './store'

const statusLabels = { running: 'live', interrupted: 'waiting', error: 'failed', idle: '' } as const

/** The conversations, most recent first: each one keeps running in the background while another is shown. */
export function ThreadList() {
  const list = useAgentStore(threads, (s) => s.threads)
  const shown = useAgentStore(threads, (s) => s.activeThreadId)
  return (
    <nav className="threads" aria-label="Chats">
      <div role="tablist" aria-label="Chats" className="thread-tabs">
        {list.map((thread) => (
          <button
            key={thread.id}
            type="button"
            role="tab"
            aria-selected={thread.id === shown}
            data-thread-id={thread.id}
            className={`thread-tab ${thread.status}`}
            onClick={() => showThread(thread.id)}
          >
            <span className="thread-title">{thread.title ?? 'Untitled'}</span>
            {statusLabels[thread.status] && <span className="thread-status">{statusLabels[thread.status]}</span>}
          </button>
        ))}
      </div>
      <button type="button" className="button small danger" onClick={() => void deleteShownThread()}>
        Delete chat
      </button>
    </nav>
  )
}
