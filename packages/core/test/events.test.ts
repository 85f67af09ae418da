// What happens to an event before and as it is reduced: checkedType refuses what is not an event and
// lets an unknown type pass; the hand-written checks of the hottest events, rule by rule; chunks
// expanded into their long forms; and reduceEvent's table sending each type to its reducer.
import type { Event, EventType, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { type ChunkEvent, expandChunk, isChunk } from '../src/snapshot/chunks'
import { checkHotEvent } from '../src/snapshot/event-check'
import { checkedType, reduceEvent } from '../src/snapshot/reduce-event'
import { ev, recordedStore, refusalOf } from './helpers'
import { event, snapshotHolding, storeAfter } from './support/events'

const chunk = (fields: Record<string, unknown>) => event<ChunkEvent>(fields)
const wire = (fields: Record<string, unknown>) => event<Event>(fields)

describe('checkedType: what may enter as an event', () => {
  const refusal = (candidate: unknown) => refusalOf(() => checkedType(candidate))

  it('refuses what is not an object with a string type', () => {
    for (const candidate of [null, undefined, [], ['TEXT_MESSAGE_START'], 'RUN_STARTED', 1, {}, { type: 1 }, { type: null }]) {
      expect(refusal(candidate)).toStrictEqual({
        code: 'INVALID_EVENT',
        message: 'An AG-UI event must be an object with a string "type"',
        eventType: undefined,
      })
    }
  })

  it('an unknown type is undefined, not an error', () => {
    expect(checkedType({ type: 'FROM_THE_FUTURE', x: 1 })).toBeUndefined()
    expect(checkedType({ type: '' })).toBeUndefined()
  })

  it('a valid event gives its type, hot or not, and stays as it was', () => {
    for (const valid of [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'd' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'm', delta: 'd' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: 'd' },
      { type: 'STATE_DELTA', delta: [] },
      { type: 'RUN_STARTED', threadId: 't', runId: 'r', extra: { kept: true } },
    ]) {
      const before = structuredClone(valid)
      expect(checkedType(valid)).toBe(valid.type)
      expect(valid).toStrictEqual(before)
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

describe('checkHotEvent: the hand-written checks of the hottest events', () => {
  const text = (more: Record<string, unknown>) => checkHotEvent('TEXT_MESSAGE_CONTENT', { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'd', ...more })
  const args = (more: Record<string, unknown>) => checkHotEvent('TOOL_CALL_ARGS', { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: 'd', ...more })
  const delta = (ops: unknown, more: Record<string, unknown> = {}) => checkHotEvent('STATE_DELTA', { type: 'STATE_DELTA', delta: ops, ...more })

  describe('the fields of every event', () => {
    it('accepts them absent or valid', () => {
      expect(text({})).toBeUndefined()
      expect(text({ timestamp: 0, rawEvent: 'x', metadata: {}, subagentRunId: '' })).toBeUndefined()
      expect(text({ timestamp: -(2 ** 53 - 1), rawEvent: 0, metadata: { a: 1 } })).toBeUndefined()
      expect(text({ timestamp: 2 ** 53 - 1, rawEvent: false })).toBeUndefined()
    })

    it('timestamp: a safe integer only', () => {
      for (const timestamp of [0.5, 2 ** 53, Number.NaN, '1', null]) expect(text({ timestamp })).toBe('timestamp: expected an integer')
    })

    it('rawEvent: anything but null', () => {
      expect(text({ rawEvent: null })).toBe('rawEvent: must not be null')
    })

    it('metadata: an object, not null, not an array, not a primitive', () => {
      for (const metadata of [null, [], 'x', 1, true]) expect(text({ metadata })).toBe('metadata: expected an object')
    })

    it('subagentRunId: a string', () => {
      for (const subagentRunId of [1, null, {}]) expect(text({ subagentRunId })).toBe('subagentRunId: expected a string')
    })

    it('reports the first problem, in the order timestamp, rawEvent, metadata, subagentRunId', () => {
      expect(text({ timestamp: 0.5, rawEvent: null, metadata: null, subagentRunId: 1 })).toBe('timestamp: expected an integer')
      expect(text({ rawEvent: null, metadata: null, subagentRunId: 1 })).toBe('rawEvent: must not be null')
      expect(text({ metadata: null, subagentRunId: 1 })).toBe('metadata: expected an object')
    })
  })

  describe('TEXT_MESSAGE_CONTENT and TOOL_CALL_ARGS', () => {
    it('need a string id and a string delta, the base fields first', () => {
      expect(text({ messageId: 1 })).toBe('messageId: expected a string')
      expect(text({ messageId: undefined, delta: 1 })).toBe('messageId: expected a string')
      expect(text({ delta: undefined })).toBe('delta: expected a string')
      expect(text({ messageId: 1, rawEvent: null })).toBe('rawEvent: must not be null')
      expect(text({ delta: '' })).toBeUndefined()
      expect(args({})).toBeUndefined()
      expect(args({ toolCallId: null, delta: 1 })).toBe('toolCallId: expected a string')
      expect(args({ delta: 0 })).toBe('delta: expected a string')
      expect(args({ toolCallId: 1, metadata: [] })).toBe('metadata: expected an object')
      // Each type checks its own id only.
      expect(args({ messageId: 1 })).toBeUndefined()
      expect(text({ toolCallId: 1 })).toBeUndefined()
    })
  })

  describe('STATE_DELTA', () => {
    it('accepts an empty delta and every valid operation', () => {
      expect(delta([])).toBeUndefined()
      expect(
        delta([
          { op: 'add', path: '', value: null },
          { op: 'remove', path: '/a' },
          { op: 'replace', path: '/a~0b/~1', value: 0 },
          { op: 'move', from: '/a', path: '/b' },
          { op: 'copy', from: '', path: '/c/-' },
          { op: 'test', path: '/d', value: false },
        ]),
      ).toBeUndefined()
    })

    it('needs an array, the base fields first', () => {
      for (const ops of [undefined, {}, 'x', null]) expect(delta(ops)).toBe('delta: expected an array')
      expect(delta('x', { timestamp: 1.5 })).toBe('timestamp: expected an integer')
      expect(delta([{ op: 'bad' }], { metadata: 1 })).toBe('metadata: expected an object')
    })

    it('each operation an object with a known op', () => {
      for (const op of [null, [], 'add', 1]) expect(delta([op])).toBe('delta.0: expected an object')
      expect(delta([{ op: 'remove', path: '' }, null])).toBe('delta.1: expected an object')
      for (const op of ['ADD', 'get', 1, undefined, '']) expect(delta([{ op, path: '' }])).toBe('delta.0.op: invalid operation')
    })

    it('a path that is a JSON pointer', () => {
      for (const path of ['a', '/~', '/a~2', '/~x', 1, undefined, ' /a']) expect(delta([{ op: 'remove', path }])).toBe('delta.0.path: invalid JSON pointer')
      expect(
        delta([
          { op: 'remove', path: '/a' },
          { op: 'remove', path: 'b' },
        ]),
      ).toBe('delta.1.path: invalid JSON pointer')
      expect(delta([{ op: 'remove', path: '/a~' }])).toBe('delta.0.path: invalid JSON pointer')
      expect(delta([{ op: 'remove', path: '//' }])).toBeUndefined()
    })

    it('move and copy need a pointer in from; the others ignore from', () => {
      for (const op of ['move', 'copy']) {
        for (const from of [undefined, 'a', 1, '/~']) expect(delta([{ op, path: '/a', from }])).toBe('delta.0.from: invalid JSON pointer')
      }
      for (const op of ['remove', 'add', 'replace', 'test']) expect(delta([{ op, path: '/a', from: 1, value: 1 }])).toBeUndefined()
    })

    it('add, replace and test need a value; remove, move and copy do not', () => {
      for (const op of ['add', 'replace', 'test']) expect(delta([{ op, path: '/a' }])).toBe('delta.0.value: required')
      expect(delta([{ op: 'remove', path: '/a' }])).toBeUndefined()
      expect(delta([{ op: 'move', path: '/a', from: '/b' }])).toBeUndefined()
      expect(delta([{ op: 'copy', path: '/a', from: '/b' }])).toBeUndefined()
      expect(delta([{ op: 'add', path: '/a', value: undefined }])).toBe('delta.0.value: required')
    })

    it('reports the first problem of the first bad operation', () => {
      expect(delta([{ op: 'add', path: 'x' }])).toBe('delta.0.path: invalid JSON pointer')
      expect(delta([{ op: 'move', path: '/a' }, { op: 'bad' }])).toBe('delta.0.from: invalid JSON pointer')
      expect(delta([{ op: 'add', path: '/a', value: 1 }, { op: 'bad', path: '' }, null])).toBe('delta.1.op: invalid operation')
    })
  })

  it('leaves the other types to the schema: null', () => {
    expect(checkHotEvent('TEXT_MESSAGE_START', { type: 'TEXT_MESSAGE_START' })).toBeNull()
    expect(checkHotEvent('REASONING_MESSAGE_CONTENT', { type: 'REASONING_MESSAGE_CONTENT' })).toBeNull()
    expect(checkHotEvent('', {})).toBeNull()
  })
})

describe('chunks and their long forms', () => {
  it('isChunk is true for the three chunk types only', () => {
    const of = (type: string) => isChunk(type as EventType)
    expect([of('TEXT_MESSAGE_CHUNK'), of('TOOL_CALL_CHUNK'), of('REASONING_MESSAGE_CHUNK')]).toStrictEqual([true, true, true])
    expect([of('TEXT_MESSAGE_CONTENT'), of('TOOL_CALL_ARGS'), of('REASONING_MESSAGE_CONTENT'), of('CUSTOM')]).toStrictEqual([false, false, false, false])
  })

  describe('text and reasoning chunks', () => {
    it('a text chunk of a new message: a start (assistant by default) and its content, nothing more', () => {
      expect(expandChunk(snapshotHolding(), chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'hi' }))).toStrictEqual([
        { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hi' },
      ])
    })

    it('carries role, name, subagent and metadata onto every event it stands for', () => {
      const text = chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', role: 'user', name: 'ann', delta: 'x', subagentRunId: 's1', metadata: { k: 1 } })
      expect(expandChunk(snapshotHolding(), text)).toStrictEqual([
        { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'user', name: 'ann', subagentRunId: 's1', metadata: { k: 1 } },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'x', subagentRunId: 's1', metadata: { k: 1 } },
      ])
    })

    it('does not carry a null subagentRunId', () => {
      expect(expandChunk(snapshotHolding(), chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'x', subagentRunId: null }))).toStrictEqual([
        { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'x' },
      ])
    })

    it('a chunk without a delta only starts; a chunk of a held message only appends, whatever that message is', () => {
      expect(expandChunk(snapshotHolding(), chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1' }))).toStrictEqual([
        { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      ])
      const held = snapshotHolding({ id: 'x', role: 'user', content: '' }, { id: 'm1', role: 'user', content: 'a' })
      expect(expandChunk(held, chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: '' }))).toStrictEqual([
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '' },
      ])
      expect(expandChunk(held, chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1' }))).toStrictEqual([])
    })

    it('a reasoning chunk starts a reasoning message and appends reasoning content', () => {
      expect(expandChunk(snapshotHolding(), chunk({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', delta: 'hm', metadata: { a: 1 } }))).toStrictEqual([
        { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning', metadata: { a: 1 } },
        { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'hm', metadata: { a: 1 } },
      ])
      expect(
        expandChunk(snapshotHolding({ id: 'r1', role: 'reasoning', content: 'a' }), chunk({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', delta: 'b' })),
      ).toStrictEqual([{ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'b' }])
    })

    it('refuses a chunk without a messageId, empty included', () => {
      for (const type of ['TEXT_MESSAGE_CHUNK', 'REASONING_MESSAGE_CHUNK']) {
        for (const messageId of [undefined, '']) {
          expect(refusalOf(() => expandChunk(snapshotHolding(), chunk({ type, messageId, delta: 'x' })))).toStrictEqual({
            code: 'INVALID_EVENT',
            message: `${type} needs a messageId`,
            eventType: type,
          })
        }
      }
    })
  })

  describe('tool call chunks', () => {
    const withCall = (id: string): Message => ({
      id: 'a1',
      role: 'assistant',
      toolCalls: [
        { id: 'other', type: 'function', function: { name: 'n', arguments: '' } },
        { id, type: 'function', function: { name: 'n', arguments: '' } },
      ],
    })
    const needsName = { code: 'INVALID_EVENT', message: 'The first TOOL_CALL_CHUNK of "c1" needs a toolCallName', eventType: 'TOOL_CALL_CHUNK' }

    it('the first chunk of a call: a start, under its parent when it has one, then its arguments', () => {
      expect(expandChunk(snapshotHolding(), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'plan', delta: '{' }))).toStrictEqual([
        { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'plan' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{' },
      ])
      const first = chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'plan', parentMessageId: 'a1', subagentRunId: 's1', metadata: { m: 1 } })
      expect(expandChunk(snapshotHolding(), first)).toStrictEqual([
        { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'plan', parentMessageId: 'a1', subagentRunId: 's1', metadata: { m: 1 } },
      ])
    })

    it('a later chunk only appends; its name and parent are not needed', () => {
      expect(expandChunk(snapshotHolding(withCall('c1')), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', delta: '}' }))).toStrictEqual([
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '}' },
      ])
      expect(expandChunk(snapshotHolding(withCall('c1')), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'plan' }))).toStrictEqual([])
    })

    it('a call is held only by an assistant message that lists it', () => {
      const plain: Message = { id: 'a0', role: 'assistant', content: 'no calls' }
      const notAssistant = {
        id: 'u1',
        role: 'user',
        content: '',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'n', arguments: '' } }],
      } as Message
      for (const snapshot of [snapshotHolding(plain), snapshotHolding(notAssistant), snapshotHolding(withCall('c2'))]) {
        expect(refusalOf(() => expandChunk(snapshot, chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', delta: 'x' })))).toStrictEqual(needsName)
      }
    })

    it('refuses a chunk without a toolCallId, empty included', () => {
      for (const toolCallId of [undefined, '']) {
        expect(refusalOf(() => expandChunk(snapshotHolding(), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId, toolCallName: 'n' })))).toStrictEqual({
          code: 'INVALID_EVENT',
          message: 'TOOL_CALL_CHUNK needs a toolCallId',
          eventType: 'TOOL_CALL_CHUNK',
        })
      }
      expect(refusalOf(() => expandChunk(snapshotHolding(), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: '' })))).toStrictEqual(needsName)
    })

    it('through the store: the chunks build the message and the call', () => {
      const { store, errors } = storeAfter(
        event({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'a1', delta: 'Hi' }),
        event({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'plan', parentMessageId: 'a1', delta: '{}' }),
      )
      expect(store.getState().messages).toStrictEqual([
        { id: 'a1', role: 'assistant', content: 'Hi', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'plan', arguments: '{}' } }] },
      ])
      expect(errors).toStrictEqual([])
    })
  })

  describe('chunk events fed to apply() one at a time', () => {
    it('start the message or tool call they name, then append, and drive drafts like the long forms', () => {
      const store = createAgentStore({ initialState: { document: '' } })
      const feed = (fields: Record<string, unknown>) => store.apply(event(fields))
      store.apply(ev.custom('PredictState', [{ state_key: 'document', tool: 'write', tool_argument: 'document' }]))
      feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Writing' })
      feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: ' now.' })
      feed({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'write', parentMessageId: 'm1', delta: '{"document":"On' })
      feed({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', delta: 'ce"}' })
      const { messages, state, committed, error } = store.getState()
      expect(error).toBeUndefined()
      expect(messages).toEqual([
        {
          id: 'm1',
          role: 'assistant',
          content: 'Writing now.',
          toolCalls: [{ id: 'c1', type: 'function', function: { name: 'write', arguments: '{"document":"Once"}' } }],
        },
      ])
      expect(state.document).toBe('Once')
      expect(committed.document).toBe('')
    })

    it('apply whole, each as its long forms in order: text, reasoning, a tool call on the text', () => {
      const { store, errors } = storeAfter(
        wire({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'a' }),
        wire({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', delta: 'b' }),
        wire({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'n', parentMessageId: 'm1', delta: '{' }),
      )
      expect(errors).toStrictEqual([])
      expect(store.getState().messages).toStrictEqual([
        { id: 'm1', role: 'assistant', content: 'a', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'n', arguments: '{' } }] },
        { id: 'r1', role: 'reasoning', content: 'b' },
      ])
      const before = store.getState()
      store.apply(wire({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1' }))
      expect(store.getState()).toBe(before)
      // A chunk that cannot apply in full applies not at all.
      store.apply(wire({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c9', delta: 'x' }))
      expect(errors.map((error) => error.message)).toStrictEqual(['The first TOOL_CALL_CHUNK of "c9" needs a toolCallName'])
      expect(store.getState().messages).toBe(before.messages)
    })

    it('refuse a first tool call chunk without a name, changing nothing', () => {
      const { store } = recordedStore({ initialState: {} })
      store.apply(event({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c9', delta: '{}' }))
      expect(store.getState()).toMatchObject({ messages: [], error: { code: 'INVALID_EVENT', eventType: 'TOOL_CALL_CHUNK' } })
    })
  })
})

describe('reduceEvent: the table from event type to reducer', () => {
  const text = (type: string, more: Record<string, unknown> = {}) => wire({ type, messageId: 'm1', ...more })

  it('dispatches the message events', () => {
    let s = reduceEvent(snapshotHolding(), text('TEXT_MESSAGE_START', { role: 'assistant' }))
    s = reduceEvent(s, text('TEXT_MESSAGE_CONTENT', { delta: 'hi' }))
    s = reduceEvent(s, text('TEXT_MESSAGE_END', { metadata: { end: 1 } }))
    s = reduceEvent(s, wire({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'n', parentMessageId: 'm1' }))
    s = reduceEvent(s, wire({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' }))
    s = reduceEvent(s, wire({ type: 'TOOL_CALL_END', toolCallId: 'c1', metadata: { e: 2 } }))
    s = reduceEvent(s, wire({ type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: 'ok' }))
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
    const replaced = reduceEvent(s, wire({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u', role: 'user', content: 'x' }] }))
    expect(replaced.messages).toStrictEqual([{ id: 'u', role: 'user', content: 'x' }])
  })

  it('dispatches reasoning, activities and subagents', () => {
    let s = reduceEvent(snapshotHolding(), wire({ type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' }))
    s = reduceEvent(s, wire({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'hm' }))
    s = reduceEvent(s, wire({ type: 'REASONING_MESSAGE_END', messageId: 'r', metadata: { z: 1 } }))
    s = reduceEvent(s, wire({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r', encryptedValue: 'E' }))
    s = reduceEvent(s, wire({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'p', content: { n: 1 } }))
    s = reduceEvent(s, wire({ type: 'ACTIVITY_DELTA', messageId: 'a', activityType: 'p', patch: [{ op: 'replace', path: '/n', value: 2 }] }))
    expect(s.messages).toStrictEqual([
      { id: 'r', role: 'reasoning', content: 'hm', metadata: { z: 1 }, encryptedValue: 'E' },
      { id: 'a', role: 'activity', activityType: 'p', content: { n: 2 } },
    ])
    s = reduceEvent(s, wire({ type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'x' }))
    s = reduceEvent(s, wire({ type: 'SUBAGENT_STARTED', subagentRunId: 's2', name: 'y' }))
    s = reduceEvent(s, wire({ type: 'SUBAGENT_FINISHED', subagentRunId: 's1' }))
    s = reduceEvent(s, wire({ type: 'SUBAGENT_ERROR', subagentRunId: 's2', message: 'm' }))
    expect(s.subagents.map((entry) => entry.status)).toStrictEqual(['finished', 'error'])
  })

  it('dispatches the run and step events', () => {
    let s = reduceEvent(snapshotHolding(), wire({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' }))
    expect(s.status).toBe('running')
    s = reduceEvent(s, wire({ type: 'STEP_STARTED', stepName: 'a' }))
    expect(s.steps).toStrictEqual(['a'])
    s = reduceEvent(s, wire({ type: 'STEP_FINISHED', stepName: 'a' }))
    expect(s.steps).toStrictEqual([])
    const finished = reduceEvent(s, wire({ type: 'RUN_FINISHED', threadId: 't', runId: 'r1' }))
    expect(finished.status).toBe('idle')
    const failed = reduceEvent(s, wire({ type: 'RUN_ERROR', message: 'x' }))
    expect(failed.status).toBe('error')
  })

  it('leaves the snapshot itself for the events that change no message', () => {
    const s = snapshotHolding({ id: 'u', role: 'user', content: 'x' })
    for (const unchanging of [
      { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } },
      { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/a', value: 1 }] },
      { type: 'REASONING_START', messageId: 'r' },
      { type: 'REASONING_END', messageId: 'r' },
      { type: 'CUSTOM', name: 'x', value: 1 },
      { type: 'RAW', event: {} },
    ]) {
      expect(reduceEvent(s, wire(unchanging))).toBe(s)
    }
  })
})
