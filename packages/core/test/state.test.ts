// The shared state document through the public API: snapshots and deltas, the exact errors and
// details of a refused state, the size bound at the byte and for every op, the opening empty
// snapshot a run holds from view, and validators (functions and Standard Schema) with their messages.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { AgentStoreError, createAgentStore, type StandardSchemaV1 } from '../src'
import { ev, recordedStore } from './helpers'
import { type Doc, documentCallStreaming, rowsState, storeWithErrors, streaming, withErrors } from './support/scenarios'

const details = (error: AgentStoreError | undefined) =>
  error && { code: error.code, message: error.message, limit: error.limit, path: error.path, opIndex: error.opIndex, op: error.op, reason: error.reason }

// Every character of this string escapes to six bytes in JSON (\u0001): the bound on a string's
// size is exact for it. JSON.stringify(c3) is 20 bytes.
const c3 = '\u0001\u0001\u0001'

describe('STATE_SNAPSHOT', () => {
  it('replaces the state, sharing subtrees equal to the previous ones', () => {
    const { store, published } = recordedStore({ initialState: rowsState() })
    const before = store.getState().state
    const next = rowsState()
    next.rows[2]!.status = 'done'
    store.apply(ev.snapshot(next))
    const after = store.getState().state
    expect(after).toEqual(next)
    expect(after).not.toBe(before)
    expect(after.meta).toBe(before.meta)
    expect(after.rows[1]).toBe(before.rows[1])
    expect(after.rows[2]).not.toBe(before.rows[2])
    expect(store.getState().committed).toBe(after)
    expect(published).toHaveLength(1)
  })

  it('notifies nobody for a snapshot equal to the current state', () => {
    const { store, published } = recordedStore({ initialState: rowsState() })
    const before = store.getState()
    store.apply(ev.snapshot(rowsState()))
    expect(store.getState()).toBe(before)
    expect(published).toHaveLength(0)
  })
})

describe('STATE_DELTA', () => {
  it('makes new objects only along the changed path', () => {
    const { store, published } = recordedStore({ initialState: rowsState() })
    const before = store.getState()
    store.apply(ev.delta({ op: 'replace', path: '/rows/3/status', value: 'done' }))
    const after = store.getState()
    expect(after.state.rows[3]).toEqual({ id: 3, status: 'done' })
    expect(after.state).not.toBe(before.state)
    expect(after.state.rows).not.toBe(before.state.rows)
    expect(after.state.meta).toBe(before.state.meta)
    for (const i of [0, 1, 2, 4]) expect(after.state.rows[i]).toBe(before.state.rows[i])
    expect(after.messages).toBe(before.messages)
    expect(published).toEqual([after])
  })

  it('keeps the snapshot identical for a delta that changes nothing', () => {
    const { store, published } = recordedStore({ initialState: rowsState() })
    const before = store.getState()
    store.apply([ev.delta({ op: 'test', path: '/title', value: 'T' }), ev.delta({ op: 'replace', path: '/meta', value: { version: 1 } })])
    expect(store.getState()).toBe(before)
    expect(published).toHaveLength(0)
  })

  it('applies all of a delta or none of it, and says which op failed', () => {
    const { store, published, errors } = recordedStore({ initialState: rowsState() })
    const before = store.getState()
    store.apply(
      ev.delta({ op: 'replace', path: '/title', value: 'changed' }, { op: 'add', path: '/rows/0/flag', value: true }, { op: 'remove', path: '/rows/99' }),
    )
    const after = store.getState()
    expect(after.state).toBe(before.state)
    expect(after.committed).toBe(before.committed)
    expect(after.state.title).toBe('T')
    expect(after.error).toBeInstanceOf(AgentStoreError)
    expect(after.error).toMatchObject({ code: 'PATCH_FAILED', opIndex: 2, op: 'remove', path: '/rows/99' })
    expect(after.error!.message).not.toContain('todo')
    expect(errors).toEqual([after.error])
    expect(published).toHaveLength(1)
    // The store stays usable.
    store.apply(ev.delta({ op: 'replace', path: '/title', value: 'ok' }))
    expect(store.getState().state.title).toBe('ok')
  })

  it('refuses prototype writes without polluting Object.prototype', () => {
    const { store } = recordedStore({ initialState: { a: {} as Record<string, unknown> } })
    store.apply(ev.delta({ op: 'add', path: '/__proto__/polluted', value: 1 }))
    store.apply(ev.delta({ op: 'copy', from: '/constructor', path: '/a/c' }))
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(store.getState().state).toEqual({ a: {} })
    expect(store.getState().error?.code).toBe('PATCH_FAILED')
  })
})

describe('the limits of the state', () => {
  it('caps the ops in one delta', () => {
    const { store } = recordedStore({ initialState: { n: 0 }, limits: { maxOpsPerDelta: 3 } })
    const ops = Array.from({ length: 4 }, (_, i) => ({ op: 'replace', path: '/n', value: i }))
    store.apply(ev.delta(...ops))
    expect(store.getState().state.n).toBe(0)
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxOpsPerDelta' })
  })

  it('caps the depth of snapshots and of delta values, without overflowing the stack', () => {
    const { store } = recordedStore({ initialState: { a: 1 }, limits: { maxDepth: 8 } })
    let deep: unknown = 0
    for (let i = 0; i < 100_000; i++) deep = [deep]
    store.apply(ev.snapshot({ deep }))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    store.apply(ev.delta({ op: 'add', path: '/deep', value: deep }))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    expect(store.getState().state).toEqual({ a: 1 })
  })

  it('caps the size of the state, also when it grows delta by delta', () => {
    const { store } = recordedStore({ initialState: { items: [] as string[] }, limits: { maxStateBytes: 1_000 } })
    store.apply(ev.snapshot({ items: ['x'.repeat(2_000)] }))
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' })
    for (let i = 0; i < 20; i++) store.apply(ev.delta({ op: 'add', path: '/items/-', value: 'y'.repeat(90) }))
    const { state, error } = store.getState()
    expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxStateBytes' })
    expect(JSON.stringify(state).length).toBeLessThanOrEqual(1_000)
    expect(state.items.length).toBeGreaterThan(5)
  })

  it('keeps replacing a large value within the limit (sizes are not double counted)', () => {
    const { store } = recordedStore({ initialState: { document: '' }, limits: { maxStateBytes: 10_000 } })
    for (let i = 1; i <= 200; i++) store.apply(ev.delta({ op: 'replace', path: '/document', value: 'z'.repeat(i * 40) }))
    expect(store.getState().error).toBeUndefined()
    expect(store.getState().state.document).toHaveLength(8_000)
  })
})

describe('the validator on snapshots and deltas', () => {
  const isDoc = (value: unknown) => {
    if (typeof (value as { document?: unknown }).document !== 'string') throw new Error('document must be a string')
    return value as { document: string }
  }

  it('rejects a snapshot or delta whose result fails a validator function', () => {
    const { store } = recordedStore({ initialState: { document: 'a' }, validate: isDoc })
    store.apply(ev.snapshot({ document: 1 }))
    expect(store.getState().error).toMatchObject({ code: 'VALIDATION' })
    store.apply(ev.delta({ op: 'remove', path: '/document' }))
    expect(store.getState().state).toEqual({ document: 'a' })
    store.apply(ev.delta({ op: 'replace', path: '/document', value: 'b' }))
    expect(store.getState().state).toEqual({ document: 'b' })
  })

  it('accepts a Standard Schema', () => {
    const schema = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: (value: unknown) =>
          typeof (value as { n?: unknown }).n === 'number' ? { value: value as { n: number } } : { issues: [{ message: 'Expected number', path: ['n'] }] },
      },
    }
    const { store } = recordedStore<{ n: number }>({ initialState: { n: 1 }, validate: schema })
    store.apply(ev.snapshot({ n: 'x' }))
    expect(store.getState().error).toMatchObject({ code: 'VALIDATION' })
    expect(store.getState().error!.message).toContain('at n: Expected number')
    store.setState({ n: 2 })
    expect(store.getState().state.n).toBe(2)
  })
})

describe('the size bound of a STATE_DELTA, at the byte', () => {
  // {} plus "k":<20 bytes> is 26 bytes.
  const added = (maxStateBytes: number) => {
    const created = storeWithErrors({}, { limits: { maxStateBytes } })
    created.store.apply(ev.delta({ op: 'add', path: '/k', value: c3 }))
    return created
  }

  it('a state of exactly maxStateBytes is accepted', () => {
    const { store: s, errors } = added(26)
    expect(s.getState().state).toStrictEqual({ k: c3 })
    expect(errors).toStrictEqual([])
  })

  it('one byte more is refused, the state unchanged', () => {
    const { store: s, errors } = added(25)
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map(details)).toStrictEqual([
      {
        code: 'LIMIT_EXCEEDED',
        message: 'STATE_DELTA: the state would exceed maxStateBytes (25)',
        limit: 'maxStateBytes',
        path: undefined,
        opIndex: undefined,
        op: undefined,
        reason: undefined,
      },
    ])
  })

  it('a replace counts its value too', () => {
    const { store: s, errors } = storeWithErrors({ k: '' }, { limits: { maxStateBytes: 25 } })
    s.apply(ev.delta({ op: 'replace', path: '/k', value: c3 }))
    expect(s.getState().state).toStrictEqual({ k: '' })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
  })

  it('a copy counts what it copies', () => {
    // {"a":<20>} is 26 bytes; a copy to /b makes it 51.
    const { store: s, errors } = storeWithErrors({ a: c3 }, { limits: { maxStateBytes: 50 } })
    s.apply(ev.delta({ op: 'copy', from: '/a', path: '/b' }))
    expect(s.getState().state).toStrictEqual({ a: c3 })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
    const fits = storeWithErrors({ a: c3 }, { limits: { maxStateBytes: 51 } })
    fits.store.apply(ev.delta({ op: 'copy', from: '/a', path: '/b' }))
    expect(fits.store.getState().state).toStrictEqual({ a: c3, b: c3 })
  })

  it('a move counts the longer key it moves to', () => {
    // {"a":<20>} is 26 bytes; under "longkeyname" it is 36.
    const { store: s, errors } = storeWithErrors({ a: c3 }, { limits: { maxStateBytes: 35 } })
    s.apply(ev.delta({ op: 'move', from: '/a', path: '/longkeyname' }))
    expect(s.getState().state).toStrictEqual({ a: c3 })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
    const fits = storeWithErrors({ a: c3 }, { limits: { maxStateBytes: 36 } })
    fits.store.apply(ev.delta({ op: 'move', from: '/a', path: '/longkeyname' }))
    expect(fits.store.getState().state).toStrictEqual({ longkeyname: c3 })
  })

  it('the size of each accepted state is carried to the next delta', () => {
    // 26 bytes after the first delta, 51 after the second: the second is refused at 50.
    const { store: s, errors } = storeWithErrors({}, { limits: { maxStateBytes: 50 } })
    s.apply(ev.delta({ op: 'add', path: '/a', value: c3 }))
    s.apply(ev.delta({ op: 'add', path: '/b', value: c3 }))
    expect(s.getState().state).toStrictEqual({ a: c3 })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
  })

  it('the size of a state accepted from a snapshot is carried too', () => {
    const { store: s, errors } = storeWithErrors({}, { limits: { maxStateBytes: 50 } })
    s.apply(ev.snapshot({ a: c3 }))
    s.apply(ev.delta({ op: 'add', path: '/b', value: c3 }))
    expect(s.getState().state).toStrictEqual({ a: c3 })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
  })

  it('an object value is counted at its size', () => {
    // {"k":{"x":<20>}} is 32 bytes.
    const { store: s, errors } = storeWithErrors({}, { limits: { maxStateBytes: 31 } })
    s.apply(ev.delta({ op: 'add', path: '/k', value: { x: c3 } }))
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
    const fits = storeWithErrors({}, { limits: { maxStateBytes: 32 } })
    fits.store.apply(ev.delta({ op: 'add', path: '/k', value: { x: c3 } }))
    expect(fits.store.getState().state).toStrictEqual({ k: { x: c3 } })
  })

  it('a delta that changes nothing keeps the state', () => {
    const { store: s } = storeWithErrors({ a: 1 })
    const before = s.getState().state
    s.apply(ev.delta({ op: 'replace', path: '/a', value: 1 }, { op: 'test', path: '/a', value: 1 }))
    expect(s.getState().state).toBe(before)
  })

  it('a remove makes room: the bound does not count it, the exact size does', () => {
    const { store: s, errors } = storeWithErrors({ a: c3 }, { limits: { maxStateBytes: 26 } })
    s.apply(ev.delta({ op: 'remove', path: '/a' }, { op: 'add', path: '/b', value: c3 }))
    expect(s.getState().state).toStrictEqual({ b: c3 })
    expect(errors).toStrictEqual([])
  })
})

describe('maxStateBytes holds for every op', () => {
  const limit = 1000

  const longKey = (i: number) => `k${String(i).padStart(3, '0')}${'x'.repeat(89)}`

  /** Feeds delta after delta; the state's JSON never passes the limit, and the excess is refused with LIMIT_EXCEEDED. */
  function feed(initialState: Doc, deltas: BaseEvent[]) {
    const { store, errors } = withErrors<Doc>({ initialState, limits: { maxStateBytes: limit } })
    let largest = 0
    for (const delta of deltas) {
      store.apply(delta)
      const size = JSON.stringify(store.getState().state).length
      largest = Math.max(largest, size, JSON.stringify(store.getState().committed).length)
    }
    const refused = errors.filter((e) => e.code === 'LIMIT_EXCEEDED')
    return { largest, refused, errors, store }
  }

  const ops = (count: number, make: (i: number) => unknown[]) => Array.from({ length: count }, (_, i) => ev.delta(...make(i)))

  it('add: 100 deltas each adding a 93-character key are refused before the JSON passes 1000 UTF-16 units', () => {
    const { largest, refused, errors, store } = feed(
      {},
      ops(100, (i) => [{ op: 'add', path: `/${longKey(i)}`, value: 1 }]),
    )
    expect(largest).toBeLessThanOrEqual(limit)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.every((e) => e.limit === 'maxStateBytes')).toBe(true)
    expect(errors).toStrictEqual(refused)
    expect(Object.keys(store.getState().state).length).toBeGreaterThan(0)
  })

  it('replace: values with long keys replacing a small one are refused before the JSON passes the limit', () => {
    const { largest, refused } = feed(
      { v: 0 },
      ops(30, (i) => [{ op: 'replace', path: '/v', value: Object.fromEntries(Array.from({ length: i + 1 }, (_, j) => [longKey(j), j])) }]),
    )
    expect(largest).toBeLessThanOrEqual(limit)
    expect(refused.length).toBeGreaterThan(0)
  })

  it('copy: copying a value under ever more long keys is refused before the JSON passes the limit', () => {
    const { largest, refused } = feed(
      { src: 'x' },
      ops(100, (i) => [{ op: 'copy', from: '/src', path: `/${longKey(i)}` }]),
    )
    expect(largest).toBeLessThanOrEqual(limit)
    expect(refused.length).toBeGreaterThan(0)
  })

  it('move: moving a small value to ever more long keys is refused before the JSON passes the limit', () => {
    const { largest, refused } = feed(
      {},
      ops(100, (i) => [
        { op: 'add', path: '/t', value: 1 },
        { op: 'move', from: '/t', path: `/${longKey(i)}` },
      ]),
    )
    expect(largest).toBeLessThanOrEqual(limit)
    expect(refused.length).toBeGreaterThan(0)
  })

  it('keys and values with characters JSON escapes are counted as their escaped JSON', () => {
    const control = (i: number) => `${String(i).padStart(3, '0')}${'\u0001'.repeat(14)}`
    const quoted = (i: number) => `${String(i).padStart(3, '0')}${'"\\'.repeat(20)}`
    for (const deltas of [
      ops(100, (i) => [{ op: 'add', path: `/${control(i)}`, value: 1 }]),
      ops(100, (i) => [{ op: 'add', path: `/${quoted(i).replace(/~/g, '~0').replace(/\//g, '~1')}`, value: 1 }]),
      ops(100, (i) => [{ op: 'add', path: `/v${i}`, value: '"'.repeat(40) }]),
      ops(100, (i) => [{ op: 'add', path: `/v${i}`, value: '\n\u0002'.repeat(10) }]),
    ]) {
      const { largest, refused } = feed({}, deltas)
      expect(largest).toBeLessThanOrEqual(limit)
      expect(refused.length).toBeGreaterThan(0)
    }
  })

  it('STATE_SNAPSHOT and setState with escaped keys are measured exactly too', () => {
    const { store, errors } = withErrors<Doc>({ initialState: {}, limits: { maxStateBytes: limit } })
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}${'\u0001'.repeat(10)}`, 1]))
    expect(JSON.stringify(big).length).toBeGreaterThan(limit)
    store.apply(ev.snapshot(big))
    store.setState(big)
    expect(store.getState().state).toStrictEqual({})
    expect(errors.map((e) => [e.code, e.limit])).toStrictEqual([
      ['LIMIT_EXCEEDED', 'maxStateBytes'],
      ['LIMIT_EXCEEDED', 'maxStateBytes'],
    ])
  })

  it('a draft from tool arguments never makes the state’s JSON pass the limit', () => {
    const { store, errors } = withErrors<Doc>({ initialState: { big: 'x'.repeat(800) }, limits: { maxStateBytes: limit } })
    store.apply([ev.runStarted('r1'), ...documentCallStreaming('{"document":"')])
    for (let i = 0; i < 30; i++) {
      store.apply(ev.toolArgs('w1', 'y'.repeat(20)))
      expect(JSON.stringify(store.getState().state).length).toBeLessThanOrEqual(limit)
    }
    expect(errors.some((e) => e.code === 'LIMIT_EXCEEDED' && e.limit === 'maxStateBytes')).toBe(true)
  })
})

describe('a refused STATE_DELTA', () => {
  it('names the op that failed, with its details', () => {
    const { store: s, errors } = storeWithErrors({ a: 1 })
    s.apply(ev.delta({ op: 'add', path: '/b', value: 2 }, { op: 'remove', path: '/missing' }))
    expect(s.getState().state).toStrictEqual({ a: 1 })
    expect(errors.map(details)).toStrictEqual([
      {
        code: 'PATCH_FAILED',
        message: 'STATE_DELTA op 1 (remove /missing) failed: path not found',
        limit: undefined,
        path: '/missing',
        opIndex: 1,
        op: 'remove',
        reason: undefined,
      },
    ])
  })

  it('names the limit an op passed', () => {
    const { store: s, errors } = storeWithErrors({}, { limits: { maxDepth: 3 } })
    s.apply(ev.delta({ op: 'add', path: '/a', value: { b: { c: { d: 1 } } } }))
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map(details)).toStrictEqual([
      {
        code: 'LIMIT_EXCEEDED',
        message: 'STATE_DELTA op 0 (add /a): value would be deeper than 3',
        limit: 'maxDepth',
        path: '/a',
        opIndex: 0,
        op: 'add',
        reason: undefined,
      },
    ])
  })

  it('too many ops name maxOpsPerDelta', () => {
    const { store: s, errors } = storeWithErrors({}, { limits: { maxOpsPerDelta: 1 } })
    s.apply(ev.delta({ op: 'add', path: '/a', value: 1 }, { op: 'add', path: '/b', value: 2 }))
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map((e) => [e.code, e.limit, e.opIndex])).toStrictEqual([['LIMIT_EXCEEDED', 'maxOpsPerDelta', 1]])
  })
})

describe('a refused STATE_SNAPSHOT', () => {
  it('deeper than maxDepth', () => {
    const { store: s, errors } = storeWithErrors({}, { limits: { maxDepth: 2 } })
    s.apply(ev.snapshot({ a: { b: { c: 1 } } }))
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map((e) => [e.code, e.limit, e.message.startsWith('STATE_SNAPSHOT: '), typeof e.path])).toStrictEqual([
      ['LIMIT_EXCEEDED', 'maxDepth', true, 'string'],
    ])
  })

  it('larger than maxStateBytes, by one byte', () => {
    const { store: s, errors } = storeWithErrors({}, { limits: { maxStateBytes: 25 } })
    s.apply(ev.snapshot({ k: c3 }))
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map((e) => [e.code, e.limit, e.message.startsWith('STATE_SNAPSHOT: ')])).toStrictEqual([['LIMIT_EXCEEDED', 'maxStateBytes', true]])
    const fits = storeWithErrors({}, { limits: { maxStateBytes: 26 } })
    fits.store.apply(ev.snapshot({ k: c3 }))
    expect(fits.store.getState().state).toStrictEqual({ k: c3 })
  })

  it('an initial state that is not JSON is refused with INVALID_STATE and where', () => {
    let thrown: AgentStoreError | undefined
    try {
      createAgentStore({ initialState: { a: { f: () => 1 } } as never })
    } catch (error) {
      thrown = error as AgentStoreError
    }
    expect([thrown?.code, thrown?.limit, thrown?.message.startsWith('initialState: '), thrown?.path]).toStrictEqual(['INVALID_STATE', undefined, true, '/a/f'])
  })

  it('keeps the identity of every subtree that did not change', () => {
    const { store: s } = storeWithErrors({ a: { x: 1 }, b: { y: 2 } })
    const before = s.getState().state
    s.apply(ev.snapshot({ a: { x: 1 }, b: { y: 3 } }))
    expect(s.getState().state.a).toBe(before.a)
    expect(s.getState().state).toStrictEqual({ a: { x: 1 }, b: { y: 3 } })
  })
})

describe('states that are not objects, and the default limits', () => {
  it('a STATE_SNAPSHOT of a string, a number or null is the state, with no error', () => {
    for (const value of ['just text', 42, null, true]) {
      const { store: created, errors } = storeWithErrors({})
      created.apply(ev.snapshot(value))
      expect(created.getState().state).toBe(value)
      expect(created.getState().committed).toBe(value)
      expect(errors).toStrictEqual([])
    }
  })

  it('a delta that replaces the whole state with a primitive is applied, and the next delta too', () => {
    const { store: created, errors } = storeWithErrors({ a: 1 })
    created.apply(ev.delta({ op: 'replace', path: '', value: 'whole' }))
    expect(created.getState().state).toBe('whole')
    created.apply(ev.delta({ op: 'replace', path: '', value: { b: 2 } }))
    expect(created.getState().state).toStrictEqual({ b: 2 })
    expect(errors).toStrictEqual([])
  })

  it('without limits given, a state of 513 containers nested is refused (maxDepth 512) and one of 512 is taken', () => {
    const nested = (levels: number) => {
      let value: unknown = 0
      for (let i = 1; i < levels; i++) value = [value]
      return value
    }
    const { store: created, errors } = storeWithErrors({})
    // The object and the arrays around the innermost 0: `nested(n)` holds n - 1 arrays.
    created.apply(ev.snapshot({ deep: nested(513) }))
    expect(errors.map((e) => [e.code, e.limit])).toStrictEqual([['LIMIT_EXCEEDED', 'maxDepth']])
    created.apply(ev.snapshot({ deep: nested(512) }))
    expect(errors).toHaveLength(1)
    expect(created.getState().state).toStrictEqual({ deep: nested(512) })
  })
})

describe('validators', () => {
  const schema = (validate: (value: unknown) => unknown): StandardSchemaV1<Doc> =>
    ({ '~standard': { version: 1, vendor: 'test', validate } }) as unknown as StandardSchemaV1<Doc>

  it('a function validator is a check: its return value is not the state', () => {
    let calls = 0
    const { store: s } = storeWithErrors(
      { n: 0 },
      {
        validate: (value: unknown) => {
          calls++
          return { ...(value as Doc), copied: true }
        },
      },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(s.getState().state).toStrictEqual({ n: 1 })
    expect(calls).toBe(2)
  })

  it('an Error thrown by the validator is wrapped, its message kept and its cause', () => {
    const cause = new Error('n must be small')
    const { store: s, errors } = storeWithErrors(
      { n: 0 },
      {
        validate: (value: unknown) => {
          if ((value as Doc).n !== 0) throw cause
          return value
        },
      },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(s.getState().state).toStrictEqual({ n: 0 })
    expect(errors.map((e) => [e.code, e.message, e.cause])).toStrictEqual([['VALIDATION', 'State rejected by the validator: n must be small', cause]])
  })

  it('anything else thrown is turned into a string', () => {
    const { errors, store: s } = storeWithErrors(
      { n: 0 },
      {
        validate: (value: unknown) => {
          if ((value as Doc).n !== 0) throw 'not zero'
          return value
        },
      },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(errors.map((e) => [e.code, e.message, e.cause])).toStrictEqual([['VALIDATION', 'State rejected by the validator: not zero', 'not zero']])
  })

  it('an AgentStoreError thrown by the validator passes as it is', () => {
    const { errors, store: s } = storeWithErrors(
      { n: 0 },
      {
        validate: (value: unknown) => {
          if ((value as Doc).n !== 0) throw new AgentStoreError('INVALID_STATE', 'mine')
          return value
        },
      },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(errors.map((e) => [e.code, e.message])).toStrictEqual([['INVALID_STATE', 'mine']])
  })

  it('a Standard Schema: the first issue, its path joined with dots, keys of path segments read', () => {
    const { errors, store: s } = storeWithErrors(
      { n: 0 },
      {
        validate: schema((value) =>
          (value as Doc).n === 0
            ? { value }
            : {
                issues: [
                  { message: 'too big', path: ['a', { key: 'b' }, 3, { key: 4 }] },
                  { message: 'second', path: ['z'] },
                ],
              },
        ),
      },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(s.getState().state).toStrictEqual({ n: 0 })
    expect(errors.map((e) => [e.code, e.message])).toStrictEqual([['VALIDATION', 'State rejected by the schema at a.b.3.4: too big']])
  })

  it('a Standard Schema issue without a path, or with an empty one, says no place', () => {
    const messages: string[] = []
    for (const issue of [{ message: 'bad' }, { message: 'bad', path: [] }]) {
      const { errors, store: s } = storeWithErrors({ n: 0 }, { validate: schema((value) => ((value as Doc).n === 0 ? { value } : { issues: [issue] })) })
      s.apply(ev.snapshot({ n: 1 }))
      messages.push(...errors.map((e) => e.message))
    }
    expect(messages).toStrictEqual(['State rejected by the schema: bad', 'State rejected by the schema: bad'])
  })

  it('a Standard Schema with no issue listed says invalid', () => {
    const { errors, store: s } = storeWithErrors({ n: 0 }, { validate: schema((value) => ((value as Doc).n === 0 ? { value } : { issues: [] })) })
    s.apply(ev.snapshot({ n: 1 }))
    expect(errors.map((e) => [e.code, e.message])).toStrictEqual([['VALIDATION', 'State rejected by the schema: invalid']])
  })

  it('a path segment that is null or an object without a key is written as it is', () => {
    const { errors, store: s } = storeWithErrors(
      { n: 0 },
      { validate: schema((value) => ((value as Doc).n === 0 ? { value } : { issues: [{ message: 'm', path: [null, 'x'] }] })) },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(errors.map((e) => e.message)).toStrictEqual(['State rejected by the schema at null.x: m'])
  })

  it('an asynchronous Standard Schema is refused at the first check', () => {
    let thrown: AgentStoreError | undefined
    try {
      createAgentStore({ initialState: {}, validate: schema(async (value) => ({ value })) })
    } catch (error) {
      thrown = error as AgentStoreError
    }
    expect([thrown?.code, thrown?.message]).toStrictEqual(['VALIDATION', 'State validators must be synchronous'])
  })

  it('a Standard Schema that passes leaves the state as given', () => {
    const { errors, store: s } = storeWithErrors({ n: 0 }, { validate: schema((value) => ({ value: { ...(value as Doc), copied: true } })) })
    s.apply(ev.snapshot({ n: 1 }))
    expect(s.getState().state).toStrictEqual({ n: 1 })
    expect(errors).toStrictEqual([])
  })

  it('an async Standard Schema validator is refused (VALIDATION), never treated as accepting everything', () => {
    const asyncSchema = { '~standard': { version: 1 as const, vendor: 'test', validate: async (value: unknown) => ({ value }) } }
    let store: ReturnType<typeof createAgentStore<Doc>> | undefined
    let thrown: unknown
    try {
      store = createAgentStore<Doc>({ initialState: { n: 1 }, validate: asyncSchema })
    } catch (error) {
      thrown = error
    }
    if (store) {
      store.setState({ n: 2 })
      expect(store.getState().state).toStrictEqual({ n: 1 })
      thrown = store.getState().error
    }
    expect(thrown).toBeInstanceOf(AgentStoreError)
    expect(thrown).toMatchObject({ code: 'VALIDATION' })
  })

  it('reset(state) runs the validator: a refused state is not installed', () => {
    const validate = (value: unknown) => {
      if ((value as { n: number }).n < 0) throw new Error('negative')
      return value as { n: number }
    }
    const store = createAgentStore({ initialState: { n: 1 }, validate })
    let thrown: unknown
    try {
      store.reset({ n: -1 })
    } catch (error) {
      thrown = error
    }
    expect(store.getState().state).toStrictEqual({ n: 1 })
    expect(thrown ?? store.getState().error).toMatchObject({ code: 'VALIDATION' })
    store.reset({ n: 3 })
    expect(store.getState().state).toStrictEqual({ n: 3 })
  })
})

describe("a run's opening empty snapshot", () => {
  it('is held from view until the next state event', () => {
    const { store: s } = storeWithErrors({ doc: 'x' })
    s.apply([ev.runStarted(), ev.snapshot({})])
    expect(s.getState().state).toStrictEqual({ doc: 'x' })
    s.apply(ev.delta({ op: 'add', path: '/a', value: 1 }))
    expect(s.getState().state).toStrictEqual({ a: 1 })
  })

  it('shows when it is not the first state event, or the state was empty already', () => {
    const later = storeWithErrors({ doc: 'x' }).store
    later.apply([ev.runStarted(), ev.delta({ op: 'add', path: '/a', value: 1 }), ev.snapshot({})])
    expect(later.getState().state).toStrictEqual({})
    const empty = storeWithErrors({}).store
    empty.apply([ev.runStarted(), ev.snapshot({})])
    expect(empty.getState().state).toStrictEqual({})
  })

  it('a held snapshot followed by the same value shows it', () => {
    const { store: s } = storeWithErrors({ doc: 'x' })
    s.apply([ev.runStarted(), ev.snapshot({}), ev.snapshot({})])
    expect(s.getState().state).toStrictEqual({})
  })

  it('is held over a user edit made in the run too: the edit stays shown, and nothing is reported', () => {
    const { store: s, errors } = storeWithErrors({ doc: 'x', n: 0 })
    s.apply(ev.runStarted())
    s.setState((v) => ({ ...v, n: 1 }))
    s.apply(ev.snapshot({}))
    expect(s.getState().state).toStrictEqual({ doc: 'x', n: 1 })
    expect(errors).toStrictEqual([])
    expect(s.getState().error).toBeUndefined()
  })

  it('a delta that empties the state is shown at once, and a held snapshot shows at the run end', () => {
    const delta = storeWithErrors({ doc: 'x' }).store
    delta.apply([ev.runStarted(), ev.delta({ op: 'remove', path: '/doc' })])
    expect(delta.getState().state).toStrictEqual({})
    const held = storeWithErrors({ doc: 'x' }).store
    held.apply([ev.runStarted(), ev.snapshot({})])
    expect(held.getState().state).toStrictEqual({ doc: 'x' })
    held.apply(ev.runFinished())
    expect(held.getState().state).toStrictEqual({})
    expect(held.getState().committed).toStrictEqual({})
  })

  it('LangGraph’s opening STATE_SNAPSHOT({}) does not blank what the user sees while the run goes on; the next snapshot shows', async () => {
    const { agent, store, running } = await streaming<Doc>({ document: 'keep', n: 1 })
    agent.push(ev.snapshot({}))
    expect(store.getState().state).toStrictEqual({ document: 'keep', n: 1 })
    agent.push(ev.snapshot({ document: 'keep', n: 2 }))
    expect(store.getState().state).toStrictEqual({ document: 'keep', n: 2 })
    agent.finish()
    await running
    expect(store.getState().committed).toStrictEqual({ document: 'keep', n: 2 })
  })
})
