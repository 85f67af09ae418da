import { describe, expect, it } from 'vitest'
import { checkHotEvent } from '../../src/snapshot/event-check'

// The hand-written checks of the three hottest events pinned rule by rule: each problem with its
// exact message, the first problem winning, and the valid edge cases accepted.

const text = (more: Record<string, unknown>) => checkHotEvent('TEXT_MESSAGE_CONTENT', { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'd', ...more })
const args = (more: Record<string, unknown>) => checkHotEvent('TOOL_CALL_ARGS', { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: 'd', ...more })
const delta = (ops: unknown, more: Record<string, unknown> = {}) => checkHotEvent('STATE_DELTA', { type: 'STATE_DELTA', delta: ops, ...more })

describe('the fields of every event', () => {
  it('accepts them absent or valid', () => {
    expect(text({})).toBeUndefined()
    expect(text({ timestamp: 0, rawEvent: 'x', metadata: {}, subagentRunId: '' })).toBeUndefined()
    expect(text({ timestamp: -(2 ** 53 - 1), rawEvent: 0, metadata: { a: 1 } })).toBeUndefined()
    expect(text({ timestamp: 2 ** 53 - 1, rawEvent: false })).toBeUndefined()
  })

  it('timestamp: a safe integer only', () => {
    for (const timestamp of [0.5, 2 ** 53, Number.NaN, '1', null]) expect(text({ timestamp })).toBe('timestamp: expected an integer')
  })

  it('rawEvent: anything but null', () => {
    expect(text({ rawEvent: null })).toBe('rawEvent: must not be null')
  })

  it('metadata: an object, not null, not an array, not a primitive', () => {
    for (const metadata of [null, [], 'x', 1, true]) expect(text({ metadata })).toBe('metadata: expected an object')
  })

  it('subagentRunId: a string', () => {
    for (const subagentRunId of [1, null, {}]) expect(text({ subagentRunId })).toBe('subagentRunId: expected a string')
  })

  it('reports the first problem, in the order timestamp, rawEvent, metadata, subagentRunId', () => {
    expect(text({ timestamp: 0.5, rawEvent: null, metadata: null, subagentRunId: 1 })).toBe('timestamp: expected an integer')
    expect(text({ rawEvent: null, metadata: null, subagentRunId: 1 })).toBe('rawEvent: must not be null')
    expect(text({ metadata: null, subagentRunId: 1 })).toBe('metadata: expected an object')
  })
})

describe('TEXT_MESSAGE_CONTENT and TOOL_CALL_ARGS', () => {
  it('need a string id and a string delta, the base fields first', () => {
    expect(text({ messageId: 1 })).toBe('messageId: expected a string')
    expect(text({ messageId: undefined, delta: 1 })).toBe('messageId: expected a string')
    expect(text({ delta: undefined })).toBe('delta: expected a string')
    expect(text({ messageId: 1, rawEvent: null })).toBe('rawEvent: must not be null')
    expect(text({ delta: '' })).toBeUndefined()
    expect(args({})).toBeUndefined()
    expect(args({ toolCallId: null, delta: 1 })).toBe('toolCallId: expected a string')
    expect(args({ delta: 0 })).toBe('delta: expected a string')
    expect(args({ toolCallId: 1, metadata: [] })).toBe('metadata: expected an object')
    // Each type checks its own id only.
    expect(args({ messageId: 1 })).toBeUndefined()
    expect(text({ toolCallId: 1 })).toBeUndefined()
  })
})

describe('STATE_DELTA', () => {
  it('accepts an empty delta and every valid operation', () => {
    expect(delta([])).toBeUndefined()
    expect(
      delta([
        { op: 'add', path: '', value: null },
        { op: 'remove', path: '/a' },
        { op: 'replace', path: '/a~0b/~1', value: 0 },
        { op: 'move', from: '/a', path: '/b' },
        { op: 'copy', from: '', path: '/c/-' },
        { op: 'test', path: '/d', value: false },
      ]),
    ).toBeUndefined()
  })

  it('needs an array, the base fields first', () => {
    for (const ops of [undefined, {}, 'x', null]) expect(delta(ops)).toBe('delta: expected an array')
    expect(delta('x', { timestamp: 1.5 })).toBe('timestamp: expected an integer')
    expect(delta([{ op: 'bad' }], { metadata: 1 })).toBe('metadata: expected an object')
  })

  it('each operation an object with a known op', () => {
    for (const op of [null, [], 'add', 1]) expect(delta([op])).toBe('delta.0: expected an object')
    expect(delta([{ op: 'remove', path: '' }, null])).toBe('delta.1: expected an object')
    for (const op of ['ADD', 'get', 1, undefined, '']) expect(delta([{ op, path: '' }])).toBe('delta.0.op: invalid operation')
  })

  it('a path that is a JSON pointer', () => {
    for (const path of ['a', '/~', '/a~2', '/~x', 1, undefined, ' /a']) expect(delta([{ op: 'remove', path }])).toBe('delta.0.path: invalid JSON pointer')
    expect(
      delta([
        { op: 'remove', path: '/a' },
        { op: 'remove', path: 'b' },
      ]),
    ).toBe('delta.1.path: invalid JSON pointer')
    expect(delta([{ op: 'remove', path: '/a~' }])).toBe('delta.0.path: invalid JSON pointer')
    expect(delta([{ op: 'remove', path: '//' }])).toBeUndefined()
  })

  it('move and copy need a pointer in from; the others ignore from', () => {
    for (const op of ['move', 'copy']) {
      for (const from of [undefined, 'a', 1, '/~']) expect(delta([{ op, path: '/a', from }])).toBe('delta.0.from: invalid JSON pointer')
    }
    for (const op of ['remove', 'add', 'replace', 'test']) expect(delta([{ op, path: '/a', from: 1, value: 1 }])).toBeUndefined()
  })

  it('add, replace and test need a value; remove, move and copy do not', () => {
    for (const op of ['add', 'replace', 'test']) expect(delta([{ op, path: '/a' }])).toBe('delta.0.value: required')
    expect(delta([{ op: 'remove', path: '/a' }])).toBeUndefined()
    expect(delta([{ op: 'move', path: '/a', from: '/b' }])).toBeUndefined()
    expect(delta([{ op: 'copy', path: '/a', from: '/b' }])).toBeUndefined()
    expect(delta([{ op: 'add', path: '/a', value: undefined }])).toBe('delta.0.value: required')
  })

  it('reports the first problem of the first bad operation', () => {
    expect(delta([{ op: 'add', path: 'x' }])).toBe('delta.0.path: invalid JSON pointer')
    expect(delta([{ op: 'move', path: '/a' }, { op: 'bad' }])).toBe('delta.0.from: invalid JSON pointer')
    expect(delta([{ op: 'add', path: '/a', value: 1 }, { op: 'bad', path: '' }, null])).toBe('delta.1.op: invalid operation')
  })
})

describe('other types', () => {
  it('are not checked here: null', () => {
    expect(checkHotEvent('TEXT_MESSAGE_START', { type: 'TEXT_MESSAGE_START' })).toBeNull()
    expect(checkHotEvent('REASONING_MESSAGE_CONTENT', { type: 'REASONING_MESSAGE_CONTENT' })).toBeNull()
    expect(checkHotEvent('', {})).toBeNull()
  })
})
