import { AgentStoreError } from './errors'
import type { Model } from './model'
import { createAgentStore, storeModel } from './store'
import type { AgentStore, AgentStoreOptions } from './types'

// The whole model as one JSON value and back. JSON has no `undefined` and no class instances:
// both are written as tagged objects, so a restored model is the same value, field for field.

const UNDEFINED = '$agent-state:undefined'
const ERROR = '$agent-state:error'

/** The store's model as a plain JSON value: `JSON.stringify` round-trips it. */
export function snapshotModel(store: object): unknown {
  return encode(storeModel(store))
}

/** A store that continues from a model taken by `snapshotModel`. */
export function restoreModel<S>(options: AgentStoreOptions<S>, model: unknown): AgentStore<S> {
  return createAgentStore(options, decode(model) as Model<S>)
}

/** A model as a plain JSON value (`undefined` and errors tagged). */
export const encodeModel = (model: Model<unknown>): unknown => encode(model)

/** The model `encodeModel` wrote; the value is trusted: check it before if it came from outside. */
export const decodeModel = <S>(value: unknown): Model<S> => decode(value) as Model<S>

function encode(value: unknown): unknown {
  if (value === undefined) return { [UNDEFINED]: true }
  if (value instanceof AgentStoreError) {
    const { name: _name, message, ...details } = value
    return { [ERROR]: encode({ ...details, message, code: value.code }) }
  }
  if (Array.isArray(value)) return value.map(encode)
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, key, { value: encode(item), enumerable: true, writable: true, configurable: true })
  return out
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode)
  if (typeof value !== 'object' || value === null) return value
  if (Object.hasOwn(value, UNDEFINED)) return undefined
  if (Object.hasOwn(value, ERROR)) {
    const { code, message, ...details } = decode((value as Record<string, unknown>)[ERROR]) as Record<string, unknown>
    return new AgentStoreError(code as AgentStoreError['code'], message as string, details)
  }
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, key, { value: decode(item), enumerable: true, writable: true, configurable: true })
  return out
}
