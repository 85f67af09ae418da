import { createAgentStore, persistThread } from '@agent-state/solid'
import { agentUrl } from '../shared/view'

export interface WriterState {
  document: string
}

export const store = createAgentStore<WriterState>({
  url: agentUrl('writer'),
  // The thread survives a reload: a draft waiting for approval comes back with its Approve / Reject.
  persist: persistThread({ storage: localStorage, key: 'solid-writer' }),
  initialState: { document: '' },
})

// The devtools panel, in development only (or a build made with VITE_DEVTOOLS=true, as the browser tests do):
// a production build has none of it.
if (import.meta.env.DEV || import.meta.env.VITE_DEVTOOLS === 'true') import('@agent-state/devtools/panel').then(({ mountDevtools }) => mountDevtools(store))
