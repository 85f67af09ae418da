import { AgentStoreError } from '../errors'
import { setOwn } from '../json/json-value'
import type { Model } from '../machine/model'

// The whole model as one JSON value and back. JSON has no `undefined` and no class instances:
// both are written as tagged objects, so a restored model is the same value, field for field.

const UNDEFINED = '$agent-state:undefined'
const ERROR = '$agent-state:error'

/** A model as a plain JSON value (`undefined` and errors tagged). */
export const encodeModel = (model: Model<unknown>): unknown => encode(model)

/**
 * The model `encodeModel` wrote; the value is trusted: check it before if it came from outside.
 * Equal parts become one object again, as they were in the store: its edits and drafts tell
 * "unchanged" by identity, and JSON had turned every shared part into separate copies.
 */
export const decodeModel = <S>(value: unknown): Model<S> => share(decode(value), { parts: new Map(), ids: new WeakMap(), errors: 0 }) as Model<S>

interface Sharing {
  /** Each part once, by the ids of its children. */
  readonly parts: Map<string, object>
  readonly ids: WeakMap<object, number>
  errors: number
}

/** Bottom-up: a part is keyed by its children's ids, so each part is visited once. */
function share(value: unknown, sharing: Sharing): unknown {
  if (typeof value !== 'object' || value === null) return value
  const { parts, ids } = sharing
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== Array.prototype) {
    // An error: kept as it is, under an id of its own.
    if (!ids.has(value)) ids.set(value, -++sharing.errors)
    return value
  }
  const entries = Object.entries(value).map(([key, item]) => [key, share(item, sharing)] as const)
  const key = `${Array.isArray(value) ? 'a' : 'o'}${JSON.stringify(entries.map(([k, item]) => [k, typeof item === 'object' && item !== null ? ids.get(item) : item === undefined ? 'u' : item]))}`
  const found = parts.get(key)
  if (found) return found
  let built: object
  if (Array.isArray(value)) built = entries.map(([, item]) => item)
  else {
    const record: Record<string, unknown> = {}
    for (const [k, item] of entries) setOwn(record, k, item)
    built = record
  }
  parts.set(key, built)
  ids.set(built, parts.size)
  return built
}

function encode(value: unknown): unknown {
  if (value === undefined) return { [UNDEFINED]: true }
  if (value instanceof AgentStoreError) {
    const { name: _name, message, ...details } = value
    return { [ERROR]: encode({ ...details, message, code: value.code }) }
  }
  if (Array.isArray(value)) return value.map(encode)
  if (typeof value !== 'object' || value === null) return value
  return mapValues(value, encode)
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode)
  if (typeof value !== 'object' || value === null) return value
  if (Object.hasOwn(value, UNDEFINED)) return undefined
  if (Object.hasOwn(value, ERROR)) {
    const { code, message, ...details } = decode((value as Record<string, unknown>)[ERROR]) as Record<string, unknown>
    return new AgentStoreError(code as AgentStoreError['code'], message as string, details)
  }
  return mapValues(value, decode)
}

/** A plain object with the same keys, each value mapped; a "__proto__" key stays a plain key. */
function mapValues(value: object, map: (item: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) setOwn(out, key, map(item))
  return out
}
