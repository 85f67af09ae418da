// Activities: ACTIVITY_SNAPSHOT creates, replaces, takes over or leaves a message; ACTIVITY_DELTA patches
// an activity's content through the store's own patcher (the hazards of STATE_DELTA), all of a delta or
// none of it (metadata included), with the exact refusals; the limits bound both.
import type { ActivityDeltaEvent, ActivityMessage, ActivitySnapshotEvent, Event, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { AgentStoreError } from '../src'
import { defaultLimits } from '../src/limits'
import { reduceActivityDelta, reduceActivitySnapshot } from '../src/snapshot/activities'
import { blankSnapshot } from '../src/snapshot/copy'
import { reduceEvent } from '../src/snapshot/reduce-event'
import { ev, recordedStore } from './helpers'
import { event, refusalFields, snapshotHolding } from './support/events'

const snap = (more: Record<string, unknown>) =>
  event<ActivitySnapshotEvent>({ type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'progress', content: { n: 1 }, ...more })
const delta = (patch: unknown[], more: Record<string, unknown> = {}) =>
  event<ActivityDeltaEvent>({ type: 'ACTIVITY_DELTA', messageId: 'act', activityType: 'progress', patch, ...more })
const activity = (more: Record<string, unknown> = {}) => ({ id: 'act', role: 'activity', activityType: 'progress', content: { n: 1 }, ...more }) as Message
const user: Message = { id: 'u1', role: 'user', content: 'hi' }
/** Every field an ACTIVITY_DELTA refusal sets. */
const deltaRefusal = (code: string, fields: Record<string, unknown>) => ({ name: 'AgentStoreError', code, eventType: 'ACTIVITY_DELTA', ...fields })

/** A store holding a text message, then the activity "act" with this content. */
function activityStore(content: Record<string, unknown>, options: { limits?: Record<string, number> } = {}) {
  const recorded = recordedStore<Record<string, unknown>>({ initialState: {}, ...options })
  recorded.store.apply([ev.textStart('m1'), snap({ content })])
  const current = () => recorded.store.getState().messages.find((message) => message.id === 'act') as ActivityMessage
  return { ...recorded, activity: current }
}

const rows = () => ({ title: 'T', rows: [0, 1, 2, 3, 4].map((id) => ({ id, status: 'todo' })), meta: { version: 1 } })

describe('ACTIVITY_SNAPSHOT', () => {
  it('creates the activity after the other messages, with only the fields sent and a copy of the metadata', () => {
    const snapshot = snapshotHolding(user)
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
    const snapshot = snapshotHolding(existing, user)
    const next = reduceActivitySnapshot(snapshot, snap({ activityType: 'card', content: { kept: { deep: [1, 2] }, n: 2 } }), defaultLimits)
    expect(next.messages).toStrictEqual([{ id: 'act', role: 'activity', activityType: 'card', content: { kept, n: 2 }, metadata: { a: 1, b: 1 } }, user])
    expect((next.messages[0] as unknown as { content: { kept: unknown } }).content.kept).toBe(kept)
    expect(next.messages[1]).toBe(user)
    const owned = reduceActivitySnapshot(snapshot, snap({ replace: true, subagentRunId: 's2', metadata: { b: 2 } }), defaultLimits)
    expect(owned.messages[0]).toStrictEqual(activity({ subagentRunId: 's2', metadata: { a: 1, b: 2 } }))
  })

  it('with replace: false leaves an activity as it is, or lands only its metadata', () => {
    const existing = activity({ content: { n: 5 }, metadata: { a: 1 } })
    const snapshot = snapshotHolding(existing)
    expect(reduceActivitySnapshot(snapshot, snap({ replace: false, activityType: 'other' }), defaultLimits)).toBe(snapshot)
    const next = reduceActivitySnapshot(snapshot, snap({ replace: false, metadata: { b: 2 } }), defaultLimits)
    expect(next.messages).toStrictEqual([activity({ content: { n: 5 }, metadata: { a: 1, b: 2 } })])
    expect((next.messages[0] as { content: unknown }).content).toBe((existing as { content: unknown }).content)
  })

  it('takes over a message of another kind in its place only when replacing', () => {
    const other: Message = { id: 'act', role: 'assistant', content: 'x' }
    const snapshot = snapshotHolding(user, other, { id: 'z', role: 'user', content: 'z' })
    expect(reduceActivitySnapshot(snapshot, snap({ replace: false }), defaultLimits)).toBe(snapshot)
    const next = reduceActivitySnapshot(snapshot, snap({}), defaultLimits)
    expect(next.messages).toStrictEqual([user, activity(), { id: 'z', role: 'user', content: 'z' }])
  })

  it('checks the content against the limits it is given, naming the event', () => {
    const limits = { ...defaultLimits, maxStateBytes: 20 }
    expect(refusalFields(() => reduceActivitySnapshot(snapshotHolding(), snap({ content: { text: 'x'.repeat(50) } }), limits))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      limit: 'maxStateBytes',
      message: expect.stringMatching(/^ACTIVITY_SNAPSHOT content: /),
    })
    expect(refusalFields(() => reduceActivitySnapshot(snapshotHolding(activity()), snap({ content: { text: 'x'.repeat(50) } }), limits))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: expect.stringMatching(/^ACTIVITY_SNAPSHOT content: /),
    })
  })

  it('checks the content like state through the store: depth and size, changing nothing', () => {
    const { store } = activityStore({}, { limits: { maxDepth: 4, maxStateBytes: 100 } })
    const before = store.getState().messages
    store.apply(event({ type: 'ACTIVITY_SNAPSHOT', messageId: 'big', activityType: 'x', content: { text: 'z'.repeat(200) } }))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' })
    store.apply(event({ type: 'ACTIVITY_SNAPSHOT', messageId: 'deep', activityType: 'x', content: { a: { b: { c: { d: { e: 1 } } } } } }))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    expect(store.getState().messages).toBe(before)
  })
})

describe('ACTIVITY_DELTA: what changes and what stays', () => {
  it('makes new objects only along the changed path', () => {
    const { store, activity: current } = activityStore(rows())
    const before = store.getState()
    const content = current().content as ReturnType<typeof rows>
    store.apply(delta([{ op: 'replace', path: '/rows/3/status', value: 'done' }]))
    const next = current().content as ReturnType<typeof rows>
    expect(next.rows[3]).toEqual({ id: 3, status: 'done' })
    expect(next.meta).toBe(content.meta)
    for (const i of [0, 1, 2, 4]) expect(next.rows[i]).toBe(content.rows[i])
    expect(store.getState().messages[0]).toBe(before.messages[0])
    expect(store.getState().state).toBe(before.state)
    expect(content.rows[3]).toEqual({ id: 3, status: 'todo' })
  })

  it('keeps the snapshot identical, and publishes nothing, for deltas that change nothing', () => {
    const { store, published } = activityStore(rows())
    const before = store.getState()
    const count = published.length
    store.apply([delta([{ op: 'test', path: '/title', value: 'T' }]), delta([{ op: 'replace', path: '/meta', value: { version: 1 } }])])
    expect(store.getState()).toBe(before)
    expect(published).toHaveLength(count)
  })

  it('the reducer returns the snapshot itself for an unchanged content, type and metadata', () => {
    const snapshot = snapshotHolding(activity())
    expect(reduceActivityDelta(snapshot, delta([]), defaultLimits)).toBe(snapshot)
    expect(reduceActivityDelta(snapshot, delta([{ op: 'test', path: '/n', value: 1 }]), defaultLimits)).toBe(snapshot)
  })

  it('a new type alone, or metadata alone, changes just that', () => {
    const existing = activity({ metadata: { a: 1, b: 1 } })
    const snapshot = snapshotHolding(user, existing)
    const typed = reduceActivityDelta(snapshot, delta([], { activityType: 'card' }), defaultLimits)
    expect(typed.messages).toStrictEqual([user, activity({ activityType: 'card', metadata: { a: 1, b: 1 } })])
    expect((typed.messages[1] as { content: unknown }).content).toBe((existing as { content: unknown }).content)
    expect(typed.messages[0]).toBe(user)
    const meta = reduceActivityDelta(snapshot, delta([], { metadata: { b: 2 } }), defaultLimits)
    expect(meta.messages[1]).toStrictEqual(activity({ metadata: { a: 1, b: 2 } }))
    const first = reduceActivityDelta(snapshotHolding(activity()), delta([], { metadata: { c: 3 } }), defaultLimits)
    expect(first.messages[0]).toStrictEqual(activity({ metadata: { c: 3 } }))
  })

  it('a changed content keeps the rest, the old message untouched', () => {
    const existing = activity({ subagentRunId: 's1' })
    const snapshot = snapshotHolding(existing)
    const next = reduceActivityDelta(snapshot, delta([{ op: 'replace', path: '/n', value: 2 }]), defaultLimits)
    expect(next.messages).toStrictEqual([activity({ subagentRunId: 's1', content: { n: 2 } })])
    expect(existing).toStrictEqual(activity({ subagentRunId: 's1' }))
  })
})

describe('ACTIVITY_DELTA: all of it or nothing', () => {
  it('applies all of a delta or none of it (metadata included), says which op failed, and the store stays usable', () => {
    const { store, errors, activity: current } = activityStore(rows())
    const before = store.getState()
    const content = current().content
    store.apply(
      delta(
        [
          { op: 'replace', path: '/title', value: 'changed' },
          { op: 'add', path: '/rows/0/flag', value: true },
          { op: 'remove', path: '/rows/99' },
        ],
        { metadata: { seen: true } },
      ),
    )
    expect(store.getState().messages).toBe(before.messages)
    expect(current().content).toBe(content)
    expect(current()).not.toHaveProperty('metadata')
    const { error } = store.getState()
    expect(error).toBeInstanceOf(AgentStoreError)
    expect(error).toMatchObject({ code: 'PATCH_FAILED', eventType: 'ACTIVITY_DELTA', opIndex: 2, op: 'remove', path: '/rows/99' })
    expect(errors).toEqual([error])
    store.apply(delta([{ op: 'replace', path: '/title', value: 'ok' }]))
    expect(current().content.title).toBe('ok')
  })

  it('a failed test op changes nothing', () => {
    const { store, activity: current } = activityStore(rows())
    const content = current().content
    store.apply(
      delta([
        { op: 'test', path: '/meta/version', value: 2 },
        { op: 'replace', path: '/title', value: 'no' },
      ]),
    )
    expect(current().content).toBe(content)
    expect(store.getState().error).toMatchObject({ code: 'PATCH_FAILED', opIndex: 0, op: 'test' })
  })

  it('a failed op is PATCH_FAILED with which op, where and why', () => {
    expect(refusalFields(() => reduceActivityDelta(snapshotHolding(activity()), delta([{ op: 'remove', path: '/nope' }]), defaultLimits))).toStrictEqual(
      deltaRefusal('PATCH_FAILED', {
        opIndex: 0,
        op: 'remove',
        path: '/nope',
        message: 'ACTIVITY_DELTA op 0 (remove /nope) on "act" failed: path not found',
      }),
    )
  })

  it('refuses prototype writes without polluting Object.prototype', () => {
    const { store, activity: current } = activityStore({ a: {} })
    for (const op of [
      { op: 'add', path: '/__proto__/polluted', value: 1 },
      { op: 'add', path: '/a/__proto__/polluted', value: 1 },
      { op: 'add', path: '/constructor/prototype/polluted', value: 1 },
      { op: 'copy', from: '/constructor', path: '/a/c' },
      { op: 'move', from: '/a', path: '/prototype' },
    ]) {
      store.apply(delta([op]))
      expect(store.getState().error?.code).toBe('PATCH_FAILED')
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(current().content).toEqual({ a: {} })
  })

  it('keeps the content an object through the store: a patch may replace it with another object only', () => {
    const { store, activity: current } = activityStore({ a: 1 })
    store.apply(delta([{ op: 'replace', path: '', value: [1, 2] }]))
    expect(current().content).toEqual({ a: 1 })
    expect(store.getState().error).toMatchObject({ code: 'PATCH_FAILED', eventType: 'ACTIVITY_DELTA' })
    store.apply(delta([{ op: 'replace', path: '', value: { b: 2 } }]))
    expect(current().content).toEqual({ b: 2 })
  })

  it('refuses to make the content anything but an object, with the exact reason', () => {
    for (const value of ['s', [1], null, 1]) {
      expect(refusalFields(() => reduceActivityDelta(snapshotHolding(activity()), delta([{ op: 'replace', path: '', value }]), defaultLimits))).toStrictEqual(
        deltaRefusal('PATCH_FAILED', {
          path: '',
          message: 'ACTIVITY_DELTA on "act" would make its content a non-object',
        }),
      )
    }
  })
})

describe('ACTIVITY_DELTA: the activity it names', () => {
  it('refuses a delta for an activity that does not exist, or for a message that is not one, changing nothing', () => {
    const { store, errors } = activityStore({})
    const before = store.getState().messages
    store.apply([delta([], { messageId: 'ghost', activityType: 'x' }), delta([{ op: 'add', path: '/a', value: 1 }], { messageId: 'm1', activityType: 'x' })])
    expect(store.getState().messages).toBe(before)
    expect(errors.map((error) => (error as AgentStoreError).code)).toEqual(['INVALID_EVENT', 'INVALID_EVENT'])
  })

  it('says which: one that does not exist, or one that is not an activity', () => {
    const snapshot = snapshotHolding(user)
    expect(refusalFields(() => reduceActivityDelta(snapshot, delta([], { messageId: 'ghost' }), defaultLimits))).toStrictEqual(
      deltaRefusal('INVALID_EVENT', {
        message: 'ACTIVITY_DELTA for activity "ghost", which does not exist',
      }),
    )
    expect(refusalFields(() => reduceActivityDelta(snapshot, delta([], { messageId: 'u1' }), defaultLimits))).toStrictEqual(
      deltaRefusal('INVALID_EVENT', {
        message: 'ACTIVITY_DELTA for message "u1", which is not an activity',
      }),
    )
  })
})

describe('ACTIVITY_DELTA: limits', () => {
  it('caps the ops in one delta and the depth of what it inserts', () => {
    const { store, activity: current } = activityStore({ n: 0 }, { limits: { maxOpsPerDelta: 3, maxDepth: 8 } })
    store.apply(delta(Array.from({ length: 4 }, (_, i) => ({ op: 'replace', path: '/n', value: i }))))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxOpsPerDelta' })
    let deep: unknown = 0
    for (let i = 0; i < 100_000; i++) deep = [deep]
    store.apply(delta([{ op: 'add', path: '/deep', value: deep }]))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    expect(current().content).toEqual({ n: 0 })
  })

  it('caps the size of the content, also when it grows delta by delta', () => {
    const { store, activity: current } = activityStore({ items: [] }, { limits: { maxStateBytes: 1_000 } })
    for (let i = 0; i < 20; i++) store.apply(delta([{ op: 'add', path: '/items/-', value: 'y'.repeat(90) }]))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' })
    expect(JSON.stringify(current().content).length).toBeLessThanOrEqual(1_000)
    expect((current().content.items as unknown[]).length).toBeGreaterThan(5)
  })

  it('a limit the patcher finds: LIMIT_EXCEEDED with the limit, from the limits given', () => {
    const limits = { ...defaultLimits, maxOpsPerDelta: 1 }
    const ops = [
      { op: 'add', path: '/a', value: 1 },
      { op: 'add', path: '/b', value: 1 },
    ]
    expect(refusalFields(() => reduceActivityDelta(snapshotHolding(activity()), delta(ops), limits))).toStrictEqual(
      deltaRefusal('LIMIT_EXCEEDED', {
        opIndex: 1,
        op: 'add',
        path: '/b',
        limit: 'maxOpsPerDelta',
        message: 'ACTIVITY_DELTA op 1 (add /b) on "act": more than 1 operations',
      }),
    )
    expect(
      refusalFields(() =>
        reduceActivityDelta(snapshotHolding(activity()), delta([{ op: 'add', path: '/x', value: { a: { b: 1 } } }]), { ...defaultLimits, maxDepth: 2 }),
      ),
    ).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    expect(
      refusalFields(() =>
        reduceActivityDelta(snapshotHolding(activity()), delta([{ op: 'add', path: '/x', value: 'y'.repeat(50) }]), { ...defaultLimits, maxStateBytes: 30 }),
      ),
    ).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' })
  })

  it('content grown past the size limit by a copy: LIMIT_EXCEEDED on the whole content', () => {
    const ops = [
      { op: 'add', path: '/x', value: 1 },
      { op: 'copy', from: '/x', path: '/y' },
    ]
    expect(
      refusalFields(() => reduceActivityDelta(snapshotHolding(activity({ content: { items: [] } })), delta(ops), { ...defaultLimits, maxStateBytes: 14 })),
    ).toStrictEqual(
      deltaRefusal('LIMIT_EXCEEDED', {
        path: '',
        limit: 'maxStateBytes',
        message: 'ACTIVITY_DELTA on "act": larger than 14',
      }),
    )
  })

  it('reduceEvent bounds activity content by the limits it is given, and by the defaults without them', () => {
    const blank = blankSnapshot('t', {})
    const withActivity = reduceEvent(blank, snap({ content: { items: [] } }))
    const limits = { ...defaultLimits, maxOpsPerDelta: 1 }
    const two = delta([
      { op: 'add', path: '/items/-', value: 1 },
      { op: 'add', path: '/items/-', value: 2 },
    ])
    expect(() => reduceEvent(withActivity, two, limits)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', limit: 'maxOpsPerDelta' }))
    const next = reduceEvent(withActivity, two)
    expect((next.messages[0] as ActivityMessage).content).toEqual({ items: [1, 2] })
    expect((withActivity.messages[0] as ActivityMessage).content).toEqual({ items: [] })
    const big = event<Event>({ type: 'ACTIVITY_SNAPSHOT', messageId: 'b', activityType: 'x', content: { text: 'z'.repeat(200) } })
    expect(() => reduceEvent(blank, big, { ...defaultLimits, maxStateBytes: 100 })).toThrow(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' }),
    )
  })
})

describe('activity content from the wire', () => {
  it('refuses an own __proto__ key as the state does, and pollutes nothing', () => {
    const { store, activity: current, errors } = activityStore({ ok: true })
    const before = store.getState().messages
    const content = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>
    store.apply([snap({ content }), delta([{ op: 'add', path: '/x', value: JSON.parse('{"__proto__": {"polluted": true}}') }])])
    expect(store.getState().messages).toBe(before)
    expect(current().content).toEqual({ ok: true })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(errors.map((error) => (error as AgentStoreError).code)).toEqual(['INVALID_STATE', 'PATCH_FAILED'])
  })
})
