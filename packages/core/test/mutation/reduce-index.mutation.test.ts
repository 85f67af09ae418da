import type { Event, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentSnapshot, createAgentStore } from '../../src'
import { checkedType, reduceEvent } from '../../src/snapshot/reduce-event'
import { refusalOf } from '../helpers'

// The entry of the reducers pinned: checkedType's exact refusals and the constant it returns for
// an event it leaves as it was; reduceEvent's dispatch of every type, chunks applied whole, and the rest left alone.

const refusal = (event: unknown) => refusalOf(() => checkedType(event))
const blank = (...messages: Message[]): AgentSnapshot<unknown> => ({ ...createAgentStore({ initialState: {} }).getState(), messages })
const as = (event: Record<string, unknown>) => event as unknown as Event

describe('checkedType', () => {
  it('refuses what is not an object with a string type', () => {
    for (const event of [null, undefined, [], ['TEXT_MESSAGE_START'], 'RUN_STARTED', 1]) {
      expect(refusal(event)).toStrictEqual({ code: 'INVALID_EVENT', message: 'An AG-UI event must be an object with a "type"', eventType: undefined })
    }
    for (const event of [{}, { type: 1 }, { type: null }]) {
      expect(refusal(event)).toStrictEqual({ code: 'INVALID_EVENT', message: 'An AG-UI event must have a string "type"', eventType: undefined })
    }
  })

  it('an unknown type is undefined, not an error', () => {
    expect(checkedType({ type: 'FROM_THE_FUTURE', x: 1 })).toBeUndefined()
    expect(checkedType({ type: '' })).toBeUndefined()
  })

  it('a valid event gives its type, hot or not, and stays as it was', () => {
    for (const event of [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'd' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'm', delta: 'd' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: 'd' },
      { type: 'STATE_DELTA', delta: [] },
      { type: 'RUN_STARTED', threadId: 't', runId: 'r', extra: { kept: true } },
    ]) {
      const before = structuredClone(event)
      expect(checkedType(event)).toBe(event.type)
      expect(event).toStrictEqual(before)
    }
  })

  it('a malformed hot event: the hand-written check, REASONING_MESSAGE_CONTENT by the text rule', () => {
    expect(refusal({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 1 })).toStrictEqual({
      code: 'INVALID_EVENT',
      message: 'Malformed TEXT_MESSAGE_CONTENT event at delta: expected a string',
      eventType: 'TEXT_MESSAGE_CONTENT',
    })
    expect(refusal({ type: 'REASONING_MESSAGE_CONTENT', messageId: 1, delta: 'd' })).toStrictEqual({
      code: 'INVALID_EVENT',
      message: 'Malformed REASONING_MESSAGE_CONTENT event at messageId: expected a string',
      eventType: 'REASONING_MESSAGE_CONTENT',
    })
    expect(refusal({ type: 'STATE_DELTA', delta: [{ op: 'nope', path: '' }] }).message).toBe('Malformed STATE_DELTA event at delta.0.op: invalid operation')
  })

  it('a malformed other event: the schema first issue, with its whole path', () => {
    expect(refusal({ type: 'RUN_STARTED', threadId: 't', runId: 'r', input: { threadId: 1 } })).toStrictEqual({
      code: 'INVALID_EVENT',
      message: 'Malformed RUN_STARTED event at input.threadId: Invalid input: expected string, received number',
      eventType: 'RUN_STARTED',
    })
    expect(refusal({ type: 'STEP_STARTED' }).message).toBe('Malformed STEP_STARTED event at stepName: Invalid input: expected string, received undefined')
  })
})

describe('reduceEvent', () => {
  const text = (type: string, more: Record<string, unknown> = {}) => as({ type, messageId: 'm1', ...more })

  it('dispatches the message events', () => {
    let s = reduceEvent(blank(), text('TEXT_MESSAGE_START', { role: 'assistant' }))
    s = reduceEvent(s, text('TEXT_MESSAGE_CONTENT', { delta: 'hi' }))
    s = reduceEvent(s, text('TEXT_MESSAGE_END', { metadata: { end: 1 } }))
    s = reduceEvent(s, as({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'n', parentMessageId: 'm1' }))
    s = reduceEvent(s, as({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' }))
    s = reduceEvent(s, as({ type: 'TOOL_CALL_END', toolCallId: 'c1', metadata: { e: 2 } }))
    s = reduceEvent(s, as({ type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: 'ok' }))
    expect(s.messages).toStrictEqual([
      {
        id: 'm1',
        role: 'assistant',
        content: 'hi',
        metadata: { end: 1 },
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'n', arguments: '{}' }, metadata: { e: 2 } }],
      },
      { id: 't1', role: 'tool', toolCallId: 'c1', content: 'ok' },
    ])
    const replaced = reduceEvent(s, as({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u', role: 'user', content: 'x' }] }))
    expect(replaced.messages).toStrictEqual([{ id: 'u', role: 'user', content: 'x' }])
  })

  it('dispatches reasoning, activities and subagents', () => {
    let s = reduceEvent(blank(), as({ type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' }))
    s = reduceEvent(s, as({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'hm' }))
    s = reduceEvent(s, as({ type: 'REASONING_MESSAGE_END', messageId: 'r', metadata: { z: 1 } }))
    s = reduceEvent(s, as({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r', encryptedValue: 'E' }))
    s = reduceEvent(s, as({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'p', content: { n: 1 } }))
    s = reduceEvent(s, as({ type: 'ACTIVITY_DELTA', messageId: 'a', activityType: 'p', patch: [{ op: 'replace', path: '/n', value: 2 }] }))
    expect(s.messages).toStrictEqual([
      { id: 'r', role: 'reasoning', content: 'hm', metadata: { z: 1 }, encryptedValue: 'E' },
      { id: 'a', role: 'activity', activityType: 'p', content: { n: 2 } },
    ])
    s = reduceEvent(s, as({ type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'x' }))
    s = reduceEvent(s, as({ type: 'SUBAGENT_STARTED', subagentRunId: 's2', name: 'y' }))
    s = reduceEvent(s, as({ type: 'SUBAGENT_FINISHED', subagentRunId: 's1' }))
    s = reduceEvent(s, as({ type: 'SUBAGENT_ERROR', subagentRunId: 's2', message: 'm' }))
    expect(s.subagents.map((entry) => entry.status)).toStrictEqual(['finished', 'error'])
  })

  it('dispatches the lifecycle', () => {
    let s = reduceEvent(blank(), as({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }))
    expect(s.status).toBe('running')
    s = reduceEvent(s, as({ type: 'STEP_STARTED', stepName: 'a' }))
    expect(s.steps).toStrictEqual(['a'])
    s = reduceEvent(s, as({ type: 'STEP_FINISHED', stepName: 'a' }))
    expect(s.steps).toStrictEqual([])
    const finished = reduceEvent(s, as({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1' }))
    expect(finished.status).toBe('idle')
    const failed = reduceEvent(s, as({ type: 'RUN_ERROR', message: 'x' }))
    expect(failed.status).toBe('error')
  })

  it('applies a chunk whole: its long forms in order', () => {
    const s = reduceEvent(blank(), as({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'a' }))
    expect(s.messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'a' }])
    const r = reduceEvent(s, as({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', delta: 'b' }))
    expect(r.messages[1]).toStrictEqual({ id: 'r1', role: 'reasoning', content: 'b' })
    const c = reduceEvent(r, as({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'n', parentMessageId: 'm1', delta: '{' }))
    expect(c.messages[0]).toStrictEqual({
      id: 'm1',
      role: 'assistant',
      content: 'a',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'n', arguments: '{' } }],
    })
    expect(reduceEvent(c, as({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1' }))).toBe(c)
    // A chunk that cannot apply in full applies not at all: the caller keeps its snapshot.
    expect(() => reduceEvent(s, as({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c9', delta: 'x' }))).toThrow(
      'The first TOOL_CALL_CHUNK of "c9" needs a toolCallName',
    )
  })

  it('leaves the snapshot itself for the events that change no message', () => {
    const s = blank({ id: 'u', role: 'user', content: 'x' })
    for (const event of [
      { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
      { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/a', value: 1 }] },
      { type: 'REASONING_START', messageId: 'r' },
      { type: 'REASONING_END', messageId: 'r' },
      { type: 'CUSTOM', name: 'x', value: 1 },
      { type: 'RAW', event: {} },
    ]) {
      expect(reduceEvent(s, as(event))).toBe(s)
    }
  })
})
