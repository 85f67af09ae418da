import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { AgentStoreError, createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev, run } from './helpers'

describe('run()', () => {
  it('sends the committed state, the conversation and the options, then applies the stream', async () => {
    const agent = new ScriptedAgent({
      threadId: 'thread-7',
      runs: [
        (input) => run(input.runId, ev.snapshot({ count: 1 }), ev.textStart('a1'), ev.text('a1', 'one'), ev.textEnd('a1')),
        (input) => run(input.runId, ev.delta({ op: 'replace', path: '/count', value: 2 })),
      ],
    })
    const store = createAgentStore({ agent, initialState: { count: 0 } })
    const tools = [{ name: 'search', description: 'find', parameters: { type: 'object' } }]
    await store.run({ message: 'first', tools, context: [{ description: 'd', value: 'v' }], forwardedProps: { x: 1 } })
    expect(store.getState()).toMatchObject({ status: 'idle', state: { count: 1 }, threadId: 'thread-7', error: undefined })
    const first = agent.inputs[0]!
    expect(first).toMatchObject({ threadId: 'thread-7', state: { count: 0 }, tools, context: [{ description: 'd', value: 'v' }], forwardedProps: { x: 1 } })
    expect(first.messages).toEqual([{ id: expect.any(String), role: 'user', content: 'first' }])

    await store.run({ message: 'second' })
    const second = agent.inputs[1]!
    expect(second.state).toEqual({ count: 1 })
    expect(second.runId).not.toBe(first.runId)
    expect(second.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'first'],
      ['assistant', 'one'],
      ['user', 'second'],
    ])
    expect(store.getState().state).toEqual({ count: 2 })
  })

  it('is running while the stream is open and refuses a second run', async () => {
    const agent = new ScriptedAgent({ runs: [(input) => run(input.runId, ev.snapshot({ n: 1 }))], delay: 2 })
    const store = createAgentStore({ agent, initialState: { n: 0 } })
    const pending = store.run()
    expect(store.getState().status).toBe('running')
    await expect(store.run()).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
    await pending
    expect(store.getState()).toMatchObject({ status: 'idle', state: { n: 1 } })
    expect(agent.inputs).toHaveLength(1)
  })

  it('refuses to run without an agent', async () => {
    const store = createAgentStore({ initialState: {} })
    await expect(store.run()).rejects.toBeInstanceOf(AgentStoreError)
    await expect(store.run()).rejects.toMatchObject({ code: 'NO_AGENT' })
  })

  it('treats a stream that ends without RUN_FINISHED as a transport error, rolling back what it changed', async () => {
    const agent = new ScriptedAgent({ runs: [(input) => [ev.runStarted(input.runId), ev.snapshot({ n: 1 })]] })
    const store = createAgentStore({ agent, initialState: { n: 0 } })
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'error', error: { code: 'TRANSPORT' }, state: { n: 0 }, committed: { n: 0 } })
  })

  it('reports a lifecycle violation as INVALID_EVENT', async () => {
    const agent = new ScriptedAgent({ runs: [[ev.snapshot({ n: 1 })]] })
    const store = createAgentStore({ agent, initialState: { n: 0 } })
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'error', error: { code: 'INVALID_EVENT' }, state: { n: 0 } })
  })

  it('expands chunk events on the way in', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) =>
          run(
            input.runId,
            { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', role: 'assistant', delta: 'a' } as BaseEvent,
            { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm', delta: 'b' } as BaseEvent,
          ),
      ],
    })
    const store = createAgentStore({ agent, initialState: {} })
    await store.run()
    expect(store.getState().messages).toEqual([{ id: 'm', role: 'assistant', content: 'ab' }])
  })

  it('abort() ends the run, rolls back its state changes and ignores late events', async () => {
    let emit: ((event: BaseEvent) => void) | undefined
    let unsubscribed = 0
    class ManualAgent extends AbstractAgent {
      run(input: RunAgentInput) {
        return new Observable<BaseEvent>((subscriber) => {
          emit = (event) => subscriber.next(event)
          subscriber.next(ev.runStarted(input.runId))
          return () => unsubscribed++
        })
      }
    }
    const store = createAgentStore({ agent: new ManualAgent(), initialState: { n: 0 } })
    const done = store.run()
    emit!(ev.snapshot({ n: 1 }))
    store.abort()
    await done
    const late = emit!
    late(ev.snapshot({ n: 2 }))
    expect(store.getState()).toMatchObject({ status: 'idle', state: { n: 0 }, error: undefined })
    expect(unsubscribed).toBe(1)
    // The store is ready for the next run.
    const next = store.run()
    expect(store.getState().status).toBe('running')
    store.abort()
    await next
  })

  it('a stale run never touches a newer one', async () => {
    const emitters: ((event: BaseEvent) => void)[] = []
    class ManualAgent extends AbstractAgent {
      run(input: RunAgentInput) {
        return new Observable<BaseEvent>((subscriber) => {
          emitters.push((event) => subscriber.next(event))
          subscriber.next(ev.runStarted(input.runId))
        })
      }
    }
    const store = createAgentStore({ agent: new ManualAgent(), initialState: { n: 0 } })
    const first = store.run()
    store.abort()
    await first
    const second = store.run()
    emitters[0]!(ev.snapshot({ n: 1 }))
    emitters[1]!(ev.snapshot({ n: 2 }))
    expect(store.getState().state).toEqual({ n: 2 })
    store.abort()
    await second
  })
})
