import { AgentStoreError } from '../errors'
import { setOwn } from '../json/json-value'
import type { Model } from '../machine/model'

// The whole model as one JSON value and back. JSON has no `undefined` and no class instances:
// both are written as tagged objects, so a restored model is the same value, field for field.

const UNDEFINED = '$agent-state:undefined'
const ERROR = '$agent-state:error'
// The conversation tree keeps, for every user message sent and every branch away from the view, a
// state that shares most of its parts with the others. JSON would copy each in full, so in the tree
// a part already written in the tree or in the snapshot is written as the path of that place (not a
// place in the run or request: those go when a run ends, or when an older thread is read).
const REF = '$agent-state:ref'

type Path = readonly string[]

/** A model as a plain JSON value (`undefined` and errors tagged; in the tree, a part written before as its path). */
export function encodeModel(model: Model<unknown>): unknown {
  // The devtools write other values (inputs, options) the same way: only a model's tree refers back.
  if (!isRecord(model) || model.tree === undefined) return encode(model)
  const { tree, ...body } = model
  const places = new Map<object, Path>()
  remember(body.snapshot, ['snapshot'], places)
  return { ...(encode(body) as Record<string, unknown>), tree: encodeTree(tree, ['tree'], places) }
}

/** Where each part of `value` is first written. */
function remember(value: unknown, path: Path, places: Map<object, Path>): void {
  if (typeof value !== 'object' || value === null || places.has(value) || value instanceof AgentStoreError) return
  places.set(value, path)
  for (const [key, item] of Object.entries(value)) remember(item, [...path, key], places)
}

function encodeTree(value: unknown, path: Path, places: Map<object, Path>): unknown {
  if (typeof value !== 'object' || value === null || value instanceof AgentStoreError) return encode(value)
  const at = places.get(value)
  // An empty part is shorter written again than referred to.
  if (at !== undefined && Object.keys(value).length > 0) return { [REF]: at }
  places.set(value, path)
  if (Array.isArray(value)) return value.map((item, index) => encodeTree(item, [...path, String(index)], places))
  return mapValues(value, (item, key) => encodeTree(item, [...path, key], places))
}

/**
 * The model `encodeModel` wrote; the value is trusted: check it before if it came from outside.
 * Equal parts become one object again, as they were in the store: its edits and drafts tell
 * "unchanged" by identity, and JSON had turned every shared part into separate copies.
 */
export const decodeModel = <S>(value: unknown): Model<S> => {
  const decoded = decode(value) as Record<string, unknown>
  if (isRecord(value) && isRecord(decoded) && isRecord(value.tree)) decoded.tree = decodeTree(value.tree, decoded)
  return share(decoded, { parts: new Map(), ids: new WeakMap(), errors: 0, done: new Map() }) as Model<S>
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The tree, its references read from the model decoded so far (the body, then the tree as it is built). */
function decodeTree(value: unknown, model: Record<string, unknown>): unknown {
  const built = new Map<string, unknown>()
  const at = (path: unknown): unknown => {
    if (!Array.isArray(path)) throw new TypeError('a reference that is not a path')
    if (path[0] === 'tree' && built.has(JSON.stringify(path))) return built.get(JSON.stringify(path))
    let part: unknown = model
    for (const key of path) part = isRecord(part) || Array.isArray(part) ? (part as Record<string, unknown>)[key] : undefined
    if (typeof part !== 'object' || part === null) throw new TypeError(`a reference to ${JSON.stringify(path)}, where nothing was written`)
    return part
  }
  const walk = (item: unknown, path: string[]): unknown => {
    if (isRecord(item) && Object.hasOwn(item, REF)) return at(item[REF])
    if (typeof item !== 'object' || item === null || Object.hasOwn(item, UNDEFINED) || Object.hasOwn(item, ERROR)) return decode(item)
    const part = Array.isArray(item)
      ? item.map((child, index) => walk(child, [...path, String(index)]))
      : mapValues(item, (child, key) => walk(child, [...path, key]))
    built.set(JSON.stringify(path), part)
    return part
  }
  return walk(value, ['tree'])
}

interface Sharing {
  /** Each part once, by the ids of its children. */
  readonly parts: Map<string, object>
  readonly ids: WeakMap<object, number>
  errors: number
  /** What each part met already became: a part the tree refers to is met again. */
  readonly done: Map<object, unknown>
}

/** Bottom-up: a part is keyed by its children's ids, so each part is visited once. */
function share(value: unknown, sharing: Sharing): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (sharing.done.has(value)) return sharing.done.get(value)
  const shared = shareOnce(value, sharing)
  sharing.done.set(value, shared)
  return shared
}

function shareOnce(value: object, sharing: Sharing): unknown {
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
function mapValues(value: object, map: (item: unknown, key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) setOwn(out, key, map(item, key))
  return out
}
