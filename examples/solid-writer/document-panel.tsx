/** @jsxImportSource solid-js */
import { canAnswer, useAgentStore } from '@agent-state/solid'
import { For, Show } from 'solid-js'
import { wordCount } from '../shared/word-count'
import { store } from './store'

/** Paragraphs are separated by blank lines; a first short line that ends no sentence is the title. */
function paragraphs(document: string): { tag: 'h2' | 'p'; text: string }[] {
  const blocks = document
    .split(/\n[ \t]*\n\s*/)
    .map((text) => text.trim())
    .filter(Boolean)
  return blocks.map((text, index) => ({ tag: index === 0 && text.length <= 80 && !/[.!?,;:]$/.test(text) ? 'h2' : 'p', text: text.replace(/^# /, '') }))
}

export function DocumentPanel() {
  const document = useAgentStore(store, (s) => s.state.document)
  // A draft: the agent's version, shown but not approved; committed.document is what the next run sends.
  const drafting = useAgentStore(store, (s) => s.predictions.some((p) => p.stateKey === 'document'))
  const confirmation = useAgentStore(store, (s) => s.confirmations[0])
  const answerable = useAgentStore(store, canAnswer)

  return (
    <section class="panel" aria-label="Document">
      <div class="panel-head">
        <strong>Document</strong>
        <span data-testid="words">{wordCount(document())} words</span>
        <Show when={drafting()}>
          <span class="draft-badge">Draft · not approved</span>
        </Show>
      </div>
      <article class="document" data-testid="document" data-length={document().length}>
        <Show
          when={document()}
          fallback={<p class="placeholder">Nothing written yet. Ask for a story in the chat: you will watch it being written, then approve or reject it.</p>}
        >
          <For each={paragraphs(document())}>
            {(block) => (block.tag === 'h2' ? <h2>{shown(block.text, drafting())}</h2> : <p>{shown(block.text, drafting())}</p>)}
          </For>
        </Show>
      </article>
      <Show when={confirmation()}>
        {(open) => (
          <div class="approval" data-testid="approval">
            <p>
              {open().message ?? 'Approve these changes?'}
              <small>Highlighted: the agent's draft. Approve keeps it; Reject restores the document from before the run.</small>
            </p>
            <div class="approval-actions">
              <button type="button" class="button primary" disabled={!answerable()} onClick={() => store.approve({ id: open().id })}>
                Approve
              </button>
              <button type="button" class="button danger" disabled={!answerable()} onClick={() => store.reject({ id: open().id })}>
                Reject
              </button>
            </div>
          </div>
        )}
      </Show>
    </section>
  )
}

/** A draft's text is highlighted until it is approved. */
const shown = (text: string, draft: boolean) => (draft ? <mark class="draft">{text}</mark> : text)
