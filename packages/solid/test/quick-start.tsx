/** @jsxImportSource solid-js */
import { canAnswer, canRun, createAgentStore, useAgentStore } from '@agent-state/solid'

const store = createAgentStore({ url: '/api/agent', initialState: { document: '' } })
export function Writer() {
  const text = useAgentStore(store, (s) => s.state.document) // the draft shows while the agent writes it
  const [ready, asking] = [useAgentStore(store, canRun), useAgentStore(store, canAnswer)] // what the store accepts now
  return <div><article>{text()}</article><button type="button" disabled={!ready()} onClick={() => store.run({ message: 'Write a story' })}>Write</button>
    <button type="button" disabled={!asking()} onClick={() => store.approve()}>Approve</button><button type="button" disabled={!asking()} onClick={() => store.reject()}>Reject</button></div>
}
