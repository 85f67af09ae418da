import { describe, expect, it } from 'vitest'
import type { AgentStoreError } from '../src/errors'
import { matchBySequence, mergeEdit, rebaseEdit, recordEdit } from '../src/state/edit-merge'

// The three-way merge of edit-merge.ts pinned value by value: results, their identity (a merge that
// changes nothing hands back the server's own value), and every conflict's path, value and reason (a slug; the prose is in the message).

const options = { arrayKeys: ['id', 'key'] }
const brief = (c: AgentStoreError) => ({ code: c.code, message: c.message, path: c.path, reason: c.reason, value: c.value })
// Each message's prose and the slug the conflict carries for it.
const slugs: Record<string, string> = {
  'the agent removed it': 'removed',
  'the element it changed is gone': 'removed',
  'the agent changed it': 'changed',
  'the agent changed the same value': 'changed',
  'the agent changed the same element': 'changed',
  'the agent changed the element you removed': 'changed',
}
const conflict = (path: string, why: string, value?: unknown) => ({
  code: 'EDIT_CONFLICT',
  message: `Your edit at ${path} was not applied: ${why}`,
  path,
  reason: slugs[why],
  value,
})
const merged = (base: unknown, mine: unknown, theirs: unknown, whole: readonly string[] = []) => {
  const { value, conflicts } = mergeEdit(base, mine, theirs, options, whole)
  return { value, conflicts: conflicts.map(brief) }
}
const seq = (from: unknown[], to: unknown[]) => Array.from(matchBySequence(from, to))

describe('mergeEdit: plain values and type changes', () => {
  it('takes the server value when the user left the value as it was', () => {
    expect(merged(1, 1, 2)).toStrictEqual({ value: 2, conflicts: [] })
  })

  it('keeps the user value when the server left the value as it was', () => {
    expect(merged(1, 2, 1)).toStrictEqual({ value: 2, conflicts: [] })
  })

  it('hands back the user object itself when the server kept the base', () => {
    const base = { a: 1, b: { c: 1 } }
    const mine = { a: 2, b: { c: 1 } }
    const result = mergeEdit(base, mine, base, options)
    expect(result.value).toBe(mine)
    expect(result.conflicts).toStrictEqual([])
  })

  it('hands back the user array itself, without a conflict, when the server already holds it', () => {
    const mine = [1, 3]
    const result = mergeEdit([1, 2], mine, mine, options)
    expect(result.value).toBe(mine)
    expect(result.conflicts).toStrictEqual([])
  })

  it('keeps the user value when base, mine and the server value are not all objects', () => {
    expect(merged(1, 2, { a: 1 })).toStrictEqual({ value: 2, conflicts: [] })
    expect(merged({ a: 1 }, { a: 2 }, 5)).toStrictEqual({ value: { a: 2 }, conflicts: [] })
    const mine = { a: 1 }
    expect(mergeEdit(1, mine, { b: 1 }, options).value).toBe(mine)
    expect(merged(1, 2, [3])).toStrictEqual({ value: 2, conflicts: [] })
    expect(merged([1], [2], 5)).toStrictEqual({ value: [2], conflicts: [] })
    const list = [1]
    expect(mergeEdit(1, list, [2], options).value).toBe(list)
  })
})

describe('mergeEdit: objects', () => {
  it('merges the user change of one key with the server change of another', () => {
    expect(merged({ a: 1, b: 1 }, { a: 2, b: 1 }, { a: 1, b: 3 })).toStrictEqual({ value: { a: 2, b: 3 }, conflicts: [] })
  })

  it('merges nested objects key by key', () => {
    expect(merged({ o: { x: 1, y: 1 } }, { o: { x: 2, y: 1 } }, { o: { x: 1, y: 5 } })).toStrictEqual({
      value: { o: { x: 2, y: 5 } },
      conflicts: [],
    })
  })

  it('reports an edit of a key the server removed, with the user value', () => {
    expect(merged({ a: 1, b: 1 }, { a: 2, b: 1 }, { b: 1 })).toStrictEqual({
      value: { b: 1 },
      conflicts: [conflict('/a', 'the agent removed it', 2)],
    })
  })

  it('a key the user removed that the server removed too is no conflict', () => {
    const theirs = { b: 2 }
    const result = mergeEdit({ a: 1, b: 1 }, { b: 1 }, theirs, options)
    expect(result.value).toBe(theirs)
    expect(result.conflicts).toStrictEqual([])
  })

  it('the user removing a key wins over the server changing it, outside array elements', () => {
    expect(merged({ a: 1, b: 1 }, { b: 1 }, { a: 2, b: 1 })).toStrictEqual({ value: { b: 1 }, conflicts: [] })
  })

  it('the user adding a key wins over the server adding it, outside array elements', () => {
    expect(merged({}, { n: 1 }, { n: 2 })).toStrictEqual({ value: { n: 1 }, conflicts: [] })
  })

  it('a key taken over whole is the user value even where the server removed it', () => {
    expect(merged({ a: 1 }, { a: 2 }, {}, ['a'])).toStrictEqual({ value: { a: 2 }, conflicts: [] })
    expect(merged({ a: { x: 1, y: 1 } }, { a: { x: 2, y: 1 } }, { a: { x: 1, y: 7 } }, ['a'])).toStrictEqual({
      value: { a: { x: 2, y: 1 } },
      conflicts: [],
    })
  })

  it('whole keys only name top-level keys', () => {
    expect(merged({ a: { x: 1 } }, { a: { x: 2 } }, { a: {} }, ['x'])).toStrictEqual({
      value: { a: {} },
      conflicts: [conflict('/a/x', 'the agent removed it', 2)],
    })
  })

  it('writes merged keys as ordinary enumerable, writable, configurable properties', () => {
    const { value } = mergeEdit({ a: 1, b: 1 }, { a: 2, b: 1 }, { a: 1, b: 3 }, options)
    expect(Object.getOwnPropertyDescriptor(value, 'a')).toStrictEqual({ value: 2, writable: true, enumerable: true, configurable: true })
    expect(Object.keys(value as object)).toStrictEqual(['a', 'b'])
    expect(JSON.stringify(value)).toBe('{"a":2,"b":3}')
  })

  it('escapes pointer tokens in conflict paths', () => {
    expect(merged({ 'a/b': { '~': 1 } }, { 'a/b': { '~': 2 } }, { 'a/b': {} }).conflicts).toStrictEqual([conflict('/a~1b/~0', 'the agent removed it', 2)])
  })
})

describe('mergeEdit: array elements followed by id', () => {
  const A = { id: 'a', v: 1 }
  const B = { id: 'b', v: 1 }

  it('an element both changed keeps the server value and hands the user value back', () => {
    const theirs = [{ id: 1, v: 3 }]
    const result = mergeEdit([{ id: 1, v: 1 }], [{ id: 1, v: 2 }], theirs, options)
    expect(result.value).toBe(theirs)
    expect(result.conflicts.map(brief)).toStrictEqual([conflict('/0/v', 'the agent changed the same value', 2)])
  })

  it('a key the user added to an element that the server added too is a conflict', () => {
    expect(merged([{ id: 1 }], [{ id: 1, n: 1 }], [{ id: 1, n: 2 }])).toStrictEqual({
      value: [{ id: 1, n: 2 }],
      conflicts: [conflict('/0/n', 'the agent changed it', 1)],
    })
  })

  it('a key the user removed from an element that the server changed is a conflict without a value', () => {
    expect(merged([{ id: 1, n: 1 }], [{ id: 1 }], [{ id: 1, n: 2 }])).toStrictEqual({
      value: [{ id: 1, n: 2 }],
      conflicts: [conflict('/0/n', 'the agent changed it', undefined)],
    })
  })

  it('follows a moved element by a string id', () => {
    expect(merged([A, B], [{ id: 'a', v: 2 }, B], [{ ...B }, { ...A }])).toStrictEqual({
      value: [
        { id: 'b', v: 1 },
        { id: 'a', v: 2 },
      ],
      conflicts: [],
    })
  })

  it('follows a moved element by a numeric id, and by `key` when there is no `id`', () => {
    expect(merged([{ id: 1, v: 1 }, { id: 2 }], [{ id: 1, v: 2 }, { id: 2 }], [{ id: 2 }, { id: 1, v: 1 }]).value).toStrictEqual([{ id: 2 }, { id: 1, v: 2 }])
    expect(merged([{ key: 1, v: 1 }, { key: 2 }], [{ key: 1, v: 2 }, { key: 2 }], [{ key: 2 }, { key: 1, v: 1 }]).value).toStrictEqual([
      { key: 2 },
      { key: 1, v: 2 },
    ])
  })

  it('ids that are not strings or numbers, or that repeat, are not followed', () => {
    const gone = (path: string, value: unknown) => [conflict(path, 'the element it changed is gone', value)]
    const booleans = merged([{ id: true, v: 1 }, { id: false }], [{ id: true, v: 2 }, { id: false }], [{ id: false }, { id: true, v: 1 }])
    expect(booleans).toStrictEqual({ value: [{ id: false }, { id: true, v: 1 }], conflicts: gone('/0/v', 2) })
    const repeated = merged([{ id: 1, v: 1 }, { id: 1 }], [{ id: 1, v: 2 }, { id: 1 }], [{ id: 1 }, { id: 1, v: 1 }])
    expect(repeated).toStrictEqual({ value: [{ id: 1 }, { id: 1, v: 1 }], conflicts: gone('/0/v', 2) })
  })

  it('an array where one element has no id is matched by sequence', () => {
    const result = merged([A, B], [{ id: 'a', v: 2 }, B], [{ ...B }, { ...A }, { v: 9 }])
    // By sequence the moved element is not followed: the edit is handed back, not put on another element.
    expect(result).toStrictEqual({
      value: [{ id: 'b', v: 1 }, { id: 'a', v: 1 }, { v: 9 }],
      conflicts: [conflict('/0/v', 'the element it changed is gone', 2)],
    })
  })

  it('null elements are matched by sequence', () => {
    expect(merged([null, { id: 1 }], [null, { id: 1, v: 1 }], [null, { id: 1 }, null])).toStrictEqual({
      value: [null, { id: 1, v: 1 }, null],
      conflicts: [],
    })
  })

  it('an element both removed is no conflict', () => {
    expect(merged([A, B], [B], [{ ...B, v: 2 }])).toStrictEqual({ value: [{ id: 'b', v: 2 }], conflicts: [] })
  })

  it('an element the user removed and the server changed stays, as a conflict without a value', () => {
    expect(merged([{ id: 1, v: 1 }], [], [{ id: 1, v: 2 }])).toStrictEqual({
      value: [{ id: 1, v: 2 }],
      conflicts: [conflict('/0', 'the agent changed the element you removed', undefined)],
    })
  })

  it('an element the user removed and the server kept is removed', () => {
    expect(merged([A, B], [B], [{ ...A }, { ...B }, { id: 'c' }])).toStrictEqual({ value: [{ id: 'b', v: 1 }, { id: 'c' }], conflicts: [] })
  })

  it('names the one changed value of a gone element, or the element when more changed', () => {
    const a = { x: 1 }
    const base = [{ id: 1, a, b: 1 }]
    expect(merged(base, [{ id: 1, a: { x: 2 }, b: 1 }], []).conflicts).toStrictEqual([conflict('/0/a/x', 'the element it changed is gone', 2)])
    expect(merged(base, [{ id: 1, a: 5, b: 1 }], []).conflicts).toStrictEqual([conflict('/0/a', 'the element it changed is gone', 5)])
    expect(merged(base, [{ id: 1, a, b: 2, c: 3 }], []).conflicts).toStrictEqual([
      conflict('/0', 'the element it changed is gone', { id: 1, a: { x: 1 }, b: 2, c: 3 }),
    ])
    expect(merged(base, [{ id: 1, a }], []).conflicts).toStrictEqual([conflict('/0/b', 'the element it changed is gone', undefined)])
  })

  it('never writes into the server array', () => {
    const theirs = Object.freeze([Object.freeze({ id: 1, v: 1 }), Object.freeze({ id: 2, v: 1 })])
    expect(merged([{ id: 1, v: 1 }], [{ id: 1, v: 2 }], theirs).value).toStrictEqual([
      { id: 1, v: 2 },
      { id: 2, v: 1 },
    ])
    expect(theirs).toStrictEqual([
      { id: 1, v: 1 },
      { id: 2, v: 1 },
    ])
  })
})

describe('mergeEdit: array elements followed by sequence', () => {
  it('a changed element lands on the same element after a server insertion', () => {
    expect(merged([1, 2, 3], [1, 9, 3], [0, 1, 2, 3])).toStrictEqual({ value: [0, 1, 9, 3], conflicts: [] })
  })

  it('an element both changed is a conflict naming the agent', () => {
    const theirs = [1, 8, 3]
    const result = mergeEdit([1, 2, 3], [1, 9, 3], theirs, options)
    expect(result.value).toBe(theirs)
    expect(result.conflicts.map(brief)).toStrictEqual([conflict('/1', 'the agent changed the same element', 9)])
  })

  it('an element the user changed that the server removed is a conflict naming it gone', () => {
    expect(merged([1, 2, 3], [1, 9, 3], [1, 3])).toStrictEqual({
      value: [1, 3],
      conflicts: [conflict('/1', 'the element it changed is gone', 9)],
    })
  })

  it('an element the user removed that the server changed is a conflict', () => {
    const theirs = [1, 5, 3]
    const result = mergeEdit([1, 2, 3], [1, 3], theirs, options)
    expect(result.value).toBe(theirs)
    expect(result.conflicts.map(brief)).toStrictEqual([conflict('/1', 'the agent changed the element you removed', undefined)])
  })

  it('an element both removed is removed, without a conflict', () => {
    expect(merged([1, 2, 3], [1, 3], [1, 3, 4])).toStrictEqual({ value: [1, 3, 4], conflicts: [] })
  })

  it('the user removing the last element of a server copy of the same array', () => {
    expect(merged([1, 2, 3], [1, 2], [1, 2, 3])).toStrictEqual({ value: [1, 2], conflicts: [] })
  })

  it('two changes where one element was: the second stays an insertion', () => {
    expect(merged([1, 2, 3], [1, 8, 9, 3], [0, 1, 2, 3])).toStrictEqual({ value: [0, 1, 8, 9, 3], conflicts: [] })
  })

  it('an insertion follows the element before it, or the one before that when it is gone', () => {
    expect(merged([1, 2, 3], [1, 2, 7, 3], [0, 1, 2, 3])).toStrictEqual({ value: [0, 1, 2, 7, 3], conflicts: [] })
    expect(merged([1, 2, 3], [1, 2, 7, 3], [1, 3])).toStrictEqual({ value: [1, 7, 3], conflicts: [] })
  })

  it('a prepended element stays first and an appended one last', () => {
    expect(merged([1, 2], [0, 1, 2], [1, 2, 3])).toStrictEqual({ value: [0, 1, 2, 3], conflicts: [] })
    expect(merged([1, 2], [1, 2, 5], [1, 2, 3])).toStrictEqual({ value: [1, 2, 3, 5], conflicts: [] })
    expect(merged([1, 2], [0, 1, 9], [1, 2, 5])).toStrictEqual({ value: [0, 1, 9, 5], conflicts: [] })
  })

  it('hands back the server array itself when the edit is already in it', () => {
    const theirs = [0, 1, 2]
    const result = mergeEdit([1, 2], [1, 2, 3].slice(0, 2), theirs, options)
    expect(result.value).toBe(theirs)
    expect(result.conflicts).toStrictEqual([])
  })
})

describe('matchBySequence', () => {
  it('matches nothing in empty arrays', () => {
    expect(seq([], [])).toStrictEqual([])
    expect(seq([1], [])).toStrictEqual([-1])
    expect(seq([], [1])).toStrictEqual([])
  })

  it('matches a common prefix', () => {
    expect(seq([1, 2, 3], [1, 2, 3])).toStrictEqual([0, 1, 2])
    expect(seq([1, 2, 3], [1, 2])).toStrictEqual([0, 1, -1])
    expect(seq([1, 2], [1, 2, 3])).toStrictEqual([0, 1])
  })

  it('matches a common suffix of arrays of other lengths', () => {
    expect(seq([0, 1, 2], [5, 1, 2])).toStrictEqual([-1, 1, 2])
    expect(seq([7, 1, 2], [1, 2])).toStrictEqual([-1, 0, 1])
    expect(seq([1, 2], [7, 8, 1, 2])).toStrictEqual([2, 3])
    expect(seq([1, 2, 3], [1, 9, 3])).toStrictEqual([0, -1, 2])
  })

  it('matches deep-equal elements that are not the same object', () => {
    expect(seq([{ a: 1 }, [2]], [{ a: 1 }, [2]])).toStrictEqual([0, 1])
    expect(seq([0, { a: 1 }], [{ a: 1 }])).toStrictEqual([-1, 0])
  })

  it('finds the longest common subsequence between a prefix and a suffix', () => {
    expect(seq(['p', 'a', 'b', 'c', 's'], ['p', 'c', 'a', 'x', 'b', 's'])).toStrictEqual([0, 2, 4, -1, 5])
    expect(seq(['a', 'b', 'c', 'd', 'e'], ['x', 'a', 'c', 'y', 'e', 'b', 'z'])).toStrictEqual([1, -1, 2, -1, 4])
    expect(seq(['q', 'r', 's', 't'], ['t', 's', 'q', 'r', 'u'])).toStrictEqual([2, 3, -1, -1])
    expect(seq([{ k: 1 }, 'm', { k: 2 }], ['n', { k: 2 }, { k: 1 }, 'm', 'o'])).toStrictEqual([2, 3, -1])
  })

  it('of two equally long subsequences matches the one of later elements of the first array', () => {
    expect(seq(['x', 'y'], ['y', 'x'])).toStrictEqual([-1, 0])
    expect(seq(['x', 'y', 'z'], ['z', 'y', 'x'])).toStrictEqual([-1, -1, 0])
  })

  it('leaves a common prefix and suffix out of the 250,000 cells', () => {
    const names = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`)
    const [head, middle, tail] = [names('p', 100), names('a', 500), names('q', 100)]
    const match = seq([...head, ...middle, ...tail], [...head, 'b', ...middle.slice(0, 499), ...tail])
    expect(match).toStrictEqual([...head.map((_, i) => i), ...middle.map((_, i) => (i < 499 ? 101 + i : -1)), ...tail.map((_, i) => 600 + i)])
  })

  it('compares the middle pairwise up to 250,000 cells, and not beyond', () => {
    const from = Array.from({ length: 500 }, (_, i) => `a${i}`)
    const at500 = seq(from, ['b', ...from.slice(0, 499)])
    expect(at500).toStrictEqual([...Array.from({ length: 499 }, (_, i) => i + 1), -1])
    const longer = Array.from({ length: 501 }, (_, i) => `a${i}`)
    expect(seq(longer, ['b', ...longer.slice(0, 500)])).toStrictEqual(Array.from({ length: 501 }, () => -1))
  })
})

describe('recordEdit and rebaseEdit', () => {
  it('the first edit changes the server state in the touched keys only', () => {
    const edit = recordEdit(undefined, { a: 1, b: 1 }, { a: 2, b: 5, c: 3 }, ['a'], [])
    expect(edit).toStrictEqual({ base: { a: 1, b: 1 }, mine: { a: 2, b: 1 }, whole: [] })
    expect(Object.getOwnPropertyDescriptor(edit.mine, 'a')).toStrictEqual({ value: 2, writable: true, enumerable: true, configurable: true })
  })

  it('a later edit builds on the earlier one and removes the touched keys the new state lacks', () => {
    const first = recordEdit(undefined, { a: 1, b: 1 }, { a: 2, b: 1 }, ['a'], ['a'])
    const second = recordEdit(first, { a: 1, b: 1, c: 1 }, { a: 2 }, ['b'], ['b', 'a'])
    expect(second).toStrictEqual({ base: { a: 1, b: 1, c: 1 }, mine: { a: 2 }, whole: ['a', 'b'] })
  })

  it('an edit of every key, or of a value that is not an object, is the new value itself', () => {
    const next = { a: 2 }
    expect(recordEdit(undefined, { a: 1, b: 1 }, next, '*', []).mine).toBe(next)
    expect(recordEdit(undefined, [1], next, ['a'], []).mine).toBe(next)
    const list = [2]
    expect(recordEdit(undefined, { a: 1 }, list, ['a'], []).mine).toBe(list)
  })

  it('rebasing onto the state the edit was made against changes nothing', () => {
    const edit = recordEdit(undefined, { a: 1 }, { a: 2 }, ['a'], [])
    const rebased = rebaseEdit(edit, edit.base, options)
    expect(rebased.edit).toBe(edit)
    expect(rebased.value).toBe(edit.mine)
    expect(rebased.conflicts).toStrictEqual([])
  })

  it('rebasing onto newer state merges and reports conflicts once', () => {
    const edit = recordEdit(undefined, { a: 1, b: 1 }, { a: 2, b: 1 }, ['a'], [])
    const server = { b: 2 }
    const rebased = rebaseEdit(edit, server, options)
    expect(rebased.value).toBe(server)
    expect(rebased.edit).toStrictEqual({ base: server, mine: server, whole: [] })
    expect(rebased.conflicts.map(brief)).toStrictEqual([conflict('/a', 'the agent removed it', 2)])
  })
})
