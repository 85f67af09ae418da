import { setOwn } from '../json/json-value'
import type { Prediction, PredictionMapping } from '../types'
import type { Draft } from './model'

/** Marks a key that did not exist: writing it removes the key. */
export const ABSENT: unique symbol = Symbol('absent')

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

/** Sets one top-level key, sharing everything else; the same object when nothing changes. */
export function withKey<S>(state: S, key: string, value: unknown): S {
  if (!isObject(state)) return state
  if (value === ABSENT) {
    if (!Object.hasOwn(state, key)) return state
    const { [key]: _removed, ...rest } = state
    return rest as S
  }
  // The value first: per token it differs, and the own-key check is then skipped.
  if (state[key] === value && Object.hasOwn(state, key)) return state
  const next: JsonObject = { ...state }
  // A key "__proto__" must become data, never a prototype change (defineProperty is slower: only then).
  // None reaches here today (PredictState skips such entries, measureJson refuses them): this is the last guard.
  if (key === '__proto__') setOwn(next, key, value)
  else next[key] = value
  return next as S
}

export const valueAt = (state: unknown, key: string): unknown => (isObject(state) && Object.hasOwn(state, key) ? state[key] : ABSENT)

/**
 * `committed` is the view with every pending key at its baseline. It keeps its previous identity
 * when nothing it holds changed, so selectors on it stay quiet while a draft streams.
 */
export function deriveCommitted<S>(view: S, drafts: readonly Draft[], previous: S): S {
  if (drafts.length === 0 || !isObject(view)) return view
  if (stillCommitted(view, drafts, previous)) return previous
  let committed: S = view
  for (const draft of drafts) committed = withKey(committed, draft.stateKey, baselineOf(draft))
  return committed
}

export const baselineOf = (draft: Draft): unknown => (draft.existed ? draft.baseline : ABSENT)

export const findDraft = (drafts: readonly Draft[], key: string): Draft | undefined => {
  for (const draft of drafts) if (draft.stateKey === key) return draft
  return undefined
}

/** Whether `previous` is still view-with-baselines, checked without building anything (runs per token). */
function stillCommitted(view: JsonObject, drafts: readonly Draft[], previous: unknown): boolean {
  if (!isObject(previous)) return false
  let count = 0
  for (const key in view) {
    if (!Object.hasOwn(view, key)) continue
    const draft = findDraft(drafts, key)
    if (draft) {
      if (!draft.existed) continue
    } else if (previous[key] !== view[key] || !Object.hasOwn(previous, key)) return false
    count++
  }
  for (const draft of drafts) {
    if (!draft.existed) {
      if (Object.hasOwn(previous, draft.stateKey)) return false
    } else {
      if (!Object.hasOwn(previous, draft.stateKey) || previous[draft.stateKey] !== draft.baseline) return false
      if (!Object.hasOwn(view, draft.stateKey)) count++
    }
  }
  for (const key in previous) if (Object.hasOwn(previous, key)) count--
  return count === 0
}

const toPrediction = (draft: Draft, value: unknown): Prediction => ({
  toolCallId: draft.toolCallId,
  tool: draft.tool,
  stateKey: draft.stateKey,
  value,
  complete: draft.complete,
})

const matches = (prediction: Prediction | undefined, draft: Draft, value: unknown) =>
  prediction !== undefined &&
  prediction.stateKey === draft.stateKey &&
  prediction.value === value &&
  prediction.toolCallId === draft.toolCallId &&
  prediction.tool === draft.tool &&
  prediction.complete === draft.complete

/** A drafted key's value as its prediction shows it: undefined while the key is absent. */
const shownValue = (view: unknown, key: string) => {
  const value = valueAt(view, key)
  return value === ABSENT ? undefined : value
}

/** One prediction per draft, in order; unchanged ones keep their identity, and so does the list. */
export function derivePredictions(view: unknown, drafts: readonly Draft[], previous: readonly Prediction[]): readonly Prediction[] {
  if (drafts.length === 0) return previous.length === 0 ? previous : []
  let predictions: Prediction[] | undefined
  for (let i = 0; i < drafts.length; i++) {
    const draft = drafts[i]!
    const value = shownValue(view, draft.stateKey)
    const old = previous[i]
    if (matches(old, draft, value)) {
      predictions?.push(old!)
      continue
    }
    predictions ??= previous.slice(0, i)
    predictions.push(toPrediction(draft, value))
  }
  if (predictions === undefined) return previous.length === drafts.length ? previous : previous.slice(0, drafts.length)
  return predictions
}
