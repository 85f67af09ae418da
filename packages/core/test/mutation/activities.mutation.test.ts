import type { ActivityDeltaEvent, ActivitySnapshotEvent, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentSnapshot, type AgentStoreError, createAgentStore } from '../../src'
import { defaultLimits } from '../../src/limits'
import { reduceActivityDelta, reduceActivitySnapshot } from '../../src/snapshot/activities'

// ACTIVITY_SNAPSHOT and ACTIVITY_DELTA pinned: when a snapshot creates, replaces, takes over or
// leaves a message; what a delta keeps; the exact refusals with their details; the identities.

const holding = (...messages: Message[]): AgentSnapshot<unknown> => ({ ...createAgentStore({ initialState: {} }).getState(), messages })
const snap = (more: Record<string, unknown>) =>
  ({ type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'progress', content: { n: 1 }, ...more }) as unknown as ActivitySnapshotEvent
const delta = (patch: unknown[], more: Record<string, unknown> = {}) =>
  ({ type: 'ACTIVITY_DELTA', messageId: 'act', activityType: 'progress', patch, ...more }) as unknown as ActivityDeltaEvent
const activity = (more: Record<string, unknown> = {}) => ({ id: 'act', role: 'activity', activityType: 'progress', content: { n: 1 }, ...more }) as Message
const user: Message = { id: 'u1', role: 'user', content: 'hi' }
const refusal = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    // The fields set, with the message: the error class declares its optional fields as undefined.
    const set = Object.entries(error as AgentStoreError).filter(([, value]) => value !== undefined)
    return { ...Object.fromEntries(set), message: (error as Error).message }
  }
  throw new Error('not refused')
}

describe('ACTIVITY_SNAPSHOT', () => {
  it('creates the activity after the other messages, with only the fields sent and a copy of the metadata', () => {
    const snapshot = holding(user)
    expect(reduceActivitySnapshot(snapshot, snap({}), defaultLimits).messages).toStrictEqual([user, activity()])
    const metadata = { k: 1 }
    const next = reduceActivitySnapshot(snapshot, snap({ subagentRunId: 's1', metadata, replace: false }), defaultLimits)
    expect(next.messages).toStrictEqual([user, activity({ subagentRunId: 's1', metadata: { k: 1 } })])
    expect((next.messages[1] as { metadata?: unknown }).metadata).not.toBe(metadata)
    expect(next.messages[0]).toBe(user)
  })

  it('replaces the content by default, sharing what is equal, taking the new type and owner and keeping the metadata', () => {
    const kept = { deep: [1, 2] }
    const existing = activity({ content: { kept, n: 1 }, subagentRunId: 's1', metadata: { a: 1, b: 1 } })
    const snapshot = holding(existing, user)
    const next = reduceActivitySnapshot(snapshot, snap({ activityType: 'card', content: { kept: { deep: [1, 2] }, n: 2 } }), defaultLimits)
    expect(next.messages).toStrictEqual([{ id: 'act', role: 'activity', activityType: 'card', content: { kept, n: 2 }, metadata: { a: 1, b: 1 } }, user])
    expect((next.messages[0] as unknown as { content: { kept: unknown } }).content.kept).toBe(kept)
    expect(next.messages[1]).toBe(user)
    const owned = reduceActivitySnapshot(snapshot, snap({ replace: true, subagentRunId: 's2', metadata: { b: 2 } }), defaultLimits)
    expect(owned.messages[0]).toStrictEqual(activity({ subagentRunId: 's2', metadata: { a: 1, b: 2 } }))
  })

  it('with replace: false leaves an activity as it is, or lands only its metadata', () => {
    const existing = activity({ content: { n: 5 }, metadata: { a: 1 } })
    const snapshot = holding(existing)
    expect(reduceActivitySnapshot(snapshot, snap({ replace: false, activityType: 'other' }), defaultLimits)).toBe(snapshot)
    const next = reduceActivitySnapshot(snapshot, snap({ replace: false, metadata: { b: 2 } }), defaultLimits)
    expect(next.messages).toStrictEqual([activity({ content: { n: 5 }, metadata: { a: 1, b: 2 } })])
    expect((next.messages[0] as { content: unknown }).content).toBe((existing as { content: unknown }).content)
  })

  it('takes over a message of another kind in its place only when replacing', () => {
    const other: Message = { id: 'act', role: 'assistant', content: 'x' }
    const snapshot = holding(user, other, { id: 'z', role: 'user', content: 'z' })
    expect(reduceActivitySnapshot(snapshot, snap({ replace: false }), defaultLimits)).toBe(snapshot)
    const next = reduceActivitySnapshot(snapshot, snap({}), defaultLimits)
    expect(next.messages).toStrictEqual([user, activity(), { id: 'z', role: 'user', content: 'z' }])
  })

  it('checks the content against the limits it is given', () => {
    const limits = { ...defaultLimits, maxStateBytes: 20 }
    expect(refusal(() => reduceActivitySnapshot(holding(), snap({ content: { text: 'x'.repeat(50) } }), limits))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      limit: 'maxStateBytes',
      message: expect.stringMatching(/^ACTIVITY_SNAPSHOT content: /),
    })
    expect(refusal(() => reduceActivitySnapshot(holding(activity()), snap({ content: { text: 'x'.repeat(50) } }), limits))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: expect.stringMatching(/^ACTIVITY_SNAPSHOT content: /),
    })
  })
})

describe('ACTIVITY_DELTA', () => {
  it('refuses a missing activity and a message that is not one, with the exact reason', () => {
    const snapshot = holding(user)
    expect(refusal(() => reduceActivityDelta(snapshot, delta([], { messageId: 'ghost' }), defaultLimits))).toStrictEqual({
      name: 'AgentStoreError',
      code: 'INVALID_EVENT',
      eventType: 'ACTIVITY_DELTA',
      message: 'ACTIVITY_DELTA for activity "ghost", which does not exist',
    })
    expect(refusal(() => reduceActivityDelta(snapshot, delta([], { messageId: 'u1' }), defaultLimits))).toStrictEqual({
      name: 'AgentStoreError',
      code: 'INVALID_EVENT',
      eventType: 'ACTIVITY_DELTA',
      message: 'ACTIVITY_DELTA for message "u1", which is not an activity',
    })
  })

  it('a failed op: PATCH_FAILED with which op, where and why', () => {
    expect(refusal(() => reduceActivityDelta(holding(activity()), delta([{ op: 'remove', path: '/nope' }]), defaultLimits))).toStrictEqual({
      name: 'AgentStoreError',
      code: 'PATCH_FAILED',
      eventType: 'ACTIVITY_DELTA',
      opIndex: 0,
      op: 'remove',
      path: '/nope',
      message: 'ACTIVITY_DELTA op 0 (remove /nope) on "act" failed: path not found',
    })
  })

  it('a limit the patcher finds: LIMIT_EXCEEDED with the limit, from the limits given', () => {
    const limits = { ...defaultLimits, maxOpsPerDelta: 1 }
    const ops = [
      { op: 'add', path: '/a', value: 1 },
      { op: 'add', path: '/b', value: 1 },
    ]
    expect(refusal(() => reduceActivityDelta(holding(activity()), delta(ops), limits))).toStrictEqual({
      name: 'AgentStoreError',
      code: 'LIMIT_EXCEEDED',
      eventType: 'ACTIVITY_DELTA',
      opIndex: 1,
      op: 'add',
      path: '/b',
      limit: 'maxOpsPerDelta',
      message: 'ACTIVITY_DELTA op 1 (add /b) on "act": more than 1 operations',
    })
    expect(
      refusal(() => reduceActivityDelta(holding(activity()), delta([{ op: 'add', path: '/x', value: { a: { b: 1 } } }]), { ...defaultLimits, maxDepth: 2 })),
    ).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    expect(
      refusal(() =>
        reduceActivityDelta(holding(activity()), delta([{ op: 'add', path: '/x', value: 'y'.repeat(50) }]), { ...defaultLimits, maxStateBytes: 30 }),
      ),
    ).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' })
  })

  it('content grown past the size limit by a copy: LIMIT_EXCEEDED on the whole content', () => {
    const ops = [
      { op: 'add', path: '/x', value: 1 },
      { op: 'copy', from: '/x', path: '/y' },
    ]
    expect(
      refusal(() => reduceActivityDelta(holding(activity({ content: { items: [] } })), delta(ops), { ...defaultLimits, maxStateBytes: 14 })),
    ).toStrictEqual({
      name: 'AgentStoreError',
      code: 'LIMIT_EXCEEDED',
      eventType: 'ACTIVITY_DELTA',
      path: '',
      limit: 'maxStateBytes',
      message: 'ACTIVITY_DELTA on "act": larger than 14',
    })
  })

  it('refuses to make the content anything but an object', () => {
    for (const value of ['s', [1], null, 1]) {
      expect(refusal(() => reduceActivityDelta(holding(activity()), delta([{ op: 'replace', path: '', value }]), defaultLimits))).toStrictEqual({
        name: 'AgentStoreError',
        code: 'PATCH_FAILED',
        eventType: 'ACTIVITY_DELTA',
        path: '',
        message: 'ACTIVITY_DELTA on "act" would make its content a non-object',
      })
    }
  })

  it('an unchanged content, type and metadata leaves the snapshot itself', () => {
    const snapshot = holding(activity())
    expect(reduceActivityDelta(snapshot, delta([]), defaultLimits)).toBe(snapshot)
    expect(reduceActivityDelta(snapshot, delta([{ op: 'test', path: '/n', value: 1 }]), defaultLimits)).toBe(snapshot)
  })

  it('a new type alone, or metadata alone, changes just that', () => {
    const existing = activity({ metadata: { a: 1, b: 1 } })
    const snapshot = holding(user, existing)
    const typed = reduceActivityDelta(snapshot, delta([], { activityType: 'card' }), defaultLimits)
    expect(typed.messages).toStrictEqual([user, activity({ activityType: 'card', metadata: { a: 1, b: 1 } })])
    expect((typed.messages[1] as { content: unknown }).content).toBe((existing as { content: unknown }).content)
    expect(typed.messages[0]).toBe(user)
    const meta = reduceActivityDelta(snapshot, delta([], { metadata: { b: 2 } }), defaultLimits)
    expect(meta.messages[1]).toStrictEqual(activity({ metadata: { a: 1, b: 2 } }))
    const first = reduceActivityDelta(holding(activity()), delta([], { metadata: { c: 3 } }), defaultLimits)
    expect(first.messages[0]).toStrictEqual(activity({ metadata: { c: 3 } }))
  })

  it('a changed content keeps the rest, the old message untouched', () => {
    const existing = activity({ subagentRunId: 's1' })
    const snapshot = holding(existing)
    const next = reduceActivityDelta(snapshot, delta([{ op: 'replace', path: '/n', value: 2 }]), defaultLimits)
    expect(next.messages).toStrictEqual([activity({ subagentRunId: 's1', content: { n: 2 } })])
    expect(existing).toStrictEqual(activity({ subagentRunId: 's1' }))
  })
})
