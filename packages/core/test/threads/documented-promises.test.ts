// Promises the threads guide (docs/guides/threads-and-persistence.md) makes that no other test would
// notice breaking: each test is titled by the promise it quotes.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AgentStore, createAgentStore, createAgentThreads, persistThread, serializeThread } from '../../src'
import { MapStorage, SteppedAgent, sleep } from './support-threads'

type Doc = Record<string, unknown>
const initialState: Doc = { document: 'first' }

afterEach(() => {
  vi.useRealTimers()
})

/** A full collection, so that a WeakRef tells whether anything still holds its store. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

describe('Threads and reloads', () => {
  it('"At most `maxThreads` (default 10) stores stay in memory; the least recently used … are saved and dropped, and `store(id)` brings one back complete. A dropped store the app still holds stays the thread: `store(id)` returns that one while it lives"', async () => {
    const storage = new MapStorage()
    const threads = createAgentThreads<Doc>({ initialState, persist: persistThread({ storage }) })
    const ids = Array.from({ length: 12 }, (_, i) => `t${i}`)
    // The app keeps t0's store only; the registry alone decides what else stays in memory.
    const refs = new Map<string, WeakRef<AgentStore<Doc>>>()
    let kept: AgentStore<Doc> | undefined
    for (const id of ids) {
      const store = threads.open(id)
      store.setState({ document: `by ${id}` })
      refs.set(id, new WeakRef(store))
      if (id === 't0') kept = store
    }
    await threads.flush()
    await sleep(0)
    collectGarbage()

    // The ten most recent are held by the registry; t1, dropped and held by nobody, is gone from memory.
    expect(ids.filter((id) => refs.get(id)!.deref() === undefined)).toEqual(['t1'])
    // Dropped, it was saved: store(id) brings it back complete.
    expect(JSON.parse(storage.items.get('agent-state:t1')!).model.snapshot.state).toEqual({ document: 'by t1' })
    expect(threads.store('t1')!.getState().state).toEqual({ document: 'by t1' })
    // t0 was dropped too, but the app holds it: that store is the thread, not a second one.
    expect(threads.store('t0')).toBe(kept)
    expect(kept!.getState().state).toEqual({ document: 'by t0' })
  })

  it('"Streaming is written at most once per `throttleMs` (default 250 ms); … a run\'s start or end is written at once"', async () => {
    vi.useFakeTimers()
    const storage = new MapStorage()
    const store = createAgentStore<Doc>({ initialState, threadId: 't', persist: persistThread({ storage }) })
    store.apply({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' } as BaseEvent)
    await Promise.resolve()
    expect(storage.writes).toHaveLength(1)
    store.apply([
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      ...Array.from({ length: 50 }, (_, i) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: `${i} ` })),
    ] as BaseEvent[])
    await vi.advanceTimersByTimeAsync(249)
    expect(storage.writes).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(storage.writes).toHaveLength(2)
    store.apply({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1' } as BaseEvent)
    await Promise.resolve()
    expect(storage.writes).toHaveLength(3)
    expect(JSON.parse(storage.writes[2]!.value).model).toEqual(serializeThread(store).model)
  })

  it('"What is restored: … the last run\'s tools, context and forwardedProps": an answer after a reload resumes with them', async () => {
    const storage = new MapStorage()
    const options = { initialState, threadId: 't', persist: persistThread({ storage, throttleMs: 0 }) }
    const before = new SteppedAgent({ threadId: 't' })
    const store = createAgentStore<Doc>({ ...options, agent: before })
    const tools = [{ name: 'write_document', description: 'Writes the document', parameters: { type: 'object' } }]
    const context = [{ description: 'tone', value: 'dry' }]
    const forwardedProps = { model: 'small' }
    void store.run({ message: 'write', tools, context, forwardedProps })
    for (const event of interrupted(before.inputs[0]!)) before.push(event)
    expect(store.getState().status).toBe('interrupted')
    await sleep(0)

    const after = new SteppedAgent({ threadId: 't' })
    const reloaded = createAgentStore<Doc>({ ...options, agent: after })
    expect(reloaded.getState().status).toBe('interrupted')
    void reloaded.approve({ id: 'i1' })
    const { tools: sentTools, context: sentContext, forwardedProps: sentProps } = after.inputs[0]!
    expect({ tools: sentTools, context: sentContext, forwardedProps: sentProps }).toEqual({ tools, context, forwardedProps })
  })
})

/** A run that drafts `document` and ends asking through interrupt i1. */
function interrupted(input: RunAgentInput): BaseEvent[] {
  const { threadId, runId } = input
  return [
    { type: 'RUN_STARTED', threadId, runId },
    { type: 'CUSTOM', name: 'PredictState', value: [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }] },
    { type: 'TOOL_CALL_START', toolCallId: 'tc1', toolCallName: 'write_document' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'tc1', delta: '{"document":"draft"}' },
    { type: 'TOOL_CALL_END', toolCallId: 'tc1' },
    {
      type: 'RUN_FINISHED',
      threadId,
      runId,
      outcome: {
        type: 'interrupt',
        interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 'tc1', responseSchema: { type: 'object', required: ['accepted'] } }],
      },
    },
  ] as BaseEvent[]
}
