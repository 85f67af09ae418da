/** @jsxImportSource solid-js */
import { canAnswer, canRun, createAgentStore, useAgentStore } from '@agent-state/solid'

const store = createAgentStore({ url: '/api/agent', initialState: { document: '' } })
export function Writer() {
  // The draft shows while the agent writes it.
  const text = useAgentStore(store, (s) => s.state.document)
  // What the store accepts now: a button is disabled whenever its command would be refused.
  const [ready, asking] = [useAgentStore(store, canRun), useAgentStore(store, canAnswer)]
  return (
    <div>
      <article>{text()}</article>
      <button
        type="button"
        disabled={!ready()}
        onClick={() => store.run({ message: 'Write a story' })}
      >
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
