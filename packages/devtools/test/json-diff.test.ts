import { diffJson } from '@agent-state/devtools'
import fc from 'fast-check'
import jsonPatch, { type Operation } from 'fast-json-patch'
import { describe, expect, it } from 'vitest'

describe('diffJson', () => {
  it('gives no ops for the same reference, however large', () => {
    const big = { list: Array.from({ length: 10_000 }, (_, i) => ({ i })) }
    expect(diffJson(big, big)).toEqual([])
  })

  it('walks only what changed: a shared subtree is not visited', () => {
    const shared = {}
    Object.defineProperty(shared, 'trap', {
      enumerable: true,
      get() {
        throw new Error('a shared subtree was walked')
      },
    })
    expect(diffJson({ shared, n: 1 }, { shared, n: 2 })).toEqual([{ op: 'replace', path: '/n', value: 2 }])
  })

  it('adds, removes and replaces keys, escaping ~ and /', () => {
    expect(diffJson({ a: 1, 'x/y': 1, gone: true }, { a: 2, 'x/y': 1, 'm~n': [1] })).toEqual([
      { op: 'remove', path: '/gone' },
      { op: 'replace', path: '/a', value: 2 },
      { op: 'add', path: '/m~0n', value: [1] },
    ])
    expect(diffJson({ 'x/y': 1 }, { 'x/y': 2 })).toEqual([{ op: 'replace', path: '/x~1y', value: 2 }])
  })

  it('treats a key holding undefined as absent, as JSON does', () => {
    expect(diffJson({ a: undefined, b: 1 }, { b: 1, c: undefined })).toEqual([])
    expect(diffJson({ a: undefined }, { a: 1 })).toEqual([{ op: 'add', path: '/a', value: 1 }])
    expect(diffJson({ a: 1 }, { a: undefined })).toEqual([{ op: 'remove', path: '/a' }])
  })

  it('appends to an array with one add, and changes an item in place', () => {
    const first = { id: 1 }
    const second = { id: 2, text: 'He' }
    expect(diffJson([first, second], [first, second, { id: 3 }])).toEqual([{ op: 'add', path: '/2', value: { id: 3 } }])
    expect(diffJson([first, second], [first, { id: 2, text: 'Hello' }])).toEqual([{ op: 'replace', path: '/1/text', value: 'Hello' }])
  })

  it('removes from the end of the changed middle first, and keeps a shared suffix', () => {
    const [a, b, c, d] = [{ a: 1 }, { b: 1 }, { c: 1 }, { d: 1 }]
    expect(diffJson([a, b, c, d], [a, d])).toEqual([
      { op: 'remove', path: '/2' },
      { op: 'remove', path: '/1' },
    ])
    expect(diffJson([a, d], [a, b, c, d])).toEqual([
      { op: 'add', path: '/1', value: b },
      { op: 'add', path: '/2', value: c },
    ])
  })

  it('replaces a value of another kind, and the root', () => {
    expect(diffJson({ a: [1] }, { a: { 0: 1 } })).toEqual([{ op: 'replace', path: '/a', value: { 0: 1 } }])
    expect(diffJson(1, 'one')).toEqual([{ op: 'replace', path: '', value: 'one' }])
    expect(diffJson([1], [1], '/state')).toEqual([])
    expect(diffJson({ a: 1 }, { a: 2 }, '/state')).toEqual([{ op: 'replace', path: '/state/a', value: 2 }])
  })

  // A JSON value and a changed copy that keeps some of its subtrees, as the store's updates do.
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null)),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('~', '/', 'a/b', '~1')), tie('value'), { maxKeys: 4 }),
    ),
  })).value

  type Gen = (arbitrary: typeof fc.integer, constraints: { min: number; max: number }) => number

  function mutate(value: unknown, pick: (max: number) => number): unknown {
    const roll = pick(9)
    if (roll < 4) return value
    if (Array.isArray(value)) {
      const copy = value.map((item) => mutate(item, pick))
      if (roll === 8) copy.splice(pick(copy.length), 0, pick(99))
      if (roll === 9 && copy.length > 0) copy.splice(pick(copy.length - 1), 1)
      return copy
    }
    if (typeof value === 'object' && value !== null) {
      const copy: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(value)) if (roll !== 9 || pick(2) > 0) copy[key] = mutate(item, pick)
      if (roll === 8) copy[`k${pick(9)}`] = pick(99)
      return copy
    }
    return roll > 7 ? { was: value } : pick(99)
  }

  it('produces a patch that turns the first value into the second (fast-json-patch applies it)', () => {
    fc.assert(
      fc.property(json, fc.gen(), (before, gen) => {
        const after = mutate(before, (max) => (gen as unknown as Gen)(fc.integer, { min: 0, max }))
        const ops = diffJson(before, after)
        const patched = jsonPatch.applyPatch(structuredClone(before), ops as Operation[], true, false).newDocument
        expect(patched).toEqual(after)
        if (after === before) expect(ops).toEqual([])
      }),
      { numRuns: 500 },
    )
  })
})
