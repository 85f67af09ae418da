import type { BaseEvent, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore } from '../../src'
import { messagesForServer, ownedActivityTypes } from '../../src/snapshot/messages'
import { ev } from '../helpers'

// Messages pinned through the public API: exact shapes (absent keys included), the identity of a
// snapshot an event leaves unchanged, metadata folded key by key, where results land, and what a
// MESSAGES_SNAPSHOT keeps.

const e = (event: Record<string, unknown>) => event as unknown as BaseEvent

function store(...events: BaseEvent[]) {
  const errors: AgentStoreError[] = []
  const created = createAgentStore({ initialState: {}, onError: (error) => errors.push(error) })
  if (events.length > 0) created.apply(events)
  return { store: created, errors }
}

const snapshotOf = (messages: readonly Message[]) => e({ type: 'MESSAGES_SNAPSHOT', messages })

describe('TEXT_MESSAGE_START', () => {
  it('creates an assistant message by default, with no name, owner or metadata', () => {
    const { store: s } = store(e({ type: 'TEXT_MESSAGE_START', messageId: 'm1' }))
    expect(s.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: '' }])
  })

  it('copies the metadata: a later merge never writes into the event', () => {
    const metadata = { a: 1 }
    const { store: s } = store(e({ type: 'TEXT_MESSAGE_START', messageId: 'm1', metadata }))
    s.apply(e({ type: 'TEXT_MESSAGE_END', messageId: 'm1', metadata: { b: 2 } }))
    expect(s.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: '', metadata: { a: 1, b: 2 } }])
    expect(metadata).toStrictEqual({ a: 1 })
  })

  it('joins a message of the same role: without metadata nothing changes, with it the metadata merges', () => {
    const { store: s } = store(e({ type: 'TEXT_MESSAGE_START', messageId: 'm1', metadata: { a: 1 } }), ev.text('m1', 'hi'))
    const before = s.getState()
    s.apply(ev.textStart('m1'))
    expect(s.getState()).toBe(before)
    s.apply(e({ type: 'TEXT_MESSAGE_START', messageId: 'm1', metadata: { a: 2, c: 3 } }))
    expect(s.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'hi', metadata: { a: 2, c: 3 } }])
  })

  it('refuses to join a message of another role, naming the role', () => {
    const { store: s, errors } = store(e({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'user' }))
    const before = s.getState().messages
    s.apply(ev.textStart('m1'))
    expect(s.getState().messages).toBe(before)
    expect(errors.map((error) => [error.code, error.eventType, error.message])).toStrictEqual([
      ['INVALID_EVENT', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_START for message "m1", which exists with the role "user"'],
    ])
  })

  it('a text joining the message a tool call created keeps its calls and gets no content until it streams', () => {
    const { store: s } = store(ev.toolStart('c1', 'a', 'm1'), ev.textStart('m1'))
    expect(s.getState().messages).toStrictEqual([
      { id: 'm1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }] },
    ])
  })
})

describe('TEXT_MESSAGE_CONTENT', () => {
  it('appends to a message without content, starting from the empty string', () => {
    const { store: s } = store(ev.toolStart('c1', 'a', 'm1'), ev.text('m1', 'hi'))
    expect(s.getState().messages[0]).toStrictEqual({
      id: 'm1',
      role: 'assistant',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }],
      content: 'hi',
    })
  })

  it('an empty delta without metadata changes nothing; with metadata only the metadata lands', () => {
    const { store: s } = store(ev.textStart('m1'), ev.text('m1', 'hi'))
    const before = s.getState()
    s.apply(ev.text('m1', ''))
    expect(s.getState()).toBe(before)
    s.apply(e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '', metadata: { k: 1 } }))
    expect(s.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'hi', metadata: { k: 1 } }])
    s.apply(e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: '!', metadata: { j: 2 } }))
    expect(s.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'hi!', metadata: { k: 1, j: 2 } }])
  })

  it('an empty delta for a message without content gives it the empty content', () => {
    const { store: s } = store(ev.toolStart('c1', 'a', 'm1'))
    const before = s.getState().messages
    s.apply(ev.text('m1', ''))
    expect(s.getState().messages).not.toBe(before)
    expect(s.getState().messages[0]).toMatchObject({ content: '' })
  })

  it('refuses content for an activity and for a message never started, with the reason', () => {
    const { store: s, errors } = store(e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a1', activityType: 'card', content: {} }))
    const before = s.getState().messages
    s.apply([ev.text('a1', 'x'), ev.text('ghost', 'x')])
    expect(s.getState().messages).toBe(before)
    expect(errors.map((error) => [error.code, error.eventType, error.message])).toStrictEqual([
      ['INVALID_EVENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT for message "a1", which is an activity'],
      ['INVALID_EVENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT for message "ghost", which has not started'],
    ])
  })

  it('changes only the message it streams into', () => {
    const { store: s } = store(ev.textStart('m1'), ev.textStart('m2'), ev.textStart('m3'))
    const [m1, m2, m3] = s.getState().messages
    s.apply(ev.text('m2', 'x'))
    const after = s.getState().messages
    expect(after[0]).toBe(m1)
    expect(after[2]).toBe(m3)
    expect(after[1]).toStrictEqual({ ...m2, content: 'x' })
    expect(after).toHaveLength(3)
  })
})

describe('TEXT_MESSAGE_END', () => {
  it('without metadata, or for an unknown message or an activity, changes nothing', () => {
    const { store: s, errors } = store(ev.textStart('m1'), e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a1', activityType: 'card', content: {} }))
    const before = s.getState()
    s.apply([
      ev.textEnd('m1'),
      e({ type: 'TEXT_MESSAGE_END', messageId: 'ghost', metadata: { k: 1 } }),
      e({ type: 'TEXT_MESSAGE_END', messageId: 'a1', metadata: { k: 1 } }),
    ])
    expect(s.getState()).toBe(before)
    expect(errors).toStrictEqual([])
  })

  it('with metadata merges it into that message only', () => {
    const { store: s } = store(ev.textStart('m1'), ev.textStart('m2'))
    const m2 = s.getState().messages[1]
    s.apply(e({ type: 'TEXT_MESSAGE_END', messageId: 'm1', metadata: { k: 1 } }))
    expect(s.getState().messages).toStrictEqual([
      { id: 'm1', role: 'assistant', content: '', metadata: { k: 1 } },
      { id: 'm2', role: 'assistant', content: '' },
    ])
    expect(s.getState().messages[1]).toBe(m2)
  })
})

describe('tool calls', () => {
  const call = (id: string, name: string, args = '', extra: Record<string, unknown> = {}) => ({
    id,
    type: 'function',
    function: { name, arguments: args },
    ...extra,
  })

  it('a call joins its assistant parent after the calls it has', () => {
    const { store: s } = store(ev.textStart('m1'), ev.toolStart('c1', 'a', 'm1'), ev.toolStart('c2', 'b', 'm1'))
    expect(s.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: '', toolCalls: [call('c1', 'a'), call('c2', 'b')] }])
  })

  it('a parent that is not an assistant message gets a message of the call id after it', () => {
    const { store: s } = store(e({ type: 'TEXT_MESSAGE_START', messageId: 'u1', role: 'user' }), ev.toolStart('c1', 'a', 'u1'))
    expect(s.getState().messages).toStrictEqual([
      { id: 'u1', role: 'user', content: '' },
      { id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a')] },
    ])
  })

  it('a call with metadata and an owner keeps both, the metadata copied', () => {
    const metadata = { k: 1 }
    const { store: s } = store(e({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'a', subagentRunId: 's1', metadata }))
    s.apply(e({ type: 'TOOL_CALL_END', toolCallId: 'c1', metadata: { j: 2 } }))
    expect(s.getState().messages).toStrictEqual([
      { id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a', '', { metadata: { k: 1, j: 2 } })], subagentRunId: 's1' },
    ])
    expect(metadata).toStrictEqual({ k: 1 })
  })

  it('a restated call starts over in place under its new name, its metadata merged', () => {
    const { store: s } = store(
      ev.textStart('m1'),
      e({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'a', parentMessageId: 'm1', metadata: { k: 1 } }),
      ev.toolStart('c2', 'b', 'm1'),
      ev.toolArgs('c1', '{"x":1}'),
      ev.textStart('m2'),
    )
    const [, m2] = s.getState().messages
    s.apply(e({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'renamed', parentMessageId: 'm2', metadata: { j: 2 } }))
    expect(s.getState().messages).toStrictEqual([
      { id: 'm1', role: 'assistant', content: '', toolCalls: [call('c1', 'renamed', '', { metadata: { k: 1, j: 2 } }), call('c2', 'b')] },
      { id: 'm2', role: 'assistant', content: '' },
    ])
    expect(s.getState().messages[1]).toBe(m2)
  })

  it('arguments: an empty delta changes nothing unless it carries metadata', () => {
    const { store: s } = store(ev.toolStart('c1', 'a'), ev.toolArgs('c1', '{"x"'))
    const before = s.getState()
    s.apply(ev.toolArgs('c1', ''))
    expect(s.getState()).toBe(before)
    s.apply(e({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '', metadata: { k: 1 } }))
    expect(s.getState().messages).toStrictEqual([{ id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a', '{"x"', { metadata: { k: 1 } })] }])
    s.apply(e({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: ':1}', metadata: { j: 2 } }))
    expect(s.getState().messages).toStrictEqual([{ id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a', '{"x":1}', { metadata: { k: 1, j: 2 } })] }])
  })

  it('arguments find the call among several messages and calls', () => {
    const { store: s } = store(ev.toolStart('c1', 'a', 'm1'), ev.toolStart('c2', 'b', 'm1'), ev.textStart('m2'), ev.toolStart('c3', 'c', 'm3'))
    s.apply([ev.toolArgs('c1', '1'), ev.toolArgs('c2', '2'), ev.toolArgs('c3', '3')])
    expect(s.getState().messages).toStrictEqual([
      { id: 'm1', role: 'assistant', toolCalls: [call('c1', 'a', '1'), call('c2', 'b', '2')] },
      { id: 'm2', role: 'assistant', content: '' },
      { id: 'm3', role: 'assistant', toolCalls: [call('c3', 'c', '3')] },
    ])
  })

  it('arguments for an unknown call are refused with the reason', () => {
    const { store: s, errors } = store(ev.textStart('m1'))
    s.apply(ev.toolArgs('nope', '{}'))
    expect(errors.map((error) => error.message)).toStrictEqual(['TOOL_CALL_ARGS for tool call "nope", which has not started'])
  })

  it('the end of a call: metadata merges into the call, an unknown call or no metadata changes nothing', () => {
    const { store: s, errors } = store(ev.toolStart('c1', 'a'), ev.toolStart('c2', 'b', 'c1'))
    const before = s.getState()
    s.apply([ev.toolEnd('c1'), e({ type: 'TOOL_CALL_END', toolCallId: 'ghost', metadata: { k: 1 } })])
    expect(s.getState()).toBe(before)
    expect(errors).toStrictEqual([])
    s.apply(e({ type: 'TOOL_CALL_END', toolCallId: 'c2', metadata: { k: 1 } }))
    expect(s.getState().messages).toStrictEqual([{ id: 'c1', role: 'assistant', toolCalls: [call('c1', 'a'), call('c2', 'b', '', { metadata: { k: 1 } })] }])
  })
})

describe('TOOL_CALL_RESULT', () => {
  it('a result carries its owner and a copy of its metadata', () => {
    const metadata = { k: 1 }
    const { store: s } = store(e({ type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c9', content: 'ok', subagentRunId: 's1', metadata }))
    expect(s.getState().messages).toStrictEqual([{ id: 'r1', role: 'tool', toolCallId: 'c9', content: 'ok', subagentRunId: 's1', metadata: { k: 1 } }])
    expect(s.getState().messages[0]!.metadata).not.toBe(metadata)
  })

  it('goes right after its call and the results already there, before later messages', () => {
    const { store: s } = store(
      ev.toolStart('c1', 'a', 'm1'),
      ev.toolStart('c2', 'b', 'm1'),
      ev.textStart('m2'),
      ev.toolResult('r1', 'c1', 'one'),
      ev.toolResult('r2', 'c2', 'two'),
    )
    expect(s.getState().messages.map((m) => m.id)).toStrictEqual(['m1', 'r1', 'r2', 'm2'])
  })

  it('goes at the end when its call is the last message, or when no message holds the call', () => {
    const { store: s } = store(ev.textStart('m0'), ev.toolStart('c1', 'a', 'm1'), ev.toolResult('r1', 'c1', 'one'), ev.toolResult('r9', 'c9', 'lost'))
    expect(s.getState().messages.map((m) => m.id)).toStrictEqual(['m0', 'm1', 'r1', 'r9'])
  })

  it('is placed after the first message holding the call', () => {
    // Two assistant messages naming the same call id: a snapshot can carry that.
    const held: Message[] = [
      { id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }] },
      { id: 'x', role: 'user', content: 'x' },
      { id: 'a2', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }] },
      { id: 'y', role: 'user', content: 'y' },
    ]
    const { store: s } = store(snapshotOf(held), ev.toolResult('r1', 'c1', 'one'))
    expect(s.getState().messages.map((m) => m.id)).toStrictEqual(['a1', 'r1', 'x', 'a2', 'y'])
  })

  it('a restated result replaces the earlier one in its place; the other messages keep their identity', () => {
    const { store: s } = store(ev.toolStart('c1', 'a', 'm1'), ev.toolResult('r1', 'c1', 'one'), ev.textStart('m2'))
    const [m1, , m2] = s.getState().messages
    s.apply(ev.toolResult('r1', 'c1', 'again'))
    const after = s.getState().messages
    expect(after.map((m) => m.id)).toStrictEqual(['m1', 'r1', 'm2'])
    expect(after[1]).toStrictEqual({ id: 'r1', role: 'tool', toolCallId: 'c1', content: 'again' })
    expect(after[0]).toBe(m1)
    expect(after[2]).toBe(m2)
  })
})

describe('ownedActivityTypes', () => {
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

describe('MESSAGES_SNAPSHOT', () => {
  const user = (id: string, content = id): Message => ({ id, role: 'user', content })
  const activity = (id: string, activityType: string): Message => ({ id, role: 'activity', activityType, content: {} }) as Message
  const reasoning = (id: string): Message => ({ id, role: 'reasoning', content: id }) as Message

  it('an equal snapshot leaves the snapshot as it is', () => {
    const { store: s } = store(snapshotOf([user('u1'), user('u2')]))
    const before = s.getState()
    s.apply(snapshotOf([user('u1'), user('u2')]))
    expect(s.getState()).toBe(before)
  })

  it('a snapshot of the same messages in another order keeps the held order', () => {
    const { store: s } = store(snapshotOf([user('u1'), user('u2')]))
    const before = s.getState()
    s.apply(snapshotOf([user('u2'), user('u1')]))
    expect(s.getState()).toBe(before)
  })

  it('a snapshot that drops the last message is a change', () => {
    const { store: s } = store(snapshotOf([user('u1'), user('u2')]))
    const [u1] = s.getState().messages
    s.apply(snapshotOf([user('u1')]))
    expect(s.getState().messages).toStrictEqual([user('u1')])
    expect(s.getState().messages[0]).toBe(u1)
  })

  it('a changed message takes the new version in its place', () => {
    const { store: s } = store(snapshotOf([user('u1'), user('u2')]))
    const [u1] = s.getState().messages
    s.apply(snapshotOf([user('u1'), user('u2', 'edited')]))
    expect(s.getState().messages).toStrictEqual([user('u1'), user('u2', 'edited')])
    expect(s.getState().messages[0]).toBe(u1)
  })

  it('activities: kept when the snapshot carries none and declares nothing; a declaration of other types keeps them', () => {
    const held = [user('u1'), activity('p', 'progress')]
    const ids = (...events: BaseEvent[]) =>
      store(snapshotOf(held), ...events)
        .store.getState()
        .messages.map((m) => m.id)
    expect(ids(snapshotOf([user('u1')]))).toStrictEqual(['u1', 'p'])
    expect(ids(snapshotOf([user('u1'), activity('c', 'card')]))).toStrictEqual(['u1', 'c'])
    const declared = (types: unknown, messages: Message[]) =>
      e({ type: 'MESSAGES_SNAPSHOT', messages, metadata: { '@ag-ui/client': { authoritativeActivityTypes: types } } })
    expect(ids(declared(['card'], [user('u1'), activity('c', 'card')]))).toStrictEqual(['u1', 'p', 'c'])
    expect(ids(declared(['progress'], [user('u1')]))).toStrictEqual(['u1'])
    expect(ids(declared(null, [user('u1')]))).toStrictEqual(['u1'])
    expect(ids(declared('bad', [user('u1'), activity('c', 'card')]))).toStrictEqual(['u1', 'p', 'c'])
  })

  it('reasoning: kept when the snapshot carries none; a user message it leaves out goes', () => {
    const held = [user('u1'), reasoning('r1'), user('u2')]
    const kept = store(snapshotOf(held), snapshotOf([user('u1')])).store
    expect(kept.getState().messages.map((m) => m.id)).toStrictEqual(['u1', 'r1'])
    const owned = store(snapshotOf(held), snapshotOf([user('u1'), reasoning('r2')])).store
    expect(owned.getState().messages.map((m) => m.id)).toStrictEqual(['u1', 'r2'])
  })

  it('a result the snapshot adds goes after its call and the results there; others are appended in order', () => {
    const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'a', arguments: '' } })
    const a1: Message = { id: 'a1', role: 'assistant', toolCalls: [call('c1'), call('c2')] }
    const held: Message[] = [a1, { id: 'r1', role: 'tool', toolCallId: 'c1', content: 'one' }, user('u1')]
    const { store: s } = store(snapshotOf(held))
    s.apply(
      snapshotOf([
        ...held,
        user('n1'),
        { id: 'r2', role: 'tool', toolCallId: 'c2', content: 'two' },
        { id: 'r9', role: 'tool', toolCallId: 'c9', content: 'lost' },
        user('n2'),
      ]),
    )
    expect(s.getState().messages.map((m) => m.id)).toStrictEqual(['a1', 'r1', 'r2', 'u1', 'n1', 'r9', 'n2'])
  })

  it('a result whose call is the last message goes at the end', () => {
    const a1: Message = { id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'a', arguments: '' } }] }
    const { store: s } = store(snapshotOf([user('u1'), a1]))
    s.apply(snapshotOf([user('u1'), a1, { id: 'r1', role: 'tool', toolCallId: 'c1', content: 'one' }]))
    expect(s.getState().messages.map((m) => m.id)).toStrictEqual(['u1', 'a1', 'r1'])
  })

  it('a snapshot with a message twice keeps the one place and the last version', () => {
    const { store: s } = store(snapshotOf([user('u1')]))
    s.apply(snapshotOf([user('u1', 'first'), user('u2'), user('u1', 'last')]))
    expect(s.getState().messages).toStrictEqual([user('u1', 'last'), user('u2')])
  })
})

describe('RUN_STARTED input messages', () => {
  const started = (messages: Message[]) =>
    e({
      type: 'RUN_STARTED',
      threadId: 't1',
      runId: 'r1',
      input: { threadId: 't1', runId: 'r1', state: {}, messages, tools: [], context: [], forwardedProps: {} },
    })
  const user = (id: string, content = id): Message => ({ id, role: 'user', content })

  it('appends the ones not held, once each, in order', () => {
    const { store: s, errors } = store(snapshotOf([user('u1')]))
    const [u1] = s.getState().messages
    s.apply(started([user('u1', 'other'), user('u2'), user('u2', 'dup'), user('u3')]))
    expect(s.getState().messages).toStrictEqual([user('u1'), user('u2'), user('u3')])
    expect(s.getState().messages[0]).toBe(u1)
    expect(errors).toStrictEqual([])
  })

  it('held ones or none at all leave the messages as they are', () => {
    const { store: s, errors } = store(snapshotOf([user('u1')]))
    const before = s.getState().messages
    s.apply(started([user('u1')]))
    expect(s.getState().messages).toBe(before)
    expect(s.getState().status).toBe('running')
    expect(errors).toStrictEqual([])
    const other = store(snapshotOf([user('u1')])).store
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

describe('what an event leaves of the snapshot before it', () => {
  it('a result placed between messages leaves the earlier message array as it was', () => {
    const { store: s } = store(ev.toolStart('c1', 'a', 'm1'), ev.textStart('m2'))
    const before = s.getState().messages
    s.apply(ev.toolResult('r1', 'c1', 'one'))
    expect(before.map((m) => m.id)).toStrictEqual(['m1', 'm2'])
    expect(s.getState().messages.map((m) => m.id)).toStrictEqual(['m1', 'r1', 'm2'])
  })

  it('text appended to a message whose content is not a string starts from the empty string', () => {
    const parts = [{ type: 'text', text: 'look' }]
    const { store: s } = store(snapshotOf([{ id: 'u1', role: 'user', content: parts } as unknown as Message]), ev.text('u1', 'more'))
    expect(s.getState().messages).toStrictEqual([{ id: 'u1', role: 'user', content: 'more' }])
  })
})
