import jsonpatch, { type Operation } from 'fast-json-patch'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { applyPatch, type PatchResult, parsePointer } from '../src/json/json-patch'
import { deepFreeze, nestedArray } from './json-fixtures'

function valueOf<T>(result: PatchResult<T>): T {
  if (!result.ok) throw new Error(`patch failed at op ${result.opIndex}: ${result.reason}`)
  return result.value
}

/** Applies to a frozen copy, checks the failure and that the input survived. */
function expectFailure(doc: unknown, ops: unknown[], expected: Record<string, unknown> = {}) {
  const before = structuredClone(doc)
  const result = applyPatch(deepFreeze(doc), ops)
  expect(result).toMatchObject({ ok: false, ...expected })
  expect(doc).toEqual(before)
  return result
}

const fjp = (doc: unknown, ops: unknown[], validate = true) => jsonpatch.applyPatch(structuredClone(doc), ops as Operation[], validate, false).newDocument

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort()
const cleanPrototype = prototypeKeys()

afterEach(() => {
  expect(prototypeKeys()).toEqual(cleanPrototype)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

describe('parsePointer', () => {
  it('splits and unescapes, ~1 before ~0', () => {
    expect(parsePointer('')).toEqual([])
    expect(parsePointer('/')).toEqual([''])
    expect(parsePointer('/a/b/')).toEqual(['a', 'b', ''])
    expect(parsePointer('/a~1b/m~0n/~01')).toEqual(['a/b', 'm~n', '~1'])
  })

  it.each(['a', '#/a', 'a/b', '/a~2', '/a~', '/~', '/a~~0', '/~a'])('rejects %j', (pointer) => {
    expect(parsePointer(pointer)).toBeNull()
  })

  it('rejects non-strings at runtime', () => {
    expect(parsePointer(null as unknown as string)).toBeNull()
    expect(parsePointer(1 as unknown as string)).toBeNull()
  })
})

describe('structural sharing', () => {
  const rows = Array.from({ length: 5000 }, (_, id) => ({ id, status: 'open', title: `row ${id}` }))

  it('copies only the ancestors of the changed location', () => {
    const doc = deepFreeze({ meta: { page: 1 }, rows })
    const result = valueOf(applyPatch(doc, [{ op: 'replace', path: '/rows/1234/status', value: 'done' }]))
    expect(result).not.toBe(doc)
    expect(result.rows).not.toBe(doc.rows)
    expect(result.rows[1234]).not.toBe(doc.rows[1234])
    expect(result.rows[1234]).toEqual({ id: 1234, status: 'done', title: 'row 1234' })
    expect(result.meta).toBe(doc.meta)
    expect(result.rows.every((row, i) => i === 1234 || row === doc.rows[i])).toBe(true)
    expect(doc.rows[1234]!.status).toBe('open')
  })

  it('copies each container once per patch, however many ops touch it', () => {
    let rowCopies = 0
    // A proxy counts copies of the row (each spread lists its own keys once).
    const row = new Proxy({ id: 7, status: 'open', title: 'row 7' }, { ownKeys: (target) => (rowCopies++, Reflect.ownKeys(target)) })
    const doc = deepFreeze({ meta: { page: 1 }, rows: [...rows.slice(0, 7), row, ...rows.slice(8)] })
    // Every copy of the rows array, the original or a copy of it, goes through slice().
    rowCopies = 0
    const slice = vi.spyOn(Array.prototype, 'slice')
    let result: typeof doc
    let rowsCopies: number
    try {
      result = valueOf(
        applyPatch(doc, [
          { op: 'replace', path: '/rows/7/status', value: 'done' },
          { op: 'replace', path: '/rows/7/title', value: 'seven' },
          { op: 'add', path: '/rows/7/tag', value: 'x' },
          { op: 'replace', path: '/rows/9/status', value: 'done' },
          { op: 'remove', path: '/rows/4999' },
        ]),
      )
      rowsCopies = slice.mock.contexts.filter((self) => (self as unknown[]).length >= 4999).length
    } finally {
      slice.mockRestore()
    }
    expect({ rowsCopies, rowCopies }).toEqual({ rowsCopies: 1, rowCopies: 1 })
    expect(result.rows[7]).toEqual({ id: 7, status: 'done', title: 'seven', tag: 'x' })
    expect(result.rows[9]).toMatchObject({ status: 'done' })
    expect(result.rows).toHaveLength(4999)
    expect(doc.rows).toHaveLength(5000)
    expect(row.status).toBe('open')
  })

  it('keeps identities on remove, move and copy', () => {
    const doc = deepFreeze({ a: { x: [1] }, b: { y: [2] }, list: [{ n: 0 }, { n: 1 }, { n: 2 }] })
    const removed = valueOf(applyPatch(doc, [{ op: 'remove', path: '/list/0' }]))
    expect(removed.list[0]).toBe(doc.list[1])
    expect(removed.a).toBe(doc.a)

    const moved = valueOf(applyPatch(doc, [{ op: 'move', from: '/a/x', path: '/b/x' }])) as Record<string, any>
    expect(moved).toEqual({ a: {}, b: { y: [2], x: [1] }, list: doc.list })
    expect(moved.b.x).toBe(doc.a.x)
    expect(moved.b.y).toBe(doc.b.y)
    expect(moved.list).toBe(doc.list)

    const copied = valueOf(applyPatch(doc, [{ op: 'copy', from: '/a', path: '/c' }])) as Record<string, any>
    expect(copied.c).toBe(doc.a)
    expect(copied.a).toBe(doc.a)
  })

  it('does not copy a parent for an op that changes nothing', () => {
    const doc = deepFreeze({ a: { b: { c: 1 } }, d: 1 })
    const result = valueOf(
      applyPatch(doc, [
        { op: 'replace', path: '/a/b/c', value: 1 },
        { op: 'replace', path: '/d', value: 2 },
      ]),
    )
    expect(result).toEqual({ a: { b: { c: 1 } }, d: 2 })
    expect(result.a).toBe(doc.a)
  })

  it('inserts op values as they are, and never writes into them', () => {
    const value = { n: 1, inner: { m: 1 } }
    const ops = deepFreeze([
      { op: 'add', path: '/x', value },
      { op: 'add', path: '/y', value },
      { op: 'replace', path: '/x/inner/m', value: 2 },
    ])
    const result = valueOf(applyPatch({}, ops)) as Record<string, any>
    expect(result.y).toBe(value)
    expect(result.x).toEqual({ n: 1, inner: { m: 2 } })
    expect(value.inner.m).toBe(1)
  })
})

describe('aliasing within one patch', () => {
  it('a copy of a subtree this patch already copied is not written through', () => {
    const doc = deepFreeze({ a: { x: 1, y: { z: 1 } } })
    const result = valueOf(
      applyPatch(doc, [
        { op: 'replace', path: '/a/y/z', value: 2 },
        { op: 'copy', from: '/a', path: '/b' },
        { op: 'replace', path: '/a/y/z', value: 3 },
        { op: 'replace', path: '/b/x', value: 4 },
        { op: 'add', path: '/b/y/w', value: 5 },
      ]),
    )
    expect(result).toEqual({ a: { x: 1, y: { z: 3 } }, b: { x: 4, y: { z: 2, w: 5 } } })
  })

  it('copies a value into its own child without a cycle', () => {
    const result = valueOf(applyPatch(deepFreeze({ a: { x: 1 } }), [{ op: 'copy', from: '/a', path: '/a/b' }]))
    expect(result).toEqual({ a: { x: 1, b: { x: 1 } } })
    expect(JSON.parse(JSON.stringify(result))).toEqual(result)
  })

  it('copies the root into a child', () => {
    const doc = deepFreeze({ a: 1 })
    const result = valueOf(applyPatch(doc, [{ op: 'copy', from: '', path: '/self' }])) as Record<string, unknown>
    expect(result).toEqual({ a: 1, self: { a: 1 } })
    expect(result.self).toBe(doc)
  })
})

describe('no-op detection returns the input itself', () => {
  const doc = deepFreeze({ a: { b: [1, { c: 'x' }] }, n: 1, list: [1, 2] })
  it.each([
    ['an empty patch', []],
    [
      'only tests',
      [
        { op: 'test', path: '/a/b/1', value: { c: 'x' } },
        { op: 'test', path: '', value: structuredClone(doc) },
      ],
    ],
    ['replacing with an equal value', [{ op: 'replace', path: '/a', value: { b: [1, { c: 'x' }] } }]],
    ['replacing with an equal number', [{ op: 'replace', path: '/n', value: 1.0 }]],
    ['replacing the root with an equal value', [{ op: 'replace', path: '', value: structuredClone(doc) }]],
    ['adding an equal value onto an existing key', [{ op: 'add', path: '/a/b/1/c', value: 'x' }]],
    ['adding the root with an equal value', [{ op: 'add', path: '', value: structuredClone(doc) }]],
    ['moving a value onto itself', [{ op: 'move', from: '/a/b', path: '/a/b' }]],
    ['copying onto an equal value', [{ op: 'copy', from: '/n', path: '/n' }]],
  ])('%s', (_, ops) => {
    expect(applyPatch(doc, ops)).toEqual({ ok: true, value: doc, changed: false })
    expect(valueOf(applyPatch(doc, ops))).toBe(doc)
  })

  it('reports a change, with a new reference, otherwise', () => {
    const appended = applyPatch(doc, [{ op: 'add', path: '/list/-', value: 2 }])
    expect(appended).toMatchObject({ ok: true, changed: true })
    expect(valueOf(appended)).not.toBe(doc)
    expect(applyPatch(doc, [{ op: 'copy', from: '/list/0', path: '/list/0' }])).toMatchObject({ changed: true })
  })

  it('moving onto itself still requires the value to exist', () => {
    expectFailure(doc, [{ op: 'move', from: '/missing', path: '/missing' }], { reason: 'path not found' })
  })
})

describe('atomicity and error details', () => {
  it('a failing third op leaves the input intact and names the op', () => {
    const doc = { a: { b: 1 }, list: [1, 2, 3] }
    const ops = [
      { op: 'replace', path: '/a/b', value: 2 },
      { op: 'remove', path: '/list/0' },
      { op: 'remove', path: '/a/missing' },
    ]
    const result = expectFailure(doc, ops)
    expect(result).toEqual({ ok: false, opIndex: 2, op: 'remove', path: '/a/missing', reason: 'path not found' })
  })

  it('fast-json-patch, by default, leaves the document half patched', () => {
    const doc: Record<string, unknown> = { a: 1 }
    const ops = [
      { op: 'add', path: '/b', value: 5 },
      { op: 'remove', path: '/zz' },
    ] as const
    expect(() => jsonpatch.applyPatch(doc, ops as unknown as Operation[], true)).toThrow()
    expect(doc).toEqual({ a: 1, b: 5 })
    expect(applyPatch({ a: 1 }, ops)).toMatchObject({ ok: false, opIndex: 1 })
  })

  it('never puts state in the reason', () => {
    const doc = { secret: 'hunter2', list: ['hunter2'] }
    const results = [
      applyPatch(doc, [{ op: 'test', path: '/secret', value: 'guess' }]),
      applyPatch(doc, [{ op: 'test', path: '/list', value: ['guess'] }]),
      applyPatch(doc, [{ op: 'add', path: '/secret/x', value: 1 }]),
    ]
    for (const result of results) {
      expect(result.ok).toBe(false)
      expect(JSON.stringify(result)).not.toContain('hunter2')
    }
    expect(results[0]).toEqual({ ok: false, opIndex: 0, op: 'test', path: '/secret', reason: 'test failed: values differ' })
  })

  it('reports what it can of a malformed op', () => {
    expectFailure({}, [null], { opIndex: 0, op: '', path: '', reason: 'an operation must be an object' })
    expectFailure({}, [[]], { reason: 'an operation must be an object' })
    expectFailure({}, ['add'], { reason: 'an operation must be an object' })
    expectFailure({}, [{ op: 'add', path: 5, value: 1 }], { op: 'add', path: '', reason: "missing 'path'" })
    expect(applyPatch({}, 'nope' as unknown as unknown[])).toMatchObject({ ok: false, reason: 'the patch is not an array' })
  })
})

describe('root operations', () => {
  const doc = deepFreeze({ a: 1 })
  it('replace and add "" swap the whole document', () => {
    expect(valueOf(applyPatch(doc, [{ op: 'replace', path: '', value: [1] }]))).toEqual([1])
    expect(valueOf(applyPatch(doc, [{ op: 'add', path: '', value: 'text' }]))).toBe('text')
    expect(
      valueOf(
        applyPatch(doc, [
          { op: 'add', path: '', value: { b: 1 } },
          { op: 'add', path: '/c', value: 2 },
        ]),
      ),
    ).toEqual({ b: 1, c: 2 })
  })

  it('remove "" fails', () => {
    expectFailure(doc, [{ op: 'remove', path: '' }], { reason: 'cannot remove the whole document' })
  })

  it('test "" compares the whole document', () => {
    expect(applyPatch(doc, [{ op: 'test', path: '', value: { a: 1.0 } }])).toMatchObject({ ok: true, changed: false })
    expectFailure(doc, [{ op: 'test', path: '', value: { a: 2 } }])
  })

  it('a write below a primitive document fails', () => {
    expectFailure('text', [{ op: 'add', path: '/a', value: 1 }], { reason: 'the document is not a container' })
  })
})

describe('hazards fast-json-patch 3.1.1 gets wrong', () => {
  describe('writes through __proto__, constructor and prototype', () => {
    it.each([
      { op: 'add', path: '/__proto__/polluted', value: 1 },
      { op: 'add', path: '/__proto__', value: { polluted: 1 } },
      { op: 'add', path: '/a/__proto__/polluted', value: 1 },
      { op: 'add', path: '/constructor/prototype/polluted', value: 1 },
      { op: 'add', path: '/constructor/polluted', value: 1 },
      { op: 'replace', path: '/constructor', value: 1 },
      { op: 'add', path: '/a/prototype', value: 1 },
      { op: 'remove', path: '/a/constructor' },
      { op: 'copy', from: '/a', path: '/__proto__' },
      { op: 'move', from: '/a', path: '/constructor' },
      { op: 'move', from: '/a/constructor', path: '/b' },
    ])('rejects %j', (op) => {
      // Even where the key is the document's own, a patch may not write it.
      const doc = { a: { constructor: 1, prototype: 2 } }
      expectFailure(doc, [op], { opIndex: 0, reason: expect.stringMatching(/forbidden key/) })
    })

    it('reads an own "constructor" key, never an inherited one', () => {
      const doc = { a: { constructor: 'own' } }
      expect(valueOf(applyPatch(doc, [{ op: 'copy', from: '/a/constructor', path: '/b' }]))).toEqual({ ...doc, b: 'own' })
      expect(applyPatch(doc, [{ op: 'test', path: '/a/constructor', value: 'own' }])).toMatchObject({ ok: true })
    })

    it('fast-json-patch without validation writes onto the global Object constructor', () => {
      try {
        fjp({}, [{ op: 'add', path: '/constructor/polluted', value: 1 }], false)
        expect((Object as unknown as Record<string, unknown>).polluted).toBe(1)
      } finally {
        delete (Object as unknown as Record<string, unknown>).polluted
      }
    })
  })

  describe('from paths that resolve to inherited properties', () => {
    it.each(['/constructor', '/toString', '/a/hasOwnProperty', '/__proto__', '/a/__proto__', '/s/length'])('copy from %s fails', (from) => {
      expectFailure({ a: {}, s: 'abc' }, [{ op: 'copy', from, path: '/c' }], { reason: 'path not found' })
    })

    it.each(['/list/length', '/list/map', '/list/constructor'])('copy from %s fails', (from) => {
      expectFailure({ list: [1] }, [{ op: 'copy', from, path: '/c' }], { reason: 'invalid array index' })
    })

    it('test on an inherited property fails', () => {
      expectFailure({}, [{ op: 'test', path: '/toString', value: {} }], { reason: 'path not found' })
    })

    it('fast-json-patch copies Object itself into the document', () => {
      expect((fjp({}, [{ op: 'copy', from: '/constructor', path: '/c' }]) as Record<string, unknown>).c).toBe(Object)
    })
  })

  describe('move', () => {
    it('into its own child fails (fast-json-patch throws a raw TypeError)', () => {
      const doc = { a: { b: 1 } }
      expectFailure(doc, [{ op: 'move', from: '/a', path: '/a/b' }], { reason: 'cannot move a value into itself' })
      expectFailure(doc, [{ op: 'move', from: '/a', path: '/a/b/c/d' }], { reason: 'cannot move a value into itself' })
      expect(() => fjp(doc, [{ op: 'move', from: '/a', path: '/a/b' }])).toThrow(TypeError)
    })

    it('from the root fails', () => {
      expectFailure({ a: {} }, [{ op: 'move', from: '', path: '/a/b' }], { reason: 'cannot move the document root' })
      expectFailure({ a: {} }, [{ op: 'move', from: '', path: '' }], { reason: 'cannot move the document root' })
    })

    it('to a sibling with a shared prefix is fine', () => {
      expect(valueOf(applyPatch({ a: 1 }, [{ op: 'move', from: '/a', path: '/ab' }]))).toEqual({ ab: 1 })
    })

    it('to the root replaces the document with the value', () => {
      expect(valueOf(applyPatch({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '' }]))).toEqual({ b: 1 })
    })
  })

  describe('array indices', () => {
    const doc = ['a', 'b', 'c']
    it.each(['/01', '/00', '/-1', '/+1', '/1e0', '/0x1', '/ 1', '/1 ', '/', '/4294967295', '/4294967296', '/99999999999'])(
      'rejects %s for add, replace, remove and test',
      (path) => {
        const reason = 'invalid array index'
        for (const op of ['add', 'replace', 'test']) expectFailure(doc, [{ op, path, value: 'x' }], { reason })
        expectFailure(doc, [{ op: 'remove', path }], { reason })
      },
    )

    it('fast-json-patch accepts /01 and wraps 2^32 around to 0', () => {
      expect(fjp(doc, [{ op: 'add', path: '/01', value: 'x' }])).toEqual(['a', 'x', 'b', 'c'])
      expect(fjp(doc, [{ op: 'add', path: '/4294967296', value: 'x' }])).toEqual(['x', 'a', 'b', 'c'])
    })

    it('names an in-range index that is past the end as out of range', () => {
      expectFailure(doc, [{ op: 'add', path: '/4', value: 'x' }], { reason: 'array index out of range' })
      expectFailure(doc, [{ op: 'add', path: '/4294967294', value: 'x' }], { reason: 'array index out of range' })
    })

    it('allows "-" only as the target of add, move and copy', () => {
      expect(valueOf(applyPatch(doc, [{ op: 'add', path: '/-', value: 'd' }]))).toEqual(['a', 'b', 'c', 'd'])
      expect(valueOf(applyPatch(doc, [{ op: 'move', from: '/0', path: '/-' }]))).toEqual(['b', 'c', 'a'])
      expect(valueOf(applyPatch(doc, [{ op: 'copy', from: '/0', path: '/-' }]))).toEqual(['a', 'b', 'c', 'a'])
      expectFailure(doc, [{ op: 'replace', path: '/-', value: 'x' }])
      expectFailure(doc, [{ op: 'remove', path: '/-' }])
      expectFailure(doc, [{ op: 'test', path: '/-', value: 'c' }])
      expectFailure(doc, [{ op: 'copy', from: '/-', path: '/0' }])
      expectFailure(doc, [{ op: 'move', from: '/-', path: '/0' }])
    })
  })

  describe('pointers', () => {
    it.each(['/a~2', '/a~', '/~', 'a', '#/a'])('rejects the path %j (fast-json-patch accepts ~ escapes it cannot read)', (path) => {
      expectFailure({ a: 1 }, [{ op: 'add', path, value: 1 }], { reason: "invalid pointer in 'path'" })
    })

    it('rejects a bad from pointer', () => {
      expectFailure({ a: 1 }, [{ op: 'copy', from: '/a~2', path: '/b' }], { reason: "invalid pointer in 'from'" })
    })

    it('fast-json-patch stores "/a~2" under the key "a~2"', () => {
      expect(fjp({}, [{ op: 'add', path: '/a~2', value: 1 }])).toEqual({ 'a~2': 1 })
    })
  })

  describe('unknown op names fail the whole patch', () => {
    it.each(['spam', 'ADD', '_get', '', 'toString', 'constructor'])('%j', (op) => {
      expectFailure(
        { a: 1 },
        [
          { op: 'add', path: '/b', value: 1 },
          { op, path: '/a', value: 1 },
        ],
        {
          opIndex: 1,
          op,
          reason: 'unknown op',
        },
      )
    })

    it('a missing or non-string op', () => {
      expectFailure({ a: 1 }, [{ path: '/a', value: 1 }], { op: '', reason: 'unknown op' })
      expectFailure({ a: 1 }, [{ op: 1, path: '/a', value: 1 }], { op: '', reason: 'unknown op' })
    })

    it('fast-json-patch, even validating, runs its internal _get op', () => {
      expect(fjp({ a: 1 }, [{ op: '_get', path: '/a' }])).toEqual({ a: 1 })
    })
  })

  describe('writes into primitives', () => {
    it.each([
      ['a string', 'abc'],
      ['a number', 5],
      ['true', true],
      ['null', null],
    ])('below %s', (_, primitive) => {
      const doc = { a: primitive }
      for (const path of ['/a/b', '/a/0', '/a/length']) {
        expectFailure(doc, [{ op: 'add', path, value: 1 }], { reason: 'parent is not an object or array' })
        expectFailure(doc, [{ op: 'replace', path, value: 1 }])
        expectFailure(doc, [{ op: 'remove', path }])
      }
    })

    it('fast-json-patch without validation silently does nothing', () => {
      expect(fjp({ a: 'abc' }, [{ op: 'add', path: '/a/b', value: 1 }], false)).toEqual({ a: 'abc' })
    })
  })

  describe('values that are not JSON', () => {
    const nonJson: [string, unknown][] = [
      ['undefined', undefined],
      ['a function', () => 1],
      ['NaN', Number.NaN],
      ['Infinity', Number.NEGATIVE_INFINITY],
      ['a Date', new Date(0)],
      [
        'a class instance',
        new (class Point {
          x = 1
        })(),
      ],
      ['a nested function', { a: [1, { b: () => 1 }] }],
      ['an own __proto__ key', JSON.parse('{"__proto__":{"polluted":true}}')],
    ]
    it.each(nonJson)('rejects %s as add, replace and test value', (_, value) => {
      expectFailure({ a: 1 }, [{ op: 'add', path: '/b', value }], { reason: expect.stringMatching(/^value: /) })
      expectFailure({ a: 1 }, [{ op: 'replace', path: '/a', value }], { reason: expect.stringMatching(/^value: /) })
      expectFailure({ a: 1 }, [{ op: 'test', path: '/a', value }], { reason: expect.stringMatching(/^value: /) })
    })

    it('fast-json-patch inserts functions and Dates as they are', () => {
      const fn = () => 1
      expect((fjp({}, [{ op: 'add', path: '/f', value: fn }]) as Record<string, unknown>).f).toBe(fn)
    })
  })

  describe('missing members', () => {
    it.each(['add', 'replace', 'test'])("%s without 'value'", (op) => {
      expectFailure({ a: 1 }, [{ op, path: '/a' }], { reason: "missing 'value'" })
    })

    it("an op whose 'value' is inherited is not a plain object, so it is rejected", () => {
      const op = Object.assign(Object.create({ value: 2 }) as object, { op: 'add', path: '/a' })
      expectFailure({ a: 1 }, [op], { reason: 'an operation must be an object' })
    })

    it.each(['move', 'copy'])("%s without 'from'", (op) => {
      expectFailure({ a: 1 }, [{ op, path: '/b' }], { reason: "missing 'from'" })
      expectFailure({ a: 1 }, [{ op, from: null, path: '/b' }], { reason: "missing 'from'" })
    })

    it("a missing 'from' location", () => {
      expectFailure({ a: 1 }, [{ op: 'move', from: '/x', path: '/b' }], { reason: 'path not found' })
      expectFailure({ a: 1 }, [{ op: 'copy', from: '/x/y', path: '/b' }], { reason: 'path not found' })
    })
  })
})

describe('limits', () => {
  it('more than maxOps operations fail before any is applied', () => {
    const ops = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '', value: {} }))
    expect(applyPatch({}, ops)).toEqual({
      ok: false,
      opIndex: 10_000,
      op: 'test',
      path: '',
      reason: 'more than 10000 operations',
      limit: 'maxOpsPerDelta',
    })
    expect(applyPatch({}, ops.slice(1))).toMatchObject({ ok: true })
    expect(applyPatch({}, ops.slice(0, 4), { maxOps: 3 })).toMatchObject({ ok: false, opIndex: 3, limit: 'maxOpsPerDelta' })
    expect(applyPatch({}, ops.slice(0, 3), { maxOps: 3 })).toMatchObject({ ok: true })
  })

  it('value depth plus path depth may not pass maxDepth', () => {
    const doc = { a: { b: {} } }
    // /a/b/c is 3 deep; [[]] adds 2.
    expect(applyPatch(doc, [{ op: 'add', path: '/a/b/c', value: [[]] }], { maxDepth: 5 })).toMatchObject({ ok: true })
    expect(applyPatch(doc, [{ op: 'add', path: '/a/b/c', value: [[[]]] }], { maxDepth: 5 })).toMatchObject({
      ok: false,
      opIndex: 0,
      limit: 'maxDepth',
    })
    expect(applyPatch(doc, [{ op: 'replace', path: '', value: [[[]]] }], { maxDepth: 3 })).toMatchObject({ ok: true })
    expect(applyPatch(doc, [{ op: 'replace', path: '', value: [[[[]]]] }], { maxDepth: 3 })).toMatchObject({ limit: 'maxDepth' })
  })

  it('defaults maxDepth to 512', () => {
    expect(applyPatch({}, [{ op: 'add', path: '/a', value: nestedArray(511) }])).toMatchObject({ ok: true })
    expect(applyPatch({}, [{ op: 'add', path: '/a', value: nestedArray(512) }])).toMatchObject({ limit: 'maxDepth' })
  })

  it('copy and move may not push a subtree past maxDepth', () => {
    const doc = { a: [[]], b: { c: {} } }
    const limits = { maxDepth: 4 }
    expect(applyPatch(doc, [{ op: 'copy', from: '/a', path: '/b/x' }], limits)).toMatchObject({ ok: true })
    expect(applyPatch(doc, [{ op: 'copy', from: '/a', path: '/b/c/x' }], limits)).toMatchObject({ limit: 'maxDepth' })
    expect(applyPatch(doc, [{ op: 'move', from: '/a', path: '/b/c/x' }], limits)).toMatchObject({ limit: 'maxDepth' })
    expect(applyPatch(doc, [{ op: 'move', from: '/b/c', path: '/x' }], limits)).toMatchObject({ ok: true })
  })

  it('maxSize bounds each inserted or copied value', () => {
    const big = { text: 'x'.repeat(100) }
    const size = JSON.stringify(big).length
    expect(applyPatch({}, [{ op: 'add', path: '/a', value: big }], { maxSize: size })).toMatchObject({ ok: true })
    expect(applyPatch({}, [{ op: 'add', path: '/a', value: big }], { maxSize: size - 1 })).toMatchObject({
      ok: false,
      limit: 'maxStateBytes',
    })
    expect(applyPatch({ a: big }, [{ op: 'copy', from: '/a', path: '/b' }], { maxSize: size - 1 })).toMatchObject({
      limit: 'maxStateBytes',
    })
    // A move does not grow the state.
    expect(applyPatch({ a: big }, [{ op: 'move', from: '/a', path: '/b' }], { maxSize: 1 })).toMatchObject({ ok: true })
  })

  describe('a 100,000-level array never overflows the stack', () => {
    const deep = nestedArray(100_000)

    it('as an op value: rejected by depth', () => {
      expect(applyPatch({}, [{ op: 'add', path: '/a', value: deep }])).toMatchObject({ ok: false, limit: 'maxDepth' })
      expect(applyPatch({}, [{ op: 'replace', path: '', value: deep }])).toMatchObject({ ok: false, limit: 'maxDepth' })
    })

    it('inside the document: shallow ops, tests and removals work', () => {
      const doc = { deep, n: 1 }
      const replaced = valueOf(applyPatch(doc, [{ op: 'replace', path: '/n', value: 2 }]))
      expect(replaced.deep).toBe(deep)
      expect(applyPatch(doc, [{ op: 'test', path: '/deep', value: nestedArray(100_000) }])).toMatchObject({ ok: true })
      expect(applyPatch(doc, [{ op: 'test', path: '/deep', value: nestedArray(99_999) }])).toMatchObject({ ok: false })
      expect(applyPatch(doc, [{ op: 'replace', path: '/deep', value: [] }])).toMatchObject({ ok: true })
      expect(valueOf(applyPatch(doc, [{ op: 'remove', path: '/deep' }]))).toEqual({ n: 1 })
      expect(applyPatch(doc, [{ op: 'copy', from: '/deep', path: '/copy' }])).toMatchObject({ limit: 'maxDepth' })
      expect(applyPatch(doc, [{ op: 'replace', path: '', value: { n: 1 } }])).toMatchObject({ ok: true, changed: true })
    })
  })
})
