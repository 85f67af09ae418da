import { canAnswer, canRun, createAgentStore, injectAgentStore } from '@agent-state/angular'
import { Component } from '@angular/core'

@Component({
  selector: 'app-root',
  template: `
    <article>{{ text() }}</article>
    <button [disabled]="!ready()" (click)="store.run({ message: 'Write a story' })">Write</button>
    <button [disabled]="!asking()" (click)="store.approve()">Approve</button>
    <button [disabled]="!asking()" (click)="store.reject()">Reject</button>
  `,
})
export class QuickStart {
  readonly store = createAgentStore({ url: '/api/agent', initialState: { document: '' } })
  // the draft shows while the agent writes it
  readonly text = injectAgentStore(this.store, (s) => s.state.document)
  // false while a run is active or a confirmation is open
  readonly ready = injectAgentStore(this.store, canRun)
  // true while a confirmation waits for an answer
  readonly asking = injectAgentStore(this.store, canAnswer)
}
