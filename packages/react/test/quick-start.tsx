import { HttpAgent } from '@ag-ui/client'
import { createAgentStore, useAgentStore } from '@agent-state/react'

const store = createAgentStore({ agent: new HttpAgent({ url: '/api/agent' }), initialState: { story: '' } })

export function Story() {
  const story = useAgentStore(store, (s) => s.state.story)
  return <button type="button" onClick={() => store.run({ message: 'Write a story' })}>{story || 'Write a story'}</button>
}
