/** @jsxImportSource solid-js */
import { canRun, useAgentStore } from '@agent-state/solid'
import { createEffect, createSignal, For, Show } from 'solid-js'
import { answerInterrupted, chatItems, lastRequest } from '../shared/view'
import { store } from './store'

const suggestions = ['Write a short story about a lighthouse keeper', 'Add another paragraph', 'Give it a different ending', 'Make it shorter']

export function Chat() {
  const messages = useAgentStore(store, (s) => s.messages)
  // Sending is possible exactly when the store would start a run: nothing running, nothing to answer.
  const busy = useAgentStore(store, (s) => !canRun(s))
  const error = useAgentStore(store, (s) => s.error)
  const interrupted = useAgentStore(store, answerInterrupted)
  const items = () => chatItems(messages())
  const [text, setText] = createSignal('')
  let list: HTMLOListElement | undefined

  // The end of the conversation stays in view: as messages arrive, and once the page (re)loads with a saved thread.
  createEffect(() => {
    items()
    interrupted()
    list?.scrollTo({ top: list.scrollHeight })
  })

  function send(message: string) {
    if (busy() || !message.trim()) return
    setText('')
    void store.run({ message: message.trim() })
  }

  function retry() {
    const request = lastRequest(messages())
    if (request) send(request)
  }

  return (
    <aside class="panel chat">
      <div class="panel-head">
        <strong>Chat</strong>
      </div>
      <ol class="messages" ref={list}>
        <Show when={items().length === 0}>
          <li class="empty">Ask for a story. The agent streams it into the document as a draft, then asks you to approve it.</li>
        </Show>
        <For each={items()}>
          {(item) => (
            <li class={`message ${item.role}`}>
              {item.text}
              <For each={item.toolCalls}>{(name) => <span class="tool-call">{name}</span>}</For>
            </li>
          )}
        </For>
        <Show when={interrupted()}>
          <li class="interrupted" data-testid="interrupted">
            The answer was interrupted before it finished.
            <button type="button" class="button small" onClick={retry}>
              Retry
            </button>
          </li>
        </Show>
      </ol>
      <Show when={error()}>{(shownError) => <p class="error-banner">{shownError().message}</p>}</Show>
      <div class="suggestions">
        <For each={suggestions}>
          {(suggestion) => (
            <button type="button" disabled={busy()} onClick={() => send(suggestion)}>
              {suggestion}
            </button>
          )}
        </For>
      </div>
      <form
        class="composer"
        onSubmit={(event) => {
          event.preventDefault()
          send(text())
        }}
      >
        <input value={text()} onInput={(event) => setText(event.currentTarget.value)} aria-label="Message" placeholder="Ask for a story…" />
        <button type="submit" class="button primary" disabled={busy() || !text().trim()}>
          Send
        </button>
      </form>
    </aside>
  )
}
