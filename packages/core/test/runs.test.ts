// How runs go: what run() sends and applies, commands called from listeners, abort() and reset(),
// the stream a run reads, the terminal events, what a failed run rolls back and keeps (and the tool
// calls it cut off), and what a finished run commits, holds and opens. Every wait is bounded; every
// promise the store hands out must settle.
import { AbstractAgent, HttpAgent } from '@ag-ui/client'
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { Observable } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { startAgUiServer } from '../../../test/support/agui-server'
import { AgentStoreError, createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev, run } from './helpers'
import {
  byInterrupt,
  call,
  type Doc,
  DrivenAgent,
  documentCallStreaming,
  done,
  handled,
  interrupt,
  interruptOnW1,
  pause,
  predict,
  scripted,
  settled,
  storeWithErrors,
  streaming,
  until,
  withErrors,
  writeDocument,
  writerAgent,
} from './support/scenarios'

const subagentStarted = (id: string) => ({ type: 'SUBAGENT_STARTED', subagentRunId: id, name: 'helper' }) as BaseEvent
const messagesSnapshot = (messages: Message[]) => ({ type: 'MESSAGES_SNAPSHOT', messages }) as BaseEvent
const callIds = (message: Message | undefined) => (message?.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : undefined)

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

describe('commands called from listeners', () => {
  it('approve() from a listener for the second of two interrupts sends one resumed run carrying both answers, and every promise settles', async () => {
    const agent = scripted((runId) => [
      interrupt(runId, [
        { id: 'a', reason: 'tool_call' },
        { id: 'b', reason: 'input_required' },
      ]),
    ])
    const store = createAgentStore({ agent, initialState: {} })
    await store.run()
    let inner: Promise<void> | undefined
    store.subscribe((snapshot) => {
      if (inner === undefined && snapshot.confirmations.length === 1 && snapshot.confirmations[0]!.id === 'b') inner = handled(store.approve({ id: 'b' }))
    })
    const outer = store.approve({ id: 'a' })
    expect(await settled(outer)).toBe('resolved')
    expect(await settled(inner)).toBe('resolved')
    await until(() => store.getState().status === 'idle')
    await pause(30)
    expect(agent.inputs).toHaveLength(2)
    expect(byInterrupt(agent.inputs[1]!.resume)).toStrictEqual([
      { interruptId: 'a', status: 'resolved', payload: { accepted: true } },
      { interruptId: 'b', status: 'resolved', payload: { accepted: true } },
    ])
    expect(store.getState().confirmations).toStrictEqual([])
  })

  it('approve() and reject() called from listeners during one answer give exactly one resumed run with every answer', async () => {
    const agent = scripted((runId) => [
      interrupt(runId, [
        { id: 'a', reason: 'tool_call' },
        { id: 'b', reason: 'tool_call' },
        { id: 'c', reason: 'tool_call' },
      ]),
    ])
    const store = createAgentStore({ agent, initialState: {} })
    await store.run()
    const promises: Promise<void>[] = []
    // Listeners are called synchronously, inside approve('a'): they answer once each.
    let answered = 0
    store.subscribe((snapshot) => {
      const ids = snapshot.confirmations.map((c) => c.id)
      if (ids.length === 2 && answered === 0) promises.push((answered++, handled(store.reject({ id: 'b' }))))
      else if (ids.length === 1 && answered === 1) promises.push((answered++, handled(store.approve({ id: 'c' }))))
    })
    promises.push(store.approve({ id: 'a' }))
    await until(() => promises.length === 3)
    for (const promise of promises) expect(await settled(promise)).toBe('resolved')
    await until(() => store.getState().status === 'idle')
    await pause(30)
    expect(agent.inputs).toHaveLength(2)
    expect(byInterrupt(agent.inputs[1]!.resume)).toStrictEqual([
      { interruptId: 'a', status: 'resolved', payload: { accepted: true } },
      { interruptId: 'b', status: 'resolved', payload: { accepted: false } },
      { interruptId: 'c', status: 'resolved', payload: { accepted: true } },
    ])
  })

  it('run() from a listener that sees the run end sends exactly one more request, and its promise settles', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore({ agent, initialState: {} })
    let second: Promise<void> | undefined
    store.subscribe((snapshot, previous) => {
      if (second === undefined && previous.status === 'running' && snapshot.status === 'idle') second = handled(store.run({ message: 'again' }))
    })
    expect(await settled(store.run({ message: 'first' }))).toBe('resolved')
    expect(await settled(second)).toBe('resolved')
    await until(() => store.getState().status === 'idle')
    await pause(30)
    expect(agent.inputs).toHaveLength(2)
    expect(agent.inputs[1]!.messages.map((m) => m.content)).toStrictEqual(['first', 'again'])
  })

  it('a nested run() from a listener while a run is active is refused with RUN_ACTIVE and sends nothing', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore({ agent, initialState: {} })
    let nested: Promise<void> | undefined
    store.subscribe((snapshot) => {
      if (nested === undefined && snapshot.status === 'running') nested = handled(store.run())
    })
    expect(await settled(store.run())).toBe('resolved')
    expect(await settled(nested)).toBe('rejected')
    await expect(nested).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
    await pause(30)
    expect(agent.inputs).toHaveLength(1)
    expect(store.getState().status).toBe('idle')
  })

  it('a listener that sees `interrupted` after RUN_FINISHED can approve() at once, and the resumed run carries the answer', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    let answered: Promise<void> | undefined
    store.subscribe((snapshot) => {
      if (answered === undefined && snapshot.status === 'interrupted') answered = handled(store.approve())
    })
    expect(await settled(store.run())).toBe('resolved')
    expect(await settled(answered)).toBe('resolved')
    await until(() => agent.inputs.length === 2 && store.getState().status === 'idle')
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'draft text' })
    expect(store.getState().committed).toStrictEqual({ document: 'draft text' })
  })

  it('a listener that sees `idle` (or `error`) after the run ended can run() at once: no RUN_ACTIVE', async () => {
    for (const ending of ['idle', 'error'] as const) {
      const agent = scripted((runId) => [ending === 'idle' ? ev.runFinished(runId) : ev.runError('boom')])
      const { store, errors } = withErrors({ agent, initialState: {} })
      let next: Promise<void> | undefined
      store.subscribe((snapshot, previous) => {
        if (next === undefined && previous.status === 'running' && snapshot.status === ending) next = handled(store.run())
      })
      await store.run()
      expect(await settled(next)).toBe('resolved')
      await until(() => agent.inputs.length === 2 && store.getState().status === 'idle')
      expect(errors.filter((error) => error.code === 'RUN_ACTIVE')).toStrictEqual([])
    }
  })

  it('abort() from a listener that sees `interrupted` changes nothing: still interrupted, the confirmation open, the draft held', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    let aborted = false
    store.subscribe((snapshot) => {
      if (!aborted && snapshot.status === 'interrupted') {
        aborted = true
        store.abort()
      }
    })
    await store.run()
    await pause(10)
    expect(aborted).toBe(true)
    const snapshot = store.getState()
    expect(snapshot.status).toBe('interrupted')
    expect(snapshot.confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([['i1', ['document']]])
    expect(snapshot.state).toStrictEqual({ document: 'draft text' })
    expect(snapshot.committed).toStrictEqual({ document: 'before' })
    await store.approve()
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
  })
})

describe('abort() and reset()', () => {
  it('abort() with no active request changes nothing: same snapshot, no notification, no error', async () => {
    const agent = writerAgent(interruptOnW1)
    const { store, errors } = withErrors({ agent, initialState: { document: 'before' } })
    let notified = 0
    store.subscribe(() => notified++)
    const fresh = store.getState()
    store.abort()
    expect(store.getState()).toBe(fresh)
    await store.run()
    const interrupted = store.getState()
    const count = notified
    store.abort()
    expect(store.getState()).toBe(interrupted)
    expect(notified).toBe(count)
    expect(errors).toStrictEqual([])
    await store.approve()
    const idle = store.getState()
    store.abort()
    expect(store.getState()).toBe(idle)
    expect(idle.status).toBe('idle')
  })

  it('abort() ends open steps and running subagents with "The run was stopped", without a code', async () => {
    const { agent, store, running } = await streaming({ n: 0 })
    agent.push(subagentStarted('s1'), ev.stepStarted('plan'))
    expect(store.getState().steps).toStrictEqual(['plan'])
    store.abort()
    await running
    const after = store.getState()
    expect(after.status).toBe('idle')
    expect(after.error).toBeUndefined()
    expect(after.steps).toStrictEqual([])
    expect(after.subagents.map(({ subagentRunId, status, error }) => ({ subagentRunId, status, error }))).toStrictEqual([
      { subagentRunId: 's1', status: 'error', error: { message: 'The run was stopped' } },
    ])
  })

  it('reset() while a resumed request is open settles its promise, clears the outbox and ignores the request’s late events', async () => {
    const agent = new DrivenAgent()
    agent.autoStart = false
    const store = createAgentStore<Doc>({ agent, initialState: { n: 0 } })
    const first = store.run()
    await until(() => agent.open)
    agent.push(ev.runStarted(agent.input.runId))
    agent.finish(interrupt(agent.input.runId, [{ id: 'i1', reason: 'tool_call' }]))
    await first
    const answered = store.approve()
    await until(() => agent.inputs.length === 2)
    store.reset()
    expect(await settled(answered)).toBe('resolved')
    agent.push(ev.runStarted(agent.input.runId), ev.snapshot({ n: 9 }))
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], state: { n: 0 }, error: undefined })
  })
})

describe('the stream a run reads', () => {
  it('agent.run() that throws synchronously ends run() as TRANSPORT; one that emits synchronously ends it normally', async () => {
    class Throwing extends AbstractAgent {
      run(): Observable<BaseEvent> {
        throw new Error('sync boom')
      }
    }
    class Synchronous extends AbstractAgent {
      run(input: RunAgentInput) {
        return new Observable<BaseEvent>((subscriber) => {
          subscriber.next(ev.runStarted(input.runId))
          subscriber.next(ev.snapshot({ n: 2 }))
          subscriber.next(ev.runFinished(input.runId))
          subscriber.complete()
        })
      }
    }
    const throwing = createAgentStore({ agent: new Throwing(), initialState: { n: 1 } })
    expect(await settled(throwing.run())).toBe('resolved')
    expect(throwing.getState()).toMatchObject({ status: 'error', error: { code: 'TRANSPORT' }, state: { n: 1 } })
    const synchronous = createAgentStore({ agent: new Synchronous(), initialState: { n: 1 } })
    expect(await settled(synchronous.run())).toBe('resolved')
    expect(synchronous.getState()).toMatchObject({ status: 'idle', error: undefined, state: { n: 2 } })
    expect(await settled(synchronous.run())).toBe('resolved')
  })

  it('a BOM right before the first `data:` line is skipped: the stream is read as usual', async () => {
    const server = await startAgUiServer([
      (input, response) => {
        response.writeHead(200, { 'Content-Type': 'text/event-stream' })
        const line = (event: BaseEvent) => `data: ${JSON.stringify(event)}\n\n`
        response.end(
          `\uFEFF${line(ev.runStarted(input.runId, input.threadId))}${line(ev.snapshot({ n: 2 }))}${line(ev.runFinished(input.runId, input.threadId))}`,
        )
      },
    ])
    const store = createAgentStore({ agent: new HttpAgent({ url: server.url, threadId: 't-bom' }), initialState: { n: 1 } })
    await store.run().finally(() => server.close())
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { n: 2 } })
  })

  it('an event type from a newer protocol is ignored: no error, no change, onEvent still sees it', () => {
    const store = createAgentStore<Doc>({ initialState: { n: 1 } })
    const seen: string[] = []
    store.onEvent((event) => seen.push(event.type))
    const before = store.getState()
    store.apply({ type: 'SOMETHING_NEW', payload: 1 } as unknown as BaseEvent)
    expect(store.getState()).toBe(before)
    expect(seen).toStrictEqual(['SOMETHING_NEW'])
  })
})

describe('terminal events', () => {
  it('a RUN_ERROR without `message` ends the run: status `error` (INVALID_EVENT), the draft discarded, run() resolves and the next run works', async () => {
    const agent = scripted(() => [...documentCallStreaming('{"document":"half'), { type: 'RUN_ERROR' } as BaseEvent])
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    expect(await settled(store.run())).toBe('resolved')
    const snapshot = store.getState()
    expect(snapshot.status).toBe('error')
    expect(snapshot.error).toMatchObject({ code: 'INVALID_EVENT' })
    expect(snapshot.state).toStrictEqual({ document: 'before' })
    expect(snapshot.committed).toStrictEqual({ document: 'before' })
    expect(snapshot.predictions).toStrictEqual([])
    expect(await settled(store.run())).toBe('resolved')
    expect(store.getState().status).toBe('idle')
  })

  it('a malformed RUN_ERROR or RUN_FINISHED fed to apply() ends the run as `error`, its drafts discarded', () => {
    const malformed: BaseEvent[] = [
      { type: 'RUN_ERROR', code: 42 } as unknown as BaseEvent,
      { type: 'RUN_FINISHED', threadId: 't1', runId: 7 } as unknown as BaseEvent,
    ]
    for (const terminal of malformed) {
      const store = createAgentStore({ initialState: { document: 'before' } })
      store.apply([ev.runStarted('r1'), ...documentCallStreaming('{"document":"x')])
      expect(store.getState().status).toBe('running')
      store.apply(terminal)
      const snapshot = store.getState()
      expect({ type: terminal.type, status: snapshot.status }).toStrictEqual({ type: terminal.type, status: 'error' })
      expect(snapshot.error).toBeInstanceOf(AgentStoreError)
      expect(snapshot.state).toStrictEqual({ document: 'before' })
      expect(snapshot.predictions).toStrictEqual([])
      expect(snapshot.steps).toStrictEqual([])
    }
  })

  it('a malformed RUN_ERROR ends the run as an error, its subagents with the error code', () => {
    const store = createAgentStore<Doc>({ initialState: { n: 0 }, onError: () => {} })
    store.apply([ev.runStarted(), subagentStarted('s1'), ev.stepStarted('plan'), { type: 'RUN_ERROR' } as BaseEvent])
    const after = store.getState()
    expect(after.status).toBe('error')
    expect(after.error?.code).toBe('INVALID_EVENT')
    expect(after.steps).toStrictEqual([])
    expect(after.subagents[0]!.error).toStrictEqual({ message: after.error!.message, code: 'INVALID_EVENT' })
  })

  it('a run-less RUN_ERROR only reports', () => {
    const errors: AgentStoreError[] = []
    const store = createAgentStore<Doc>({ initialState: { n: 0 }, onError: (e) => errors.push(e) })
    store.apply(ev.runError('boom'))
    expect(store.getState()).toMatchObject({ status: 'error', state: { n: 0 }, confirmations: [] })
    expect(errors.map((e) => e.code)).toStrictEqual(['RUN_ERROR'])
  })

  it('a RUN_FINISHED with a cancelled outcome rolls the run back like a failure, as idle', async () => {
    const agent = scripted(
      (runId) => [ev.delta({ op: 'replace', path: '/n', value: 2 }), ...writeDocument(), ev.runFinished(runId, 't1', { type: 'cancelled' })],
      [],
    )
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before', n: 1 } })
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], predictions: [] })
    expect(store.getState().state).toStrictEqual({ document: 'before', n: 1 })
    expect(store.getState().committed).toStrictEqual({ document: 'before', n: 1 })
  })

  it('a cancelled outcome discards the drafts and ends idle', () => {
    const store = createAgentStore<Doc>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new"}')])
    store.apply(ev.runFinished('r1', 't1', { type: 'cancelled' }))
    const after = store.getState()
    expect(after).toMatchObject({ status: 'idle', error: undefined, predictions: [], confirmations: [] })
    expect(after.state).toStrictEqual({ doc: 'old' })
  })
})

describe('a failed run', () => {
  it('STATE_SNAPSHOT({}) then RUN_ERROR rolls the state back; the conversation keeps the text and the error', async () => {
    const agent = scripted(
      () => [
        ev.snapshot({}),
        ev.delta({ op: 'add', path: '/x', value: 1 }),
        ev.textStart('a1'),
        ev.text('a1', 'Working'),
        ev.textEnd('a1'),
        ev.runError('boom'),
      ],
      [],
    )
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'keep', n: 1 } })
    await store.run({ message: 'go' })
    const snapshot = store.getState()
    expect(snapshot.status).toBe('error')
    expect(snapshot.error).toMatchObject({ code: 'RUN_ERROR', message: expect.stringContaining('boom') })
    expect(snapshot.state).toStrictEqual({ document: 'keep', n: 1 })
    expect(snapshot.committed).toStrictEqual({ document: 'keep', n: 1 })
    expect(snapshot.messages.map((m) => [m.role, m.content])).toStrictEqual([
      ['user', 'go'],
      ['assistant', 'Working'],
    ])
  })

  it('after a truncated stream or a timeout the server’s changes and drafts roll back; the user’s own edit stays', async () => {
    for (const failure of ['truncated', 'timeout'] as const) {
      const { agent, store, running } = await streaming<Doc>({ document: 'before', n: 1 }, failure === 'timeout' ? { timeoutMs: 300 } : {})
      agent.push(ev.delta({ op: 'replace', path: '/n', value: 2 }), ...writeDocument('draft'))
      store.setState((s) => ({ ...s, title: 'mine' }))
      expect(store.getState().state).toStrictEqual({ document: 'draft', n: 2, title: 'mine' })
      if (failure === 'truncated') agent.complete()
      expect(await settled(running)).toBe('resolved')
      const snapshot = store.getState()
      expect({ failure, status: snapshot.status, code: snapshot.error?.code }).toStrictEqual({ failure, status: 'error', code: 'TRANSPORT' })
      expect(snapshot.state).toStrictEqual({ document: 'before', n: 1, title: 'mine' })
      expect(snapshot.committed).toStrictEqual({ document: 'before', n: 1, title: 'mine' })
      expect(snapshot.predictions).toStrictEqual([])
    }
  })

  it('rolls back what the server changed, keeping the user edits made during the run', async () => {
    const { agent, store, errors, running } = await streaming({ a: 0, b: 0 })
    agent.push(ev.delta({ op: 'replace', path: '/a', value: 1 }))
    store.setState((s) => ({ ...s, b: 5 }))
    agent.push(ev.delta({ op: 'add', path: '/c', value: 1 }))
    expect(store.getState().state).toStrictEqual({ a: 1, b: 5, c: 1 })
    agent.push(ev.runError('boom'))
    await running
    expect(store.getState().state).toStrictEqual({ a: 0, b: 5 })
    expect(store.getState().committed).toBe(store.getState().state)
    expect(errors.map((e) => e.code)).toStrictEqual(['RUN_ERROR'])
  })

  it('keeps the user’s own edit even when the server then sent the same value', async () => {
    const { agent, store, running } = await streaming<Doc>({ a: 0 })
    store.setState((s) => ({ ...s, a: 6 }))
    agent.push(ev.delta({ op: 'replace', path: '/a', value: 6 }))
    agent.complete()
    await running
    expect(store.getState().status).toBe('error')
    expect(store.getState().state).toStrictEqual({ a: 6 })
    expect(store.getState().committed).toStrictEqual({ a: 6 })
  })

  it('keeps the user’s deletion of a record even when the server removed it too', async () => {
    const { agent, store, running } = await streaming<Doc>({ items: [{ id: 'x' }, { id: 'y' }] })
    store.setState((s) => ({ ...s, items: [{ id: 'y' }] }))
    agent.push(ev.delta({ op: 'remove', path: '/items/0' }))
    agent.finish(ev.runError('boom'))
    await running
    expect(store.getState().status).toBe('error')
    expect(store.getState().committed).toStrictEqual({ items: [{ id: 'y' }] })
  })

  it('a user edit of something the failed run created is handed back as a conflict', async () => {
    const { agent, store, errors, running } = await streaming<Doc>({ items: [] })
    agent.push(ev.delta({ op: 'add', path: '/items/0', value: { id: 1, v: 1 } }))
    store.setState((s) => ({ ...s, items: [{ id: 1, v: 2 }] }))
    agent.push(ev.runError('boom'))
    await running
    expect(store.getState().state).toStrictEqual({ items: [] })
    const conflicts = errors.filter((e) => e.code === 'EDIT_CONFLICT')
    expect(conflicts.map((e) => ({ path: e.path, value: e.value }))).toStrictEqual([{ path: '/items/0/v', value: 2 }])
  })

  it('a broken stream ends running subagents with its error and code', async () => {
    const { agent, store, running } = await streaming({ n: 0 })
    agent.push(subagentStarted('s1'))
    agent.fail(new Error('socket closed'))
    await running
    const after = store.getState()
    expect(after.status).toBe('error')
    expect(after.error?.code).toBe('TRANSPORT')
    expect(after.subagents[0]!.status).toBe('error')
    expect(after.subagents[0]!.error).toStrictEqual({ message: after.error!.message, code: 'TRANSPORT' })
  })

  it('a failed later run keeps the drafts an earlier run left to its confirmation', () => {
    const store = createAgentStore<Doc>({ initialState: { doc: 'old', n: 0 }, onError: () => {} })
    store.apply([
      ev.runStarted('r1'),
      predict('doc', 'write', 'doc'),
      ev.toolStart('w1', 'write'),
      ev.toolArgs('w1', '{"doc":"draft"}'),
      ev.toolEnd('w1'),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
    ])
    store.apply([ev.runStarted('r2'), ev.delta({ op: 'replace', path: '/n', value: 1 }), ev.runError('boom')])
    const after = store.getState()
    expect(after.state).toStrictEqual({ doc: 'draft', n: 0 })
    expect(after.committed).toStrictEqual({ doc: 'old', n: 0 })
    expect(after.confirmations.map((c) => ({ id: c.id, stateKeys: c.stateKeys }))).toStrictEqual([{ id: 'i1', stateKeys: ['doc'] }])
  })

  it('with keepFailedRunChanges: true keeps the server’s changes and its finished drafts, committed', async () => {
    const agent = scripted(() => [ev.delta({ op: 'replace', path: '/n', value: 2 }), ...writeDocument('draft'), ev.runError('boom')], [])
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before', n: 1 }, keepFailedRunChanges: true })
    await store.run()
    expect(store.getState().status).toBe('error')
    expect(store.getState().state).toStrictEqual({ document: 'draft', n: 2 })
    expect(store.getState().committed).toStrictEqual({ document: 'draft', n: 2 })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('with keepFailedRunChanges, commits what the run changed and drafted, a draft still streaming included', async () => {
    const { agent, store, running } = await streaming({ a: 0, doc: 'old' }, { keepFailedRunChanges: true })
    agent.push(
      predict('doc', 'write', 'doc'),
      ev.delta({ op: 'replace', path: '/a', value: 1 }),
      ev.toolStart('c1', 'write'),
      ev.toolArgs('c1', '{"doc":"new'),
      ev.runError('boom'),
    )
    await running
    const after = store.getState()
    expect(after).toMatchObject({ status: 'error', predictions: [] })
    expect(after.state).toStrictEqual({ a: 1, doc: 'new' })
    expect(after.committed).toBe(after.state)
  })

  it('a second failed run rolls back to the state the first one left', () => {
    const { store: s, errors } = storeWithErrors({ title: 'a' })
    s.apply([ev.runStarted('r1'), ev.delta({ op: 'replace', path: '/title', value: 'b' }), ev.runError('first')])
    expect(s.getState().state).toStrictEqual({ title: 'a' })
    s.apply([ev.runStarted('r2'), ev.delta({ op: 'replace', path: '/title', value: 'c' }), ev.runError('second')])
    expect(s.getState().state).toStrictEqual({ title: 'a' })
    expect(s.getState().committed).toStrictEqual({ title: 'a' })
    expect(errors.map((e) => e.code)).toStrictEqual(['RUN_ERROR', 'RUN_ERROR'])
  })

  it('a failed run rolls back to the state a finished run committed', () => {
    const { store: s, errors } = storeWithErrors({ title: 'a' })
    s.apply([ev.runStarted('r1'), ev.delta({ op: 'replace', path: '/title', value: 'b' }), ev.runFinished('r1')])
    expect(s.getState().committed).toStrictEqual({ title: 'b' })
    s.apply([ev.runStarted('r2'), ev.delta({ op: 'replace', path: '/title', value: 'c' }), ev.runError('second')])
    expect(s.getState().state).toStrictEqual({ title: 'b' })
    expect(s.getState().committed).toStrictEqual({ title: 'b' })
    expect(errors.map((e) => e.code)).toStrictEqual(['RUN_ERROR'])
  })
})

describe('a failed run and the tool calls it cut off', () => {
  it('keeps the very messages array when no call was streaming', () => {
    const { store: s } = storeWithErrors()
    s.apply([ev.runStarted('r1'), ev.textStart('m1'), ev.text('m1', 'hi'), ev.textEnd('m1')])
    const before = s.getState().messages
    s.apply(ev.runError('boom'))
    expect(s.getState().status).toBe('error')
    expect(s.getState().messages).toBe(before)
  })

  it('drops only the cut call: whole arguments, a result, or an end keep a call', () => {
    const { store: s } = storeWithErrors()
    s.apply([
      ev.runStarted('r1'),
      // Streaming, arguments whole: stays.
      ev.toolStart('whole', 'search', 'm1'),
      ev.toolArgs('whole', '{"q":1}'),
      // Streaming, cut, no result: goes.
      ev.toolStart('cut', 'search', 'm1'),
      ev.toolArgs('cut', '{"q":'),
      // Streaming, cut, but answered: stays.
      ev.toolStart('answered', 'search', 'm1'),
      ev.toolArgs('answered', '{"q":'),
      ev.toolResult('r-answered', 'answered', 'found'),
      // Ended with arguments that are not JSON: it is no longer streaming, so it stays.
      ev.toolStart('ended', 'search', 'm1'),
      ev.toolArgs('ended', '{"q":'),
      ev.toolEnd('ended'),
    ])
    s.apply(ev.runError('boom'))
    const messages = s.getState().messages
    expect(messages.map((m) => m.id)).toStrictEqual(['m1', 'r-answered'])
    expect(callIds(messages[0])).toStrictEqual(['whole', 'answered', 'ended'])
    expect(messages[1]).toMatchObject({ role: 'tool', toolCallId: 'answered', content: 'found' })
  })

  it('keeps a message with text without its cut call, and drops one the run made for the cut call alone', () => {
    const { store: s } = storeWithErrors()
    s.apply([
      ev.runStarted('r1'),
      ev.textStart('m1'),
      ev.text('m1', 'Let me look'),
      ev.textEnd('m1'),
      ev.toolStart('cut-1', 'search', 'm1'),
      ev.toolArgs('cut-1', '{"q'),
      ev.toolStart('cut-2', 'search', 'm2'),
      ev.toolArgs('cut-2', '{"q'),
    ])
    s.apply(ev.runError('boom'))
    expect(s.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'Let me look' }])
  })

  it('keeps a message from before the run, emptied of the cut call it was given', () => {
    const { store: s } = storeWithErrors()
    s.apply(messagesSnapshot([{ id: 'm0', role: 'assistant' }]))
    s.apply([ev.runStarted('r2'), ev.toolStart('cut', 'search', 'm0'), ev.toolArgs('cut', '{"q')])
    expect(callIds(s.getState().messages[0])).toStrictEqual(['cut'])
    s.apply(ev.runError('boom'))
    expect(s.getState().messages).toStrictEqual([{ id: 'm0', role: 'assistant' }])
  })

  it('keeps what a cancelled run sent, cut calls included', () => {
    const { store: s } = storeWithErrors()
    s.apply([ev.runStarted('r1'), ev.toolStart('cut', 'search', 'm1'), ev.toolArgs('cut', '{"q')])
    s.apply(ev.runFinished('r1', 't1', { type: 'cancelled' }))
    expect(callIds(s.getState().messages[0])).toStrictEqual(['cut'])
  })

  it('keeps a message from before the run that held only the call it cut', () => {
    const { store: s } = storeWithErrors({})
    s.apply({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'm0', role: 'assistant' }] } as never)
    s.apply([ev.runStarted(), ev.toolStart('c1', 'write', 'm0'), ev.toolArgs('c1', '{"a'), ev.runError('boom')])
    expect(s.getState().messages).toStrictEqual([{ id: 'm0', role: 'assistant' }])
  })
})

describe('a finished run', () => {
  it('commits the drafts nobody confirms and holds those a confirmation governs', () => {
    const store = createAgentStore<Doc>({ initialState: { doc: 'old', notes: 'n' } })
    store.apply([
      ev.runStarted('r1'),
      predict('doc', 'write', 'doc'),
      predict('notes', 'note', 'notes'),
      ...call('w1', 'write', '{"doc":"draft"}'),
      ...call('n1', 'note', '{"notes":"more"}'),
      ev.stepStarted('left open'),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
    ])
    const after = store.getState()
    expect(after.status).toBe('interrupted')
    expect(after.steps).toStrictEqual([])
    expect(after.state).toStrictEqual({ doc: 'draft', notes: 'more' })
    expect(after.committed).toStrictEqual({ doc: 'old', notes: 'more' })
    expect(after.predictions.map((p) => p.stateKey)).toStrictEqual(['doc'])
  })

  it('a RUN_FINISHED fed without RUN_STARTED still opens its interrupts', () => {
    const store = createAgentStore<Doc>({ initialState: { n: 0 } })
    store.apply(interrupt('r9', [{ id: 'i1', reason: 'input_required', message: 'Name?' }]))
    const after = store.getState()
    expect(after.status).toBe('interrupted')
    expect(after.confirmations.map((c) => ({ id: c.id, source: c.source, message: c.message, stateKeys: c.stateKeys }))).toStrictEqual([
      { id: 'i1', source: 'interrupt', message: 'Name?', stateKeys: [] },
    ])
  })

  it('names on_interrupt confirmations after the run, or "run" when it has no id', () => {
    const named = createAgentStore<Doc>({ initialState: { n: 0 } })
    named.apply([ev.runStarted('r7'), ev.custom('on_interrupt', '{"q":1}'), ev.custom('on_interrupt', '{"q":2}'), ev.runFinished('r7')])
    expect(named.getState().confirmations.map((c) => c.id)).toStrictEqual(['r7:on_interrupt:0', 'r7:on_interrupt:1'])
    const unnamed = createAgentStore<Doc>({ initialState: { n: 0 } })
    unnamed.apply([ev.custom('on_interrupt', '{"q":1}'), ev.runFinished('r7')])
    expect(unnamed.getState().confirmations.map((c) => c.id)).toStrictEqual(['run:on_interrupt:0'])
    expect(unnamed.getState().status).toBe('interrupted')
  })

  it('ends idle, with no confirmations, when none is open', () => {
    const store = createAgentStore<Doc>({ initialState: { n: 0 } })
    store.apply([ev.runStarted('r1'), ev.stepStarted('s'), ev.runFinished('r1')])
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], steps: [] })
  })

  it('an interrupt a live run asks again after its answer arrived opens again: it is that run’s own', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'i1', reason: 'input_required' }])],
        (input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'i1', reason: 'input_required' }])],
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: { n: 0 } })
    await store.run()
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i1'])
    await store.respond({ id: 'i1', payload: { name: 'Ada' } })
    expect(agent.inputs).toHaveLength(2)
    expect(store.getState().status).toBe('interrupted')
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i1'])
  })

  it('a draft the validator refuses at the end is discarded, reported and shown as the error', () => {
    const errors: AgentStoreError[] = []
    const validate = (state: unknown) => {
      if ((state as Doc).doc === 'bad') throw new Error('doc may not be bad')
      return state as Doc
    }
    const store = createAgentStore<Doc>({ initialState: { doc: 'old', n: 0 }, validate, onError: (e) => errors.push(e) })
    store.apply([
      ev.runStarted('r1'),
      predict('doc', 'write', 'doc'),
      ev.delta({ op: 'replace', path: '/n', value: 1 }),
      ev.toolStart('w1', 'write'),
      ev.toolArgs('w1', '{"doc":"bad"}'),
      ev.toolEnd('w1'),
      ev.runFinished('r1'),
    ])
    const after = store.getState()
    expect(after.state).toStrictEqual({ doc: 'old', n: 1 })
    expect(after.committed).toBe(after.state)
    expect(after.predictions).toStrictEqual([])
    expect(errors.map((e) => e.code)).toStrictEqual(['VALIDATION'])
    expect(after.error).toBe(errors[0])
    expect(after.status).toBe('idle')
  })
})
