import type { AssistantMessage, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { ev, recordedStore } from './helpers'

const history: Message[] = [
  { id: 'u1', role: 'user', content: 'hello' },
  { id: 'a1', role: 'assistant', content: 'hi' },
]

describe('streamed text', () => {
  it('grows one message; the others keep their identity', () => {
    const { store, published } = recordedStore({ initialState: {} })
    store.apply({ type: 'MESSAGES_SNAPSHOT', messages: history } as never)
    const [u1, a1] = store.getState().messages
    store.apply([ev.textStart('a2'), ev.text('a2', 'Hel'), ev.text('a2', 'lo'), ev.textEnd('a2')])
    const { messages } = store.getState()
    expect(messages).toHaveLength(3)
    expect(messages[0]).toBe(u1)
    expect(messages[1]).toBe(a1)
    expect(messages[2]).toEqual({ id: 'a2', role: 'assistant', content: 'Hello' })
    // snapshot, start, two contents; END changes nothing.
    expect(published).toHaveLength(4)
    expect(published[2]!.messages[2]).toEqual({ id: 'a2', role: 'assistant', content: 'Hel' })
    expect(published[2]!.messages).not.toBe(published[3]!.messages)
  })

  it('refuses content for a message that never started, changing nothing', () => {
    const { store } = recordedStore({ initialState: {} })
    const before = store.getState().messages
    store.apply(ev.text('ghost', 'boo'))
    expect(store.getState().messages).toBe(before)
    expect(store.getState().error).toMatchObject({ code: 'INVALID_EVENT', eventType: 'TEXT_MESSAGE_CONTENT' })
  })
})

describe('tool calls', () => {
  it('streams arguments into the parent assistant message', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply([
      ev.textStart('m1'),
      ev.toolStart('c1', 'write_document', 'm1'),
      ev.toolArgs('c1', '{"document":'),
      ev.toolArgs('c1', ' "hi"}'),
      ev.toolEnd('c1'),
      ev.toolResult('t1', 'c1', 'done'),
    ])
    const [assistant, tool] = store.getState().messages as [AssistantMessage, Message]
    expect(assistant).toEqual({
      id: 'm1',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'write_document', arguments: '{"document": "hi"}' } }],
    })
    expect(tool).toEqual({ id: 't1', role: 'tool', toolCallId: 'c1', content: 'done' })
  })

  it('gives a tool call without a known parent a message of its own', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply([ev.toolStart('c1', 'a', ''), ev.toolStart('c2', 'b', 'never-started')])
    expect(store.getState().messages.map((m) => [m.id, (m as AssistantMessage).toolCalls?.[0]?.id])).toEqual([
      ['c1', 'c1'],
      ['never-started', 'c2'],
    ])
  })

  it('keeps the other tool calls and messages identical while one streams', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply([ev.toolStart('c1', 'a', 'm'), ev.toolStart('c2', 'b', 'm'), ev.toolArgs('c1', '{}')])
    const before = store.getState().messages[0] as AssistantMessage
    store.apply(ev.toolArgs('c2', '{"x":1}'))
    const after = store.getState().messages[0] as AssistantMessage
    expect(after.toolCalls![0]).toBe(before.toolCalls![0])
    expect(after.toolCalls![1]!.function.arguments).toBe('{"x":1}')
  })

  it('restarts a restated tool call in place, and refuses args for an unknown call', () => {
    const { store } = recordedStore({ initialState: {} })
    store.apply([ev.toolStart('c1', 'a'), ev.toolArgs('c1', '{"x":1}'), ev.toolEnd('c1')])
    // The .NET server restates the call when it resumes: same id, same arguments again.
    store.apply([ev.toolStart('c1', 'a', 'elsewhere'), ev.toolArgs('c1', '{"x":1}')])
    expect(store.getState().messages).toEqual([
      { id: 'c1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } }] },
    ])
    const before = store.getState().messages
    store.apply(ev.toolArgs('nope', '{}'))
    expect(store.getState().error).toMatchObject({ code: 'INVALID_EVENT', eventType: 'TOOL_CALL_ARGS' })
    expect(store.getState().messages).toBe(before)
  })

  it('keeps a tool result whose id is also its parentless call message, and replaces a restated result', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply([ev.toolStart('c1', 'a', ''), ev.toolResult('c1', 'c1', 'first'), ev.toolResult('c1', 'c1', 'again')])
    expect(store.getState().messages.map((m) => [m.id, m.role, m.role === 'tool' ? m.content : ''])).toEqual([
      ['c1', 'assistant', ''],
      ['c1', 'tool', 'again'],
    ])
  })
})

describe('streaming into a message with fields of its own', () => {
  // The store copies its own message shapes field by field; any other shape must keep every field, in order.
  it('keeps every field of a message and a tool call from a snapshot, in their order, while text and arguments stream', () => {
    const store = createAgentStore({ initialState: {} })
    const text = { role: 'assistant', id: 'a1', content: 'Hi' }
    const named = { id: 'a3', role: 'assistant', content: '', name: 'planner' }
    const call = { id: 'c1', type: 'function', function: { name: 'write', arguments: '{"a":', strict: true }, index: 0 }
    const withCalls = { id: 'a2', role: 'assistant', toolCalls: [call], encryptedValue: 'sealed' }
    store.apply({ type: 'MESSAGES_SNAPSHOT', messages: [text, withCalls, named] } as never)
    store.apply([ev.text('a1', ' there'), ev.toolArgs('c1', '1}'), ev.text('a3', 'ok')])
    const [first, second, third] = store.getState().messages as [Message, AssistantMessage, Message]
    expect(first).toStrictEqual({ role: 'assistant', id: 'a1', content: 'Hi there' })
    expect(Object.keys(first)).toEqual(['role', 'id', 'content'])
    expect(third).toStrictEqual({ id: 'a3', role: 'assistant', content: 'ok', name: 'planner' })
    expect(second).toStrictEqual({
      id: 'a2',
      role: 'assistant',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'write', arguments: '{"a":1}', strict: true }, index: 0 }],
      encryptedValue: 'sealed',
    })
    expect(Object.keys(second.toolCalls![0]!)).toEqual(['id', 'type', 'function', 'index'])
  })

  it('copies the shapes it builds itself exactly: text, then a tool call on the same message', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply([ev.textStart('a1'), ev.text('a1', 'Let me'), ev.toolStart('c1', 'write', 'a1'), ev.toolArgs('c1', '{}'), ev.text('a1', ' write')])
    const [message] = store.getState().messages as [AssistantMessage]
    expect(message).toStrictEqual({
      id: 'a1',
      role: 'assistant',
      content: 'Let me write',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'write', arguments: '{}' } }],
    })
    expect(Object.keys(message)).toEqual(['id', 'role', 'content', 'toolCalls'])
  })
})

describe('MESSAGES_SNAPSHOT', () => {
  it('keeps the identity of messages equal to the ones held', () => {
    const { store, published } = recordedStore({ initialState: {} })
    store.apply({ type: 'MESSAGES_SNAPSHOT', messages: history } as never)
    const before = store.getState().messages
    store.apply({ type: 'MESSAGES_SNAPSHOT', messages: structuredClone(history) } as never)
    expect(store.getState().messages).toBe(before)
    const next = [...structuredClone(history), { id: 'u2', role: 'user', content: 'more' }]
    store.apply({ type: 'MESSAGES_SNAPSHOT', messages: next } as never)
    expect(store.getState().messages[0]).toBe(before[0])
    expect(store.getState().messages[2]).toEqual(next[2])
    expect(published).toHaveLength(2)
  })
})

describe('chunk events fed to apply() one at a time', () => {
  it('start the message or tool call they name, then append, and drive drafts like the long forms', () => {
    const store = createAgentStore({ initialState: { document: '' } })
    const chunk = (event: Record<string, unknown>) => store.apply(event as never)
    store.apply(ev.custom('PredictState', [{ state_key: 'document', tool: 'write', tool_argument: 'document' }]))
    chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Writing' })
    chunk({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: ' now.' })
    chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'write', parentMessageId: 'm1', delta: '{"document":"On' })
    chunk({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', delta: 'ce"}' })
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

  it('refuse a first tool call chunk without a name, changing nothing', () => {
    const { store } = recordedStore({ initialState: {} })
    store.apply({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c9', delta: '{}' } as never)
    expect(store.getState()).toMatchObject({ messages: [], error: { code: 'INVALID_EVENT', eventType: 'TOOL_CALL_CHUNK' } })
  })
})
