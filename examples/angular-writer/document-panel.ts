import { canAnswer, injectAgentStore } from '@agent-state/angular'
import { ChangeDetectionStrategy, Component, computed } from '@angular/core'
import { wordCount } from '../shared/word-count'
import { store } from './store'

/** The document as blocks: the first paragraph is its title (a markdown `# ` dropped), the others paragraphs. */
function blocksOf(document: string): { tag: 'h2' | 'p'; text: string }[] {
  const [title = '', ...paragraphs] = document.split(/\n\s*\n/)
  const blocks = [{ tag: 'h2' as const, text: title.replace(/^#+\s*/, '') }, ...paragraphs.map((text) => ({ tag: 'p' as const, text }))]
  return blocks.filter((block) => block.text.trim())
}

@Component({
  selector: 'writer-document',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section class="panel" aria-label="Document">
      <div class="panel-head">
        <strong>Document</strong>
        <span data-testid="words">{{ words() }} words</span>
        @if (drafting()) {
          <span class="draft-badge">Draft · not approved</span>
        }
      </div>
      <article class="document" data-testid="document" [attr.data-length]="document().length">
        @for (block of blocks(); track $index) {
          @if (block.tag === 'h2') {
            <h2>@if (drafting()) {<mark class="draft">{{ block.text }}</mark>} @else {{{ block.text }}}</h2>
          } @else {
            <p>@if (drafting()) {<mark class="draft">{{ block.text }}</mark>} @else {{{ block.text }}}</p>
          }
        } @empty {
          <p class="placeholder">Nothing written yet. Ask for a story in the chat: you will watch it being written, then approve or reject it.</p>
        }
      </article>
      @if (confirmation(); as confirmation) {
        <div class="approval" data-testid="approval">
          <p>
            {{ confirmation.message ?? 'Approve these changes?' }}
            <small>Highlighted: the draft. Approve keeps it; Reject restores the document from before the run.</small>
          </p>
          <div class="approval-actions">
            <button class="button primary" [disabled]="!answerable()" (click)="approve(confirmation.id)">Approve</button>
            <button class="button danger" [disabled]="!answerable()" (click)="reject(confirmation.id)">Reject</button>
          </div>
        </div>
      }
    </section>
  `,
})
export class DocumentPanel {
  // Each signal follows one part of the snapshot: a chat message arriving re-renders none of them.
  protected readonly document = injectAgentStore(store, (s) => s.state.document)
  protected readonly drafting = injectAgentStore(store, (s) => s.predictions.some((p) => p.stateKey === 'document'))
  protected readonly confirmation = injectAgentStore(store, (s) => s.confirmations[0])
  protected readonly answerable = injectAgentStore(store, canAnswer)
  protected readonly blocks = computed(() => blocksOf(this.document()))
  protected readonly words = computed(() => wordCount(this.document()))

  protected approve(id: string) {
    void store.approve({ id })
  }

  protected reject(id: string) {
    void store.reject({ id })
  }
}
