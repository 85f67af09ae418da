import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { deepEqual, jsonStringSize, measureJson, replaceEqualDeep } from '../src/json/json-value'
import { nestedArray } from './json-fixtures'

describe('jsonStringSize', () => {
  it('is the length of JSON.stringify for every kind of escape', () => {
    for (const text of ['', 'plain', '"', '\\', '\b\t\n\f\r', '\u0000\u001f', '\ud83d\ude00', '\ud83d', '\ude00', '\ude00\ud83d', 'a\ud83dx', 'end\ud83d']) {
      expect(jsonStringSize(text)).toBe(JSON.stringify(text).length)
    }
  })

  it('agrees with JSON.stringify on any UTF-16 text, lone surrogates included', () => {
    const anyCodeUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((units) => String.fromCharCode(...units))
    const surrogateHeavy = fc
      .array(fc.constantFrom(0xd83d, 0xde00, 0xdbff, 0xdc00, 0x22, 0x0a, 0x01, 0x61), { maxLength: 40 })
      .map((units) => String.fromCharCode(...units))
    fc.assert(
      fc.property(fc.oneof(anyCodeUnits, surrogateHeavy, fc.string({ unit: 'binary' })), (text) => {
        expect(jsonStringSize(text)).toBe(JSON.stringify(text).length)
      }),
      { numRuns: 2_000 },
    )
  })

  it('starts every call afresh (the regex is shared)', () => {
    expect(jsonStringSize('"'.repeat(10))).toBe(22)
    expect(jsonStringSize('ab')).toBe(4)
  })
})

describe('measureJson', () => {
  it('gives depth 0 to primitives and 1 to empty containers', () => {
    for (const value of [null, true, false, 0, -1.5, '', 'x']) expect(measureJson(value, 0)).toMatchObject({ ok: true, depth: 0 })
    expect(measureJson([], 1)).toMatchObject({ ok: true, depth: 1 })
    expect(measureJson({}, 1)).toMatchObject({ ok: true, depth: 1 })
    expect(measureJson({ a: [1, { b: [] }] }, 10)).toMatchObject({ ok: true, depth: 4 })
  })

  it('fails one level past maxDepth and names where', () => {
    expect(measureJson({ a: [[]] }, 3).ok).toBe(true)
    expect(measureJson({ a: [[]] }, 2)).toEqual({ ok: false, kind: 'depth', reason: 'deeper than 2', path: '/a/0' })
    expect(measureJson(1, -1)).toMatchObject({ ok: false, kind: 'depth' })
  })

  it('approximates the size of the JSON text', () => {
    for (const value of [null, true, false, 12.5, -3, 'abc', [], {}, [1, 'a', null], { ab: [true, {}], c: 'x' }]) {
      expect(measureJson(value, 10)).toMatchObject({ ok: true, size: JSON.stringify(value).length })
    }
  })

  it('fails as soon as the size passes maxSize', () => {
    const value = { a: 'x'.repeat(100) }
    const size = JSON.stringify(value).length
    expect(measureJson(value, 5, size).ok).toBe(true)
    expect(measureJson(value, 5, size - 1)).toMatchObject({ ok: false, kind: 'size', path: '/a' })
  })

  it.each([
    ['undefined', undefined],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    ['a bigint', 1n],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    [
      'a class instance',
      new (class Point {
        x = 1
      })(),
    ],
  ])('rejects %s, also when nested', (_, value) => {
    expect(measureJson(value, 10)).toMatchObject({ ok: false, kind: 'not-json', path: '' })
    expect(measureJson({ 'a/b': [0, { c: value }] }, 10)).toMatchObject({ ok: false, kind: 'not-json', path: '/a~1b/1/c' })
  })

  it('rejects holes in arrays', () => {
    expect(measureJson([1, , 3], 10)).toMatchObject({ ok: false, kind: 'not-json', path: '/1' })
  })

  it('accepts null-prototype objects', () => {
    expect(measureJson(Object.assign(Object.create(null) as object, { a: 1 }), 10).ok).toBe(true)
  })

  it('rejects an own "__proto__" key, and only that one', () => {
    const hostile: unknown = JSON.parse('{"a":{"__proto__":{"polluted":true}}}')
    expect(measureJson(hostile, 10)).toEqual({
      ok: false,
      kind: 'forbidden-key',
      reason: 'own key "__proto__"',
      path: '/a/__proto__',
    })
    expect(measureJson({ constructor: 1, prototype: { toString: 'x' } }, 10).ok).toBe(true)
  })

  it('stops at maxDepth on a 100,000-level array, without overflowing the stack', () => {
    const deep = nestedArray(100_000)
    const result = measureJson(deep, 512)
    expect(result).toMatchObject({ ok: false, kind: 'depth' })
    if (!result.ok) expect(result.path.split('/').length - 1).toBe(512)
    // With no depth limit the walk still terminates: it is iterative.
    expect(measureJson(deep, Infinity)).toMatchObject({ ok: true, depth: 100_000 })
  })
})

describe('deepEqual', () => {
  it('compares JSON values structurally', () => {
    expect(deepEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true)
    expect(deepEqual(1, 1.0)).toBe(true)
    expect(deepEqual([1, 2], [2, 1])).toBe(false)
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false)
    expect(deepEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false)
    expect(deepEqual({ a: undefined }, { b: undefined })).toBe(false)
    expect(deepEqual([], {})).toBe(false)
    expect(deepEqual({}, [])).toBe(false)
    expect(deepEqual('10', 10)).toBe(false)
    expect(deepEqual(null, {})).toBe(false)
    expect(deepEqual({ 0: 'a' }, ['a'])).toBe(false)
  })

  it('does not look at inherited properties', () => {
    expect(deepEqual({ toString: 1 }, { valueOf: 1 })).toBe(false)
    expect(deepEqual(Object.create({ a: 1 }) as object, { a: 1 })).toBe(false)
  })

  it('treats non-JSON objects as equal only to themselves', () => {
    expect(deepEqual(new Date(0), new Date(0))).toBe(false)
    const date = new Date(0)
    expect(deepEqual({ d: date }, { d: date })).toBe(true)
  })

  it('compares 100,000-level values without overflowing the stack', () => {
    expect(deepEqual(nestedArray(100_000), nestedArray(100_000))).toBe(true)
    expect(deepEqual(nestedArray(100_000), nestedArray(99_999))).toBe(false)
  })
})

describe('replaceEqualDeep', () => {
  it('returns prev itself when deep-equal', () => {
    const prev = { a: [1, { b: 'x' }], c: null }
    expect(replaceEqualDeep(prev, structuredClone(prev))).toBe(prev)
    expect(replaceEqualDeep([], [])).toEqual([])
  })

  it('does not take a key prev lacks for an equal one, even when next holds undefined there', () => {
    const next = { a: undefined }
    expect(replaceEqualDeep({ b: 1 }, next)).toBe(next)
    const nested = { x: { a: undefined } }
    expect(replaceEqualDeep({ x: { b: undefined } }, nested)).toBe(nested)
    const inherited = { toString: undefined }
    expect(replaceEqualDeep({ b: 1 }, inherited)).toBe(inherited)
  })

  it('keeps the identity of every equal subtree and replaces the rest', () => {
    const prev = { same: { deep: [1, 2] }, changed: { keep: { k: 1 }, v: 1 }, rows: [{ id: 1 }, { id: 2 }] }
    const next = { same: { deep: [1, 2] }, changed: { keep: { k: 1 }, v: 2 }, rows: [{ id: 1 }, { id: 3 }], added: {} }
    const nextCopy = structuredClone(next)
    const result = replaceEqualDeep(prev, next)
    expect(result).toEqual(nextCopy)
    expect(result).not.toBe(prev)
    expect(result.same).toBe(prev.same)
    expect(result.changed).not.toBe(prev.changed)
    expect(result.changed.keep).toBe(prev.changed.keep)
    expect(result.rows[0]).toBe(prev.rows[0])
    expect(result.rows[1]).toBe(next.rows[1])
    expect(result.added).toBe(next.added)
    // `next` is never written to.
    expect(next).toEqual(nextCopy)
    expect(next.same).not.toBe(prev.same)
  })

  it('returns next itself when nothing in it can be shared', () => {
    const next = { a: { x: 1 } }
    expect(replaceEqualDeep({ a: { x: 2 } }, next)).toBe(next)
    expect(replaceEqualDeep({ a: 1 }, next)).toBe(next)
    expect(replaceEqualDeep([1], next)).toBe(next)
    expect(replaceEqualDeep(null, next)).toBe(next)
  })

  it('handles removed and added keys and array lengths', () => {
    const prev = { a: { x: 1 }, b: 2, list: [{ x: 1 }, { y: 2 }] }
    const fewer = { a: { x: 1 } }
    const shorter = { list: [{ x: 1 }] }
    expect(replaceEqualDeep(prev, fewer)).not.toBe(prev)
    expect(replaceEqualDeep(prev, fewer).a).toBe(prev.a)
    const result = replaceEqualDeep(prev, shorter)
    expect(result).toEqual({ list: [{ x: 1 }] })
    expect(result.list[0]).toBe(prev.list[0])
  })

  it('keeps a null-prototype and a plain object with equal keys shared', () => {
    const prev = { a: Object.assign(Object.create(null) as object, { x: 1 }) }
    expect(replaceEqualDeep(prev, { a: { x: 1 } })).toBe(prev)
  })

  it('never swaps a prototype, even for an own "__proto__" key', () => {
    const prev = { a: { x: 1 } }
    const next = JSON.parse('{"__proto__":{"polluted":true},"a":{"x":1}}') as Record<string, unknown>
    const result = replaceEqualDeep(prev, next)
    expect(result).not.toBe(next)
    expect(result.a).toBe(prev.a)
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype)
    expect(Object.hasOwn(result, '__proto__')).toBe(true)
    expect((result as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('returns primitives as next unless identical', () => {
    expect(replaceEqualDeep(1, 2)).toBe(2)
    expect(replaceEqualDeep('a', 'a')).toBe('a')
    const next = { a: 1 }
    expect(replaceEqualDeep(next, next)).toBe(next)
  })

  it('shares within 100,000-level values without overflowing the stack', () => {
    const prev = nestedArray(100_000)
    const next = nestedArray(100_000)
    expect(replaceEqualDeep(prev, next)).toBe(prev)
    next.push(1)
    const result = replaceEqualDeep(prev, next)
    expect(result).not.toBe(prev)
    expect(result[0]).toBe(prev[0])
  })
})
