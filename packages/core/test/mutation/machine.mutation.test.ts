import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { ev } from '../helpers'

// The transition pinned through the public API: what run() sends and refuses, what a failed
// request gives back, how apply() runs end one another, and which events change nothing.

type S = Record<string, unknown>
const predict = (stateKey: string, tool: string, toolArgument: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, tool_argument: toolArgument }])
const interrupt = (runId: string, interrupts: Record<string, unknown>[]) => ev.runFinished(runId, 't1', { type: 'interrupt', interrupts })
const done = (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId), ev.runFinished(input.runId)]

/** Each run streams what the test pushes; `streams[i]` is run i's stream. */
class OpenAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  readonly streams: Subscriber<BaseEvent>[] = []
  constructor(private readonly opening = true) {
    super({ threadId: 'thread-x' })
  }
  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    return new Observable<BaseEvent>((subscriber) => {
      this.streams.push(subscriber)
      if (this.opening) subscriber.next(ev.runStarted(input.runId))
    })
  }
}

const refusal = async (promise: Promise<void>) => {
  try {
    await promise
  } catch (error) {
    return { code: (error as AgentStoreError).code, message: (error as AgentStoreError).message }
  }
  return undefined
}

describe('run()', () => {
  it('sends the committed state, the conversation with the new message, and empty defaults', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore<S>({ agent, initialState: { n: 1 }, threadId: 'th' })
    await store.run({ message: 'hi' })
    const input = agent.inputs[0]!
    expect(input.threadId).toBe('th')
    expect(input.state).toStrictEqual({ n: 1 })
    expect(input.tools).toStrictEqual([])
    expect(input.context).toStrictEqual([])
    expect(input.forwardedProps).toStrictEqual({})
    expect(input.messages.map((m) => [m.role, m.content])).toStrictEqual([['user', 'hi']])
    expect('resume' in input).toBe(false)
    expect(store.getState().runId).toBe(input.runId)
  })

  it('is running with the new run id, no steps and no error, as soon as it is called', async () => {
    const agent = new OpenAgent(false)
    const store = createAgentStore<S>({ agent, initialState: {}, onError: () => {} })
    store.apply([ev.runStarted('old'), ev.stepStarted('s'), ev.runError('boom')])
    const running = store.run()
    const state = store.getState()
    expect(state).toMatchObject({ status: 'running', steps: [], error: undefined, runId: agent.inputs[0]!.runId })
    expect(state.run).toStrictEqual({ runId: agent.inputs[0]!.runId })
    store.abort()
    await running
  })

  it('refuses while a run is active, while confirmations are open, and without an agent', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: {} })
    const running = store.run()
    expect(await refusal(store.run())).toStrictEqual({ code: 'RUN_ACTIVE', message: 'A run is already active on this store: await it or abort() it first' })
    agent.streams[0]!.next(interrupt(agent.inputs[0]!.runId, [{ id: 'i1', reason: 'input_required' }]))
    await running
    expect(await refusal(store.run())).toStrictEqual({
      code: 'PENDING_CONFIRMATION',
      message: 'Confirmations are open: answer them with approve(), reject(), respond() or cancel() first',
    })
    const alone = createAgentStore<S>({ initialState: {} })
    expect(await refusal(alone.run())).toStrictEqual({ code: 'NO_AGENT', message: 'run() needs an agent: pass one to createAgentStore({ agent })' })
    expect(agent.inputs).toHaveLength(1)
  })

  it('settles drafts apply() left open as a truncated run, before it sends', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore<S>({ agent, initialState: { doc: 'old' } })
    store.apply([ev.runStarted('r0'), predict('doc', 'write', 'doc'), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"draft"}')])
    expect(store.getState().state).toStrictEqual({ doc: 'draft' })
    await store.run()
    expect(agent.inputs[0]!.state).toStrictEqual({ doc: 'old' })
    expect(store.getState()).toMatchObject({ status: 'idle', state: { doc: 'old' }, predictions: [] })
  })
})

describe('requests that fail', () => {
  it('before the first event of an answer: the confirmation reopens as it was, and answering again resends', async () => {
    const agent = new OpenAgent(false)
    const store = createAgentStore<S>({ agent, initialState: { doc: 'old' }, onError: () => {} })
    const first = store.run()
    const runId = agent.inputs[0]!.runId
    agent.streams[0]!.next(ev.runStarted(runId))
    agent.streams[0]!.next(predict('doc', 'write', 'doc'))
    agent.streams[0]!.next(ev.toolStart('w1', 'write', 'm1'))
    agent.streams[0]!.next(ev.toolArgs('w1', '{"doc":"draft"}'))
    agent.streams[0]!.next(ev.toolEnd('w1'))
    agent.streams[0]!.next(interrupt(runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]))
    await first
    const before = store.getState()
    const answer = store.approve({ id: 'i1' })
    expect(store.getState()).toMatchObject({ status: 'running', committed: { doc: 'draft' } })
    agent.streams[1]!.error(new Error('HTTP 503'))
    await answer
    const after = store.getState()
    expect(after.status).toBe('interrupted')
    expect(after.error?.code).toBe('TRANSPORT')
    expect(after.confirmations).toBe(before.confirmations)
    expect(after.state).toBe(before.state)
    expect(after.committed).toBe(before.committed)
    expect(after.predictions).toBe(before.predictions)
    expect(after.messages).toBe(before.messages)
    expect(after.steps).toStrictEqual([])
    const again = store.approve({ id: 'i1' })
    expect(agent.inputs[2]!.resume).toStrictEqual(agent.inputs[1]!.resume)
    agent.streams[2]!.next(ev.runStarted(agent.inputs[2]!.runId))
    agent.streams[2]!.next(ev.runFinished(agent.inputs[2]!.runId))
    await again
    expect(store.getState()).toMatchObject({ status: 'idle', state: { doc: 'draft' }, confirmations: [] })
  })

  it('abort() before the first event of an answer gives it back too, without an error', async () => {
    const agent = new OpenAgent(false)
    const store = createAgentStore<S>({ agent, initialState: {} })
    const first = store.run()
    agent.streams[0]!.next(ev.runStarted(agent.inputs[0]!.runId))
    agent.streams[0]!.next(interrupt(agent.inputs[0]!.runId, [{ id: 'i1', reason: 'input_required' }]))
    await first
    const answer = store.respond({ id: 'i1', payload: { a: 1 } })
    store.abort()
    await answer
    expect(store.getState()).toMatchObject({ status: 'interrupted', error: undefined })
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i1'])
  })

  it('after the first event the answer counts as delivered: a failure ends the run as an error', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: {}, onError: () => {} })
    const first = store.run()
    agent.streams[0]!.next(interrupt(agent.inputs[0]!.runId, [{ id: 'i1', reason: 'input_required' }]))
    await first
    const answer = store.respond({ id: 'i1', payload: { a: 1 } })
    agent.streams[1]!.error(new Error('gone'))
    await answer
    expect(store.getState()).toMatchObject({ status: 'error', confirmations: [] })
    expect(store.getState().error?.code).toBe('TRANSPORT')
  })

  it('abort() with no request changes nothing', () => {
    const store = createAgentStore<S>({ initialState: { n: 0 } })
    store.apply([ev.runStarted('r1'), ev.delta({ op: 'replace', path: '/n', value: 1 })])
    const before = store.getState()
    store.abort()
    expect(store.getState()).toBe(before)
  })

  it('events of a request the store let go of change nothing', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: { n: 0 } })
    const first = store.run()
    store.abort()
    await first
    const before = store.getState()
    agent.streams[0]!.next(ev.snapshot({ n: 5 }))
    expect(store.getState()).toBe(before)
  })
})

describe('events through apply()', () => {
  it('a RUN_STARTED of the same or an unnamed run keeps the run, another run id ends it as truncated', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted('r1'), predict('doc', 'write', 'doc'), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"a"}')])
    store.apply(ev.runStarted('r1'))
    expect(store.getState().state).toStrictEqual({ doc: 'a' })
    store.apply(ev.runStarted('r2'))
    expect(store.getState()).toMatchObject({ status: 'running', runId: 'r2', state: { doc: 'old' }, committed: { doc: 'old' }, predictions: [] })
    const unnamed = createAgentStore<S>({ initialState: { doc: 'old' } })
    unnamed.apply([predict('doc', 'write', 'doc'), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"a"}'), ev.runStarted('r5')])
    expect(unnamed.getState().state).toStrictEqual({ doc: 'a' })
  })

  it('a CUSTOM event of another name changes no state', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted('r1'), ev.custom('Other', [{ state_key: 'doc', tool: 'write' }]), ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"a"}')])
    expect(store.getState().state).toStrictEqual({ doc: 'old' })
    store.apply(ev.runFinished('r1'))
    expect(store.getState().confirmations).toStrictEqual([])
  })

  it('a malformed event is reported and changes nothing else; a malformed terminal event ends the run', () => {
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ initialState: { n: 0 }, onError: (e) => errors.push(e) })
    store.apply([ev.runStarted('r1'), ev.delta({ op: 'replace', path: '/n', value: 1 })])
    const before = store.getState()
    store.apply({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm' } as BaseEvent)
    const after = store.getState()
    expect(after.status).toBe('running')
    expect(after.state).toBe(before.state)
    expect(after.error).toBe(errors[0])
    expect(errors.map((e) => e.code)).toStrictEqual(['INVALID_EVENT'])
    store.apply({ type: 'RUN_FINISHED' } as BaseEvent)
    expect(store.getState()).toMatchObject({ status: 'error', state: { n: 0 } })
    expect(errors.map((e) => e.code)).toStrictEqual(['INVALID_EVENT', 'INVALID_EVENT'])
  })

  it('a tool result for a call an answer named, which the conversation never showed, is dropped and said so', async () => {
    const errors: AgentStoreError[] = []
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          ev.textStart('a0'),
          ev.text('a0', 'Suspended'),
          ev.textEnd('a0'),
          // Another call the conversation shows: only the answered call's own id counts.
          ev.toolStart('seen', 'read', 'a1'),
          ev.toolArgs('seen', '{}'),
          ev.toolEnd('seen'),
          ev.toolResult('r0', 'seen', 'ok'),
          interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'hidden' }]),
        ],
        (input) => [
          ev.runStarted(input.runId),
          ev.toolResult('res', 'hidden', '{"ok":true}'),
          ev.toolResult('res2', 'other', 'x'),
          ev.runFinished(input.runId),
        ],
      ],
    })
    const store = createAgentStore<S>({ agent, initialState: {}, onError: (e) => errors.push(e) })
    await store.run()
    await store.approve({ id: 'i1' })
    expect(errors.map((e) => [e.code, e.reason, e.message])).toStrictEqual([
      ['INVALID_EVENT', 'orphan-result', 'TOOL_CALL_RESULT for tool call hidden, which the conversation never showed: dropped'],
    ])
    expect(
      store
        .getState()
        .messages.filter((m) => m.role === 'tool')
        .map((m) => m.id),
    ).toStrictEqual(['r0', 'res2'])
  })

  it('reset() clears everything and takes the new state', () => {
    const store = createAgentStore<S>({ initialState: { n: 0 } })
    store.apply([ev.runStarted('r1'), ev.delta({ op: 'replace', path: '/n', value: 1 }), interrupt('r1', [{ id: 'i1', reason: 'input_required' }])])
    store.reset({ n: 7 })
    expect(store.getState()).toMatchObject({ status: 'idle', state: { n: 7 }, committed: { n: 7 }, confirmations: [], messages: [], error: undefined })
  })
})

describe('more of the transition, through the store', () => {
  it('a result for an answered call the conversation shows is kept, whatever other assistant messages hold', async () => {
    const errors: AgentStoreError[] = []
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          ev.textStart('a0'),
          ev.text('a0', 'thinking'),
          ev.textEnd('a0'),
          ev.toolStart('w0', 'read', 'a1'),
          ev.toolArgs('w0', '{}'),
          ev.toolEnd('w0'),
          ev.toolResult('r0', 'w0', 'read'),
          ev.toolStart('w1', 'write', 'a1'),
          ev.toolArgs('w1', '{}'),
          ev.toolEnd('w1'),
          interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
        ],
        (input) => [ev.runStarted(input.runId), ev.toolResult('res', 'w1', 'done'), ev.runFinished(input.runId)],
      ],
    })
    const store = createAgentStore<S>({ agent, initialState: {}, onError: (e) => errors.push(e) })
    await store.run()
    await store.approve({ id: 'i1' })
    expect(errors).toStrictEqual([])
    const messages = store.getState().messages
    expect(messages.map((m) => m.id).slice(0, 2)).toStrictEqual(['a0', 'a1'])
    expect(messages.find((m) => m.id === 'res')).toMatchObject({ role: 'tool', toolCallId: 'w1', content: 'done' })
  })

  it('a tool result fed with no run in progress is applied, not refused', () => {
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ initialState: {}, onError: (e) => errors.push(e) })
    store.apply([ev.runStarted('r1'), ev.toolStart('w1', 'write', 'a1'), ev.toolArgs('w1', '{}'), ev.toolEnd('w1'), ev.runFinished('r1')])
    store.apply(ev.toolResult('res', 'w1', 'late'))
    expect(errors).toStrictEqual([])
    expect(store.getState().messages.map((m) => m.id)).toStrictEqual(['a1', 'res'])
  })

  it('null, a string and an object without a type are refused as INVALID_EVENT, the store going on', () => {
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ initialState: { n: 0 }, onError: (e) => errors.push(e) })
    store.apply([null as unknown as BaseEvent, 'x' as unknown as BaseEvent, {} as BaseEvent])
    expect(errors.map((e) => e.code)).toStrictEqual(['INVALID_EVENT', 'INVALID_EVENT', 'INVALID_EVENT'])
    expect(store.getState()).toMatchObject({ status: 'idle', state: { n: 0 }, error: errors[2] })
  })

  it('an unknown event type reaches onEvent and changes nothing', () => {
    const store = createAgentStore<S>({ initialState: { n: 0 } })
    const seen: unknown[] = []
    store.onEvent((event) => seen.push(event))
    const before = store.getState()
    const event = { type: 'FROM_THE_FUTURE', n: 1 } as unknown as BaseEvent
    store.apply(event)
    expect(store.getState()).toBe(before)
    expect(seen).toStrictEqual([event])
  })

  it('RUN_FINISHED frees the store at once: a new run starts while the old response still drains', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: {} })
    const first = store.run()
    agent.streams[0]!.next(ev.runFinished(agent.inputs[0]!.runId))
    await first
    const second = store.run()
    expect(agent.inputs).toHaveLength(2)
    expect(store.getState().status).toBe('running')
    agent.streams[1]!.next(ev.runFinished(agent.inputs[1]!.runId))
    await second
    expect(store.getState().status).toBe('idle')
  })

  it('RUN_ERROR frees the store at once too, and the run() promise settles', async () => {
    const agent = new OpenAgent()
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ agent, initialState: {}, onError: (e) => errors.push(e) })
    const first = store.run()
    agent.streams[0]!.next(ev.runError('boom', 'X'))
    await first
    expect(errors.map((e) => [e.code, e.message])).toStrictEqual([['RUN_ERROR', 'boom']])
    expect(store.getState().error).toBe(errors[0])
    const second = store.run()
    expect(agent.inputs).toHaveLength(2)
    store.abort()
    await second
  })

  it('a malformed terminal event of a run ends it and settles its promise', async () => {
    const agent = new OpenAgent()
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ agent, initialState: {}, onError: (e) => errors.push(e) })
    const first = store.run()
    agent.streams[0]!.next({ type: 'RUN_FINISHED' } as BaseEvent)
    await first
    expect(store.getState().status).toBe('error')
    expect(errors.map((e) => e.code)).toStrictEqual(['INVALID_EVENT'])
    const second = store.run()
    expect(agent.inputs).toHaveLength(2)
    store.abort()
    await second
  })

  it('a run the server cancelled ends idle with no confirmation, keeping what it sent', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted('r1'), ev.textStart('a1'), ev.text('a1', 'hi'), ev.textEnd('a1'), ev.runFinished('r1', 't1', { type: 'cancelled' })])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, confirmations: [], state: { doc: 'old' } })
    expect(store.getState().messages.map((m) => m.id)).toStrictEqual(['a1'])
  })

  it('a run named by RUN_STARTED after earlier events is ended by the next run id', () => {
    // Drafts are left out: those made before RUN_STARTED keep no run id (a defect, in the report).
    const store = createAgentStore<S>({ initialState: { n: 0 } })
    store.apply([ev.toolStart('w1', 'other'), ev.runStarted('r5'), ev.delta({ op: 'replace', path: '/n', value: 1 })])
    store.apply(ev.runStarted('r5'))
    expect(store.getState().state).toStrictEqual({ n: 1 })
    store.apply(ev.runStarted('r6'))
    expect(store.getState()).toMatchObject({ runId: 'r6', status: 'running', state: { n: 0 }, committed: { n: 0 } })
  })

  it('a superseded run ends as stopped, not as an error, and the new run starts clean', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted('r1'), ev.stepStarted('s1'), ev.delta({ op: 'replace', path: '/doc', value: 'srv' })])
    store.apply(ev.runStarted('r2'))
    expect(store.getState()).toMatchObject({ status: 'running', runId: 'r2', error: undefined, steps: [], state: { doc: 'old' } })
    store.apply(ev.runFinished('r2'))
    expect(store.getState()).toMatchObject({ status: 'idle', state: { doc: 'old' } })
  })

  it('PredictState mappings add up: to the predict option and to each other', () => {
    const store = createAgentStore<S>({ initialState: { a: 0, b: 0, c: 0 }, predict: [{ stateKey: 'a', tool: 'wa', toolArgument: 'v' }] })
    store.apply([
      ev.runStarted('r1'),
      predict('b', 'wb', 'v'),
      predict('c', 'wc', 'v'),
      ev.toolStart('1', 'wa'),
      ev.toolArgs('1', '{"v":1}'),
      ev.toolStart('2', 'wb'),
      ev.toolArgs('2', '{"v":2}'),
      ev.toolStart('3', 'wc'),
      ev.toolArgs('3', '{"v":3}'),
    ])
    expect(store.getState().state).toStrictEqual({ a: 1, b: 2, c: 3 })
  })

  it('a PredictState for a call already streaming drafts from the text so far, before the run ever started', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
    store.apply([ev.toolStart('w1', 'write'), ev.toolArgs('w1', '{"doc":"so far'), predict('doc', 'write', 'doc')])
    expect(store.getState().state).toStrictEqual({ doc: 'so far' })
  })

  it('on_interrupt values add up, fed with or without RUN_STARTED', () => {
    const store = createAgentStore<S>({ initialState: {} })
    store.apply([ev.custom('on_interrupt', '{"q":1}'), ev.custom('on_interrupt', { q: 2 }), ev.runFinished('r1')])
    expect(store.getState().confirmations.map((c) => [c.source, c.value])).toStrictEqual([
      ['on_interrupt', { q: 1 }],
      ['on_interrupt', { q: 2 }],
    ])
    expect(store.getState().status).toBe('interrupted')
  })

  it('abort() closes the open steps and ends the run idle with no error', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: {} })
    const running = store.run()
    agent.streams[0]!.next(ev.stepStarted('s1'))
    expect(store.getState().steps).toStrictEqual(['s1'])
    store.abort()
    await running
    expect(store.getState()).toMatchObject({ status: 'idle', steps: [], error: undefined })
    expect(agent.streams[0]!.closed).toBe(true)
  })

  it('reset() during a run cuts its request and settles its promise', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: { n: 0 } })
    const running = store.run()
    store.reset({ n: 3 })
    await running
    expect(agent.streams[0]!.closed).toBe(true)
    agent.streams[0]!.next(ev.snapshot({ n: 9 }))
    expect(store.getState()).toMatchObject({ status: 'idle', state: { n: 3 } })
  })

  it("a run's own timeoutMs is used over the store's", async () => {
    const agent = new OpenAgent()
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ agent, initialState: {}, timeoutMs: 60_000, onError: (e) => errors.push(e) })
    const started = Date.now()
    await store.run({ timeoutMs: 20 })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(store.getState().status).toBe('error')
    expect(errors).toHaveLength(1)
  })

  it("the store's timeoutMs is used when the run gives none", async () => {
    const agent = new OpenAgent()
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ agent, initialState: {}, timeoutMs: 20, onError: (e) => errors.push(e) })
    await store.run()
    expect(store.getState().status).toBe('error')
    expect(errors).toHaveLength(1)
  })

  it('run() with no message keeps the conversation array as it was', async () => {
    const agent = new ScriptedAgent({ runs: [done, done] })
    const store = createAgentStore<S>({ agent, initialState: {} })
    await store.run({ message: 'hi' })
    const messages = store.getState().messages
    const running = store.run()
    expect(store.getState().messages).toBe(messages)
    await running
  })

  it('apply() during a run() applies its events to that run', async () => {
    const agent = new OpenAgent()
    const store = createAgentStore<S>({ agent, initialState: { n: 0 } })
    const running = store.run()
    store.apply(ev.delta({ op: 'replace', path: '/n', value: 2 }))
    expect(store.getState()).toMatchObject({ status: 'running', state: { n: 2 } })
    agent.streams[0]!.next(ev.runFinished(agent.inputs[0]!.runId))
    await running
    expect(store.getState()).toMatchObject({ status: 'idle', committed: { n: 2 } })
  })

  it('a TOOL_CALL_CHUNK drafts like the TOOL_CALL_START and _ARGS it stands for', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
    store.apply([
      ev.runStarted('r1'),
      predict('doc', 'write', 'doc'),
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'w1', toolCallName: 'write', parentMessageId: 'a1', delta: '{"doc":"dr' } as BaseEvent,
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'w1', delta: 'aft"}' } as BaseEvent,
    ])
    expect(store.getState().state).toStrictEqual({ doc: 'draft' })
    expect(store.getState().committed).toStrictEqual({ doc: 'old' })
  })
})
