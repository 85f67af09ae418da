// Helpers for JSON values that came from the network. Every walk here is iterative (an explicit
// stack), so a hostile 100,000-level value cannot overflow the call stack.

export type JsonMeasure =
  | { ok: true; size: number; depth: number }
  | { ok: false; reason: string; path: string; kind: 'depth' | 'not-json' | 'size' | 'forbidden-key' }

/** Why a value failed its measurement, and where. */
export type JsonMisfit = Extract<JsonMeasure, { ok: false }>

type JsonObject = Record<string, unknown>

/** An object created by `{}`, `JSON.parse` or `Object.create(null)`: no class instances, no arrays. */
export function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

export const isContainer = (value: unknown): value is JsonObject | unknown[] => Array.isArray(value) || isPlainObject(value)

/** A shallow copy of an array or object; spread keeps every key an own data property, `__proto__` included. */
export const copyContainer = <T extends object>(container: T): T => (Array.isArray(container) ? container.slice() : { ...container }) as T

/** Sets an own data property, `__proto__` included, which a plain assignment would turn into a prototype swap. */
export const setOwn = (object: object, key: string, value: unknown) =>
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })

/** One JSON Pointer token (RFC 6901): `~` and `/` escaped. */
export const escapeToken = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1')

// A container being walked; `keys` is null for arrays.
interface Frame {
  node: JsonObject | unknown[]
  keys: string[] | null
  next: number
}

type FailureKind = JsonMisfit['kind']

// The path is the pointer of the child being visited: built only when reporting a failure.
const failure = (frames: readonly Frame[], kind: FailureKind, reason: string, suffix = ''): JsonMeasure => ({
  ok: false,
  kind,
  reason,
  path:
    frames
      .filter((f) => f.next > 0)
      .map((f) => '/' + escapeToken(f.keys ? f.keys[f.next - 1]! : String(f.next - 1)))
      .join('') + suffix,
})

/**
 * Walks a value that came from untrusted input: checks it is plain JSON (null, boolean, finite
 * number, string, array, plain object), that its depth is at most `maxDepth` (a primitive has
 * depth 0, `[]` and `{}` depth 1), that its size is at most `maxSize` (exactly the UTF-16 units
 * of `JSON.stringify(value)`, escapes included) and that no object has an own key `__proto__`.
 *
 * `lenient` checks only the depth and the size, of a value the store keeps as it came (an event's
 * metadata, a run's tools): every object is walked by its own keys, as `JSON.stringify` walks it
 * (so a cycle fails as too deep), and any other value counts as a leaf of at most its JSON size.
 */
export function measureJson(value: unknown, maxDepth: number, maxSize = Infinity, lenient = false): JsonMeasure {
  if (maxDepth < 0) return failure([], 'depth', `deeper than ${maxDepth}`)
  // Most values a delta carries are strings: sized at once, without setting up the walk.
  if (typeof value === 'string') {
    const size = jsonStringSize(value)
    return size > maxSize ? failure([], 'size', `larger than ${maxSize}`) : { ok: true, size, depth: 0 }
  }
  const frames: Frame[] = []
  let size = 0
  let depth = 0
  let current = value
  const fail = (kind: FailureKind, reason: string, suffix = '') => failure(frames, kind, reason, suffix)

  for (;;) {
    if (current === null) size += 4
    else if (typeof current === 'boolean') size += current ? 4 : 5
    else if (typeof current === 'string') size += jsonStringSize(current)
    else if (typeof current === 'number') {
      if (!Number.isFinite(current) && !lenient) return fail('not-json', 'a non-finite number is not JSON')
      size += String(current).length
    } else if (isContainer(current) || (lenient && typeof current === 'object')) {
      if (frames.length + 1 > maxDepth) return fail('depth', `deeper than ${maxDepth}`)
      const keys = Array.isArray(current) ? null : Object.keys(current)
      // An own "__proto__" key turns into a prototype swap as soon as code does `copy[key] = v`.
      if (keys && !lenient && Object.hasOwn(current, '__proto__')) return fail('forbidden-key', 'own key "__proto__"', '/__proto__')
      frames.push({ node: current as JsonObject | unknown[], keys, next: 0 })
      size += 2 + Math.max(0, (keys ?? (current as unknown[])).length - 1)
      if (keys) for (const key of keys) size += jsonStringSize(key) + 1
      depth = Math.max(depth, frames.length)
    } else if (lenient) size += 4
    else {
      const what = typeof current === 'object' ? 'a class instance' : `a ${typeof current}`
      return fail('not-json', `${what} is not JSON`)
    }
    if (size > maxSize) return fail('size', `larger than ${maxSize}`)

    // Step to the next unvisited child, leaving finished containers behind.
    let top = frames.at(-1)
    while (top && top.next >= (top.keys ?? (top.node as unknown[])).length) {
      frames.pop()
      top = frames.at(-1)
    }
    if (!top) return { ok: true, size, depth }
    const index = top.next++
    current = top.keys ? (top.node as JsonObject)[top.keys[index]!] : (top.node as unknown[])[index]
  }
}

// Characters JSON.stringify escapes: quote, backslash, controls, and surrogates (when unpaired).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what it looks for.
const escapedCharacter = /["\\\u0000-\u001f\ud800-\udfff]/g

/**
 * The length of `JSON.stringify(text)`: quotes and escapes included. The regex finds the escaped
 * characters and skips the rest natively, without building the JSON text: it runs on every key
 * and string a measurement meets (bench/hand-tuned.ts compares it with `JSON.stringify`).
 */
export function jsonStringSize(text: string): number {
  let size = text.length + 2
  escapedCharacter.lastIndex = 0
  while (escapedCharacter.test(text)) {
    const code = text.charCodeAt(escapedCharacter.lastIndex - 1)
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) size += 1
    else if (code < 0x20) size += 5
    // A high surrogate with its low one is written as it is: skip the pair.
    else if (code <= 0xdbff && (text.charCodeAt(escapedCharacter.lastIndex) & 0xfc00) === 0xdc00) escapedCharacter.lastIndex++
    else size += 5
  }
  return size
}

/**
 * Structural equality of JSON values: object keys unordered, arrays ordered, numbers by value.
 * Anything that is not a plain object or array is equal only to itself.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b]
  while (pending.length > 0) {
    const y = pending.pop()
    const x = pending.pop()
    if (x === y) continue
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i])
    } else if (isPlainObject(x) && isPlainObject(y)) {
      const keys = Object.keys(x)
      if (keys.length !== Object.keys(y).length) return false
      for (const key of keys) {
        if (!Object.hasOwn(y, key)) return false
        pending.push(x[key], y[key])
      }
    } else return false
  }
  return true
}

// One pair of containers being compared by replaceEqualDeep.
interface ShareFrame {
  prev: JsonObject | unknown[]
  next: JsonObject | unknown[]
  keys: string[] | null
  index: number
  /** Copy of `next`, made only once a child has to be swapped for prev's. */
  out: JsonObject | unknown[] | null
  /** Children of `next` that are, after sharing, prev's own child under the same key. */
  same: number
}

/**
 * TanStack-Query-style structural sharing: returns `next` with every subtree that deep-equals
 * the subtree of `prev` under the same key replaced by prev's object, and `prev` itself when the
 * two are deep-equal. `next` is never mutated; a container of `next` is copied only when one of
 * its children is swapped. Safe with an own `__proto__` key: the only keys ever written are keys
 * of `next`, into a spread copy of it, where each is already an own data property.
 */
export function replaceEqualDeep<T>(prev: unknown, next: T): T {
  if (!bothContainers(prev, next)) return prev === next ? (prev as T) : next
  const frames: ShareFrame[] = [open(prev, next)]
  for (;;) {
    const frame = frames.at(-1)!
    const size = frame.keys ? frame.keys.length : (frame.next as unknown[]).length
    if (frame.index < size) {
      const n = read(frame.next, keyAt(frame))
      const p = prevChild(frame)
      if (p !== n && bothContainers(p, n)) frames.push(open(p, n))
      else settle(frame, n)
      continue
    }
    const prevSize = frame.keys ? Object.keys(frame.prev).length : (frame.prev as unknown[]).length
    const result = frame.same === size && prevSize === size ? frame.prev : (frame.out ?? frame.next)
    frames.pop()
    const parent = frames.at(-1)
    if (!parent) return result as T
    settle(parent, result)
  }
}

function bothContainers(a: unknown, b: unknown): a is JsonObject | unknown[] {
  return Array.isArray(a) ? Array.isArray(b) : isPlainObject(a) && isPlainObject(b)
}

function open(prev: JsonObject | unknown[], next: unknown): ShareFrame {
  const n = next as JsonObject | unknown[]
  return { prev, next: n, keys: Array.isArray(n) ? null : Object.keys(n), index: 0, out: null, same: 0 }
}

const read = (container: JsonObject | unknown[], key: string | number) => (container as Record<string | number, unknown>)[key]

const keyAt = (frame: ShareFrame) => (frame.keys ? frame.keys[frame.index]! : frame.index)

// Stands for a child prev does not have: no value of next is ever this.
const MISSING = Symbol('missing')

// prev's own child under the current key, or MISSING.
function prevChild(frame: ShareFrame): unknown {
  const key = keyAt(frame)
  const has = frame.keys ? Object.hasOwn(frame.prev, key) : (key as number) < (frame.prev as unknown[]).length
  return has ? read(frame.prev, key) : MISSING
}

// Records the shared value of the current child and moves on.
function settle(frame: ShareFrame, value: unknown) {
  const key = keyAt(frame)
  if (value === prevChild(frame)) frame.same++
  if (value !== read(frame.next, key)) {
    // The spread keeps every key an own data property, so this write never reaches a setter.
    frame.out ??= copyContainer(frame.next)
    ;(frame.out as Record<string | number, unknown>)[key] = value
  }
  frame.index++
}
