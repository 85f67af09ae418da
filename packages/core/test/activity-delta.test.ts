// ACTIVITY_DELTA runs through the store's own patcher: the hazard cases of STATE_DELTA, on an
// activity's content. A failed patch changes nothing (not even the metadata) and says PATCH_FAILED.
import type { ActivityMessage, BaseEvent, Event } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { AgentStoreError } from '../src'
import { defaultLimits } from '../src/limits'
import { blankSnapshot } from '../src/snapshot/copy'
import { reduceEvent } from '../src/snapshot/reduce-event'
import { recordedStore } from './helpers'

const e = (event: Record<string, unknown>) => event as unknown as BaseEvent
const snapshotOf = (content: Record<string, unknown>) => e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'progress', content })
const delta = (...patch: unknown[]) => e({ type: 'ACTIVITY_DELTA', messageId: 'act', activityType: 'progress', patch })
const deltaWith = (extra: Record<string, unknown>, ...patch: unknown[]) =>
  e({ type: 'ACTIVITY_DELTA', messageId: 'act', activityType: 'progress', patch, ...extra })

function activityStore(content: Record<string, unknown>, options: { limits?: Record<string, number> } = {}) {
  const recorded = recordedStore<Record<string, unknown>>({ initialState: {}, ...options })
  recorded.store.apply([e({ type: 'TEXT_MESSAGE_START', messageId: 'm1' }), snapshotOf(content)])
  const activity = () => recorded.store.getState().messages.find((message) => message.id === 'act') as ActivityMessage
  return { ...recorded, activity }
}

const rows = () => ({ title: 'T', rows: [0, 1, 2, 3, 4].map((id) => ({ id, status: 'todo' })), meta: { version: 1 } })

describe('ACTIVITY_DELTA', () => {
  it('makes new objects only along the changed path', () => {
    const { store, activity } = activityStore(rows())
    const before = store.getState()
    const content = activity().content as ReturnType<typeof rows>
    store.apply(delta({ op: 'replace', path: '/rows/3/status', value: 'done' }))
    const next = activity().content as ReturnType<typeof rows>
    expect(next.rows[3]).toEqual({ id: 3, status: 'done' })
    expect(next.meta).toBe(content.meta)
    for (const i of [0, 1, 2, 4]) expect(next.rows[i]).toBe(content.rows[i])
    expect(store.getState().messages[0]).toBe(before.messages[0])
    expect(store.getState().state).toBe(before.state)
    expect(content.rows[3]).toEqual({ id: 3, status: 'todo' })
  })

  it('keeps the snapshot identical for a delta that changes nothing', () => {
    const { store, published } = activityStore(rows())
    const before = store.getState()
    const count = published.length
    store.apply([delta({ op: 'test', path: '/title', value: 'T' }), delta({ op: 'replace', path: '/meta', value: { version: 1 } })])
    expect(store.getState()).toBe(before)
    expect(published).toHaveLength(count)
  })

  it('applies all of a delta or none of it (metadata included), and says which op failed', () => {
    const { store, errors, activity } = activityStore(rows())
    const before = store.getState()
    const content = activity().content
    store.apply(
      deltaWith(
        { metadata: { seen: true } },
        { op: 'replace', path: '/title', value: 'changed' },
        { op: 'add', path: '/rows/0/flag', value: true },
        { op: 'remove', path: '/rows/99' },
      ),
    )
    expect(store.getState().messages).toBe(before.messages)
    expect(activity().content).toBe(content)
    expect(activity()).not.toHaveProperty('metadata')
    const { error } = store.getState()
    expect(error).toBeInstanceOf(AgentStoreError)
    expect(error).toMatchObject({ code: 'PATCH_FAILED', eventType: 'ACTIVITY_DELTA', opIndex: 2, op: 'remove', path: '/rows/99' })
    expect(errors).toEqual([error])
    // The store stays usable.
    store.apply(delta({ op: 'replace', path: '/title', value: 'ok' }))
    expect(activity().content.title).toBe('ok')
  })

  it('a failed test op changes nothing', () => {
    const { store, activity } = activityStore(rows())
    const content = activity().content
    store.apply(delta({ op: 'test', path: '/meta/version', value: 2 }, { op: 'replace', path: '/title', value: 'no' }))
    expect(activity().content).toBe(content)
    expect(store.getState().error).toMatchObject({ code: 'PATCH_FAILED', opIndex: 0, op: 'test' })
  })

  it('refuses prototype writes without polluting Object.prototype', () => {
    const { store, activity } = activityStore({ a: {} })
    for (const op of [
      { op: 'add', path: '/__proto__/polluted', value: 1 },
      { op: 'add', path: '/a/__proto__/polluted', value: 1 },
      { op: 'add', path: '/constructor/prototype/polluted', value: 1 },
      { op: 'copy', from: '/constructor', path: '/a/c' },
      { op: 'move', from: '/a', path: '/prototype' },
    ]) {
      store.apply(delta(op))
      expect(store.getState().error?.code).toBe('PATCH_FAILED')
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(activity().content).toEqual({ a: {} })
  })

  it('keeps the content an object: a patch may not replace it with anything else', () => {
    const { store, activity } = activityStore({ a: 1 })
    store.apply(delta({ op: 'replace', path: '', value: [1, 2] }))
    expect(activity().content).toEqual({ a: 1 })
    expect(store.getState().error).toMatchObject({ code: 'PATCH_FAILED', eventType: 'ACTIVITY_DELTA' })
    store.apply(delta({ op: 'replace', path: '', value: { b: 2 } }))
    expect(activity().content).toEqual({ b: 2 })
  })

  it('caps the ops in one delta and the depth of what it inserts', () => {
    const { store, activity } = activityStore({ n: 0 }, { limits: { maxOpsPerDelta: 3, maxDepth: 8 } })
    store.apply(delta(...Array.from({ length: 4 }, (_, i) => ({ op: 'replace', path: '/n', value: i }))))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxOpsPerDelta' })
    let deep: unknown = 0
    for (let i = 0; i < 100_000; i++) deep = [deep]
    store.apply(delta({ op: 'add', path: '/deep', value: deep }))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    expect(activity().content).toEqual({ n: 0 })
  })

  it('caps the size of the content, also when it grows delta by delta', () => {
    const { store, activity } = activityStore({ items: [] }, { limits: { maxStateBytes: 1_000 } })
    for (let i = 0; i < 20; i++) store.apply(delta({ op: 'add', path: '/items/-', value: 'y'.repeat(90) }))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' })
    expect(JSON.stringify(activity().content).length).toBeLessThanOrEqual(1_000)
    expect((activity().content.items as unknown[]).length).toBeGreaterThan(5)
  })

  it('refuses a delta for an activity that does not exist, or for a message that is not one', () => {
    const { store, errors } = activityStore({})
    const before = store.getState().messages
    store.apply([
      e({ type: 'ACTIVITY_DELTA', messageId: 'ghost', activityType: 'x', patch: [] }),
      e({ type: 'ACTIVITY_DELTA', messageId: 'm1', activityType: 'x', patch: [{ op: 'add', path: '/a', value: 1 }] }),
    ])
    expect(store.getState().messages).toBe(before)
    expect(errors.map((error) => (error as AgentStoreError).code)).toEqual(['INVALID_EVENT', 'INVALID_EVENT'])
  })

  it('ACTIVITY_SNAPSHOT content is checked like state: depth and size', () => {
    const { store } = activityStore({}, { limits: { maxDepth: 4, maxStateBytes: 100 } })
    const before = store.getState().messages
    store.apply(e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'big', activityType: 'x', content: { text: 'z'.repeat(200) } }))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' })
    store.apply(e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'deep', activityType: 'x', content: { a: { b: { c: { d: { e: 1 } } } } } }))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    expect(store.getState().messages).toBe(before)
  })
})

describe('activity content from the wire', () => {
  it('refuses an own __proto__ key as the state does, and pollutes nothing', () => {
    const { store, activity, errors } = activityStore({ ok: true })
    const before = store.getState().messages
    const content = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>
    store.apply([
      e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'progress', content }),
      e({
        type: 'ACTIVITY_DELTA',
        messageId: 'act',
        activityType: 'progress',
        patch: [{ op: 'add', path: '/x', value: JSON.parse('{"__proto__": {"polluted": true}}') }],
      }),
    ])
    expect(store.getState().messages).toBe(before)
    expect(activity().content).toEqual({ ok: true })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(errors.map((error) => (error as AgentStoreError).code)).toEqual(['INVALID_STATE', 'PATCH_FAILED'])
  })
})

describe('reduceEvent with limits (what the store passes it)', () => {
  it('bounds activity content by the limits it is given, and by the defaults without them', () => {
    const blank = blankSnapshot('t', {})
    const withActivity = reduceEvent(blank, snapshotOf({ items: [] }) as Event)
    const limits = { ...defaultLimits, maxOpsPerDelta: 1 }
    const two = delta({ op: 'add', path: '/items/-', value: 1 }, { op: 'add', path: '/items/-', value: 2 }) as Event
    expect(() => reduceEvent(withActivity, two, limits)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', limit: 'maxOpsPerDelta' }))
    const next = reduceEvent(withActivity, two)
    expect((next.messages[0] as ActivityMessage).content).toEqual({ items: [1, 2] })
    expect((withActivity.messages[0] as ActivityMessage).content).toEqual({ items: [] })
    const big = e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'b', activityType: 'x', content: { text: 'z'.repeat(200) } }) as Event
    expect(() => reduceEvent(blank, big, { ...defaultLimits, maxStateBytes: 100 })).toThrow(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' }),
    )
  })
})
