// The shapes of AG-UI 1.0's parts, written out rule for rule as @ag-ui/core's zod schemas state
// them, so the store checks what it receives without shipping zod. Verdicts, the path of the first
// problem and its wording are the schemas' own: test/protocol-shapes.property.test.ts holds both
// against each other on generated valid and invalid values. Every object is open (the schemas'
// looseObject): unknown keys pass and are kept, and nothing is coerced, since the store keeps the
// value it was given, never a parsed copy.

/** The first rule a value breaks: where (from the outside in) and why, worded as the schemas word it. */
export interface Misfit {
  path: (string | number)[]
  message: string
}

/** Checks a value; returns its first misfit, or undefined when it fits. */
export type Shape = (value: unknown) => Misfit | undefined

const misfit = (message: string): Misfit => ({ path: [], message })
const invalid = () => misfit('Invalid input')

/** The name the schemas give the type of a value they did not expect. */
function received(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : 'number'
  if (typeof value !== 'object') return typeof value
  // Any other object is named by its constructor, as the schemas name it (Date, Map).
  const maker = (value as { constructor?: { name?: unknown } }).constructor
  return Object.getPrototypeOf(value) !== Object.prototype && maker ? `${maker.name}` : 'object'
}

const expected = (what: string, value: unknown) => misfit(`Invalid input: expected ${what}, received ${received(value)}`)

/** Any object but null or an array, as the schemas read "object" (a Date passes too). */
export const isObjectLike = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

export const string: Shape = (value) => (typeof value === 'string' ? undefined : expected('string', value))
export const boolean: Shape = (value) => (typeof value === 'boolean' ? undefined : expected('boolean', value))
/** Any value but undefined: a required field that may hold anything. */
export const defined: Shape = (value) => (value === undefined ? invalid() : undefined)
/** Any value but null: an optional field that may hold anything once present. */
export const notNull: Shape = (value) => (value === null ? invalid() : undefined)
/** An object of any keys, as the schemas' `z.custom` object check. */
export const record: Shape = (value) => (isObjectLike(value) ? undefined : invalid())

export const optional =
  (shape: Shape): Shape =>
  (value) =>
    value === undefined ? undefined : shape(value)

export const literal =
  (wanted: string): Shape =>
  (value) =>
    value === wanted ? undefined : misfit(`Invalid input: expected "${wanted}"`)

export function oneOf(...allowed: string[]): Shape {
  const message = `Invalid option: expected one of ${allowed.map((value) => `"${value}"`).join('|')}`
  return (value) => (allowed.includes(value as string) ? undefined : misfit(message))
}

/** A safe integer of at least `min`, with the schemas' `z.int()` wording for each way to miss. */
export function integer(min: number): Shape {
  const most = Number.MAX_SAFE_INTEGER
  return (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return expected('number', value)
    if (!Number.isInteger(value)) return expected('int', value)
    if (value > most) return misfit(`Too big: expected int to be <${most}`)
    if (value < -most) return misfit(`Too small: expected int to be >${-most}`)
    if (value < min) return misfit(`Too small: expected number to be >=${min}`)
    return undefined
  }
}

const within = (found: Misfit, key: string | number): Misfit => {
  found.path.unshift(key)
  return found
}

export function list(item: Shape, least = 0): Shape {
  return (value) => {
    if (!Array.isArray(value)) return expected('array', value)
    for (let i = 0; i < value.length; i++) {
      const found = item(value[i])
      if (found) return within(found, i)
    }
    return value.length < least ? misfit(`Too small: expected array to have >=${least} items`) : undefined
  }
}

/** An open object: these fields checked in this order (the schemas' order), any other key kept. */
export function object(fields: Record<string, Shape>): Shape {
  const keys = Object.keys(fields)
  const shapes = Object.values(fields)
  return (value) => {
    if (!isObjectLike(value)) return expected('object', value)
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string
      const found = (shapes[i] as Shape)(value[key])
      if (found) return within(found, key)
    }
    return undefined
  }
}

/** One of several objects, told apart by the string at `key`; each variant's own fields follow it. */
export function variants(key: string, byName: Record<string, Shape>): Shape {
  const known = new Map(Object.entries(byName))
  return (value) => {
    if (!isObjectLike(value)) return expected('object', value)
    const variant = known.get(value[key] as string)
    if (variant === undefined) return within(invalid(), key)
    return variant(value)
  }
}

const id = string
const maybeString = optional(string)
const metadata = optional(record)

// A JSON Pointer (RFC 6901): empty, or slash-led tokens where "~" escapes only "0" and "1".
export const pointerPattern = /^(\/([^/~]|~[01])*)*$/
const pointer: Shape = (value) =>
  string(value) ?? (pointerPattern.test(value as string) ? undefined : misfit(`Invalid string: must match pattern ${pointerPattern}`))

const valued = object({ path: pointer, value: defined })
const sourced = object({ from: pointer, path: pointer })
/** An RFC 6902 patch: STATE_DELTA's delta and ACTIVITY_DELTA's patch. */
export const jsonPatch = list(variants('op', { add: valued, remove: object({ path: pointer }), replace: valued, move: sourced, copy: sourced, test: valued }))

const media = object({
  id: maybeString,
  source: variants('type', {
    data: object({ value: string, mimeType: string }),
    url: object({ value: string, mimeType: maybeString }),
    file: object({ value: string, provider: maybeString, mimeType: maybeString }),
  }),
  metadata: optional(notNull),
})

const contentPart = variants('type', {
  text: object({ id: maybeString, text: string, metadata: optional(notNull) }),
  image: media,
  audio: media,
  video: media,
  document: media,
})

const contentParts = list(contentPart)

/**
 * A user or tool message's content, and TOOL_CALL_RESULT's: text, or a list of parts. When neither
 * fits, the schemas report the union as a whole, without detail.
 */
export const textOrParts: Shape = (value) => (typeof value === 'string' || contentParts(value) === undefined ? undefined : invalid())

const toolCall = object({
  id,
  type: literal('function'),
  function: object({ name: string, arguments: string }),
  encryptedValue: maybeString,
  metadata,
})

const named = { subagentRunId: maybeString, id, name: maybeString, encryptedValue: maybeString, metadata }

export const message = variants('role', {
  developer: object({ ...named, content: string }),
  system: object({ ...named, content: string }),
  assistant: object({ ...named, content: maybeString, toolCalls: optional(list(toolCall)) }),
  user: object({ ...named, content: textOrParts }),
  tool: object({
    subagentRunId: maybeString,
    id,
    content: textOrParts,
    toolCallId: string,
    error: maybeString,
    encryptedValue: maybeString,
    metadata,
  }),
  activity: object({ subagentRunId: maybeString, id, activityType: string, content: record, metadata }),
  reasoning: object({ subagentRunId: maybeString, id, content: string, encryptedValue: maybeString, metadata }),
})

export const tool = object({ name: string, description: string, parameters: optional(notNull), metadata })
export const context = object({ description: string, value: string })
export const resumeEntry = object({
  interruptId: string,
  status: oneOf('resolved', 'cancelled'),
  payload: optional(notNull),
  metadata,
})
