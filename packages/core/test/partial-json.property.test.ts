import { isDeepStrictEqual } from 'node:util'
import { JSONParser } from '@streamparser/json'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createPartialJsonReader } from '../src/json/partial-json'

const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 200

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * `partial` is something a reader may show while reading a document whose complete value is `final`:
 * - at the top level, undefined (nothing known yet);
 * - a string that is a prefix of the final string at the same path;
 * - a number, boolean or null equal to the final value (never a guess at an unfinished one);
 * - an array no longer than the final one, each present element prefix-consistent with the final
 *   element at the same index (no holes);
 * - an object whose own keys are a subset of the final object's, each value prefix-consistent.
 */
function isPrefixConsistent(partial: unknown, final: unknown, topLevel = true): boolean {
  if (partial === undefined) return topLevel
  if (typeof partial === 'string') return typeof final === 'string' && final.startsWith(partial)
  if (Array.isArray(partial)) {
    if (!Array.isArray(final) || partial.length > final.length) return false
    for (let i = 0; i < partial.length; i++) {
      if (!Object.hasOwn(partial, i) || !isPrefixConsistent(partial[i], final[i], false)) return false
    }
    return true
  }
  if (isObject(partial)) {
    if (!isObject(final) || Object.getPrototypeOf(partial) !== Object.prototype) return false
    return Object.keys(partial).every((key) => Object.hasOwn(final, key) && isPrefixConsistent(partial[key], final[key], false))
  }
  return Object.is(partial, final)
}

/**
 * Structural sharing between two successive values: in every container, all members but at most
 * one (the one still being written) are the very same objects as before; that one is checked the
 * same way. Holds for documents without repeated keys, which JSON.stringify never writes.
 */
function sharesSettledSubtrees(prev: unknown, next: unknown): boolean {
  let a = prev
  let b = next
  while (a !== b) {
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length === 0) return true
      const last = a.length - 1
      for (let i = 0; i < last; i++) if (a[i] !== b[i]) return false
      ;[a, b] = [a[last], b[last]]
    } else if (isObject(a) && isObject(b)) {
      const [x, y] = [a, b]
      const moved = Object.keys(x).filter((key) => x[key] !== y[key])
      if (moved.length !== 1) return moved.length === 0
      ;[a, b] = [x[moved[0]!], y[moved[0]!]]
    } else return true
  }
  return true
}

/** Cuts `text` into chunks whose lengths cycle through `sizes`. */
function split(text: string, sizes: readonly number[]): string[] {
  const chunks: string[] = []
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = sizes[i % sizes.length]!
    chunks.push(text.slice(at, at + size))
    at += size
  }
  return chunks
}

/** Reads `text` in `chunks`, checking every intermediate value against the final one. */
function checkStream(text: string, chunks: readonly string[]): void {
  const final: unknown = JSON.parse(text)
  const reader = createPartialJsonReader()
  const fail = (what: string, read: number) => {
    throw new Error(`${what}, after ${JSON.stringify(text.slice(0, read))}: ${JSON.stringify(reader.value)}`)
  }
  let previous: unknown
  let read = 0
  let reported = 0
  let actual = 0
  chunks.forEach((chunk, i) => {
    const changed = reader.push(chunk)
    read += chunk.length
    const value = reader.value
    const differs = !isDeepStrictEqual(previous, value)
    if (changed) reported++
    if (differs) actual++
    if (changed !== differs) fail(`push() returned ${changed}`, read)
    if (!changed && value !== previous) fail('a new reference without a change', read)
    if (reader.error) fail(`error ${reader.error.message}`, read)
    if (!isPrefixConsistent(value, final)) fail('not a prefix of the final value', read)
    if (!isPrefixConsistent(previous, value)) fail('took something back', read)
    if (!sharesSettledSubtrees(previous, value)) fail('lost the identity of a settled subtree', read)
    // A proper prefix of a JSON text is never a complete value; a trailing number waits for end().
    if (reader.done !== (i === chunks.length - 1 && typeof final !== 'number')) fail(`done is ${reader.done}`, read)
    previous = value
  })
  expect(reported).toBe(actual)
  reader.end()
  expect(reader.error).toBeUndefined()
  expect(reader.done).toBe(true)
  expect(reader.value).toEqual(final)
  expect(isDeepStrictEqual(reader.value, final)).toBe(true)
}

// Chunkings: one character at a time, or sizes cycling through a short random list.
const chunkSizes = fc.oneof(
  fc.constant([1]),
  fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 16 }),
  fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 4 }),
)

// Characters that JSON writes as escapes or as several UTF-16 units, mixed with ordinary text.
const trickyUnit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001f', '\u007f') },
  { weight: 2, arbitrary: fc.constantFrom('é', '\u2028', '\u{1F600}', '\u{1F469}\u200D\u{1F4BB}', '\ud800', '\udfff', 'u', '0') },
  { weight: 5, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
)
const trickyString = (minLength: number, maxLength: number) => fc.string({ unit: trickyUnit, minLength, maxLength, size: 'max' })

const longStringObject: fc.Arbitrary<unknown> = fc.dictionary(trickyString(0, 6), trickyString(100, 600), {
  minKeys: 1,
  maxKeys: 3,
})
const steps: fc.Arbitrary<unknown> = fc.record({
  steps: fc.array(fc.record({ description: trickyString(0, 120), status: fc.constantFrom('enabled', 'disabled') }), {
    maxLength: 6,
  }),
})

describe('partial JSON read in random chunks', () => {
  it.each([
    ['any JSON value', fc.jsonValue()],
    ['any JSON value with any code point in strings', fc.jsonValue({ stringUnit: 'binary' })],
    ['objects of long strings with escapes, unicode and emoji', longStringObject],
    ['a steps array whose descriptions grow', steps],
  ])('%s: ends equal to JSON.parse, every value on the way is a consistent prefix', (_, values) => {
    fc.assert(
      fc.property(values, chunkSizes, (value, sizes) => {
        const text = JSON.stringify(value)
        checkStream(text, split(text, sizes))
      }),
      { numRuns: NUM_RUNS },
    )
  })
})

/**
 * The oracle: @streamparser/json, the library the reader replaced, reading the same chunks.
 * Returns its final value and the index of the chunk at which it reported an error
 * (`chunks.length`: at the end; -1: none).
 */
function readWithLibrary(chunks: readonly string[]): { value: unknown; errorAt: number } {
  const parser = new JSONParser()
  let value: unknown
  let errorAt = -1
  let at = 0
  parser.onValue = ({ value: read, stack }) => {
    if (stack.length === 0) value = read
  }
  parser.onError = () => {
    if (errorAt === -1) errorAt = at
  }
  for (; at < chunks.length && errorAt === -1; at++) parser.write(chunks[at]!)
  at = chunks.length
  if (errorAt === -1 && !parser.isEnded) parser.end()
  return { value, errorAt }
}

function readWithReader(chunks: readonly string[]): { value: unknown; errorAt: number } {
  const reader = createPartialJsonReader()
  for (const [i, chunk] of chunks.entries()) {
    reader.push(chunk)
    if (reader.error) return { value: reader.value, errorAt: i }
  }
  reader.end()
  return { value: reader.value, errorAt: reader.error ? chunks.length : -1 }
}

// JSON text with up to two edits: a piece of JSON's alphabet inserted, a few characters removed,
// so that most texts are invalid somewhere and some stay valid.
const jsonPiece = fc.constantFrom(...'{}[]:,"\\ 0123456789-+.eEtfnx'.split(''), ',]', ',}', '[,', '01', '1.', '-e', 'tru', 'nul', '\\u12', '\\ud83d', '\\q')
const edit = fc.record({ at: fc.nat(), remove: fc.integer({ min: 0, max: 3 }), insert: fc.oneof(fc.constant(''), jsonPiece) })
const editedJson = fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.array(edit, { maxLength: 2 })).map(([value, edits]) => {
  let text = JSON.stringify(value)
  for (const { at, remove, insert } of edits) {
    const i = at % (text.length + 1)
    text = text.slice(0, i) + insert + text.slice(i + remove)
  }
  return text
})

describe('against @streamparser/json as the oracle', () => {
  it('agrees on valid and edited JSON: the same final value, and an error never later than the library', () => {
    fc.assert(
      fc.property(editedJson, chunkSizes, (text, sizes) => {
        const chunks = split(text, sizes)
        let parsed: unknown
        let valid = true
        try {
          parsed = JSON.parse(text)
        } catch {
          valid = false
        }
        const ours = readWithReader(chunks)
        const library = readWithLibrary(chunks)
        expect(ours.errorAt === -1, 'valid as JSON.parse says').toBe(valid)
        if (valid) {
          expect(ours.value).toEqual(library.value)
          expect(isDeepStrictEqual(ours.value, parsed)).toBe(true)
        } else if (library.errorAt !== -1) {
          // The library misses some errors (whitespace only) and finds others late (`{"a" 1}` at `}`).
          expect(ours.errorAt).toBeLessThanOrEqual(library.errorAt)
        }
      }),
      { numRuns: NUM_RUNS * 5 },
    )
  })
})

describe('the checks used above', () => {
  it('accept what a reader may show and reject the rest', () => {
    const final = { a: 'hello', b: [1, { c: true }], d: null }
    for (const ok of [undefined, {}, { a: '' }, { a: 'hel' }, { b: [] }, { b: [1, {}] }, final]) {
      expect(isPrefixConsistent(ok, final), JSON.stringify(ok)).toBe(true)
    }
    for (const bad of [[], { a: 'help' }, { x: 1 }, { b: [2] }, { b: [1, { c: false }] }, { d: 0 }, { a: undefined }, 'hello']) {
      expect(isPrefixConsistent(bad, final), JSON.stringify(bad)).toBe(false)
    }
    const shared = { x: 1 }
    expect(sharesSettledSubtrees({ a: shared, b: 'x' }, { a: shared, b: 'xy' })).toBe(true)
    expect(sharesSettledSubtrees({ a: shared, b: 'x' }, { a: { x: 1 }, b: 'xy' })).toBe(false)
    expect(sharesSettledSubtrees([shared, [1]], [shared, [1, 2], 3])).toBe(true)
    expect(sharesSettledSubtrees([{ x: 1 }, [1]], [{ x: 1 }, [1, 2]])).toBe(false)
  })
})
