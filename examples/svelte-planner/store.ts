import { createAgentStore, persistThread } from '@agent-state/svelte'
import { agentUrl } from '../shared/view'

export interface Step {
  description: string
  /** Absent while the step is still being streamed. */
  status?: 'enabled' | 'disabled' | 'executing' | 'completed'
}

export interface PlannerState {
  steps: Step[]
}

export const store = createAgentStore<PlannerState>({
  url: agentUrl('planner'),
  // The thread survives a reload: a plan waiting for confirmation comes back with its buttons.
  persist: persistThread({ storage: localStorage, key: 'svelte-planner' }),
  initialState: { steps: [] },
})

export const statusLabels: Record<string, string> = {
  enabled: 'To do',
  disabled: 'Skipped',
  executing: 'Running…',
  completed: 'Done',
}

// The devtools panel, in development only (or a build made with VITE_DEVTOOLS=true, as the browser tests do):
// a production build has none of it.
if (import.meta.env.DEV || import.meta.env.VITE_DEVTOOLS === 'true') import('@agent-state/devtools/panel').then(({ mountDevtools }) => mountDevtools(store))
