// Dropping threads from memory (maxThreads): a thread with a request in flight stays, including
// one whose reconnect() is still passing over the server's replay (it shows `idle` meanwhile).
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { createAgentThreads } from '../../src'
import { ConnectingAgent, settle } from './support-storages'
import { type Doc, MapStorage } from './support-threads'

const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: 'a', runId }) as BaseEvent
const finished = (runId: string) => ({ type: 'RUN_FINISHED', threadId: 'a', runId }) as BaseEvent
const text = (messageId: string, delta: string): BaseEvent[] => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' } as BaseEvent,
  { type: 'TEXT_MESSAGE_CONTENT', messageId, delta } as BaseEvent,
  { type: 'TEXT_MESSAGE_END', messageId } as BaseEvent,
]

describe('a thread dropped from memory', () => {
  it('is not dropped while its reconnect() replay is in flight', async () => {
    const agents = new Map<string, ConnectingAgent>()
    const threads = createAgentThreads<Doc>({
      initialState: {},
      persist: { storage: new MapStorage() },
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
})
