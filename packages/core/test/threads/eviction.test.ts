// Dropping threads from memory (maxThreads): a thread with a request in flight stays, including
// one whose reconnect() is still passing over the server's replay (it shows `idle` meanwhile); and
// a dropped store the app still holds stays the thread: no second store, no second resume; without a
// storage, one the app let go of comes back from memory as it was.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentThreads, createAgentThreads, persistThread } from '../../src'
import { ConnectingAgent, settle } from './support-storages'
import { type Doc, MapStorage } from './support-threads'

const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: 'a', runId }) as BaseEvent
const finished = (runId: string) => ({ type: 'RUN_FINISHED', threadId: 'a', runId }) as BaseEvent
const text = (messageId: string, delta: string): BaseEvent[] => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' } as BaseEvent,
  { type: 'TEXT_MESSAGE_CONTENT', messageId, delta } as BaseEvent,
  { type: 'TEXT_MESSAGE_END', messageId } as BaseEvent,
]

/** A full garbage collection, for a test that needs a dropped store gone. */
function collector(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

/** Thread a, changed through apply() and setState, then dropped by opening b; the app keeps only a weak reference to a's store. */
function dropThreadA(threads: AgentThreads<Doc>) {
  const a = threads.open('a')
  a.apply([started('r1'), ...text('m1', 'Kept in memory'), finished('r1')])
  a.setState({ notes: 2 })
  threads.open('b')
  return { shown: a.getState(), held: new WeakRef(a) }
}

describe('a thread dropped from memory', () => {
  it('without persist, one the app no longer holds comes back as it was, in a new store', async () => {
    const gc = collector()
    const threads = createAgentThreads<Doc>({ initialState: {}, maxThreads: 1 })
    const { shown, held } = dropThreadA(threads)
    await new Promise((resolve) => setTimeout(resolve, 0))
    gc()
    expect(held.deref()).toBeUndefined()
    const a = threads.store('a')!
    expect(a.getState()).toStrictEqual(shown)
    expect(a.getState().messages.map((message) => message.content)).toStrictEqual(['Kept in memory'])
    expect(threads.getState().threads.map((summary) => summary.id)).toStrictEqual(['b', 'a'])
  })

  it('is not dropped while its reconnect() replay is in flight', async () => {
    const agents = new Map<string, ConnectingAgent>()
    const threads = createAgentThreads<Doc>({
      initialState: {},
      persist: persistThread({ storage: new MapStorage() }),
      maxThreads: 1,
      createAgent: (id) => agents.set(id, new ConnectingAgent({ threadId: id })).get(id)!,
    })
    const a = threads.open('a')
    void a.run({ message: { id: 'u1', role: 'user', content: 'Hi' } })
    const agent = agents.get('a')!
    agent.push(started('r1'), ...text('m1', 'Hel'))
    agent.drop()
    expect(a.getState().status).toBe('error')
    const reconnecting = a.reconnect()
    expect(agent.connects).toHaveLength(1)
    // The replay has not reached the dropped run yet: a shows no run, but its request is live.
    threads.open('b')
    await threads.flush()
    await settle()
    expect(threads.store('a')).toBe(a)
    agent.push(started('r1'), ...text('m1', 'Hello'), finished('r1'))
    agent.end()
    await reconnecting
    expect(a.getState().status).toBe('idle')
    expect(a.getState().messages.map((message) => message.id)).toStrictEqual(['u1', 'm1'])
    expect(threads.getState().threads.find((summary) => summary.id === 'a')).toMatchObject({ status: 'idle', title: 'Hi' })
  })

  it('a dropped store the app still holds is taken back when used: saved, listed, and store(id) returns it', async () => {
    const storage = new MapStorage()
    const agents: ConnectingAgent[] = []
    const threads = createAgentThreads<Doc>({
      initialState: {},
      persist: persistThread({ storage }),
      maxThreads: 1,
      createAgent: (id) => agents[agents.push(new ConnectingAgent({ threadId: id })) - 1]!,
    })
    const a = threads.open('a')
    void a.run({ message: { id: 'u1', role: 'user', content: 'Change it' } })
    agents[0]!.push(
      started('r1'),
      { type: 'TOOL_CALL_START', toolCallId: 'k1', toolCallName: 'confirm_changes' } as BaseEvent,
      { type: 'TOOL_CALL_END', toolCallId: 'k1' } as BaseEvent,
      finished('r1'),
    )
    expect(a.getState().status).toBe('interrupted')
    threads.open('b')
    await threads.flush()
    await settle()
    // The app answers through the store it kept from before the drop.
    void a.approve({ id: 'k1' })
    expect(threads.store('a')).toBe(a)
    await threads.flush()
    expect(JSON.parse(storage.items.get('agent-state:a')!).model.snapshot.status).toBe('running')
    expect(threads.getState().threads.find((summary) => summary.id === 'a')).toMatchObject({ status: 'running', hasConfirmation: false })
    // One agent per thread, one resume.
    expect(agents.map((agent) => agent.threadId)).toStrictEqual(['a', 'b'])
    expect(agents[0]!.inputs.map((input) => input.resume?.map((entry) => entry.interruptId) ?? [])).toStrictEqual([[], []])
    expect(agents[0]!.inputs[1]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'k1' })
  })
})
