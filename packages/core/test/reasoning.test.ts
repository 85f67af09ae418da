// Reasoning messages and encrypted values: the exact message a start makes, which holder an
// encrypted value lands on, the exact refusals, and the identities kept when nothing changes.
import type { Message, ReasoningEncryptedValueEvent, ReasoningMessageStartEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { reduceReasoningEncryptedValue, reduceReasoningMessageStart } from '../src/snapshot/reasoning'
import { refusalOf } from './helpers'
import { event, snapshotHolding, storeAfter } from './support/events'

const start = (more: Record<string, unknown> = {}) =>
  event<ReasoningMessageStartEvent>({ type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning', ...more })
const encrypted = (subtype: string, entityId: string, encryptedValue: string) =>
  event<ReasoningEncryptedValueEvent>({ type: 'REASONING_ENCRYPTED_VALUE', subtype, entityId, encryptedValue })
const call = (id: string, more: Record<string, unknown> = {}) => ({ id, type: 'function' as const, function: { name: 'n', arguments: '' }, ...more })
const invalid = (message: string) => ({ code: 'INVALID_EVENT', message, eventType: 'REASONING_ENCRYPTED_VALUE' })

describe('REASONING_MESSAGE_START', () => {
  it('makes an empty reasoning message with only the fields sent, its metadata a copy', () => {
    expect(reduceReasoningMessageStart(snapshotHolding(), start()).messages).toStrictEqual([{ id: 'r1', role: 'reasoning', content: '' }])
    const metadata = { a: 1 }
    const next = reduceReasoningMessageStart(snapshotHolding(), start({ subagentRunId: 's1', metadata }))
    expect(next.messages).toStrictEqual([{ id: 'r1', role: 'reasoning', content: '', subagentRunId: 's1', metadata: { a: 1 } }])
    expect((next.messages[0] as { metadata?: unknown }).metadata).not.toBe(metadata)
  })

  it('joins a reasoning message of that id, landing only its metadata; refuses one of another role', () => {
    const held = snapshotHolding({ id: 'r1', role: 'reasoning', content: 'so far', metadata: { a: 1 } } as Message)
    expect(reduceReasoningMessageStart(held, start())).toBe(held)
    expect(reduceReasoningMessageStart(held, start({ metadata: { b: 2 } })).messages).toStrictEqual([
      { id: 'r1', role: 'reasoning', content: 'so far', metadata: { a: 1, b: 2 } },
    ])
    expect(refusalOf(() => reduceReasoningMessageStart(snapshotHolding({ id: 'r1', role: 'assistant', content: '' }), start()))).toStrictEqual({
      code: 'INVALID_EVENT',
      message: 'REASONING_MESSAGE_START for message "r1", which exists with the role "assistant"',
      eventType: 'REASONING_MESSAGE_START',
    })
  })
})

describe('REASONING_ENCRYPTED_VALUE on a tool call', () => {
  it('lands on the first assistant message that holds the call, skipping others, the other calls kept', () => {
    const user: Message = { id: 'u1', role: 'user', content: 'hi' }
    const plain: Message = { id: 'a0', role: 'assistant', content: 'x' }
    const fake = { id: 'x1', role: 'user', content: '', toolCalls: [call('c1')] } as unknown as Message
    const other = call('c0')
    const first: Message = { id: 'a1', role: 'assistant', toolCalls: [other, call('c1')] }
    const second: Message = { id: 'a2', role: 'assistant', toolCalls: [call('c1')] }
    const snapshot = snapshotHolding(user, plain, fake, first, second)
    const next = reduceReasoningEncryptedValue(snapshot, encrypted('tool-call', 'c1', 'ENC'))
    expect(next.messages).toStrictEqual([user, plain, fake, { id: 'a1', role: 'assistant', toolCalls: [other, call('c1', { encryptedValue: 'ENC' })] }, second])
    expect(next.messages[4]).toBe(second)
    expect(next.messages[2]).toBe(fake)
    expect((next.messages[3] as { toolCalls: unknown[] }).toolCalls[0]).toBe(other)
    expect((snapshot.messages[3] as { toolCalls: unknown[] }).toolCalls[1]).toStrictEqual(call('c1'))
  })

  it('finds a call in the first message, at index 0', () => {
    const snapshot = snapshotHolding({ id: 'a1', role: 'assistant', toolCalls: [call('c1')] }, { id: 'u', role: 'user', content: '' })
    expect(reduceReasoningEncryptedValue(snapshot, encrypted('tool-call', 'c1', 'E')).messages[0]).toStrictEqual({
      id: 'a1',
      role: 'assistant',
      toolCalls: [call('c1', { encryptedValue: 'E' })],
    })
  })

  it('the same value again leaves the snapshot itself; another value replaces it', () => {
    const snapshot = snapshotHolding({ id: 'a1', role: 'assistant', toolCalls: [call('c1', { encryptedValue: 'E' })] })
    expect(reduceReasoningEncryptedValue(snapshot, encrypted('tool-call', 'c1', 'E'))).toBe(snapshot)
    expect(reduceReasoningEncryptedValue(snapshot, encrypted('tool-call', 'c1', 'F')).messages).toStrictEqual([
      { id: 'a1', role: 'assistant', toolCalls: [call('c1', { encryptedValue: 'F' })] },
    ])
  })

  it('refuses a call that does not exist, even one whose id a message has', () => {
    const snapshot = snapshotHolding({ id: 'c1', role: 'assistant', content: '' }, { id: 'a1', role: 'assistant', toolCalls: [call('c2')] })
    expect(refusalOf(() => reduceReasoningEncryptedValue(snapshot, encrypted('tool-call', 'c1', 'E')))).toStrictEqual(
      invalid('REASONING_ENCRYPTED_VALUE for tool call "c1", which does not exist'),
    )
  })
})

describe('REASONING_ENCRYPTED_VALUE on a message', () => {
  it('lands on the message with that id, the others kept', () => {
    const a: Message = { id: 'a', role: 'user', content: 'x' }
    const b: Message = { id: 'b', role: 'reasoning', content: 'think' }
    const snapshot = snapshotHolding(a, b)
    const next = reduceReasoningEncryptedValue(snapshot, encrypted('message', 'b', 'E'))
    expect(next.messages).toStrictEqual([a, { id: 'b', role: 'reasoning', content: 'think', encryptedValue: 'E' }])
    expect(next.messages[0]).toBe(a)
    expect(snapshot.messages[1]).toStrictEqual({ id: 'b', role: 'reasoning', content: 'think' })
    const first = reduceReasoningEncryptedValue(snapshot, encrypted('message', 'a', 'E'))
    expect(first.messages[0]).toStrictEqual({ id: 'a', role: 'user', content: 'x', encryptedValue: 'E' })
  })

  it('the same value again leaves the snapshot itself', () => {
    const snapshot = snapshotHolding({ id: 'b', role: 'reasoning', content: '', encryptedValue: 'E' } as Message)
    expect(reduceReasoningEncryptedValue(snapshot, encrypted('message', 'b', 'E'))).toBe(snapshot)
  })

  it('refuses a message that does not exist, or an activity', () => {
    const snapshot = snapshotHolding({ id: 'act', role: 'activity', activityType: 'x', content: {} }, { id: 'a1', role: 'assistant', toolCalls: [call('c1')] })
    expect(refusalOf(() => reduceReasoningEncryptedValue(snapshot, encrypted('message', 'c1', 'E')))).toStrictEqual(
      invalid('REASONING_ENCRYPTED_VALUE for message "c1", which does not exist'),
    )
    expect(refusalOf(() => reduceReasoningEncryptedValue(snapshot, encrypted('message', 'act', 'E')))).toStrictEqual(
      invalid('REASONING_ENCRYPTED_VALUE for message "act", which is an activity'),
    )
  })

  it('through the store: the value is kept and reported nowhere as an error', () => {
    const { store, errors } = storeAfter(start(), encrypted('message', 'r1', 'E'))
    expect(store.getState().messages).toStrictEqual([{ id: 'r1', role: 'reasoning', content: '', encryptedValue: 'E' }])
    expect(errors).toStrictEqual([])
  })
})
