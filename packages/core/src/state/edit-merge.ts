import { AgentStoreError } from '../errors'
import { deepEqual, escapeToken, isPlainObject, setOwn } from '../json/json-value'

// A user's edit made while a run streams is kept as a pair: the state it was made against
// (`base`) and the state with the edit (`mine`). When the server's state moves on, the edit is
// rebased: a three-way merge of base, mine and the server's new state. Array elements are followed
// by an id-like field when they have one, otherwise by a longest common subsequence of the
// arrays, so an edit never lands on another element; an element that is gone (or that the
// server changed, when there is no id to follow it by) is an EDIT_CONFLICT carrying the user's value.

export interface Edit {
  /** The server state the edit is relative to. */
  readonly base: unknown
  /** `base` with the user's changes. */
  readonly mine: unknown
  /** Top-level keys the user took over from a draft: their value is the user's, whole. */
  readonly whole: readonly string[]
}

export interface MergeOptions {
  /** Fields that identify array elements, tried in order (default `['id', 'key']`). */
  readonly arrayKeys: readonly string[]
}

export interface Merged {
  readonly value: unknown
  readonly conflicts: readonly AgentStoreError[]
}

type JsonObject = Record<string, unknown>

const ABSENT = Symbol('absent')

/** `theirs` with the changes that turned `base` into `mine`. */
export function mergeEdit(base: unknown, mine: unknown, theirs: unknown, options: MergeOptions, whole: readonly string[] = []): Merged {
  const conflicts: AgentStoreError[] = []
  const value = merge(base, mine, theirs, '', { options, conflicts, whole }, false)
  return { value, conflicts }
}

interface Context {
  options: MergeOptions
  conflicts: AgentStoreError[]
  /** Top-level keys taken whole; only read at the root. */
  whole: readonly string[]
}

function merge(base: unknown, mine: unknown, theirs: unknown, path: string, context: Context, inElement: boolean): unknown {
  if (mine === base) return theirs
  if (theirs === base || theirs === mine) return mine
  if (isPlainObject(base) && isPlainObject(mine) && isPlainObject(theirs)) return mergeObjects(base, mine, theirs, path, context, inElement)
  if (Array.isArray(base) && Array.isArray(mine) && Array.isArray(theirs)) return mergeArrays(base, mine, theirs, path, context)
  if (!inElement) return mine
  // Inside an array element both sides changed: the agent's value stays, the user's is handed back.
  conflict(context, path, mine, 'changed', 'the agent changed the same value')
  return theirs
}

/** `changed`: the agent changed what the edit changed or removed; `removed`: the agent removed what the edit changed. */
type ConflictReason = AgentStoreError<'EDIT_CONFLICT'>['reason']

function conflict(context: Context, path: string, value: unknown, reason: ConflictReason, why: string) {
  context.conflicts.push(
    new AgentStoreError('EDIT_CONFLICT', `Your edit at ${path || '/'} was not applied: ${why}`, {
      path,
      ...(value === ABSENT ? {} : { value }),
      reason,
    }),
  )
}

const own = (object: JsonObject, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : ABSENT)

/** The keys of `a` and then those of `b` that `a` lacks, in order. */
const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])]

/** The keys whose own values differ between two objects: `a`'s in order, then `b`'s. */
const changedKeys = (a: JsonObject, b: JsonObject) => union(Object.keys(a), Object.keys(b)).filter((key) => own(a, key) !== own(b, key))

/**
 * Keys the user changed win over the agent's changes to them, except where the agent removed the
 * key (the edit has nowhere to go) and inside array elements (an element both changed is a conflict).
 */
function mergeObjects(base: JsonObject, mine: JsonObject, theirs: JsonObject, path: string, context: Context, inElement: boolean): JsonObject {
  let out: JsonObject | undefined
  const write = (key: string, value: unknown) => {
    if (own(out ?? theirs, key) === value) return
    out ??= { ...theirs }
    if (value === ABSENT) delete out[key]
    else setOwn(out, key, value)
  }
  // A key the user took over from a draft is the user's, whole.
  const whole = path === '' ? context.whole : []
  for (const key of changedKeys(mine, base)) {
    const before = own(base, key)
    const after = own(mine, key)
    const server = own(theirs, key)
    const at = `${path}/${escapeToken(key)}`
    if (whole.includes(key) || server === before) write(key, after)
    else if (server === after) continue
    else if (server === ABSENT) conflict(context, at, after, 'removed', 'the agent removed it')
    else if (after !== ABSENT && before !== ABSENT) write(key, merge(before, after, server, at, context, inElement))
    else if (inElement) conflict(context, at, after, 'changed', 'the agent changed it')
    else write(key, after)
  }
  return out ?? theirs
}

/** Where a changed element differs, when it is one value deep inside it: that path and value name a conflict best. */
function changedLeaf(before: unknown, after: unknown, path: string): { path: string; value: unknown } {
  while (isPlainObject(before) && isPlainObject(after)) {
    const changed = changedKeys(before, after)
    if (changed.length !== 1) break
    const key = changed[0]!
    path = `${path}/${escapeToken(key)}`
    before = own(before, key)
    after = own(after, key)
  }
  return { path, value: after }
}

// Where each element of `from` is in `to`, or -1.
type Matching = Int32Array

const unmatched = (size: number): Matching => new Int32Array(size).fill(-1)

function mergeArrays(base: unknown[], mine: unknown[], theirs: unknown[], path: string, context: Context): unknown[] {
  const idField = commonIdField(context.options.arrayKeys, base, mine, theirs)
  const match = (to: unknown[]) => (idField ? matchById(base, to, idField) : matchBySequence(base, to))
  // Without ids, a changed element shows as unmatched on both sides: paired, it is a modification.
  const modifications = (toNew: Matching, size: number) => (idField ? unmatched(size) : pairModifications(toNew, invert(toNew, size)))
  const toMine = match(mine)
  const toTheirs = match(theirs)
  const fromMine = invert(toMine, mine.length)
  const modifies = modifications(toMine, mine.length)
  const modifiedBy = invert(modifies, base.length)
  const changedByAgent = invert(modifications(toTheirs, theirs.length), base.length)

  // theirs with the user's changes to its elements; ABSENT where the user deleted one.
  const result: unknown[] = theirs.slice()
  // The user changed element b (at m in their array), and the agent removed or changed it.
  const lost = (b: number, m: number, reason: ConflictReason) => {
    const leaf = changedLeaf(base[b], mine[m], `${path}/${m}`)
    conflict(context, leaf.path, leaf.value, reason, reason === 'removed' ? 'the element it changed is gone' : 'the agent changed the same element')
  }

  // Changes to elements that were there: modifications and deletions.
  for (let b = 0; b < base.length; b++) {
    const inMine = toMine[b]!
    const inTheirs = toTheirs[b]!
    if (inMine !== -1) {
      if (mine[inMine] === base[b]) continue
      if (inTheirs === -1) lost(b, inMine, 'removed')
      else result[inTheirs] = merge(base[b], mine[inMine], theirs[inTheirs], `${path}/${inMine}`, context, true)
    } else if (modifiedBy[b] !== -1) {
      const m = modifiedBy[b]!
      if (inTheirs !== -1) result[inTheirs] = mine[m]
      else lost(b, m, changedByAgent[b] !== -1 ? 'changed' : 'removed')
    } else if (inTheirs !== -1 && (!idField || deepEqual(base[b], theirs[inTheirs]))) {
      // Deleted by the user: gone too, unless the agent changed it in the meantime.
      result[inTheirs] = ABSENT
    } else if (inTheirs !== -1 || changedByAgent[b] !== -1) conflict(context, `${path}/${b}`, ABSENT, 'changed', 'the agent changed the element you removed')
  }

  // Elements the user added go after the element they followed in the user's array; what the
  // user appended stays at the end.
  let tail = mine.length
  while (tail > 0 && fromMine[tail - 1] === -1 && modifies[tail - 1] === -1) tail--
  const after: unknown[][] = Array.from({ length: theirs.length + 1 }, () => [])
  let anchor = 0
  for (let m = 0; m < mine.length; m++) {
    const b = fromMine[m] !== -1 ? fromMine[m]! : modifies[m]!
    if (b !== -1) {
      if (toTheirs[b] !== -1) anchor = toTheirs[b]! + 1
    } else after[m >= tail ? theirs.length : anchor]!.push(mine[m])
  }
  const out: unknown[] = [...after[0]!]
  for (let t = 0; t < theirs.length; t++) {
    if (result[t] !== ABSENT) out.push(result[t])
    out.push(...after[t + 1]!)
  }
  return out.length === theirs.length && out.every((value, i) => value === theirs[i]) ? theirs : out
}

/** The first of `fields` that every element of the three arrays has, with a unique primitive value per array. */
function commonIdField(fields: readonly string[], ...arrays: unknown[][]): string | undefined {
  return fields.find((field) =>
    arrays.every((array) => {
      const seen = new Set<unknown>()
      for (const element of array) {
        if (!isPlainObject(element) || !Object.hasOwn(element, field)) return false
        const id = element[field]
        if ((typeof id !== 'string' && typeof id !== 'number') || seen.has(id)) return false
        seen.add(id)
      }
      return true
    }),
  )
}

function matchById(from: unknown[], to: unknown[], field: string): Matching {
  const index = new Map<unknown, number>()
  for (let i = 0; i < to.length; i++) index.set((to[i] as JsonObject)[field], i)
  return Int32Array.from(from, (element) => index.get((element as JsonObject)[field]) ?? -1)
}

// The identity test is a shortcut: deepEqual is true for identical values.
const same = (a: unknown, b: unknown) => a === b || deepEqual(a, b)

// Above this many cells the middle of two arrays is not compared pairwise: elements there count
// as unmatched, so an edit in it is a conflict rather than a guess.
const MAX_CELLS = 250_000

/**
 * A longest common subsequence of equal elements (common prefix and suffix first, then a table
 * over the middle). Written here: the arrays of one state are small, and a diff library's
 * general machinery (strings, options, callbacks) would cost more bytes than this function.
 */
export function matchBySequence(from: unknown[], to: unknown[]): Matching {
  const match = unmatched(from.length)
  let start = 0
  while (start < from.length && start < to.length && same(from[start], to[start])) match[start] = start++
  let endFrom = from.length
  let endTo = to.length
  while (endFrom > start && endTo > start && same(from[endFrom - 1], to[endTo - 1])) match[--endFrom] = --endTo
  const rows = endFrom - start
  const columns = endTo - start
  if (rows === 0 || columns === 0 || rows * columns > MAX_CELLS) return match
  // lengths[i][j]: LCS of from[start + i..] and to[start + j..].
  const lengths = new Uint32Array((rows + 1) * (columns + 1))
  const at = (i: number, j: number) => i * (columns + 1) + j
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = columns - 1; j >= 0; j--) {
      lengths[at(i, j)] = same(from[start + i], to[start + j]) ? lengths[at(i + 1, j + 1)]! + 1 : Math.max(lengths[at(i + 1, j)]!, lengths[at(i, j + 1)]!)
    }
  }
  for (let i = 0, j = 0; i < rows && j < columns; ) {
    if (same(from[start + i], to[start + j]) && lengths[at(i, j)] === lengths[at(i + 1, j + 1)]! + 1) {
      match[start + i] = start + j
      i++
      j++
    } else if (lengths[at(i + 1, j)]! >= lengths[at(i, j + 1)]!) i++
    else j++
  }
  return match
}

function invert(match: Matching, size: number): Matching {
  const inverse = unmatched(size)
  for (let from = 0; from < match.length; from++) if (match[from]! !== -1) inverse[match[from]!] = from
  return inverse
}

/**
 * Without ids, a changed element shows as one removed and one added between the same matched
 * neighbours: paired in order, those are modifications of the element, not a deletion plus an insertion.
 * Returns, for each element of the new array, the old element it modifies, or -1.
 */
function pairModifications(toNew: Matching, fromNew: Matching): Matching {
  const modifies = unmatched(fromNew.length)
  for (let oldIndex = 0, newIndex = 0; oldIndex < toNew.length || newIndex < fromNew.length; ) {
    const removed = oldIndex < toNew.length && toNew[oldIndex] === -1
    const added = newIndex < fromNew.length && fromNew[newIndex] === -1
    if (removed && added) modifies[newIndex++] = oldIndex++
    else if (removed) oldIndex++
    else if (added) newIndex++
    else {
      // Both are matched elements, matched to each other: step over them.
      oldIndex++
      newIndex++
    }
  }
  return modifies
}

/**
 * The user's edit as a value relative to `server`: the top-level keys they just changed take the
 * value they set (it is what they saw and meant); later server changes are merged into it.
 */
export function recordEdit(previous: Edit | undefined, server: unknown, next: unknown, touched: readonly string[] | '*', whole: readonly string[]): Edit {
  let mine = previous ? previous.mine : server
  if (touched === '*' || !isPlainObject(mine) || !isPlainObject(next)) mine = next
  else {
    const copy: JsonObject = { ...mine }
    for (const key of touched) {
      if (Object.hasOwn(next, key)) setOwn(copy, key, next[key])
      else delete copy[key]
    }
    mine = copy
  }
  return { base: server, mine, whole: previous ? union(previous.whole, whole) : whole }
}

/** The edit carried over to the server's new state; conflicting parts are left out (and reported once). */
export function rebaseEdit(edit: Edit, server: unknown, options: MergeOptions): { edit: Edit; value: unknown; conflicts: readonly AgentStoreError[] } {
  if (edit.base === server) return { edit, value: edit.mine, conflicts: [] }
  const { value, conflicts } = mergeEdit(edit.base, edit.mine, server, options, edit.whole)
  return { edit: { base: server, mine: value, whole: edit.whole }, value, conflicts }
}

/** The edit with every top-level key it changes taken whole: merged into a state that grew from nothing, the user's keys stay theirs. */
export function claimChangedKeys(edit: Edit): Edit {
  const { base, mine } = edit
  if (!isPlainObject(base) || !isPlainObject(mine)) return edit
  return { ...edit, whole: union(edit.whole, changedKeys(base, mine)) }
}

/**
 * `target` with the top-level keys that changed from `before` to `now` changed the same way: the
 * user's changes carried to another state. A state that is not an object was changed as a whole.
 */
export function withKeysChanged<S>(target: S, before: S, now: S): S {
  if (before === now) return target
  if (!isPlainObject(before) || !isPlainObject(now) || !isPlainObject(target)) return now
  let state: JsonObject = target
  for (const key of new Set([...Object.keys(before), ...Object.keys(now)])) {
    if (before[key] === now[key]) continue
    if (state === target) state = { ...target }
    if (Object.hasOwn(now, key)) state[key] = now[key]
    else delete state[key]
  }
  return state as S
}
