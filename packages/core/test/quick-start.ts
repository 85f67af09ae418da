import { canAnswer, createAgentStore } from '@agent-state/core'

const url = 'http://127.0.0.1:8000/agents/writer' // the example server (in a browser: '/api/agent')
const store = createAgentStore({ url, initialState: { document: '' } })
store.subscribe((now, before) => {
  if (now.status !== before.status) console.log(now.status, now.state.document.length)
})
// resolves when the run ends; rejects only if refused
await store.run({ message: 'Write a story about a dog' })
// or store.reject(): the document goes back to before the run
if (canAnswer(store.getState())) await store.approve()
console.log(store.getState().committed.document)
