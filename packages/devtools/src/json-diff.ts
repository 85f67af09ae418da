// RFC 6902 ops from one JSON value to the next. Written here rather than taken from `diff` (a text
// diff) or fast-json-patch's compare() (which walks both trees whole): the store shares unchanged
// subtrees, so an identical reference ends the walk and a diff costs what changed, not what exists.

/** One RFC 6902 operation of a diff: `diffJson` writes only `add`, `remove` and `replace`. */
export type JsonPatchOperation = { op: 'add'; path: string; value: unknown } | { op: 'remove'; path: string } | { op: 'replace'; path: string; value: unknown }

/** The ops that turn `before` into `after`; `[]` when they are the same reference or equal. Paths are relative to `base`. */
export function diffJson(before: unknown, after: unknown, base = ''): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = []
  walk(before, after, base, ops)
  return ops
}

const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function walk(before: unknown, after: unknown, path: string, ops: JsonPatchOperation[]): void {
  if (Object.is(before, after)) return
  if (Array.isArray(before) && Array.isArray(after)) return walkArray(before, after, path, ops)
  if (isRecord(before) && isRecord(after)) return walkObject(before, after, path, ops)
  ops.push({ op: 'replace', path, value: after })
}

function walkObject(before: Record<string, unknown>, after: Record<string, unknown>, path: string, ops: JsonPatchOperation[]) {
  // A key holding undefined is absent in JSON.
  for (const key of Object.keys(before)) {
    if (before[key] !== undefined && (!Object.hasOwn(after, key) || after[key] === undefined)) ops.push({ op: 'remove', path: `${path}/${escapeKey(key)}` })
  }
  for (const key of Object.keys(after)) {
    const value = after[key]
    if (value === undefined) continue
    const at = `${path}/${escapeKey(key)}`
    if (!Object.hasOwn(before, key) || before[key] === undefined) ops.push({ op: 'add', path: at, value })
    else walk(before[key], value, at, ops)
  }
}

/**
 * The shared prefix and suffix (by reference: the store keeps unchanged items) are skipped; the
 * middle is changed item by item, then shortened from its end or grown in order. Appending a
 * message is one `add`; a message that streams is the ops inside it.
 */
function walkArray(before: readonly unknown[], after: readonly unknown[], path: string, ops: JsonPatchOperation[]) {
  const shortest = Math.min(before.length, after.length)
  let start = 0
  while (start < shortest && before[start] === after[start]) start++
  let end = 0
  while (end < shortest - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++
  const removed = before.length - start - end
  const added = after.length - start - end
  const common = Math.min(removed, added)
  for (let i = 0; i < common; i++) walk(before[start + i], after[start + i], `${path}/${start + i}`, ops)
  for (let i = removed - 1; i >= common; i--) ops.push({ op: 'remove', path: `${path}/${start + i}` })
  for (let i = common; i < added; i++) ops.push({ op: 'add', path: `${path}/${start + i}`, value: after[start + i] })
}
