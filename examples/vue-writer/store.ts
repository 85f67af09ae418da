import { HttpAgent } from '@ag-ui/client'
import { createAgentStore } from '@agent-state/vue'
import { agentUrl } from '../shared/view'

export interface WriterState {
  document: string
}

export const store = createAgentStore<WriterState>({
  agent: new HttpAgent({ url: agentUrl('writer') }),
  initialState: { document: '' },
})
