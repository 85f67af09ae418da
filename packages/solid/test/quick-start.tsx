/** @jsxImportSource solid-js */
import { canAnswer, canRun, createAgentStore, useAgentStore } from '@agent-state/solid'

const store = createAgentStore({ url: '/api/agent', initialState: { document: '' } })

export function Writer() {
  const text = useAgentStore(store, (s) => s.state.document) // the draft, as the agent writes it
  const ready = useAgentStore(store, canRun) // false during a run or while a confirmation is open
  const asking = useAgentStore(store, canAnswer) // true while a confirmation waits for an answer
  const write = () => store.run({ message: 'Write a story' })
  return (
    <div>
      <article>{text()}</article>
      <button type="button" disabled={!ready()} onClick={write}>
        Write
      </button>
      <button type="button" disabled={!asking()} onClick={() => store.approve()}>
        Approve
      </button>
      <button type="button" disabled={!asking()} onClick={() => store.reject()}>
        Reject
      </button>
    </div>
  )
}
