import jsonpatch from 'fast-json-patch'
import { AgentStoreError } from './errors'
import { applyPatch } from './json-patch'
import { escapeToken } from './json-value'
import { isObject } from './reduce/drafts'

export type EditOperation = { op: string; path: string; value?: unknown; from?: string }

/**
 * A local edit as JSON Patch ops, so it can be replayed on top of whatever the server sends next.
 * fast-json-patch's compare() walks every node it is given, so it is only given the top-level
 * keys whose reference changed: an immutable update costs what it touched.
 */
export function diffState(previous: unknown, next: unknown): { ops: EditOperation[]; keys: string[] } {
  if (!isObject(previous) || !isObject(next)) {
    return previous === next ? { ops: [], keys: [] } : { ops: [{ op: 'replace', path: '', value: next }], keys: ['*'] }
  }
  const ops: EditOperation[] = []
  const keys: string[] = []
  for (const key of Object.keys(previous)) {
    if (Object.hasOwn(next, key)) continue
    keys.push(key)
    ops.push({ op: 'remove', path: `/${escapeToken(key)}` })
  }
  for (const key of Object.keys(next)) {
    const before = previous[key]
    const after = next[key]
    if (Object.hasOwn(previous, key) && before === after) continue
    keys.push(key)
    const path = `/${escapeToken(key)}`
    if (!Object.hasOwn(previous, key)) ops.push({ op: 'add', path, value: after })
    else if (typeof before === 'object' && before !== null && typeof after === 'object' && after !== null && Array.isArray(before) === Array.isArray(after)) {
      for (const op of jsonpatch.compare(before, after)) ops.push({ ...op, path: path + op.path } as EditOperation)
    } else ops.push({ op: 'replace', path, value: after })
  }
  return { ops, keys }
}

/**
 * Replays the user's edits on top of the server's latest state, op by op: an op that no longer
 * applies (its target was removed by the server) is dropped and reported, the rest still apply.
 */
export function replayEdits<S>(server: S, edits: readonly EditOperation[]): { state: S; kept: readonly EditOperation[]; conflicts: AgentStoreError[] } {
  let state = server
  let kept: EditOperation[] | undefined
  const conflicts: AgentStoreError[] = []
  for (let i = 0; i < edits.length; i++) {
    const op = edits[i]!
    const result = applyPatch(state, [op])
    if (result.ok) {
      state = result.value
      kept?.push(op)
      continue
    }
    kept ??= edits.slice(0, i)
    conflicts.push(
      new AgentStoreError('EDIT_CONFLICT', `Your edit at ${op.path || '/'} no longer applies to the agent's state (${result.reason}) and was dropped`, {
        op: op.op,
        path: op.path,
        reason: result.reason,
      }),
    )
  }
  return { state, kept: kept ?? edits, conflicts }
}
