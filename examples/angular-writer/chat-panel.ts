import { canRun, injectAgentStore } from '@agent-state/angular'
import { afterRenderEffect, ChangeDetectionStrategy, Component, computed, ElementRef, inject, signal } from '@angular/core'
import { answerInterrupted, chatItems, lastRequest } from '../shared/view'
import { store } from './store'

@Component({
  selector: 'writer-chat',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <aside class="panel chat">
      <div class="panel-head"><strong>Chat</strong></div>
      <ol class="messages">
        @for (item of items(); track item.id) {
          <!-- On one line: the message's text has no whitespace around it. -->
          <li [class]="'message ' + item.role">{{ item.text }}@for (name of item.toolCalls; track $index) {<span class="tool-call">{{ name }}</span>}</li>
        } @empty {
          <li class="empty">Ask for a story. The agent streams it into the document as a draft, then asks you to approve it.</li>
        }
        @if (interrupted()) {
          <li class="interrupted" data-testid="interrupted">
            The answer was interrupted before it finished.
            <button class="button small" (click)="retry()">Retry</button>
          </li>
        }
      </ol>
      @if (error(); as error) {
        <p class="error-banner">{{ error.message }}</p>
      }
      <div class="suggestions">
        @for (suggestion of suggestions; track suggestion) {
          <button [disabled]="busy()" (click)="send(suggestion)">{{ suggestion }}</button>
        }
      </div>
      <form class="composer" (submit)="$event.preventDefault(); send(text())">
        <input aria-label="Message" placeholder="Ask for a story…" [value]="text()" (input)="text.set($any($event.target).value)" />
        <button class="button primary" [disabled]="busy() || !text().trim()">Send</button>
      </form>
    </aside>
  `,
})
export class ChatPanel {
  protected readonly suggestions = ['Write a short story about a lighthouse keeper', 'Add another paragraph', 'Give it a different ending', 'Make it shorter']
  private readonly messages = injectAgentStore(store, (s) => s.messages)
  // Sending is possible exactly when the store would start a run: nothing running, nothing to answer.
  protected readonly busy = injectAgentStore(store, (s) => !canRun(s))
  protected readonly error = injectAgentStore(store, (s) => s.error)
  protected readonly interrupted = injectAgentStore(store, answerInterrupted)
  protected readonly items = computed(() => chatItems(this.messages()))
  protected readonly text = signal('')
  private readonly host: ElementRef<HTMLElement> = inject(ElementRef)

  constructor() {
    // The end of the conversation stays in view: as messages arrive, and once the page (re)loads with a saved thread.
    afterRenderEffect(() => {
      this.items()
      this.interrupted()
      const list = this.host.nativeElement.querySelector('ol')
      list?.scrollTo({ top: list.scrollHeight })
    })
  }

  protected send(message: string) {
    if (this.busy() || !message.trim()) return
    this.text.set('')
    void store.run({ message: message.trim() })
  }

  protected retry() {
    const request = lastRequest(this.messages())
    if (request) this.send(request)
  }
}
