import { HttpAgent, type HttpAgentConfig } from '@ag-ui/client'
import type { RunAgentInput } from '@ag-ui/core'
import { type AgentStore, type AgentStoreError, type AgentStoreOptions, createAgentStore } from '@agent-state/core'
import { expect } from 'vitest'
import { ev, type Handler, type HostileServer, reply } from './hostile-server'

/**
 * The state every fault scenario starts from. A failing run first changes `count: 1` (a key no
 * prediction maps) and drafts `doc` from a tool call; when it fails, both are rolled back.
 */
export interface Doc {
  doc: string
  count: number
}
export const initialState: Doc = { doc: 'before', count: 0 }
export const afterPrelude: Doc = { doc: 'before', count: 1 }

/** RUN_STARTED, a committed change, and a draft still streaming. */
export const prelude = (input: RunAgentInput) => [
  ev.started(input),
  ev.predict('doc', 'write_doc', 'text'),
  ev.delta({ op: 'replace', path: '/count', value: 1 }),
  ev.toolStart('c1', 'write_doc'),
  ev.toolArgs('c1', '{"text":"dra'),
]

/** A healthy run: the store must be able to do this after any failure. */
export const healthy: Handler = reply((input) => [
  ev.started(input),
  ev.delta({ op: 'replace', path: '/count', value: (input.state as Doc).count + 10 }),
  ev.finished(input),
])

export function storeOn<S = Doc>(server: HostileServer, options: Partial<AgentStoreOptions<S>> = {}, agentConfig: Partial<HttpAgentConfig> = {}) {
  const errors: AgentStoreError[] = []
  const agent = new HttpAgent({ url: server.url, ...agentConfig })
  const store = createAgentStore<S>({
    agent,
    initialState: initialState as S,
    ...options,
    onError: (error) => {
      errors.push(error)
      options.onError?.(error)
    },
  })
  return { store, agent, errors }
}

/** The draft from `prelude` is visible while the run streams. */
export function expectDraftInFlight(store: AgentStore<Doc>) {
  const snapshot = store.getState()
  expect(snapshot.state).toEqual({ doc: 'dra', count: 1 })
  expect(snapshot.committed).toEqual(afterPrelude)
  expect(snapshot.predictions).toHaveLength(1)
}

/** A failed run: status 'error' with a stable code, and every state change it made rolled back. */
export function expectFailed(store: AgentStore<Doc>, code: string, committed: Doc = initialState) {
  const snapshot = store.getState()
  expect(snapshot.status).toBe('error')
  expect(snapshot.error?.code).toBe(code)
  expect(snapshot.predictions).toEqual([])
  expect(snapshot.steps).toEqual([])
  expect(snapshot.state).toEqual(committed)
  expect(snapshot.committed).toEqual(committed)
}

/** The next run works and sends the committed state. */
export async function expectReady(store: AgentStore<Doc>, server: HostileServer, committed: Doc = initialState) {
  const before = server.requests.length
  await store.run()
  expect(server.requests).toHaveLength(before + 1)
  expect(server.requests[before]!.state).toEqual(committed)
  expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { ...committed, count: committed.count + 10 } })
}
