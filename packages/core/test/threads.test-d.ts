import {
  type AgentSnapshot,
  type AgentStore,
  type AgentThreads,
  type AgentThreadsOptions,
  createAgentThreads,
  persistThread,
  type ReadableAgentStore,
  type RunStatus,
  type SnapshotOf,
  type ThreadPersistence,
  type ThreadSummary,
  type ThreadsSnapshot,
} from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { describe, expectTypeOf, it } from 'vitest'

// Many conversations in one registry, read like a store (checked by tsc).

type Doc = { document: string }
const threads = createAgentThreads({ initialState: { document: '' }, createAgent: () => new ScriptedAgent({ runs: [[]] }) })

describe('createAgentThreads', () => {
  it('takes the state type from initialState', () => {
    expectTypeOf(threads).toEqualTypeOf<AgentThreads<Doc>>()
    expectTypeOf(createAgentThreads({ initialState: 0 })).toEqualTypeOf<AgentThreads<number>>()
  })

  it("takes a store's options with an agent factory instead of an agent, and refuses a store's own", () => {
    createAgentThreads({
      initialState: { document: '' },
      createAgent: (threadId) => {
        expectTypeOf(threadId).toEqualTypeOf<string>()
        return new ScriptedAgent({ runs: [[]], threadId })
      },
      maxThreads: 5,
      persist: persistThread({ storage: localStorage, key: 'app' }),
      validate: (value: unknown) => value as Doc,
      limits: { maxStateBytes: 1024 },
      timeoutMs: 1000,
    })
    expectTypeOf<AgentThreadsOptions<Doc>>().not.toHaveProperty('agent')
    expectTypeOf<AgentThreadsOptions<Doc>>().not.toHaveProperty('threadId')
    expectTypeOf<AgentThreadsOptions<Doc>>().not.toHaveProperty('restore')
    expectTypeOf<AgentThreadsOptions<Doc>['persist']>().toEqualTypeOf<ThreadPersistence | undefined>()
    // @ts-expect-error: each thread has its own agent, made by createAgent
    createAgentThreads({ initialState: {}, agent: new ScriptedAgent({ runs: [[]] }) })
    // @ts-expect-error: each thread has its own id
    createAgentThreads({ initialState: {}, threadId: 't1' })
    // @ts-expect-error: threads are restored by id, not from one saved thread
    createAgentThreads({ initialState: {}, restore: null })
    // @ts-expect-error: not an option
    createAgentThreads({ initialState: {}, maxStores: 3 })
  })
})

describe('the registry', () => {
  it("reads like a store: the active thread's snapshot with the list of threads", () => {
    expectTypeOf(threads.getState()).toEqualTypeOf<ThreadsSnapshot<Doc>>()
    expectTypeOf(threads.getInitialState()).toEqualTypeOf<ThreadsSnapshot<Doc>>()
    expectTypeOf(threads.getState()).toExtend<AgentSnapshot<Doc>>()
    expectTypeOf(threads.getState().state).toEqualTypeOf<Doc>()
    expectTypeOf(threads.getState().threads).toEqualTypeOf<readonly ThreadSummary[]>()
    expectTypeOf(threads.getState().activeThreadId).toEqualTypeOf<string | undefined>()
    expectTypeOf(threads).toExtend<ReadableAgentStore<Doc>>()
    expectTypeOf<SnapshotOf<typeof threads>>().toEqualTypeOf<ThreadsSnapshot<Doc>>()
  })

  it("subscribe's listener gets the registry's snapshots, and subscribe returns the unsubscribe", () => {
    const unsubscribe = threads.subscribe((snapshot, previous) => {
      expectTypeOf(snapshot).toEqualTypeOf<ThreadsSnapshot<Doc>>()
      expectTypeOf(previous).toEqualTypeOf<ThreadsSnapshot<Doc>>()
    })
    expectTypeOf(unsubscribe).toEqualTypeOf<() => void>()
  })

  it('lists each thread with its id, title, status, time and whether it waits for an answer', () => {
    const summary = threads.getState().threads[0]!
    expectTypeOf(summary).toEqualTypeOf<ThreadSummary>()
    expectTypeOf(summary.id).toEqualTypeOf<string>()
    expectTypeOf(summary.title).toEqualTypeOf<string | undefined>()
    expectTypeOf(summary.status).toEqualTypeOf<RunStatus>()
    expectTypeOf(summary.updatedAt).toEqualTypeOf<number>()
    expectTypeOf(summary.hasConfirmation).toEqualTypeOf<boolean>()
    expectTypeOf<keyof ThreadSummary>().toEqualTypeOf<'id' | 'title' | 'status' | 'updatedAt' | 'hasConfirmation'>()
    // @ts-expect-error: the list is read-only
    summary.title = 'renamed'
    // @ts-expect-error: the list is read-only
    threads.getState().threads.splice(0, 1)
  })

  it('opens a thread as a store of the same state, finds one by id, and deletes one', () => {
    expectTypeOf(threads.open()).toEqualTypeOf<AgentStore<Doc>>()
    expectTypeOf(threads.open('t1')).toEqualTypeOf<AgentStore<Doc>>()
    expectTypeOf(threads.store('t1')).toEqualTypeOf<AgentStore<Doc> | undefined>()
    expectTypeOf(threads.delete('t1')).toEqualTypeOf<Promise<void>>()
    // @ts-expect-error: store() needs the id
    threads.store()
    // @ts-expect-error: delete() needs the id
    threads.delete()
  })

  it('whenRestored, flush and dispose resolve to nothing', () => {
    expectTypeOf(threads.whenRestored()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(threads.flush()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(threads.dispose()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(threads.dispose).parameters.toEqualTypeOf<[]>()
  })
})
