// RFC 6902 JSON Patch for state deltas that arrive from the network.
// Atomic: the input is never mutated; a failed patch leaves the caller with its document.
// Copy-on-write: only the ancestors of a changed location are copied, once per patch.
import { copyContainer, deepEqual, isContainer, isPlainObject, measureJson } from './json-value'

export interface PatchLimits {
  /** Deepest nesting an inserted value may reach, counting the depth of its path (default 512). */
  maxDepth: number
  /** Most operations in one patch (default 10,000). */
  maxOps: number
  /** Largest measured size of one inserted value (default: unlimited). */
  maxSize?: number
}

export type PatchFailure = {
  ok: false
  opIndex: number
  op: string
  path: string
  reason: string
  limit?: 'maxDepth' | 'maxOpsPerDelta' | 'maxStateBytes'
}

export type PatchResult<T> = { ok: true; value: T; changed: boolean } | PatchFailure

const DEFAULT_MAX_DEPTH = 512
const DEFAULT_MAX_OPS = 10_000
const MAX_ARRAY_INDEX = 2 ** 32 - 2
export const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test'])
// Keys that lead to prototypes when written through; data may hold them, a patch may not write them.
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype'])

type JsonObject = Record<string, unknown>
type Container = JsonObject | unknown[]

/** Splits a JSON Pointer (RFC 6901) into unescaped tokens; null if it is not a valid pointer. */
export function parsePointer(pointer: string): string[] | null {
  if (typeof pointer !== 'string') return null
  if (pointer === '') return []
  if (!pointer.startsWith('/') || /~(?![01])/.test(pointer)) return null
  const tokens = splitPointer(pointer)
  // ~1 before ~0, so "~01" becomes "~1" and not "/".
  return pointer.includes('~') ? tokens.map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~')) : tokens
}

/** The tokens after the leading "/", split on "/". By indexOf rather than `split('/')`, which is slower on V8 (bench/hand-tuned.ts). */
function splitPointer(pointer: string): string[] {
  const tokens: string[] = []
  let start = 1
  for (let end = pointer.indexOf('/', start); end !== -1; end = pointer.indexOf('/', start)) {
    tokens.push(pointer.slice(start, end))
    start = end + 1
  }
  tokens.push(pointer.slice(start))
  return tokens
}

/** The array index a token names, or -1: no sign, no leading zeros, at most 2^32 - 2. */
function arrayIndex(token: string): number {
  if (!/^(?:0|[1-9]\d{0,9})$/.test(token)) return -1
  const index = Number(token)
  return index <= MAX_ARRAY_INDEX ? index : -1
}

// Thrown inside one patch and turned into a PatchFailure naming the op. Not an Error: a rejected
// delta is an expected outcome, so no stack trace is worth capturing.
class Rejection {
  constructor(
    readonly reason: string,
    readonly limit?: PatchFailure['limit'],
  ) {}
}

function reject(reason: string, limit?: PatchFailure['limit']): never {
  throw new Rejection(reason, limit)
}

const own = (obj: object, key: string): unknown => (Object.hasOwn(obj, key) ? (obj as JsonObject)[key] : undefined)

/**
 * Applies an RFC 6902 patch without mutating `document`. On success, untouched subtrees keep
 * their identity and `value` is `document` itself when nothing changed. On failure, the result
 * names the failing operation. Operation values are inserted as they are, not cloned.
 */
export function applyPatch<T>(document: T, operations: readonly unknown[], limits: Partial<PatchLimits> = {}): PatchResult<T> {
  const maxOps = limits.maxOps ?? DEFAULT_MAX_OPS
  if (!Array.isArray(operations)) return failure(0, undefined, 'the patch is not an array')
  if (operations.length > maxOps) {
    return failure(maxOps, operations[maxOps], `more than ${maxOps} operations`, 'maxOpsPerDelta')
  }
  const patch: Patch = { root: document, changed: false, fresh: new Set(), maxDepth: limits.maxDepth ?? DEFAULT_MAX_DEPTH, maxSize: limits.maxSize }
  for (let i = 0; i < operations.length; i++) {
    try {
      applyOperation(patch, operations[i])
    } catch (error) {
      if (error instanceof Rejection) return failure(i, operations[i], error.reason, error.limit)
      throw error
    }
  }
  return patch.changed ? { ok: true, value: patch.root as T, changed: true } : { ok: true, value: document, changed: false }
}

function failure(opIndex: number, operation: unknown, reason: string, limit?: PatchFailure['limit']): PatchFailure {
  const text = (field: string) => {
    const value = isPlainObject(operation) ? own(operation, field) : undefined
    return typeof value === 'string' ? value : ''
  }
  return { ok: false, opIndex, op: text('op'), path: text('path'), reason, ...(limit ? { limit } : {}) }
}

/** One patch being applied. */
interface Patch {
  root: unknown
  changed: boolean
  /** Containers this patch copied: nothing else can see them, so later ops write them in place. */
  readonly fresh: Set<object>
  readonly maxDepth: number
  readonly maxSize: number | undefined
}

function applyOperation(patch: Patch, operation: unknown): void {
  if (!isPlainObject(operation)) reject('an operation must be an object')
  const op = own(operation, 'op')
  if (typeof op !== 'string' || !OPS.has(op)) reject('unknown op')
  const path = pointerAt(operation, 'path', op !== 'test')
  if (op === 'test') {
    const expected = operationValue(patch, operation, null)
    if (!deepEqual(valueAt(patch, path), expected)) reject('test failed: values differ')
  } else if (op === 'add') add(patch, path, operationValue(patch, operation, path))
  else if (op === 'replace') replace(patch, path, operationValue(patch, operation, path))
  else if (op === 'remove') remove(patch, path)
  else {
    const from = pointerAt(operation, 'from', op === 'move')
    if (op === 'copy') copy(patch, from, path)
    else move(patch, from, path)
  }
}

function pointerAt(operation: JsonObject, field: 'path' | 'from', writes: boolean): string[] {
  const pointer = own(operation, field)
  if (typeof pointer !== 'string') reject(`missing '${field}'`)
  const tokens = parsePointer(pointer)
  if (!tokens) reject(`invalid pointer in '${field}'`)
  if (writes) for (const token of tokens) if (FORBIDDEN.has(token)) reject(`'${field}' writes a forbidden key`)
  return tokens
}

/** The op's value, checked to be JSON; `path` null means it is only compared (test): then any depth and size will do. */
function operationValue(patch: Patch, operation: JsonObject, path: string[] | null): unknown {
  if (!Object.hasOwn(operation, 'value')) reject("missing 'value'")
  const value = operation.value
  if (path) checkInsert(value, path.length, patch.maxDepth, patch.maxSize)
  else checkInsert(value, 0, Infinity, undefined)
  return value
}

function checkInsert(value: unknown, pathDepth: number, maxDepth: number, maxSize: number | undefined): void {
  // A string is let through unread while its length alone keeps it under the limit: a document
  // replaced delta by delta must not be scanned each time. Its exact size counts once the
  // state's size bound passes the limit (state-rules.ts).
  if (typeof value === 'string' && pathDepth <= maxDepth && (maxSize === undefined || value.length + 2 <= maxSize)) return
  const measure = measureJson(value, maxDepth - pathDepth, maxSize)
  if (measure.ok) return
  if (measure.kind === 'depth') reject(`value would be deeper than ${maxDepth}`, 'maxDepth')
  if (measure.kind === 'size') reject(`value is larger than ${maxSize}`, 'maxStateBytes')
  reject(`value: ${measure.reason}`)
}

/** Reads through own properties only, so `/toString` or `/constructor` never reach a prototype. */
function valueAt(patch: Patch, path: readonly string[]): unknown {
  let node = patch.root
  for (const token of path) {
    if (!isContainer(node)) reject('path not found')
    node = childOf(node, token)
  }
  return node
}

/** The containers from the root down to the parent of the last token (read-only). */
function parents(patch: Patch, path: readonly string[]): Container[] {
  const chain: Container[] = []
  let node = patch.root
  for (let i = 0; ; i++) {
    if (!isContainer(node)) reject(i === 0 ? 'the document is not a container' : 'parent is not an object or array')
    chain.push(node)
    if (i === path.length - 1) return chain
    node = childOf(node, path[i]!)
  }
}

function childOf(node: Container, token: string): unknown {
  if (Array.isArray(node)) {
    const index = arrayIndex(token)
    if (index < 0) reject('invalid array index')
    if (index >= node.length) reject('path not found')
    return node[index]
  }
  if (!Object.hasOwn(node, token)) reject('path not found')
  return node[token]
}

/** Copies each container of `chain` that this patch has not copied yet; returns the parent. */
function writable(patch: Patch, path: readonly string[], chain: readonly Container[]): Container {
  let parent: Container | undefined
  for (let i = 0; i < chain.length; i++) {
    let node = chain[i]!
    if (!patch.fresh.has(node)) {
      node = copyContainer(node)
      patch.fresh.add(node)
      if (parent) setChild(parent, path[i - 1]!, node)
      else patch.root = node
    }
    parent = node
  }
  patch.changed = true
  return parent!
}

function setRoot(patch: Patch, value: unknown): void {
  if (deepEqual(patch.root, value)) return
  patch.root = value
  patch.changed = true
}

function add(patch: Patch, path: readonly string[], value: unknown): void {
  if (path.length === 0) return setRoot(patch, value)
  const chain = parents(patch, path)
  const parent = chain.at(-1)!
  const key = path.at(-1)!
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : arrayIndex(key)
    if (index < 0) reject('invalid array index')
    if (index > parent.length) reject('array index out of range')
    ;(writable(patch, path, chain) as unknown[]).splice(index, 0, value)
  } else if (!Object.hasOwn(parent, key) || !deepEqual(parent[key], value)) {
    setChild(writable(patch, path, chain), key, value)
  }
}

function replace(patch: Patch, path: readonly string[], value: unknown): void {
  if (path.length === 0) return setRoot(patch, value)
  const chain = parents(patch, path)
  const key = path.at(-1)!
  if (!deepEqual(childOf(chain.at(-1)!, key), value)) setChild(writable(patch, path, chain), key, value)
}

function remove(patch: Patch, path: readonly string[]): unknown {
  if (path.length === 0) reject('cannot remove the whole document')
  const chain = parents(patch, path)
  const key = path.at(-1)!
  const removed = childOf(chain.at(-1)!, key)
  const parent = writable(patch, path, chain)
  if (Array.isArray(parent)) parent.splice(Number(key), 1)
  else delete parent[key]
  return removed
}

function move(patch: Patch, from: readonly string[], path: readonly string[]): void {
  if (from.length === 0) reject('cannot move the document root')
  const prefix = from.every((token, i) => token === path[i])
  if (prefix && path.length > from.length) reject('cannot move a value into itself')
  if (prefix && path.length === from.length) return void valueAt(patch, from)
  const value = remove(patch, from)
  // Moving up or sideways cannot deepen the document; moving down can.
  if (path.length > from.length) checkInsert(value, path.length, patch.maxDepth, undefined)
  add(patch, path, value)
}

function copy(patch: Patch, from: readonly string[], path: readonly string[]): void {
  const value = valueAt(patch, from)
  checkInsert(value, path.length, patch.maxDepth, patch.maxSize)
  share(patch, value)
  add(patch, path, value)
}

/** After a copy the subtree sits in two places: in-place writes would show in both, so it stops being fresh. */
function share(patch: Patch, value: unknown): void {
  if (patch.fresh.size === 0) return
  const pending = [value]
  while (pending.length > 0) {
    const node = pending.pop()
    if (!isContainer(node)) continue
    patch.fresh.delete(node)
    // A loop, not push(...children): spreading 100,000 arguments overflows the stack.
    for (const child of Array.isArray(node) ? node : Object.values(node)) pending.push(child)
  }
}

// Only called with keys that passed the FORBIDDEN check, so the `__proto__` setter is never hit. An
// array's key passed arrayIndex (digits, no leading zero), so as a property name it is that index.
function setChild(parent: Container, key: string, value: unknown): void {
  ;(parent as JsonObject)[key] = value
}
