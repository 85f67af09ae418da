import { HttpAgent } from '@ag-ui/client'
import { createAgentStore, useAgentStore } from '@agent-state/react'

const store = createAgentStore({ agent: new HttpAgent({ url: '/api/agent' }), initialState: { document: '' } })
export function Document() {
  const document = useAgentStore(store, (s) => s.state.document) // renders only when the document changes
  const draft = useAgentStore(store, (s) => s.state.document !== s.committed.document) // unconfirmed?
  return <article className={draft ? 'draft' : ''}>{document}</article>
}
export const write = () => store.run({ message: 'Write a story' }) // then store.approve() or store.reject()
