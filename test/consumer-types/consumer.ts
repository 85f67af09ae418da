// What an app written against the published types does, checked with the strictest consumer settings
// (tsconfig.*.json): no `source` condition, so every import resolves to the packages' dist/*.d.ts.
import { HttpAgent } from '@ag-ui/client'
import { injectAgentStore as injectAngular } from '@agent-state/angular'
import {
  type AgentSnapshot,
  type AgentStoreError,
  type AgentStoreErrorOf,
  canAnswer,
  canRun,
  createAgentStore,
  isAgentStoreError,
  type SavedTree,
  shallow,
} from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { useAgentStore as useReact } from '@agent-state/react'
import { useAgentStore as useSolid } from '@agent-state/solid'
import { useAgentStore as useSvelte } from '@agent-state/svelte'
import { useAgentStore as useVue } from '@agent-state/vue'

interface WriterState {
  document: string
  tags?: string[]
}

const store = createAgentStore<WriterState>({
  agent: new HttpAgent({ url: '/api/agent', headers: { Authorization: 'Bearer token' } }),
  initialState: { document: '' },
  limits: { maxDepth: 64 },
  onError: (error: AgentStoreError) => {
    const limit: 'maxDepth' | 'maxOpsPerDelta' | 'maxStateBytes' | 'maxEventBytes' | undefined = error.limit
    console.warn(error.code, limit, error.status)
  },
})

// The types a narrowed error and a saved thread's migrate name, exported by the core's index.
export const transportFailure = (error: AgentStoreErrorOf<'TRANSPORT'>): string => `${error.reason} ${error.status ?? ''}`
export const sentMessages = (tree: SavedTree | undefined): string[] => Object.keys(tree?.sent ?? {})

const snapshot: AgentSnapshot<WriterState> = store.getState()
const first = snapshot.confirmations[0] // noUncheckedIndexedAccess: possibly undefined
export const ready: boolean = canRun(snapshot) && !canAnswer(snapshot) && first === undefined

export async function write(): Promise<void> {
  try {
    await store.run({ message: 'Write a story' })
    if (canAnswer(store.getState())) await store.approve({ edits: { document: 'Edited' } })
  } catch (error) {
    if (isAgentStoreError(error) && error.code === 'RUN_ACTIVE') return
    throw error
  }
}

// The bindings, called as a component would call them (typed here, not rendered).
export function bindings() {
  const reactDocument: string = useReact(store, (s) => s.state.document)
  const reactView = useReact(store, (s) => ({ status: s.status, tags: s.state.tags }), shallow)
  const vueDocument: string = useVue(store, (s) => s.state.document).value
  const svelteReady = useSvelte(store, canRun)
  const angularDocument: string = injectAngular(store, (s) => s.state.document)()
  const solidDocument: string = useSolid(store, (s) => s.state.document)()
  const solidView = useSolid(
    () => store,
    (s) => ({ status: s.status, tags: s.state.tags }),
    shallow,
  )
  return { reactDocument, reactView, vueDocument, svelteReady, angularDocument, solidDocument, solidView }
}

export const scripted = new ScriptedAgent({ runs: [[{ type: 'RUN_STARTED', threadId: 't', runId: 'r' } as never]] })
