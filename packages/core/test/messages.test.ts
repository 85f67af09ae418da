// Messages: text messages, tool calls and their results, MESSAGES_SNAPSHOT and the messages a run's
// input brings, and what goes back to the server. Exact shapes (absent keys included), the identity
// of what an event leaves unchanged, metadata folded key by key, and where results land.
import type { AssistantMessage, BaseEvent, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { messagesForServer, ownedActivityTypes } from '../src/snapshot/messages'
import { ev, recordedStore } from './helpers'
import { event, storeAfter } from './support/events'

const history: Message[] = [
  { id: 'u1', role: 'user', content: 'hello' },
  { id: 'a1', role: 'assistant', content: 'hi' },
]
const snapshotOf = (messages: readonly unknown[]) => event({ type: 'MESSAGES_SNAPSHOT', messages })
const user = (id: string, content = id): Message => ({ id, role: 'user', content })
const call = (id: string, name: string, args = '', extra: Record<string, unknown> = {}) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
  ...extra,
})

describe('text messages', () => {
  describe('TEXT_MESSAGE_START', () => {
    it('creates an assistant message by default, with no name, owner or metadata', () => {
      const { store } = storeAfter(event({ type: 'TEXT_MESSAGE_START', messageId: 'm1' }))
      expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: '' }])
    })

    it('copies the metadata: a later merge never writes into the event', () => {
      const metadata = { a: 1 }
      const { store } = storeAfter(event({ type: 'TEXT_MESSAGE_START', messageId: 'm1', metadata }))
      store.apply(event({ type: 'TEXT_MESSAGE_END', messageId: 'm1', metadata: { b: 2 } }))
      expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: '', metadata: { a: 1, b: 2 } }])
      expect(metadata).toStrictEqual({ a: 1 })
    })

    it('joins a message of the same role: without metadata nothing changes, with it the metadata merges', () => {
      const { store } = storeAfter(event({ type: 'TEXT_MESSAGE_START', messageId: 'm1', metadata: { a: 1 } }), ev.text('m1', 'hi'))
      const before = store.getState()
      store.apply(ev.textStart('m1'))
      expect(store.getState()).toBe(before)
      store.apply(event({ type: 'TEXT_MESSAGE_START', messageId: 'm1', metadata: { a: 2, c: 3 } }))
      expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'hi', metadata: { a: 2, c: 3 } }])
    })

    it('refuses to join a message of another role, naming the role', () => {
      const { store, errors } = storeAfter(event({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'user' }))
      const before = store.getState().messages
      store.apply(ev.textStart('m1'))
      expect(store.getState().messages).toBe(before)
      expect(errors.map((error) => [error.code, error.eventType, error.message])).toStrictEqual([
        ['INVALID_EVENT', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_START for message "m1", which exists with the role "user"'],
      ])
    })

    it('a text joining the message a tool call created keeps its calls and gets no content until it streams', () => {
      const { store } = storeAfter(ev.toolStart('c1', 'a', 'm1'), ev.textStart('m1'))
      expect(store.getState().messages).toStrictEqual([
        { id: 'm1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }] },
      ])
    })
  })

  describe('TEXT_MESSAGE_CONTENT', () => {
    it('grows one message; the others keep their identity', () => {
      const { store, published } = recordedStore({ initialState: {} })
      store.apply(snapshotOf(history))
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

    it('appends to a message without content, starting from the empty string', () => {
      const { store } = storeAfter(ev.toolStart('c1', 'a', 'm1'), ev.text('m1', 'hi'))
      expect(store.getState().messages[0]).toStrictEqual({
        id: 'm1',
        role: 'assistant',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }],
        content: 'hi',
      })
    })

    it('an empty delta without metadata changes nothing; with metadata only the metadata lands', () => {
      const { store } = storeAfter(ev.textStart('m1'), ev.text('m1', 'hi'))
      const before = store.getState()
      store.apply(ev.text('m1', ''))
      expect(store.getState()).toBe(before)
      store.apply(event({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '', metadata: { k: 1 } }))
      expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'hi', metadata: { k: 1 } }])
      store.apply(event({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '!', metadata: { j: 2 } }))
      expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'hi!', metadata: { k: 1, j: 2 } }])
    })

    it('an empty delta for a message without content gives it the empty content', () => {
      const { store } = storeAfter(ev.toolStart('c1', 'a', 'm1'))
      const before = store.getState().messages
      store.apply(ev.text('m1', ''))
      expect(store.getState().messages).not.toBe(before)
      expect(store.getState().messages[0]).toMatchObject({ content: '' })
    })

    it('refuses content for an activity and for a message never started, with the reason', () => {
      const { store, errors } = storeAfter(event({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a1', activityType: 'card', content: {} }))
      const before = store.getState().messages
      store.apply([ev.text('a1', 'x'), ev.text('ghost', 'x')])
      expect(store.getState().messages).toBe(before)
      expect(errors.map((error) => [error.code, error.eventType, error.message])).toStrictEqual([
        ['INVALID_EVENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT for message "a1", which is an activity'],
        ['INVALID_EVENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT for message "ghost", which has not started'],
      ])
    })

    it('changes only the message it streams into', () => {
      const { store } = storeAfter(ev.textStart('m1'), ev.textStart('m2'), ev.textStart('m3'))
      const [m1, m2, m3] = store.getState().messages
      store.apply(ev.text('m2', 'x'))
      const after = store.getState().messages
      expect(after[0]).toBe(m1)
      expect(after[2]).toBe(m3)
      expect(after[1]).toStrictEqual({ ...m2, content: 'x' })
      expect(after).toHaveLength(3)
    })

    it('refuses content for a message that never started, changing nothing', () => {
      const { store } = recordedStore({ initialState: {} })
      const before = store.getState().messages
      store.apply(ev.text('ghost', 'boo'))
      expect(store.getState().messages).toBe(before)
      expect(store.getState().error).toMatchObject({ code: 'INVALID_EVENT', eventType: 'TEXT_MESSAGE_CONTENT' })
    })

    it('text appended to a message whose content is not a string starts from the empty string', () => {
      const parts = [{ type: 'text', text: 'look' }]
      const { store } = storeAfter(snapshotOf([{ id: 'u1', role: 'user', content: parts } as unknown as Message]), ev.text('u1', 'more'))
      expect(store.getState().messages).toStrictEqual([{ id: 'u1', role: 'user', content: 'more' }])
    })
  })

  describe('TEXT_MESSAGE_END', () => {
    it('without metadata, or for an unknown message or an activity, changes nothing', () => {
      const { store, errors } = storeAfter(ev.textStart('m1'), event({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a1', activityType: 'card', content: {} }))
      const before = store.getState()
      store.apply([
        ev.textEnd('m1'),
        event({ type: 'TEXT_MESSAGE_END', messageId: 'ghost', metadata: { k: 1 } }),
        event({ type: 'TEXT_MESSAGE_END', messageId: 'a1', metadata: { k: 1 } }),
      ])
      expect(store.getState()).toBe(before)
      expect(errors).toStrictEqual([])
    })

    it('with metadata merges it into that message only', () => {
      const { store } = storeAfter(ev.textStart('m1'), ev.textStart('m2'))
      const m2 = store.getState().messages[1]
      store.apply(event({ type: 'TEXT_MESSAGE_END', messageId: 'm1', metadata: { k: 1 } }))
      expect(store.getState().messages).toStrictEqual([
        { id: 'm1', role: 'assistant', content: '', metadata: { k: 1 } },
        { id: 'm2', role: 'assistant', content: '' },
      ])
      expect(store.getState().messages[1]).toBe(m2)
    })
  })
})

describe('tool calls', () => {
  it('a call joins its assistant parent after the calls it has', () => {
    const { store } = storeAfter(ev.textStart('m1'), ev.toolStart('c1', 'a', 'm1'), ev.toolStart('c2', 'b', 'm1'))
    expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: '', toolCalls: [call('c1', 'a'), call('c2', 'b')] }])
  })

  it('a parent that is not an assistant message gets a message of the call id after it', () => {
    const { store } = storeAfter(event({ type: 'TEXT_MESSAGE_START', messageId: 'u1', role: 'user' }), ev.toolStart('c1', 'a', 'u1'))
    expect(store.getState().messages).toStrictEqual([
      { id: 'u1', role: 'user', content: '' },
      { id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a')] },
    ])
  })

  it('a call with metadata and an owner keeps both, the metadata copied', () => {
    const metadata = { k: 1 }
    const { store } = storeAfter(event({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'a', subagentRunId: 's1', metadata }))
    store.apply(event({ type: 'TOOL_CALL_END', toolCallId: 'c1', metadata: { j: 2 } }))
    expect(store.getState().messages).toStrictEqual([
      { id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a', '', { metadata: { k: 1, j: 2 } })], subagentRunId: 's1' },
    ])
    expect(metadata).toStrictEqual({ k: 1 })
  })

  it('a restated call starts over in place under its new name, its metadata merged', () => {
    const { store } = storeAfter(
      ev.textStart('m1'),
      event({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'a', parentMessageId: 'm1', metadata: { k: 1 } }),
      ev.toolStart('c2', 'b', 'm1'),
      ev.toolArgs('c1', '{"x":1}'),
      ev.textStart('m2'),
    )
    const [, m2] = store.getState().messages
    store.apply(event({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'renamed', parentMessageId: 'm2', metadata: { j: 2 } }))
    expect(store.getState().messages).toStrictEqual([
      { id: 'm1', role: 'assistant', content: '', toolCalls: [call('c1', 'renamed', '', { metadata: { k: 1, j: 2 } }), call('c2', 'b')] },
      { id: 'm2', role: 'assistant', content: '' },
    ])
    expect(store.getState().messages[1]).toBe(m2)
  })

  it('arguments: an empty delta changes nothing unless it carries metadata', () => {
    const { store } = storeAfter(ev.toolStart('c1', 'a'), ev.toolArgs('c1', '{"x"'))
    const before = store.getState()
    store.apply(ev.toolArgs('c1', ''))
    expect(store.getState()).toBe(before)
    store.apply(event({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '', metadata: { k: 1 } }))
    expect(store.getState().messages).toStrictEqual([{ id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a', '{"x"', { metadata: { k: 1 } })] }])
    store.apply(event({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: ':1}', metadata: { j: 2 } }))
    expect(store.getState().messages).toStrictEqual([{ id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a', '{"x":1}', { metadata: { k: 1, j: 2 } })] }])
  })

  it('arguments find the call among several messages and calls', () => {
    const { store } = storeAfter(ev.toolStart('c1', 'a', 'm1'), ev.toolStart('c2', 'b', 'm1'), ev.textStart('m2'), ev.toolStart('c3', 'c', 'm3'))
    store.apply([ev.toolArgs('c1', '1'), ev.toolArgs('c2', '2'), ev.toolArgs('c3', '3')])
    expect(store.getState().messages).toStrictEqual([
      { id: 'm1', role: 'assistant', toolCalls: [call('c1', 'a', '1'), call('c2', 'b', '2')] },
      { id: 'm2', role: 'assistant', content: '' },
      { id: 'm3', role: 'assistant', toolCalls: [call('c3', 'c', '3')] },
    ])
  })

  it('arguments for an unknown call are refused with the reason', () => {
    const { store, errors } = storeAfter(ev.textStart('m1'))
    store.apply(ev.toolArgs('nope', '{}'))
    expect(errors.map((error) => error.message)).toStrictEqual(['TOOL_CALL_ARGS for tool call "nope", which has not started'])
  })

  it('the end of a call: metadata merges into the call, an unknown call or no metadata changes nothing', () => {
    const { store, errors } = storeAfter(ev.toolStart('c1', 'a'), ev.toolStart('c2', 'b', 'c1'))
    const before = store.getState()
    store.apply([ev.toolEnd('c1'), event({ type: 'TOOL_CALL_END', toolCallId: 'ghost', metadata: { k: 1 } })])
    expect(store.getState()).toBe(before)
    expect(errors).toStrictEqual([])
    store.apply(event({ type: 'TOOL_CALL_END', toolCallId: 'c2', metadata: { k: 1 } }))
    expect(store.getState().messages).toStrictEqual([
      { id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a'), call('c2', 'b', '', { metadata: { k: 1 } })] },
    ])
  })

  it('streams arguments into the parent assistant message', () => {
    const { store } = storeAfter(
      ev.textStart('m1'),
      ev.toolStart('c1', 'write_document', 'm1'),
      ev.toolArgs('c1', '{"document":'),
      ev.toolArgs('c1', ' "hi"}'),
      ev.toolEnd('c1'),
      ev.toolResult('t1', 'c1', 'done'),
    )
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
    const { store } = storeAfter(ev.toolStart('c1', 'a', ''), ev.toolStart('c2', 'b', 'never-started'))
    expect(store.getState().messages.map((m) => [m.id, (m as AssistantMessage).toolCalls?.[0]?.id])).toEqual([
      ['c1', 'c1'],
      ['never-started', 'c2'],
    ])
  })

  it('keeps the other tool calls and messages identical while one streams', () => {
    const { store } = storeAfter(ev.toolStart('c1', 'a', 'm'), ev.toolStart('c2', 'b', 'm'), ev.toolArgs('c1', '{}'))
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
})

describe('TOOL_CALL_RESULT', () => {
  it('a result carries its owner and a copy of its metadata', () => {
    const metadata = { k: 1 }
    const { store } = storeAfter(event({ type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c9', content: 'ok', subagentRunId: 's1', metadata }))
    expect(store.getState().messages).toStrictEqual([{ id: 'r1', role: 'tool', toolCallId: 'c9', content: 'ok', subagentRunId: 's1', metadata: { k: 1 } }])
    expect(store.getState().messages[0]!.metadata).not.toBe(metadata)
  })

  it('goes right after its call and the results already there, before later messages', () => {
    const { store } = storeAfter(
      ev.toolStart('c1', 'a', 'm1'),
      ev.toolStart('c2', 'b', 'm1'),
      ev.textStart('m2'),
      ev.toolResult('r1', 'c1', 'one'),
      ev.toolResult('r2', 'c2', 'two'),
    )
    expect(store.getState().messages.map((m) => m.id)).toStrictEqual(['m1', 'r1', 'r2', 'm2'])
  })

  it('goes at the end when its call is the last message, or when no message holds the call', () => {
    const { store } = storeAfter(ev.textStart('m0'), ev.toolStart('c1', 'a', 'm1'), ev.toolResult('r1', 'c1', 'one'), ev.toolResult('r9', 'c9', 'lost'))
    expect(store.getState().messages.map((m) => m.id)).toStrictEqual(['m0', 'm1', 'r1', 'r9'])
  })

  it('is placed after the first message holding the call', () => {
    // Two assistant messages naming the same call id: a snapshot can carry that.
    const held: Message[] = [
      { id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }] },
      { id: 'x', role: 'user', content: 'x' },
      { id: 'a2', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }] },
      { id: 'y', role: 'user', content: 'y' },
    ]
    const { store } = storeAfter(snapshotOf(held), ev.toolResult('r1', 'c1', 'one'))
    expect(store.getState().messages.map((m) => m.id)).toStrictEqual(['a1', 'r1', 'x', 'a2', 'y'])
  })

  it('a restated result replaces the earlier one in its place; the other messages keep their identity', () => {
    const { store } = storeAfter(ev.toolStart('c1', 'a', 'm1'), ev.toolResult('r1', 'c1', 'one'), ev.textStart('m2'))
    const [m1, , m2] = store.getState().messages
    store.apply(ev.toolResult('r1', 'c1', 'again'))
    const after = store.getState().messages
    expect(after.map((m) => m.id)).toStrictEqual(['m1', 'r1', 'm2'])
    expect(after[1]).toStrictEqual({ id: 'r1', role: 'tool', toolCallId: 'c1', content: 'again' })
    expect(after[0]).toBe(m1)
    expect(after[2]).toBe(m2)
  })

  it('keeps a tool result whose id is also its parentless call message, and replaces a restated result', () => {
    const { store } = storeAfter(ev.toolStart('c1', 'a', ''), ev.toolResult('c1', 'c1', 'first'), ev.toolResult('c1', 'c1', 'again'))
    expect(store.getState().messages.map((m) => [m.id, m.role, m.role === 'tool' ? m.content : ''])).toEqual([
      ['c1', 'assistant', ''],
      ['c1', 'tool', 'again'],
    ])
  })

  it('a result placed between messages leaves the earlier message array as it was', () => {
    const { store } = storeAfter(ev.toolStart('c1', 'a', 'm1'), ev.textStart('m2'))
    const before = store.getState().messages
    store.apply(ev.toolResult('r1', 'c1', 'one'))
    expect(before.map((m) => m.id)).toStrictEqual(['m1', 'm2'])
    expect(store.getState().messages.map((m) => m.id)).toStrictEqual(['m1', 'r1', 'm2'])
  })
})

describe('streaming into a message with fields of its own', () => {
  // The store copies its own message shapes field by field; any other shape must keep every field, in order.

  it('keeps every field of a message and a tool call from a snapshot, in their order, while text and arguments stream', () => {
    const { store } = storeAfter()
    const text = { role: 'assistant', id: 'a1', content: 'Hi' }
    const named = { id: 'a3', role: 'assistant', content: '', name: 'planner' }
    const call = { id: 'c1', type: 'function', function: { name: 'write', arguments: '{"a":', strict: true }, index: 0 }
    const withCalls = { id: 'a2', role: 'assistant', toolCalls: [call], encryptedValue: 'sealed' }
    store.apply(snapshotOf([text, withCalls, named]))
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
    const { store } = storeAfter(
      ev.textStart('a1'),
      ev.text('a1', 'Let me'),
      ev.toolStart('c1', 'write', 'a1'),
      ev.toolArgs('c1', '{}'),
      ev.text('a1', ' write'),
    )
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
  const activity = (id: string, activityType: string): Message => ({ id, role: 'activity', activityType, content: {} }) as Message
  const reasoning = (id: string): Message => ({ id, role: 'reasoning', content: id }) as Message

  it('keeps the identity of messages equal to the ones held', () => {
    const { store, published } = recordedStore({ initialState: {} })
    store.apply(snapshotOf(history))
    const before = store.getState().messages
    store.apply(snapshotOf(structuredClone(history)))
    expect(store.getState().messages).toBe(before)
    const next = [...structuredClone(history), { id: 'u2', role: 'user', content: 'more' }]
    store.apply(snapshotOf(next))
    expect(store.getState().messages[0]).toBe(before[0])
    expect(store.getState().messages[2]).toEqual(next[2])
    expect(published).toHaveLength(2)
  })

  it('an equal snapshot leaves the snapshot as it is', () => {
    const { store } = storeAfter(snapshotOf([user('u1'), user('u2')]))
    const before = store.getState()
    store.apply(snapshotOf([user('u1'), user('u2')]))
    expect(store.getState()).toBe(before)
  })

  it('a snapshot of the same messages in another order keeps the held order', () => {
    const { store } = storeAfter(snapshotOf([user('u1'), user('u2')]))
    const before = store.getState()
    store.apply(snapshotOf([user('u2'), user('u1')]))
    expect(store.getState()).toBe(before)
  })

  it('a snapshot that drops the last message is a change', () => {
    const { store } = storeAfter(snapshotOf([user('u1'), user('u2')]))
    const [u1] = store.getState().messages
    store.apply(snapshotOf([user('u1')]))
    expect(store.getState().messages).toStrictEqual([user('u1')])
    expect(store.getState().messages[0]).toBe(u1)
  })

  it('a changed message takes the new version in its place', () => {
    const { store } = storeAfter(snapshotOf([user('u1'), user('u2')]))
    const [u1] = store.getState().messages
    store.apply(snapshotOf([user('u1'), user('u2', 'edited')]))
    expect(store.getState().messages).toStrictEqual([user('u1'), user('u2', 'edited')])
    expect(store.getState().messages[0]).toBe(u1)
  })

  it('activities: kept when the snapshot carries none and declares nothing; a declaration of other types keeps them', () => {
    const held = [user('u1'), activity('p', 'progress')]
    const ids = (...events: BaseEvent[]) =>
      storeAfter(snapshotOf(held), ...events)
        .store.getState()
        .messages.map((m) => m.id)
    expect(ids(snapshotOf([user('u1')]))).toStrictEqual(['u1', 'p'])
    expect(ids(snapshotOf([user('u1'), activity('c', 'card')]))).toStrictEqual(['u1', 'c'])
    const declared = (types: unknown, messages: Message[]) =>
      event({ type: 'MESSAGES_SNAPSHOT', messages, metadata: { '@ag-ui/client': { authoritativeActivityTypes: types } } })
    expect(ids(declared(['card'], [user('u1'), activity('c', 'card')]))).toStrictEqual(['u1', 'p', 'c'])
    expect(ids(declared(['progress'], [user('u1')]))).toStrictEqual(['u1'])
    expect(ids(declared(null, [user('u1')]))).toStrictEqual(['u1'])
    expect(ids(declared('bad', [user('u1'), activity('c', 'card')]))).toStrictEqual(['u1', 'p', 'c'])
  })

  it('reasoning: kept when the snapshot carries none; a user message it leaves out goes', () => {
    const held = [user('u1'), reasoning('r1'), user('u2')]
    const kept = storeAfter(snapshotOf(held), snapshotOf([user('u1')])).store
    expect(kept.getState().messages.map((m) => m.id)).toStrictEqual(['u1', 'r1'])
    const owned = storeAfter(snapshotOf(held), snapshotOf([user('u1'), reasoning('r2')])).store
    expect(owned.getState().messages.map((m) => m.id)).toStrictEqual(['u1', 'r2'])
  })

  it('a result the snapshot adds goes after its call and the results there; others are appended in order', () => {
    const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'a', arguments: '' } })
    const a1: Message = { id: 'a1', role: 'assistant', toolCalls: [call('c1'), call('c2')] }
    const held: Message[] = [a1, { id: 'r1', role: 'tool', toolCallId: 'c1', content: 'one' }, user('u1')]
    const { store } = storeAfter(snapshotOf(held))
    store.apply(
      snapshotOf([
        ...held,
        user('n1'),
        { id: 'r2', role: 'tool', toolCallId: 'c2', content: 'two' },
        { id: 'r9', role: 'tool', toolCallId: 'c9', content: 'lost' },
        user('n2'),
      ]),
    )
    expect(store.getState().messages.map((m) => m.id)).toStrictEqual(['a1', 'r1', 'r2', 'u1', 'n1', 'r9', 'n2'])
  })

  it('a result whose call is the last message goes at the end', () => {
    const a1: Message = { id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }] }
    const { store } = storeAfter(snapshotOf([user('u1'), a1]))
    store.apply(snapshotOf([user('u1'), a1, { id: 'r1', role: 'tool', toolCallId: 'c1', content: 'one' }]))
    expect(store.getState().messages.map((m) => m.id)).toStrictEqual(['u1', 'a1', 'r1'])
  })

  it('a snapshot with a message twice keeps the one place and the last version', () => {
    const { store } = storeAfter(snapshotOf([user('u1')]))
    store.apply(snapshotOf([user('u1', 'first'), user('u2'), user('u1', 'last')]))
    expect(store.getState().messages).toStrictEqual([user('u1', 'last'), user('u2')])
  })

  describe('ownedActivityTypes: the activity types a snapshot declares it owns', () => {
    const declaring = (metadata: unknown) => ({ type: 'MESSAGES_SNAPSHOT', messages: [], ...(metadata === undefined ? {} : { metadata }) }) as never

    it('reads the @ag-ui/client declaration', () => {
      expect(ownedActivityTypes(declaring(undefined))).toBeUndefined()
      expect(ownedActivityTypes(declaring({ other: 1 }))).toBeUndefined()
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': 'x' }))).toStrictEqual([])
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': null }))).toStrictEqual([])
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': {} }))).toBeUndefined()
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': { authoritativeActivityTypes: null } }))).toBeNull()
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': { authoritativeActivityTypes: ['a', 'b'] } }))).toStrictEqual(['a', 'b'])
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': { authoritativeActivityTypes: [] } }))).toStrictEqual([])
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': { authoritativeActivityTypes: ['a', 1] } }))).toStrictEqual([])
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': { authoritativeActivityTypes: 'a' } }))).toStrictEqual([])
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': { authoritativeActivityTypes: undefined } }))).toStrictEqual([])
    })

    it('an inherited key is no declaration', () => {
      const metadata = Object.create({ '@ag-ui/client': { authoritativeActivityTypes: null } })
      expect(ownedActivityTypes(declaring(metadata))).toBeUndefined()
      const declared = Object.create({ authoritativeActivityTypes: null })
      expect(ownedActivityTypes(declaring({ '@ag-ui/client': declared }))).toStrictEqual([])
    })
  })
})

describe('RUN_STARTED input messages', () => {
  const started = (messages: Message[]) =>
    event({
      type: 'RUN_STARTED',
      threadId: 't1',
      runId: 'r1',
      input: { threadId: 't1', runId: 'r1', state: {}, messages, tools: [], context: [], forwardedProps: {} },
    })

  it('appends the ones not held, once each, in order', () => {
    const { store, errors } = storeAfter(snapshotOf([user('u1')]))
    const [u1] = store.getState().messages
    store.apply(started([user('u1', 'other'), user('u2'), user('u2', 'dup'), user('u3')]))
    expect(store.getState().messages).toStrictEqual([user('u1'), user('u2'), user('u3')])
    expect(store.getState().messages[0]).toBe(u1)
    expect(errors).toStrictEqual([])
  })

  it('held ones or none at all leave the messages as they are', () => {
    const { store, errors } = storeAfter(snapshotOf([user('u1')]))
    const before = store.getState().messages
    store.apply(started([user('u1')]))
    expect(store.getState().messages).toBe(before)
    expect(store.getState().status).toBe('running')
    expect(errors).toStrictEqual([])
    const other = storeAfter(snapshotOf([user('u1')])).store
    const held = other.getState().messages
    other.apply(started([]))
    expect(other.getState().messages).toBe(held)
  })
})

describe('messagesForServer', () => {
  it('leaves out activities only, keeping the others as they are', () => {
    const messages = [
      { id: 'u1', role: 'user', content: 'x' },
      { id: 'a', role: 'activity', activityType: 'card', content: {} },
      { id: 'r', role: 'reasoning', content: 'r', encryptedValue: 'enc' },
    ] as Message[]
    const sent = messagesForServer(messages)
    expect(sent).toStrictEqual([messages[0], messages[2]])
    expect(sent[1]).toBe(messages[2])
  })
})
