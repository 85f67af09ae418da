import type { PartialJsonReader } from '../partial-json'
import type { Prediction, PredictionMapping } from '../types'

/** Marks a key that did not exist before its draft: discarding the draft removes it. */
export const ABSENT: unique symbol = Symbol('absent')

/** A top-level key whose value in `state` is a draft; `committed` keeps `baseline` until it is confirmed. */
export interface PendingKey {
  baseline: unknown
  runId: string | undefined
  /** The tool call whose arguments wrote it last; undefined when only the server changed it. */
  toolCallId: string | undefined
  tool: string | undefined
  toolArgument: string | undefined
  complete: boolean
}

export type Pending = ReadonlyMap<string, PendingKey>

/** What the store knows about the run in progress (or the events fed through apply() since the last run ended). */
export interface RunContext {
  runId: string | undefined
  /** From the `predict` option and this run's PredictState events. */
  mappings: PredictionMapping[]
  /** Tool calls that existed before the run: a confirmation tool call among them is not this run's. */
  toolCallsBefore: ReadonlySet<string>
  /** Values of LangGraph's CUSTOM on_interrupt events in this run. */
  onInterrupts: unknown[]
  /** Keys the user edited during this run: the user wins, so they are no longer drafted. */
  userKeys: Set<string>
  /** One incremental parser per streaming tool call that has a mapping; `length` counts its argument text. */
  readers: Map<string, { tool: string; reader: PartialJsonReader; length: number }>
}

type JsonObject = Record<string, unknown>

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)

/** PredictState's value: `[{ state_key, tool, tool_argument? }]`; anything malformed is skipped. */
export function parsePredictState(value: unknown): PredictionMapping[] {
  if (!Array.isArray(value)) return []
  const mappings: PredictionMapping[] = []
  for (const entry of value) {
    if (!isObject(entry) || typeof entry.state_key !== 'string' || typeof entry.tool !== 'string') continue
    // A state never holds an own "__proto__" key (measureJson refuses it), so no draft may write one.
    if (entry.state_key === '__proto__') continue
    const argument = entry.tool_argument
    mappings.push({
      stateKey: entry.state_key,
      tool: entry.tool,
      ...(typeof argument === 'string' ? { toolArgument: argument } : {}),
    })
  }
  return mappings
}

export function mappedKeys(run: RunContext | undefined): Set<string> {
  return new Set(run?.mappings.map((mapping) => mapping.stateKey))
}

/** Sets one top-level key, sharing everything else; the same object when nothing changes. */
export function withKey<S>(state: S, key: string, value: unknown): S {
  if (!isObject(state)) return state
  if (value === ABSENT) {
    if (!Object.hasOwn(state, key)) return state
    const { [key]: _removed, ...rest } = state
    return rest as S
  }
  if (Object.hasOwn(state, key) && state[key] === value) return state
  const next: JsonObject = { ...state }
  // A key "__proto__" must become data, never a prototype change (defineProperty is slower: only then).
  if (key === '__proto__') Object.defineProperty(next, key, { value, enumerable: true, writable: true, configurable: true })
  else next[key] = value
  return next as S
}

export const valueAt = (state: unknown, key: string): unknown => (isObject(state) && Object.hasOwn(state, key) ? state[key] : ABSENT)

/**
 * `committed` is the view with every pending key at its baseline. It keeps its previous identity
 * when nothing it holds changed, so selectors on it stay quiet while a draft streams.
 */
export function deriveCommitted<S>(view: S, pending: Pending, previous: S): S {
  if (pending.size === 0 || !isObject(view)) return view
  if (stillCommitted(view, pending, previous)) return previous
  let committed: S = view
  for (const [key, entry] of pending) committed = withKey(committed, key, entry.baseline)
  return committed
}

/** Whether `previous` is still view-with-baselines, checked without building anything (runs per token). */
function stillCommitted(view: JsonObject, pending: Pending, previous: unknown): boolean {
  if (!isObject(previous)) return false
  let count = 0
  for (const key in view) {
    if (!Object.hasOwn(view, key)) continue
    const entry = pending.get(key)
    if (entry) {
      if (entry.baseline === ABSENT) continue
    } else if (previous[key] !== view[key] || !Object.hasOwn(previous, key)) return false
    count++
  }
  for (const [key, entry] of pending) {
    if (entry.baseline === ABSENT) {
      if (Object.hasOwn(previous, key)) return false
    } else {
      if (!Object.hasOwn(previous, key) || previous[key] !== entry.baseline) return false
      if (!Object.hasOwn(view, key)) count++
    }
  }
  for (const key in previous) if (Object.hasOwn(previous, key)) count--
  return count === 0
}

export function derivePredictions(view: unknown, pending: Pending, previous: readonly Prediction[]): readonly Prediction[] {
  if (pending.size === 0) return previous.length === 0 ? previous : []
  // One draft growing, the usual case: no walk over the map.
  const only = previous.length === 1 && pending.size === 1 ? previous[0]! : undefined
  const entry = only && pending.get(only.stateKey)
  if (only && entry) {
    const value = valueAt(view, only.stateKey)
    if (only.value === value && only.toolCallId === entry.toolCallId && only.complete === entry.complete) return previous
    return [{ toolCallId: entry.toolCallId, tool: entry.tool, stateKey: only.stateKey, value: value === ABSENT ? undefined : value, complete: entry.complete }]
  }
  let predictions: Prediction[] | undefined
  let i = 0
  for (const [stateKey, entry] of pending) {
    const value = valueAt(view, stateKey)
    const old = previous[i]
    const same = old !== undefined && old.stateKey === stateKey && old.value === value && old.toolCallId === entry.toolCallId && old.complete === entry.complete
    if (!same && predictions === undefined) predictions = previous.slice(0, i)
    predictions?.push(
      same ? old : { toolCallId: entry.toolCallId, tool: entry.tool, stateKey, value: value === ABSENT ? undefined : value, complete: entry.complete },
    )
    i++
  }
  if (predictions === undefined && previous.length === pending.size) return previous
  return predictions ?? previous.slice(0, i)
}
