import { AgentStoreError } from '../errors'
import { applyPatch } from '../json/json-patch'
import { type JsonMisfit, jsonStringSize, measureJson, replaceEqualDeep } from '../json/json-value'
import type { AgentStoreLimits, StateValidator } from '../types'

/** How the store judges a new state: its limits and the user's validator. */
export interface StateRules<S> {
  limits: AgentStoreLimits
  validate: ((value: unknown) => S) | undefined
  /**
   * The last state this store measured, with its size (an upper bound on its JSON's length), so a
   * delta is checked against maxStateBytes without measuring the whole document again: a delta
   * costs what it touches. One slot per store rather than a WeakMap of every state: a WeakMap
   * write per delta costs more than the rest of the size check (bench/hand-tuned.ts), and a state
   * the store did not just measure (after a rollback, say) costs one exact measurement, then sits in the slot.
   */
  sized?: { value: unknown; size: number }
}

/** The size of an accepted state, as remembered (an upper bound on its JSON's length). */
export function stateSize(value: unknown, rules: StateRules<unknown>): number {
  // An upper bound without reading the string (every character escapes to at most 6): a long
  // document replaced delta by delta must not be scanned each time; the exact size is measured
  // only when the bound passes the limit.
  if (typeof value === 'string') return value.length * 6 + 2
  const slot = rules.sized
  if (slot !== undefined && slot.value === value) return slot.size
  const measured = measureJson(value, rules.limits.maxDepth + 1)
  const size = measured.ok ? measured.size : Number.POSITIVE_INFINITY
  remember(value, size, rules)
  return size
}

function remember(value: unknown, size: number, rules: StateRules<unknown>) {
  // Written in place: no allocation per delta.
  const slot = rules.sized
  if (slot) {
    slot.value = value
    slot.size = size
  } else rules.sized = { value, size }
}

export function toValidator<S>(validate: StateValidator<S> | undefined): ((value: unknown) => S) | undefined {
  // A function, or none, is the validator itself.
  if (typeof validate !== 'object') return validate
  const standard = validate['~standard']
  return (value) => {
    const result = standard.validate(value)
    if (result instanceof Promise) throw new AgentStoreError('VALIDATION', 'State validators must be synchronous')
    const outcome = result as { value?: S; issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<unknown> }> }
    if (outcome.issues) {
      const first = outcome.issues[0]
      const where = first?.path?.length ? ` at ${first.path.map((p) => String(typeof p === 'object' && p !== null && 'key' in p ? p.key : p)).join('.')}` : ''
      throw new AgentStoreError('VALIDATION', `State rejected by the schema${where}: ${first?.message ?? 'invalid'}`)
    }
    return outcome.value as S
  }
}

/**
 * Runs the user's validator on a state the store is about to commit. It is a check: a validator
 * that returns a copy (zod's parse does) must not cost the state its structural sharing.
 */
export function checkState<S>(value: S, rules: StateRules<S>): void {
  if (!rules.validate) return
  try {
    rules.validate(value)
  } catch (error) {
    if (error instanceof AgentStoreError) throw error
    throw new AgentStoreError('VALIDATION', `State rejected by the validator: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}

/** A value beyond the state's limits: LIMIT_EXCEEDED for its depth or size, INVALID_STATE when it is not plain JSON. */
export function measureError(measured: JsonMisfit, source: string, details: { eventType?: string } = {}): AgentStoreError {
  const { kind, path } = measured
  const message = `${source}: ${measured.reason}`
  if (kind === 'depth' || kind === 'size')
    return new AgentStoreError('LIMIT_EXCEEDED', message, { ...details, limit: kind === 'depth' ? 'maxDepth' : 'maxStateBytes', path })
  return new AgentStoreError('INVALID_STATE', message, { ...details, path })
}

/** A whole new state (STATE_SNAPSHOT, setState, reset): checked against the limits, sharing every unchanged subtree with `previous`. */
export function acceptState<S>(previous: S, next: unknown, rules: StateRules<S>, source: string): S {
  const { maxDepth, maxStateBytes } = rules.limits
  const measured = measureJson(next, maxDepth, maxStateBytes)
  if (!measured.ok) throw measureError(measured, source)
  const shared = replaceEqualDeep(previous, next)
  remember(shared, measured.size, rules)
  return shared as S
}

/**
 * A JSON Patch (STATE_DELTA, ACTIVITY_DELTA) under the store's limits, all of it or none of it; a
 * failure throws, named `${name} op i (op path)${on}`.
 */
export function patchWithin<T>(document: T, operations: readonly unknown[], limits: AgentStoreLimits, source: PatchSource): { value: T; changed: boolean } {
  const { maxDepth, maxOpsPerDelta, maxStateBytes } = limits
  const result = applyPatch(document, operations, { maxDepth, maxOps: maxOpsPerDelta, maxSize: maxStateBytes })
  if (result.ok) return result
  const where = `${source.name} op ${result.opIndex} (${result.op} ${result.path})${source.on ?? ''}`
  const details = { ...source.details, opIndex: result.opIndex, op: result.op, path: result.path }
  if (result.limit) throw new AgentStoreError('LIMIT_EXCEEDED', `${where}: ${result.reason}`, { ...details, limit: result.limit })
  throw new AgentStoreError('PATCH_FAILED', `${where} failed: ${result.reason}`, details)
}

/** What a patch is, for its errors: the event's name, what it patches (` on "id"`), details every error carries. */
export interface PatchSource {
  name: string
  on?: string
  details?: { eventType?: string }
}

/** A STATE_DELTA: all of it or none of it. */
export function applyDelta<S>(current: S, operations: readonly unknown[], rules: StateRules<S>): S {
  const { maxDepth, maxStateBytes } = rules.limits
  const result = patchWithin(current, operations, rules.limits, { name: 'STATE_DELTA' })
  if (!result.changed) return current
  // An upper bound: the previous size plus everything inserted, each with its key, quotes, colon
  // and comma. Only when that bound passes the limit is the result measured exactly, so a stream
  // of small deltas never pays O(state) each.
  let bound = stateSize(current, rules)
  for (const operation of operations) {
    const { op, path, value } = operation as { op: string; path: string; value?: unknown }
    if (op === 'copy') bound = Number.POSITIVE_INFINITY
    if (op !== 'add' && op !== 'replace' && op !== 'move') continue
    bound += jsonStringSize(path.slice(path.lastIndexOf('/') + 1)) + 2
    if (value !== undefined && op !== 'move') bound += stateSize(value, rules)
  }
  let size = bound
  if (bound > maxStateBytes) {
    const measured = measureJson(result.value, maxDepth, maxStateBytes)
    if (!measured.ok) {
      throw new AgentStoreError('LIMIT_EXCEEDED', `STATE_DELTA: the state would exceed maxStateBytes (${maxStateBytes})`, { limit: 'maxStateBytes' })
    }
    size = measured.size
  }
  remember(result.value, size, rules)
  return result.value as S
}
