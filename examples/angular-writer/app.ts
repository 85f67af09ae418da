import { injectAgentStore } from '@agent-state/angular'
import { ChangeDetectionStrategy, Component, computed } from '@angular/core'
import { statusView } from '../shared/view'
import { ChatPanel } from './chat-panel'
import { DocumentPanel } from './document-panel'
import { store } from './store'

@Component({
  selector: 'writer-app',
  imports: [ChatPanel, DocumentPanel],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <header class="topbar">
      <a class="home" href="../">← Examples</a>
      <h1>Writer</h1>
      <span class="framework">Angular · signals</span>
      <span class="spacer"></span>
      <span [class]="'status ' + view().kind" data-testid="status">
        {{ view().label }}
        @if (view().step) {
          <span class="status-step">{{ view().step }}</span>
        }
      </span>
      <button class="button small" (click)="newChat()">New chat</button>
    </header>
    <main class="layout">
      <writer-document />
      <writer-chat />
    </main>
  `,
})
export class App {
  private readonly status = injectAgentStore(store, (s) => s.status)
  private readonly steps = injectAgentStore(store, (s) => s.steps)
  protected readonly view = computed(() => statusView({ status: this.status(), steps: this.steps() }))

  protected newChat() {
    store.reset(undefined, { newThread: true })
  }
}
