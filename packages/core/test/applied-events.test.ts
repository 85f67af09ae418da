import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'
import { interrupt, predict, type S } from './support/runs'

// Events through the public API, most fed by apply(): how runs end one another, which events
// change nothing, what is reported, and how tool results, predictions and interrupts add up.

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

describe('tool results, predictions and interrupts', () => {
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
