import { describe, expect, it } from 'vitest'
import { AgentStoreError, createAgentStore, type StandardSchemaV1 } from '../../src'
import { ev } from '../helpers'

// State snapshots and deltas pinned through the public API: the exact errors and details of a
// refused state, the size bound of a delta at the byte, and validators (functions and Standard
// Schema) with their messages.

type S = Record<string, unknown>
type Limits = { maxStateBytes?: number; maxDepth?: number; maxOpsPerDelta?: number }

function store(initialState: unknown, options: { limits?: Limits; validate?: unknown } = {}) {
  const errors: AgentStoreError[] = []
  const created = createAgentStore<S>({ initialState: initialState as S, onError: (e) => errors.push(e), ...(options as object) })
  return { store: created, errors }
}

const details = (error: AgentStoreError | undefined) =>
  error && { code: error.code, message: error.message, limit: error.limit, path: error.path, opIndex: error.opIndex, op: error.op, reason: error.reason }

// Every character of this string escapes to six bytes in JSON (\u0001): the bound on a string's
// size is exact for it. JSON.stringify(c3) is 20 bytes.
const c3 = '\u0001\u0001\u0001'

describe('the size bound of a STATE_DELTA, at the byte', () => {
  // {} plus "k":<20 bytes> is 26 bytes.
  const added = (maxStateBytes: number) => {
    const created = store({}, { limits: { maxStateBytes } })
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
    const { store: s, errors } = store({ k: '' }, { limits: { maxStateBytes: 25 } })
    s.apply(ev.delta({ op: 'replace', path: '/k', value: c3 }))
    expect(s.getState().state).toStrictEqual({ k: '' })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
  })

  it('a copy counts what it copies', () => {
    // {"a":<20>} is 26 bytes; a copy to /b makes it 51.
    const { store: s, errors } = store({ a: c3 }, { limits: { maxStateBytes: 50 } })
    s.apply(ev.delta({ op: 'copy', from: '/a', path: '/b' }))
    expect(s.getState().state).toStrictEqual({ a: c3 })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
    const fits = store({ a: c3 }, { limits: { maxStateBytes: 51 } })
    fits.store.apply(ev.delta({ op: 'copy', from: '/a', path: '/b' }))
    expect(fits.store.getState().state).toStrictEqual({ a: c3, b: c3 })
  })

  it('a move counts the longer key it moves to', () => {
    // {"a":<20>} is 26 bytes; under "longkeyname" it is 36.
    const { store: s, errors } = store({ a: c3 }, { limits: { maxStateBytes: 35 } })
    s.apply(ev.delta({ op: 'move', from: '/a', path: '/longkeyname' }))
    expect(s.getState().state).toStrictEqual({ a: c3 })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
    const fits = store({ a: c3 }, { limits: { maxStateBytes: 36 } })
    fits.store.apply(ev.delta({ op: 'move', from: '/a', path: '/longkeyname' }))
    expect(fits.store.getState().state).toStrictEqual({ longkeyname: c3 })
  })

  it('the size of each accepted state is carried to the next delta', () => {
    // 26 bytes after the first delta, 51 after the second: the second is refused at 50.
    const { store: s, errors } = store({}, { limits: { maxStateBytes: 50 } })
    s.apply(ev.delta({ op: 'add', path: '/a', value: c3 }))
    s.apply(ev.delta({ op: 'add', path: '/b', value: c3 }))
    expect(s.getState().state).toStrictEqual({ a: c3 })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
  })

  it('the size of a state accepted from a snapshot is carried too', () => {
    const { store: s, errors } = store({}, { limits: { maxStateBytes: 50 } })
    s.apply(ev.snapshot({ a: c3 }))
    s.apply(ev.delta({ op: 'add', path: '/b', value: c3 }))
    expect(s.getState().state).toStrictEqual({ a: c3 })
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
  })

  it('an object value is counted at its size', () => {
    // {"k":{"x":<20>}} is 32 bytes.
    const { store: s, errors } = store({}, { limits: { maxStateBytes: 31 } })
    s.apply(ev.delta({ op: 'add', path: '/k', value: { x: c3 } }))
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map((e) => e.limit)).toStrictEqual(['maxStateBytes'])
    const fits = store({}, { limits: { maxStateBytes: 32 } })
    fits.store.apply(ev.delta({ op: 'add', path: '/k', value: { x: c3 } }))
    expect(fits.store.getState().state).toStrictEqual({ k: { x: c3 } })
  })

  it('a delta that changes nothing keeps the state', () => {
    const { store: s } = store({ a: 1 })
    const before = s.getState().state
    s.apply(ev.delta({ op: 'replace', path: '/a', value: 1 }, { op: 'test', path: '/a', value: 1 }))
    expect(s.getState().state).toBe(before)
  })

  it('a remove makes room: the bound does not count it, the exact size does', () => {
    const { store: s, errors } = store({ a: c3 }, { limits: { maxStateBytes: 26 } })
    s.apply(ev.delta({ op: 'remove', path: '/a' }, { op: 'add', path: '/b', value: c3 }))
    expect(s.getState().state).toStrictEqual({ b: c3 })
    expect(errors).toStrictEqual([])
  })
})

describe('a refused STATE_DELTA', () => {
  it('names the op that failed, with its details', () => {
    const { store: s, errors } = store({ a: 1 })
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
    const { store: s, errors } = store({}, { limits: { maxDepth: 3 } })
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
    const { store: s, errors } = store({}, { limits: { maxOpsPerDelta: 1 } })
    s.apply(ev.delta({ op: 'add', path: '/a', value: 1 }, { op: 'add', path: '/b', value: 2 }))
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map((e) => [e.code, e.limit, e.opIndex])).toStrictEqual([['LIMIT_EXCEEDED', 'maxOpsPerDelta', 1]])
  })
})

describe('a refused STATE_SNAPSHOT', () => {
  it('deeper than maxDepth', () => {
    const { store: s, errors } = store({}, { limits: { maxDepth: 2 } })
    s.apply(ev.snapshot({ a: { b: { c: 1 } } }))
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map((e) => [e.code, e.limit, e.message.startsWith('STATE_SNAPSHOT: '), typeof e.path])).toStrictEqual([
      ['LIMIT_EXCEEDED', 'maxDepth', true, 'string'],
    ])
  })

  it('larger than maxStateBytes, by one byte', () => {
    const { store: s, errors } = store({}, { limits: { maxStateBytes: 25 } })
    s.apply(ev.snapshot({ k: c3 }))
    expect(s.getState().state).toStrictEqual({})
    expect(errors.map((e) => [e.code, e.limit, e.message.startsWith('STATE_SNAPSHOT: ')])).toStrictEqual([['LIMIT_EXCEEDED', 'maxStateBytes', true]])
    const fits = store({}, { limits: { maxStateBytes: 26 } })
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
    const { store: s } = store({ a: { x: 1 }, b: { y: 2 } })
    const before = s.getState().state
    s.apply(ev.snapshot({ a: { x: 1 }, b: { y: 3 } }))
    expect(s.getState().state.a).toBe(before.a)
    expect(s.getState().state).toStrictEqual({ a: { x: 1 }, b: { y: 3 } })
  })
})

describe('validators', () => {
  it('a function validator is a check: its return value is not the state', () => {
    let calls = 0
    const { store: s } = store(
      { n: 0 },
      {
        validate: (value: unknown) => {
          calls++
          return { ...(value as S), copied: true }
        },
      },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(s.getState().state).toStrictEqual({ n: 1 })
    expect(calls).toBe(2)
  })

  it('an Error thrown by the validator is wrapped, its message kept and its cause', () => {
    const cause = new Error('n must be small')
    const { store: s, errors } = store(
      { n: 0 },
      {
        validate: (value: unknown) => {
          if ((value as S).n !== 0) throw cause
          return value
        },
      },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(s.getState().state).toStrictEqual({ n: 0 })
    expect(errors.map((e) => [e.code, e.message, e.cause])).toStrictEqual([['VALIDATION', 'State rejected by the validator: n must be small', cause]])
  })

  it('anything else thrown is turned into a string', () => {
    const { errors, store: s } = store(
      { n: 0 },
      {
        validate: (value: unknown) => {
          if ((value as S).n !== 0) throw 'not zero'
          return value
        },
      },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(errors.map((e) => [e.code, e.message, e.cause])).toStrictEqual([['VALIDATION', 'State rejected by the validator: not zero', 'not zero']])
  })

  it('an AgentStoreError thrown by the validator passes as it is', () => {
    const { errors, store: s } = store(
      { n: 0 },
      {
        validate: (value: unknown) => {
          if ((value as S).n !== 0) throw new AgentStoreError('INVALID_STATE', 'mine')
          return value
        },
      },
    )
    s.apply(ev.snapshot({ n: 1 }))
    expect(errors.map((e) => [e.code, e.message])).toStrictEqual([['INVALID_STATE', 'mine']])
  })

  const schema = (validate: (value: unknown) => unknown): StandardSchemaV1<S> =>
    ({ '~standard': { version: 1, vendor: 'test', validate } }) as unknown as StandardSchemaV1<S>

  it('a Standard Schema: the first issue, its path joined with dots, keys of path segments read', () => {
    const { errors, store: s } = store(
      { n: 0 },
      {
        validate: schema((value) =>
          (value as S).n === 0
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
      const { errors, store: s } = store({ n: 0 }, { validate: schema((value) => ((value as S).n === 0 ? { value } : { issues: [issue] })) })
      s.apply(ev.snapshot({ n: 1 }))
      messages.push(...errors.map((e) => e.message))
    }
    expect(messages).toStrictEqual(['State rejected by the schema: bad', 'State rejected by the schema: bad'])
  })

  it('a Standard Schema with no issue listed says invalid', () => {
    const { errors, store: s } = store({ n: 0 }, { validate: schema((value) => ((value as S).n === 0 ? { value } : { issues: [] })) })
    s.apply(ev.snapshot({ n: 1 }))
    expect(errors.map((e) => [e.code, e.message])).toStrictEqual([['VALIDATION', 'State rejected by the schema: invalid']])
  })

  it('a path segment that is null or an object without a key is written as it is', () => {
    const { errors, store: s } = store(
      { n: 0 },
      { validate: schema((value) => ((value as S).n === 0 ? { value } : { issues: [{ message: 'm', path: [null, 'x'] }] })) },
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
    const { errors, store: s } = store({ n: 0 }, { validate: schema((value) => ({ value: { ...(value as S), copied: true } })) })
    s.apply(ev.snapshot({ n: 1 }))
    expect(s.getState().state).toStrictEqual({ n: 1 })
    expect(errors).toStrictEqual([])
  })
})

describe('states that are not objects, and the default limits', () => {
  it('a STATE_SNAPSHOT of a string, a number or null is the state, with no error', () => {
    for (const value of ['just text', 42, null, true]) {
      const { store: created, errors } = store({})
      created.apply(ev.snapshot(value))
      expect(created.getState().state).toBe(value)
      expect(created.getState().committed).toBe(value)
      expect(errors).toStrictEqual([])
    }
  })

  it('a delta that replaces the whole state with a primitive is applied, and the next delta too', () => {
    const { store: created, errors } = store({ a: 1 })
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
    const { store: created, errors } = store({})
    // The object and the arrays around the innermost 0: `nested(n)` holds n - 1 arrays.
    created.apply(ev.snapshot({ deep: nested(513) }))
    expect(errors.map((e) => [e.code, e.limit])).toStrictEqual([['LIMIT_EXCEEDED', 'maxDepth']])
    created.apply(ev.snapshot({ deep: nested(512) }))
    expect(errors).toHaveLength(1)
    expect(created.getState().state).toStrictEqual({ deep: nested(512) })
  })
})
