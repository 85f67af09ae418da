import type { BaseEvent, Context, Message, Tool } from '@ag-ui/core'
import {
  type AgentHeaders,
  type AgentSnapshot,
  type AgentStore,
  type AgentStoreError,
  type AgentStoreOptions,
  createAgentStore,
  type EqualityFn,
  type Listener,
  persistThread,
  type ReadableAgentStore,
  type RunStatus,
  restoreThread,
  type SerializedThread,
  type SnapshotOf,
  type StandardSchemaV1,
  type StateUpdate,
  serializeThread,
  shallow,
} from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { describe, expectTypeOf, it } from 'vitest'

// Checked by tsc (`npm run typecheck`), never run by vitest: every assertion here is about types.

type Doc = { title: string; items: number[] }
const initialState: Doc = { title: '', items: [] }
const store = createAgentStore({ initialState })

describe('createAgentStore', () => {
  it('takes the state type from initialState', () => {
    expectTypeOf(store).toEqualTypeOf<AgentStore<Doc>>()
    expectTypeOf(createAgentStore({ initialState: { count: 0 } })).toEqualTypeOf<AgentStore<{ count: number }>>()
    expectTypeOf(createAgentStore<Doc>({ initialState: { title: 'x', items: [1] } })).toEqualTypeOf<AgentStore<Doc>>()
  })

  it('has one parameter, the options: no model to start from', () => {
    expectTypeOf<Parameters<typeof createAgentStore<Doc>>>().toEqualTypeOf<[options: AgentStoreOptions<Doc>]>()
    // @ts-expect-error: a thread continues through `restore` or `persist`, not a second argument
    createAgentStore({ initialState }, undefined)
  })

  it('takes every documented option, and refuses one it does not know', () => {
    createAgentStore({
      agent: new ScriptedAgent({ runs: [[]] }),
      initialState,
      threadId: 't1',
      validate: (value: unknown) => value as Doc,
      limits: { maxDepth: 64 },
      onError: (error) => expectTypeOf(error).toEqualTypeOf<AgentStoreError>(),
      predict: [{ stateKey: 'title', tool: 'write_title', toolArgument: 'text' }],
      confirmTools: ['confirm_changes'],
      keepFailedRunChanges: true,
      arrayKeys: ['id'],
      timeoutMs: 30_000,
      restore: restoreThread(null),
      persist: persistThread({ storage: localStorage }),
    })
    // @ts-expect-error: not an option
    createAgentStore({ initialState, retries: 3 })
    // @ts-expect-error: the old name of keepFailedRunChanges is gone (no deprecated aliases before 1.0)
    createAgentStore({ initialState, keepDraftsOnError: true })
    // @ts-expect-error: initialState is required
    createAgentStore({ threadId: 't1' })
    // @ts-expect-error: a limit the store does not have
    createAgentStore({ initialState, limits: { maxMessages: 10 } })
    // @ts-expect-error: predictions name their state key
    createAgentStore({ initialState, predict: [{ tool: 'write_title' }] })
  })

  it('takes an AG-UI endpoint instead of an agent: url, headers, fetch, reader and connectUrl', () => {
    expectTypeOf(createAgentStore({ url: '/api/agent', initialState })).toEqualTypeOf<AgentStore<Doc>>()
    createAgentStore({
      url: '/api/agent',
      headers: { Authorization: 'Bearer t' },
      fetch: globalThis.fetch,
      reader: 'xhr',
      connectUrl: '/api/agent/connect',
      initialState,
    })
    createAgentStore({ url: '/api/agent', headers: () => ({ Authorization: 'Bearer t' }), initialState })
    createAgentStore({ url: '/api/agent', headers: async () => ({ Authorization: 'Bearer t' }), initialState })
    createAgentStore({ url: '/api/agent', fetch: (url: string, init: RequestInit) => fetch(url, init), initialState })
    expectTypeOf<AgentStoreOptions<Doc>['headers']>().toEqualTypeOf<AgentHeaders | undefined>()
    // @ts-expect-error: header values are strings
    createAgentStore({ url: '/api/agent', headers: { 'X-Retry': 3 }, initialState })
    // @ts-expect-error: a function gives the headers, not a string
    createAgentStore({ url: '/api/agent', headers: () => 'Bearer t', initialState })
    // @ts-expect-error: the body is read through fetch or xhr only
    createAgentStore({ url: '/api/agent', reader: 'websocket', initialState })
    // @ts-expect-error: the endpoint is a string
    createAgentStore({ url: new URL('http://localhost/agent'), initialState })
  })

  it('takes a validator as a function or a Standard Schema of the same state', () => {
    const schema = {} as StandardSchemaV1<Doc>
    expectTypeOf(createAgentStore({ initialState, validate: schema })).toEqualTypeOf<AgentStore<Doc>>()
    // @ts-expect-error: the schema checks another state
    createAgentStore({ initialState, validate: {} as StandardSchemaV1<{ other: boolean }> })
    // @ts-expect-error: the validator returns another state
    createAgentStore({ initialState, validate: (_value: unknown) => 42 })
  })
})

describe('reading a store', () => {
  it('getState() and getInitialState() give a snapshot whose state is the state type', () => {
    expectTypeOf(store.getState()).toEqualTypeOf<AgentSnapshot<Doc>>()
    expectTypeOf(store.getInitialState()).toEqualTypeOf<AgentSnapshot<Doc>>()
    expectTypeOf(store.getState().state).toEqualTypeOf<Doc>()
    expectTypeOf(store.getState().committed).toEqualTypeOf<Doc>()
  })

  it('types every snapshot field', () => {
    const snapshot = store.getState()
    expectTypeOf(snapshot.status).toEqualTypeOf<RunStatus>()
    expectTypeOf<RunStatus>().toEqualTypeOf<'idle' | 'running' | 'interrupted' | 'error'>()
    expectTypeOf(snapshot.requesting).toEqualTypeOf<boolean>()
    expectTypeOf(snapshot.steps).toEqualTypeOf<readonly string[]>()
    expectTypeOf(snapshot.messages).toEqualTypeOf<readonly Message[]>()
    expectTypeOf(snapshot.threadId).toEqualTypeOf<string>()
    expectTypeOf(snapshot.runId).toEqualTypeOf<string | undefined>()
    expectTypeOf(snapshot.error).toEqualTypeOf<AgentStoreError | undefined>()
    expectTypeOf(snapshot.run?.outcome).toEqualTypeOf<'success' | 'interrupt' | 'cancelled' | 'error' | undefined>()
    expectTypeOf(snapshot.subagents[0]!.status).toEqualTypeOf<'running' | 'finished' | 'error' | 'suspended'>()
    expectTypeOf(snapshot.subagentSteps[0]!.stepName).toEqualTypeOf<string>()
  })

  it('gives a snapshot that cannot be written to', () => {
    const snapshot = store.getState()
    // @ts-expect-error: the snapshot is immutable
    snapshot.state = initialState
    // @ts-expect-error: the snapshot is immutable
    snapshot.status = 'idle'
    // @ts-expect-error: its arrays too
    snapshot.messages.push({ id: 'm', role: 'user', content: 'hi' })
  })

  it("subscribe's listener gets the snapshot and the previous one, and subscribe returns the unsubscribe", () => {
    const unsubscribe = store.subscribe((snapshot, previous) => {
      expectTypeOf(snapshot).toEqualTypeOf<AgentSnapshot<Doc>>()
      expectTypeOf(previous).toEqualTypeOf<AgentSnapshot<Doc>>()
    })
    expectTypeOf(unsubscribe).toEqualTypeOf<() => void>()
    expectTypeOf(store.subscribe).parameter(0).toEqualTypeOf<Listener<Doc>>()
    // @ts-expect-error: the listener's snapshot holds this store's state
    store.subscribe((snapshot: AgentSnapshot<{ other: boolean }>) => snapshot)
  })

  it('onEvent gives each event with the snapshot after it', () => {
    const off = store.onEvent((event, snapshot) => {
      expectTypeOf(event).toEqualTypeOf<BaseEvent>()
      expectTypeOf(snapshot).toEqualTypeOf<AgentSnapshot<Doc>>()
    })
    expectTypeOf(off).toEqualTypeOf<() => void>()
  })

  it('is the read contract every binding and zustand use', () => {
    expectTypeOf(store).toExtend<ReadableAgentStore<Doc>>()
    expectTypeOf(store).toExtend<ReadableAgentStore>()
    expectTypeOf<SnapshotOf<typeof store>>().toEqualTypeOf<AgentSnapshot<Doc>>()
    expectTypeOf<ReadableAgentStore<Doc>>().not.toHaveProperty('setState')
  })

  it('shallow is an equality function for any selection', () => {
    expectTypeOf(shallow<{ a: number }>).toExtend<EqualityFn<{ a: number }>>()
    expectTypeOf(shallow({ a: 1 }, { a: 1 })).toEqualTypeOf<boolean>()
    // @ts-expect-error: both sides are of one type
    shallow<{ a: number }>({ a: 1 }, 'a')
  })
})

describe('changing a store', () => {
  it('setState takes the whole state or an updater from the previous state', () => {
    expectTypeOf(store.setState).parameter(0).toEqualTypeOf<StateUpdate<Doc>>()
    expectTypeOf(store.setState({ title: 'x', items: [] })).toEqualTypeOf<void>()
    store.setState((previous) => {
      expectTypeOf(previous).toEqualTypeOf<Doc>()
      return { ...previous, title: 'y' }
    })
  })

  it('setState refuses a state of the wrong shape', () => {
    // @ts-expect-error: a part of the state is not the state
    store.setState({ title: 'x' })
    // @ts-expect-error: a field of the wrong type
    store.setState({ title: 1, items: [] })
    // @ts-expect-error: a field the state does not have
    store.setState({ title: 'x', items: [], extra: true })
    // @ts-expect-error: an updater must return the whole state
    store.setState((previous) => ({ title: previous.title }))
  })

  it('run takes a message or messages and the run options, and resolves to nothing', () => {
    expectTypeOf(store.run()).toEqualTypeOf<Promise<void>>()
    store.run({ message: 'hello', tools: [], context: [], forwardedProps: { any: 'thing' }, timeoutMs: 1000 })
    store.run({ message: { id: 'm1', role: 'user', content: 'hello' } })
    store.run({ messages: [{ id: 'm1', role: 'user', content: 'hello' }] })
    // The snapshot's own (read-only) lists can be passed back as they are.
    store.run({ messages: store.getState().messages, tools: [] as readonly Tool[], context: [] as readonly Context[] })
    // @ts-expect-error: not a run option
    store.run({ prompt: 'hello' })
    // @ts-expect-error: a message is a string or an AG-UI message
    store.run({ message: 42 })
  })

  it('apply takes one event or a list of them', () => {
    const event = { type: 'RUN_STARTED', threadId: 't', runId: 'r' } as BaseEvent
    expectTypeOf(store.apply(event)).toEqualTypeOf<void>()
    store.apply([event, event])
    store.apply([] as readonly BaseEvent[])
    // @ts-expect-error: an event is an object with a type
    store.apply('RUN_STARTED')
  })

  it('reset takes an optional state of the right shape and newThread', () => {
    expectTypeOf(store.reset()).toEqualTypeOf<void>()
    store.reset({ title: '', items: [] }, { newThread: true })
    store.reset(undefined, { newThread: false })
    // @ts-expect-error: a state of the wrong shape
    store.reset({ title: '' })
    // @ts-expect-error: reset takes no updater
    store.reset((previous: Doc) => previous)
  })

  it('abort, reconnect and whenRestored; serializeThread takes the store', () => {
    expectTypeOf(store.abort()).toEqualTypeOf<void>()
    expectTypeOf(store.reconnect()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(store.whenRestored()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(serializeThread(store)).toEqualTypeOf<SerializedThread>()
  })
})
