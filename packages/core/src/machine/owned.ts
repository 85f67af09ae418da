import { setOwn } from '../json/json-value'

// Values handed to the store (apply's events, setState, approve's edits, respond's payload, run's
// messages) are owned by it: mutating them afterwards changes nothing in the store.

/**
 * An event handed to apply(), with its object fields copied. Events from the network (run()) are
 * never aliased by anyone and are not copied.
 */
export function ownEvent(event: unknown): unknown {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return event
  // The streamed tokens leave only their strings in the model, so nothing of them needs a copy;
  // reading their fields by name would cost more than the rest of ownEvent (bench/hand-tuned.ts).
  if (isStreamedToken(event)) return event
  let copy: Record<string, unknown> | undefined
  // for…in, not Object.entries: no array per event.
  for (const key in event) {
    const value = (event as Record<string, unknown>)[key]
    if (typeof value !== 'object' || value === null || !Object.hasOwn(event, key)) continue
    if (key === 'delta' && isFlatPatch(value)) continue
    copy ??= { ...event }
    copy[key] = copyOwned(value, undefined, 0)
  }
  return copy ?? event
}

/**
 * The events that stream by the thousand: a text, reasoning or argument chunk. Read here, before
 * the event is checked, by its string; the transition marks the same steps by the type's constant.
 */
function isStreamedToken(event: unknown): boolean {
  const type = (event as { type?: unknown } | null)?.type
  return type === 'TEXT_MESSAGE_CONTENT' || type === 'TOOL_CALL_ARGS' || type === 'REASONING_MESSAGE_CONTENT'
}

/**
 * A STATE_DELTA whose ops' values are all primitives: nothing in it can alias the state, since an
 * op's `value` is the only part of it that enters the state (`from` and `path` are strings).
 */
function isFlatPatch(delta: unknown): boolean {
  if (!Array.isArray(delta)) return false
  for (const op of delta) {
    if (typeof op !== 'object' || op === null) return false
    const value = (op as { value?: unknown }).value
    if (typeof value === 'object' && value !== null) return false
  }
  return true
}

/** A value checked as JSON already: the containers not shared with `previous` are copied. */
export function ownCopy<T>(value: T, previous: unknown): T {
  if (value === previous || typeof value !== 'object' || value === null) return value
  const shared = new Set<unknown>()
  collect(previous, shared, 0)
  return copyOwned(value, shared, 0) as T
}

// The containers of the previous state, one level per top-level key is enough to find what is shared.
function collect(value: unknown, into: Set<unknown>, depth: number) {
  if (typeof value !== 'object' || value === null || depth > 2) return
  into.add(value)
  for (const child of Array.isArray(value) ? value : Object.values(value)) collect(child, into, depth + 1)
}

// Deeper than any state the limits allow: left as it is, to be refused by the event's checks.
const COPY_DEPTH = 1024

/** Plain objects and arrays copied, except `shared` ones; anything else (a Date, say) is left for the checks to refuse. */
function copyOwned(value: unknown, shared: ReadonlySet<unknown> | undefined, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > COPY_DEPTH || shared?.has(value)) return value
  if (Array.isArray(value)) return value.map((item) => copyOwned(item, shared, depth + 1))
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return value
  const copy: Record<string, unknown> = {}
  // setOwn: a "__proto__" key stays a plain key.
  for (const [key, item] of Object.entries(value)) setOwn(copy, key, copyOwned(item, shared, depth + 1))
  return copy
}
