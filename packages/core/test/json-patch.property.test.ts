import fc from 'fast-check'
import jsonpatch, { type Operation } from 'fast-json-patch'
import { describe, expect, it } from 'vitest'
import { applyPatch, parsePointer } from '../src/json/json-patch'
import { deepEqual } from '../src/json/json-value'
import { deepFreeze } from './json-fixtures'

const NUM_RUNS = 300

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Doc = Record<string, Json>
type Op = { op: string; path: string; from?: string; value?: Json }

// Few keys, so that random ops often hit existing locations; two of them need ~ escapes.
const KEYS = ['a', 'b', 'c', '0', '1', '', 'a/b', 'm~n']
const HAZARDS = [
  '/__proto__/polluted',
  '/__proto__',
  '/a/__proto__/polluted',
  '/constructor/prototype/polluted',
  '/constructor/polluted',
  '/a/constructor/prototype/polluted',
  '/prototype',
  '/toString',
  '/constructor',
]
const INVALID = ['/zz/yy', '/01', '/-', '/a/-', '/a~2', 'a']
const JUNK = [...INVALID, ...HAZARDS]

const leaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, 1e21, -2.25),
  fc.constantFrom('x', 'y', '', '~/'),
)
const { tree } = fc.letrec<{ tree: Json; array: Json[]; object: Record<string, Json> }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('tree'), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('tree'), { maxKeys: 4 }),
}))
const docs: fc.Arbitrary<Doc> = fc.dictionary(fc.constantFrom(...KEYS), tree, { minKeys: 1, maxKeys: 5 })

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1')

function locations(value: Json, pointer = ''): { pointer: string; value: Json }[] {
  const here = { pointer, value }
  if (value === null || typeof value !== 'object') return [here]
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
  return [here, ...entries.flatMap(([key, child]) => locations(child, `${pointer}/${escape(key)}`))]
}

/** Plausible ops for `doc`: mostly existing locations and new children of existing containers, some junk. */
function patchesFor(doc: Doc, junk: readonly string[], junkWeight: number): fc.Arbitrary<Op[]> {
  const all = locations(doc)
  const inner = all.filter((l) => l.pointer !== '')
  const containers = all.filter((l) => l.value !== null && typeof l.value === 'object')
  const existing = fc.constantFrom(...inner).map((l) => l.pointer)
  const newChild = fc
    .constantFrom(...containers)
    .chain(({ pointer, value }) =>
      Array.isArray(value)
        ? fc.constantFrom(`${pointer}/-`, `${pointer}/${value.length}`, `${pointer}/0`)
        : fc.constantFrom(...KEYS, 'new').map((key) => `${pointer}/${escape(key)}`),
    )
  const bad = fc.constantFrom(...junk)
  const target = fc.oneof({ arbitrary: existing, weight: 4 }, { arbitrary: newChild, weight: 4 }, { arbitrary: bad, weight: junkWeight })
  const source = fc.oneof({ arbitrary: existing, weight: 8 }, { arbitrary: bad, weight: junkWeight })
  // Sometimes a copy of a value already in the document, so no-op detection gets exercised.
  const value = fc.oneof(
    tree,
    fc.constantFrom(...all).map((l) => structuredClone(l.value)),
  )
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constant('add'), path: target, value }),
    fc.record({ op: fc.constant('remove'), path: source }),
    fc.record({ op: fc.constant('replace'), path: fc.oneof(source, fc.constant('')), value }),
    fc.record({ op: fc.constant('move'), from: source, path: target }),
    fc.record({ op: fc.constant('copy'), from: source, path: target }),
    fc.oneof(
      { arbitrary: fc.constantFrom(...all).map((l) => ({ op: 'test', path: l.pointer, value: structuredClone(l.value) })), weight: 3 },
      { arbitrary: fc.record({ op: fc.constant('test'), path: source, value }), weight: 1 },
    ),
  )
  return fc.array(op, { minLength: 1, maxLength: 4 })
}

const cases = (junk: readonly string[] = JUNK, junkWeight = 1) => docs.chain((doc) => patchesFor(doc, junk, junkWeight).map((ops) => ({ doc, ops })))

const mentionsHazard = (ops: readonly Op[]) =>
  ops.some((op) => [op.path, op.from].some((p) => typeof p === 'string' && /__proto__|constructor|prototype|toString/.test(p)))

function oracle(doc: Doc, ops: readonly Op[]): { ok: true; value: unknown } | { ok: false } {
  try {
    const clone = jsonpatch.deepClone(doc) as Doc
    return { ok: true, value: jsonpatch.applyPatch(clone, structuredClone(ops) as Operation[], true, false).newDocument }
  } catch {
    return { ok: false }
  }
}

const PLAIN = new Set<unknown>([Object.prototype, Array.prototype, null])

function prototypesOf(value: unknown): unknown[] {
  const found: unknown[] = []
  const pending = [value]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== 'object' || node === null) continue
    found.push(Object.getPrototypeOf(node))
    pending.push(...Object.values(node))
  }
  return found
}

describe('applyPatch on random documents and patches', () => {
  it('(a) never mutates its input, failed or not', () => {
    let failures = 0
    fc.assert(
      fc.property(cases(), ({ doc, ops }) => {
        const before = structuredClone(doc)
        const result = applyPatch(deepFreeze(doc), deepFreeze(ops))
        if (!result.ok) {
          failures++
          expect(result.opIndex).toBeGreaterThanOrEqual(0)
          expect(result.opIndex).toBeLessThan(ops.length)
          expect(result.op).toBe(ops[result.opIndex]!.op)
        }
        expect(doc).toEqual(before)
      }),
      { numRuns: NUM_RUNS },
    )
    expect(failures).toBeGreaterThan(NUM_RUNS / 10)
  })

  it('(b) agrees with fast-json-patch wherever fast-json-patch succeeds too', () => {
    let compared = 0
    fc.assert(
      // fast-json-patch's own prototype bugs are covered in json-patch.test.ts; keep them out of the oracle.
      fc.property(cases(INVALID), ({ doc, ops }) => {
        if (mentionsHazard(ops)) return
        const result = applyPatch(deepFreeze(doc), deepFreeze(ops))
        const expected = oracle(doc, ops)
        if (!result.ok || !expected.ok) return
        compared++
        expect(result.value).toEqual(expected.value)
        // No change ↔ the same reference back.
        expect(result.changed).toBe(result.value !== doc)
        if (!deepEqual(result.value, doc)) expect(result.changed).toBe(true)
      }),
      { numRuns: NUM_RUNS },
    )
    // A generator whose patches all fail would pass vacuously.
    expect(compared).toBeGreaterThan(NUM_RUNS / 3)
  })

  it('(c) keeps the identity of every top-level value no op writes to', () => {
    let checked = 0
    fc.assert(
      fc.property(cases(), ({ doc, ops }) => {
        const result = applyPatch(deepFreeze(doc), deepFreeze(ops))
        if (!result.ok) return
        const written = ops.flatMap((op) => (op.op === 'test' ? [] : op.op === 'move' ? [op.path, op.from!] : [op.path]))
        const heads = written.map((p) => parsePointer(p)!)
        if (heads.some((tokens) => tokens.length === 0)) return
        const touched = new Set(heads.map((tokens) => tokens[0]))
        const value = result.value as Doc
        for (const key of Object.keys(doc)) {
          if (touched.has(key)) continue
          checked++
          expect(value[key]).toBe(doc[key])
        }
      }),
      { numRuns: NUM_RUNS },
    )
    expect(checked).toBeGreaterThan(NUM_RUNS / 3)
  })

  it('(d) never touches a prototype, whatever the paths', () => {
    const snapshot = () => [Object.prototype, Array.prototype, Function.prototype, Object, Array].map((o) => Object.getOwnPropertyNames(o).sort())
    const clean = snapshot()
    let rejected = 0
    fc.assert(
      fc.property(cases(HAZARDS, 6), ({ doc, ops }) => {
        const result = applyPatch(deepFreeze(doc), deepFreeze(ops))
        if (!result.ok && /forbidden key|path not found/.test(result.reason)) rejected++
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined()
        expect(snapshot()).toEqual(clean)
        if (result.ok) expect(prototypesOf(result.value).every((p) => PLAIN.has(p))).toBe(true)
      }),
      { numRuns: NUM_RUNS },
    )
    expect(rejected).toBeGreaterThan(NUM_RUNS / 3)
  })

  it('(e) produces JSON only', () => {
    fc.assert(
      fc.property(cases(), ({ doc, ops }) => {
        const result = applyPatch(deepFreeze(doc), deepFreeze(ops))
        if (result.ok) expect(JSON.parse(JSON.stringify(result.value))).toEqual(result.value)
      }),
      { numRuns: NUM_RUNS },
    )
  })
})
