import { canRun, useAgentStore } from '@agent-state/react'
import { Fragment, useEffect, useMemo, useRef, useState } from 'react'
import { answerEnds, answerInterrupted, type ChatItem, chatItems, lastRequest } from '../shared/view'
import { EditMessage, MessageTools } from './message-tools'
import { shownStore, threads } from './store'

const suggestions = ['Spaghetti carbonara, please', 'Make it vegetarian', 'Make it spicy', 'I need something quicker']

export function Chat() {
  const messages = useAgentStore(threads, (s) => s.messages)
  // Sending is possible exactly when the store would start a run: nothing running, nothing to answer.
  const busy = useAgentStore(threads, (s) => !canRun(s))
  const error = useAgentStore(threads, (s) => s.error)
  const interrupted = useAgentStore(threads, answerInterrupted)
  const [text, setText] = useState('')
  const items = useMemo(() => chatItems(messages), [messages])
  const ends = useMemo(() => answerEnds(items), [items])
  const [editing, setEditing] = useState<string>()
  const list = useRef<HTMLOListElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the end whenever the list of messages (or the notice after it) changes
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight })
  }, [items, interrupted])

  function send(message: string) {
    if (busy || !message.trim()) return
    setText('')
    void shownStore().run({ message: message.trim() })
  }

  function retry() {
    const request = lastRequest(messages)
    if (request) send(request)
  }

  return (
    <aside className="panel chat">
      <div className="panel-head">
        <strong>Chat</strong>
      </div>
      <ol className="messages" ref={list}>
        {items.length === 0 && <li className="empty">Ask for a dish, then change anything on the card, even while the agent is still writing it.</li>}
        {items.map((item) => (
          <Fragment key={item.id}>
            {editing === item.id ? <EditMessage item={item} onDone={() => setEditing(undefined)} /> : <ChatBubble item={item} />}
            <MessageTools item={item} endsAnswer={ends.has(item.id)} onEdit={() => setEditing(item.id)} />
          </Fragment>
        ))}
        {interrupted && (
          <li className="interrupted" data-testid="interrupted">
            The answer was interrupted before it finished.
            <button type="button" className="button small" onClick={retry}>
              Retry
            </button>
          </li>
        )}
      </ol>
      {error && <p className="error-banner">{error.message}</p>}
      <div className="suggestions">
        {suggestions.map((suggestion) => (
          <button type="button" key={suggestion} disabled={busy} onClick={() => send(suggestion)}>
            {suggestion}
          </button>
        ))}
      </div>
      <form
        className="composer"
        onSubmit={(event) => {
          event.preventDefault()
          send(text)
        }}
      >
        <input aria-label="Message" placeholder="Ask for a recipe…" value={text} onChange={(event) => setText(event.target.value)} />
        <button type="submit" className="button primary" disabled={busy || !text.trim()}>
          Send
        </button>
      </form>
    </aside>
  )
}

/** One message as a chat bubble: text, a collapsible thought, or a progress card, with the tools it called. */
function ChatBubble({ item }: { item: ChatItem }) {
  return (
    <li className={`message ${item.role}`}>
      {item.role === 'reasoning' ? (
        <details className="thinking">
          <summary>Thinking</summary>
          {item.text}
        </details>
      ) : item.progress ? (
        <div className="activity-card" data-testid="progress">
          <span>
            {item.text} · {item.progress.done}/{item.progress.total}
          </span>
          <progress max={item.progress.total} value={item.progress.done} />
        </div>
      ) : (
        item.text
      )}
      {item.toolCalls.map((name, i) => (
        <span key={i} className="tool-call">
          {name}
        </span>
      ))}
    </li>
  )
}
