import { useAgentStore } from '@agent-state/react'
import { useState } from 'react'
import { branchingBlocked, type ChatItem, versionLabel } from '../shared/view'
import { shownStore, threads } from './store'

/** Under a message: Edit (a question), Regenerate (the end of an answer), and ‹ 2 / 3 › when it has versions. */
export function MessageTools({ item, endsAnswer, onEdit }: { item: ChatItem; endsAnswer: boolean; onEdit: () => void }) {
  const position = useAgentStore(threads, (s) => s.branches[item.id])
  const blocked = useAgentStore(threads, branchingBlocked)
  if (item.role !== 'user' && !endsAnswer && !position) return null
  return (
    <li className={`message-tools ${item.role === 'user' ? 'user' : 'assistant'}`}>
      {position && (
        <span className="versions" data-testid="versions">
          <button
            type="button"
            aria-label="Previous version"
            title={blocked}
            disabled={!!blocked || position.index === 0}
            onClick={() => void shownStore().switchBranch({ messageId: item.id, index: position.index - 1 })}
          >
            ‹
          </button>{' '}
          <span>{versionLabel(position)}</span>{' '}
          <button
            type="button"
            aria-label="Next version"
            title={blocked}
            disabled={!!blocked || position.index === position.count - 1}
            onClick={() => void shownStore().switchBranch({ messageId: item.id, index: position.index + 1 })}
          >
            ›
          </button>
        </span>
      )}
      {item.role === 'user' && (
        <button type="button" aria-label="Edit message" title={blocked} disabled={!!blocked} onClick={onEdit}>
          Edit
        </button>
      )}
      {endsAnswer && (
        <button type="button" title={blocked} disabled={!!blocked} onClick={() => void shownStore().regenerate({ messageId: item.id })}>
          Regenerate
        </button>
      )}
    </li>
  )
}

/** A question being edited: sending it runs the new version from the state the original was sent with. */
export function EditMessage({ item, onDone }: { item: ChatItem; onDone: () => void }) {
  const [text, setText] = useState(item.text)
  const blocked = useAgentStore(threads, branchingBlocked)
  return (
    <li className="message-edit">
      <form
        onSubmit={(event) => {
          event.preventDefault()
          onDone()
          void shownStore().edit({ messageId: item.id, content: text.trim() })
        }}
      >
        <textarea aria-label="Edit your message" rows={2} value={text} onChange={(event) => setText(event.target.value)} />
        <span className="message-edit-actions">
          <button type="button" className="button small" onClick={onDone}>
            Cancel
          </button>
          <button type="submit" className="button small primary" title={blocked} disabled={!!blocked || !text.trim()}>
            Send edit
          </button>
        </span>
      </form>
    </li>
  )
}
