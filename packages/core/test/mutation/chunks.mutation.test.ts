import type { BaseEvent, EventType, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentSnapshot, type AgentStoreError, createAgentStore } from '../../src'
import { type ChunkEvent, expandChunk, isChunk } from '../../src/snapshot/chunks'
import { refusalOf } from '../helpers'

// The long forms of each chunk pinned exactly: which start it needs, what it carries, what it
// leaves out, and the exact refusals. expandChunk is pure; the store is used where it applies them.

const chunk = (event: Record<string, unknown>) => event as unknown as ChunkEvent
const holding = (...messages: Message[]): AgentSnapshot<unknown> => ({ ...createAgentStore({ initialState: {} }).getState(), messages })
const refusal = refusalOf

describe('isChunk', () => {
  it('is true for the three chunk types only', () => {
    const of = (type: string) => isChunk(type as EventType)
    expect([of('TEXT_MESSAGE_CHUNK'), of('TOOL_CALL_CHUNK'), of('REASONING_MESSAGE_CHUNK')]).toStrictEqual([true, true, true])
    expect([of('TEXT_MESSAGE_CONTENT'), of('TOOL_CALL_ARGS'), of('REASONING_MESSAGE_CONTENT'), of('CUSTOM')]).toStrictEqual([false, false, false, false])
  })
})

describe('text and reasoning chunks', () => {
  it('a text chunk of a new message: a start (assistant by default) and its content, nothing more', () => {
    expect(expandChunk(holding(), chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'hi' }))).toStrictEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'hi' },
    ])
  })

  it('carries role, name, subagent and metadata onto every event it stands for', () => {
    const event = chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', role: 'user', name: 'ann', delta: 'x', subagentRunId: 's1', metadata: { k: 1 } })
    expect(expandChunk(holding(), event)).toStrictEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'user', name: 'ann', subagentRunId: 's1', metadata: { k: 1 } },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'x', subagentRunId: 's1', metadata: { k: 1 } },
    ])
  })

  it('does not carry a null subagentRunId', () => {
    expect(expandChunk(holding(), chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'x', subagentRunId: null }))).toStrictEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'x' },
    ])
  })

  it('a chunk without a delta only starts; a chunk of a held message only appends, whatever that message is', () => {
    expect(expandChunk(holding(), chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1' }))).toStrictEqual([
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    ])
    const held = holding({ id: 'x', role: 'user', content: '' }, { id: 'm1', role: 'user', content: 'a' })
    expect(expandChunk(held, chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: '' }))).toStrictEqual([
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '' },
    ])
    expect(expandChunk(held, chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1' }))).toStrictEqual([])
  })

  it('a reasoning chunk starts a reasoning message and appends reasoning content', () => {
    expect(expandChunk(holding(), chunk({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', delta: 'hm', metadata: { a: 1 } }))).toStrictEqual([
      { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning', metadata: { a: 1 } },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'hm', metadata: { a: 1 } },
    ])
    expect(
      expandChunk(holding({ id: 'r1', role: 'reasoning', content: 'a' }), chunk({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', delta: 'b' })),
    ).toStrictEqual([{ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'b' }])
  })

  it('refuses a chunk without a messageId, empty included', () => {
    for (const type of ['TEXT_MESSAGE_CHUNK', 'REASONING_MESSAGE_CHUNK']) {
      for (const messageId of [undefined, '']) {
        expect(refusal(() => expandChunk(holding(), chunk({ type, messageId, delta: 'x' })))).toStrictEqual({
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

  it('the first chunk of a call: a start, under its parent when it has one, then its arguments', () => {
    expect(expandChunk(holding(), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'plan', delta: '{' }))).toStrictEqual([
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'plan' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{' },
    ])
    const event = chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'plan', parentMessageId: 'a1', subagentRunId: 's1', metadata: { m: 1 } })
    expect(expandChunk(holding(), event)).toStrictEqual([
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'plan', parentMessageId: 'a1', subagentRunId: 's1', metadata: { m: 1 } },
    ])
  })

  it('a later chunk only appends; its name and parent are not needed', () => {
    expect(expandChunk(holding(withCall('c1')), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', delta: '}' }))).toStrictEqual([
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '}' },
    ])
    expect(expandChunk(holding(withCall('c1')), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'plan' }))).toStrictEqual([])
  })

  it('a call is held only by an assistant message that lists it', () => {
    const plain: Message = { id: 'a0', role: 'assistant', content: 'no calls' }
    const notAssistant = { id: 'u1', role: 'user', content: '', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'n', arguments: '' } }] } as Message
    for (const snapshot of [holding(plain), holding(notAssistant), holding(withCall('c2'))]) {
      expect(refusal(() => expandChunk(snapshot, chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', delta: 'x' })))).toStrictEqual({
        code: 'INVALID_EVENT',
        message: 'The first TOOL_CALL_CHUNK of "c1" needs a toolCallName',
        eventType: 'TOOL_CALL_CHUNK',
      })
    }
  })

  it('refuses a chunk without a toolCallId, empty included', () => {
    for (const toolCallId of [undefined, '']) {
      expect(refusal(() => expandChunk(holding(), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId, toolCallName: 'n' })))).toStrictEqual({
        code: 'INVALID_EVENT',
        message: 'TOOL_CALL_CHUNK needs a toolCallId',
        eventType: 'TOOL_CALL_CHUNK',
      })
    }
    expect(refusal(() => expandChunk(holding(), chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: '' }))).message).toBe(
      'The first TOOL_CALL_CHUNK of "c1" needs a toolCallName',
    )
  })

  it('through the store: the chunks build the message and the call', () => {
    const errors: AgentStoreError[] = []
    const store = createAgentStore({ initialState: {}, onError: (error) => errors.push(error) })
    store.apply([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a1', delta: 'Hi' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'plan', parentMessageId: 'a1', delta: '{}' },
    ] as unknown as BaseEvent[])
    expect(store.getState().messages).toStrictEqual([
      { id: 'a1', role: 'assistant', content: 'Hi', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'plan', arguments: '{}' } }] },
    ])
    expect(errors).toStrictEqual([])
  })
})
