// A console replay of a recorded agent-framework stream through the store: what `npm start` shows
// until the demo server and example apps land. Run: npm start
import { readFileSync } from 'node:fs'
import { createAgentStore } from '@agent-state/core'
import type { BaseEvent } from '@ag-ui/core'

const recording = JSON.parse(
  readFileSync(new URL('../packages/core/test/fixtures/recordings/02-predictive-document-approve.agent-framework.json', import.meta.url), 'utf8'),
) as { description: string; input: { state: { document: string } }; events: BaseEvent[] }

const store = createAgentStore({ initialState: recording.input.state })
store.subscribe((snapshot, previous) => {
  if (snapshot.state.document !== previous.state.document) {
    const text = snapshot.state.document.replace(/\n/g, '⏎')
    console.log(`  document (${String(snapshot.state.document.length).padStart(3)} chars): ${text.slice(-70)}`)
  }
  if (snapshot.status !== previous.status) console.log(`status: ${snapshot.status}`)
})
console.log(`Replaying: ${recording.description}\n`)
for (const event of recording.events) {
  store.apply(event)
  await new Promise((resolve) => setTimeout(resolve, 60))
}
const { messages, status } = store.getState()
console.log(`\nfinal status: ${status}; ${messages.length} messages; document:\n\n${store.getState().state.document}\n`)
