// Category 3: garbage from the server, over real HTTP through HttpAgent and the store. Never a crash,
// never a polluted Object.prototype, never a partially applied event.
import type { RunAgentInput } from '@ag-ui/core'
import type { AgentSnapshot, AgentStoreOptions } from '@agent-state/core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ev, type HostileServer, reply, sse, startHostileServer } from './hostile-server'
import { type Doc, expectFailed, expectReady, healthy, initialState, prelude, storeOn } from './scenario'

let server: HostileServer
beforeAll(async () => {
  server = await startHostileServer()
})
afterAll(() => server.close())

// Every test ends with Object.prototype exactly as it was.
const prototypeKeys = () => Reflect.ownKeys(Object.prototype).map(String).sort()
const pristine = prototypeKeys()
afterEach(() => {
  expect(prototypeKeys()).toEqual(pristine)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(Object.prototype.toString.call([])).toBe('[object Array]')
})

type Frame = string | Record<string, unknown>
const frames = (list: readonly Frame[]) => list.map((f) => (typeof f === 'string' ? `data: ${f}\n\n` : sse([f]))).join('')

/** One run whose body is `build(input)`, then a healthy run; returns the store after the first. */
async function runOnce(build: (input: RunAgentInput) => readonly Frame[], options: Partial<AgentStoreOptions<Doc>> = {}) {
  server.handle((exchange) => {
    exchange.start()
    exchange.end(frames(build(exchange.input)))
  }, healthy)
  const { store, errors } = storeOn<Doc>(server, options)
  const seen: string[] = []
  store.onEvent((event) => seen.push(event.type))
  const published: AgentSnapshot<Doc>[] = []
  store.subscribe((snapshot) => published.push(snapshot))
  await store.run()
  return { store, errors, seen, published }
}

/** A JSON-only value: survives a JSON round trip unchanged, holds no functions or class instances. */
function expectPlainJson(value: unknown) {
  expect(JSON.parse(JSON.stringify(value))).toEqual(value)
  const stack = [value]
  for (let i = 0; stack.length > 0 && i < 100_000; i++) {
    const node = stack.pop()
    expect(typeof node).not.toBe('function')
    if (typeof node === 'object' && node !== null) {
      expect([Object.prototype, Array.prototype, null]).toContain(Object.getPrototypeOf(node))
      stack.push(...Object.values(node))
    }
  }
}

describe('data that is not an event', () => {
  it.each(['{not json}', 'undefined', "{'type': 'RUN_FINISHED'}", '{"type":"STATE_DELTA"', 'NaN', '\u0000'])(
    'data %j fails the run with INVALID_EVENT; nothing after it is applied',
    async (garbage) => {
      const { store, errors } = await runOnce((input) => [
        ...prelude(input),
        garbage,
        ev.delta({ op: 'replace', path: '/count', value: 99 }),
        ev.finished(input),
      ])
      expectFailed(store, 'INVALID_EVENT')
      expect(errors.map((e) => e.code)).toEqual(['INVALID_EVENT'])
      await expectReady(store, server)
    },
  )

  it.each([
    '[]',
    '[{"type":"RUN_FINISHED"}]',
    'null',
    '42',
    '"RUN_FINISHED"',
    'true',
    '{}',
    '{"type":5}',
    '{"type":""}',
    '{"type":null}',
    '{"type":["RUN_FINISHED"]}',
  ])('JSON %s that is not an event fails the run with INVALID_EVENT', async (garbage) => {
    const { store } = await runOnce((input) => [...prelude(input), garbage, ev.finished(input)])
    expectFailed(store, 'INVALID_EVENT')
    await expectReady(store, server)
  })

  it('skips an event with an empty data field, as the standard says', async () => {
    const { store, errors } = await runOnce((input) => [ev.started(input), '', ev.finished(input)])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
    expect(errors).toEqual([])
  })
})

describe('events the store does not know or cannot accept', () => {
  it('ignores event types it does not know, prototype names included, shows them to onEvent, and finishes the run', async () => {
    const unknown = ['FUTURE_EVENT', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype']
    const { store, errors, seen } = await runOnce((input) => [
      ev.started(input),
      ...unknown.map((type) => ({ type, polluted: true, snapshot: { polluted: true } })),
      ev.delta({ op: 'replace', path: '/count', value: 5 }),
      ev.finished(input),
    ])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { doc: 'before', count: 5 } })
    expect(errors).toEqual([])
    expect(seen).toEqual(['RUN_STARTED', ...unknown, 'STATE_DELTA', 'RUN_FINISHED'])
  })

  it.each([
    ['STATE_DELTA whose delta is not an array', { type: 'STATE_DELTA', delta: 'replace everything' }],
    ['STATE_DELTA whose delta is an object', { type: 'STATE_DELTA', delta: { op: 'replace', path: '/count', value: 9 } }],
    ['STATE_SNAPSHOT without a snapshot', { type: 'STATE_SNAPSHOT' }],
    ['CUSTOM without a name', { type: 'CUSTOM', value: 1 }],
    ['TOOL_CALL_RESULT without content', { type: 'TOOL_CALL_RESULT', messageId: 'x', toolCallId: 'c1' }],
  ])('rejects a malformed %s whole (INVALID_EVENT), and the run goes on', async (_name, bad) => {
    const { store, errors, published } = await runOnce((input) => [
      ev.started(input),
      ev.delta({ op: 'replace', path: '/count', value: 1 }),
      bad,
      ev.delta({ op: 'replace', path: '/count', value: 2 }),
      ev.finished(input),
    ])
    expect(errors.map((e) => e.code)).toEqual(['INVALID_EVENT'])
    // The rejected event changed nothing but the error: the state before and after it is the same object.
    const rejected = published.findIndex((s) => s.error !== undefined)
    expect(published[rejected]!.state).toBe(published[rejected - 1]!.state)
    expect(store.getState()).toMatchObject({ status: 'idle', state: { count: 2 }, error: { code: 'INVALID_EVENT' } })
  })
})

describe('events out of order', () => {
  it.each<[string, (input: RunAgentInput) => Frame[]]>([
    ['text content before its message starts', (input) => [...prelude(input), ev.text('m9', 'orphan'), ev.finished(input)]],
    ['a text message ended that never started', (input) => [...prelude(input), ev.textEnd('m9'), ev.finished(input)]],
    ['tool arguments for a call never started', (input) => [...prelude(input), ev.toolArgs('c9', '{}'), ev.finished(input)]],
    ['RUN_STARTED again inside the run', (input) => [...prelude(input), ev.started(input), ev.finished(input)]],
    ['a second TOOL_CALL_START for an open call id', (input) => [...prelude(input), ev.toolStart('c1', 'write_doc'), ev.finished(input)]],
    ['a step finished that never started', (input) => [...prelude(input), { type: 'STEP_FINISHED', stepName: 'plan' }, ev.finished(input)]],
    ['RUN_FINISHED while a tool call is open', (input) => [...prelude(input), ev.finished(input)]],
  ])('%s fails the run with INVALID_EVENT', async (_name, build) => {
    const { store } = await runOnce(build)
    expectFailed(store, 'INVALID_EVENT')
    await expectReady(store, server)
  })

  it('rejects events before RUN_STARTED and applies none of them', async () => {
    const { store, published } = await runOnce((input) => [ev.delta({ op: 'replace', path: '/count', value: 3 }), ev.started(input), ev.finished(input)])
    expectFailed(store, 'INVALID_EVENT', initialState)
    expect(published.every((s) => s.state === initialState)).toBe(true)
  })

  it('ends the run at the first RUN_FINISHED: a second one, and anything after, is never read', async () => {
    const { store, errors, seen } = await runOnce((input) => [
      ev.started(input),
      ev.delta({ op: 'replace', path: '/count', value: 4 }),
      ev.finished(input),
      ev.finished(input),
      ev.delta({ op: 'replace', path: '/count', value: 666 }),
      ev.error('late'),
    ])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { count: 4 } })
    expect(errors).toEqual([])
    expect(seen).toEqual(['RUN_STARTED', 'STATE_DELTA', 'RUN_FINISHED'])
  })

  it('ignores everything after RUN_ERROR: the error stays the server’s', async () => {
    const { store, errors } = await runOnce((input) => [
      ...prelude(input),
      ev.error('tool crashed', 'TOOL_FAILED'),
      ev.textStart('m1'),
      ev.delta({ op: 'replace', path: '/count', value: 666 }),
      ev.finished(input),
    ])
    expectFailed(store, 'RUN_ERROR')
    expect(store.getState().error).toMatchObject({ serverCode: 'TOOL_FAILED', message: 'tool crashed' })
    // Nothing after the error, and not the tool call it cut off in the middle of its arguments either.
    expect(store.getState().messages.filter((m) => m.role !== 'user')).toStrictEqual([])
    expect(errors.map((e) => e.code)).not.toContain('INVALID_EVENT')
    await expectReady(store, server)
  })

  it('keeps an interrupted run interrupted when garbage follows its RUN_FINISHED', async () => {
    const { store } = await runOnce((input) => [
      ev.started(input),
      ev.finished(input, { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_call' }] }),
      '{not json}',
      ev.error('late'),
    ])
    expect(store.getState()).toMatchObject({ status: 'interrupted', error: undefined })
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['i1'])
  })
})

describe('state deltas', () => {
  it('rejects a delta before any snapshot that patches a path the state lacks, and goes on', async () => {
    const { store, published } = await runOnce((input) => [
      ev.started(input),
      ev.delta({ op: 'replace', path: '/items/0/title', value: 'x' }),
      ev.delta({ op: 'add', path: '/items', value: [] }),
      ev.finished(input),
    ])
    const failedAt = published.findIndex((s) => s.error?.code === 'PATCH_FAILED')
    expect(published[failedAt]!.state).toBe(published[failedAt - 1]!.state)
    expect(store.getState().error).toMatchObject({ code: 'PATCH_FAILED', opIndex: 0, path: '/items/0/title' })
    // The delta that fits the state the client sent applies.
    expect(store.getState().state).toEqual({ ...initialState, items: [] })
  })

  it('rejects a whole delta with an unknown op among valid ones (INVALID_EVENT: the schema knows the ops): none of it applies', async () => {
    const { store, published } = await runOnce((input) => [
      ev.started(input),
      ev.delta({ op: 'replace', path: '/count', value: 1 }, { op: 'merge', path: '/doc', value: 'x' }, { op: 'replace', path: '/doc', value: 'after' }),
      ev.finished(input),
    ])
    expect(store.getState().error).toMatchObject({ code: 'INVALID_EVENT', eventType: 'STATE_DELTA' })
    expect(store.getState().error!.message).toMatch(/delta\.1/)
    expect(store.getState().state).toBe(initialState)
    expect(published.every((s) => s.state === initialState)).toBe(true)
  })

  it.each([
    ['copy from /constructor', { op: 'copy', from: '/constructor', path: '/ctor' }],
    ['copy from /__proto__', { op: 'copy', from: '/__proto__', path: '/proto' }],
    ['copy from /toString', { op: 'copy', from: '/toString', path: '/fn' }],
    ['copy from /doc/length', { op: 'copy', from: '/doc/length', path: '/len' }],
    ['move from /hasOwnProperty', { op: 'move', from: '/hasOwnProperty', path: '/fn' }],
    ['add at /__proto__/polluted', { op: 'add', path: '/__proto__/polluted', value: true }],
    ['add at /constructor/prototype/polluted', { op: 'add', path: '/constructor/prototype/polluted', value: true }],
    ['replace /__proto__', { op: 'replace', path: '/__proto__', value: { polluted: true } }],
    ['test /constructor', { op: 'test', path: '/constructor', value: {} }],
  ])('rejects %s: no function and no prototype ever enters the state', async (_name, op) => {
    const { store } = await runOnce((input) => [ev.started(input), ev.delta({ op: 'replace', path: '/count', value: 1 }, op), ev.finished(input)])
    expect(store.getState().error?.code).toBe('PATCH_FAILED')
    expect(store.getState().state).toBe(initialState)
    expectPlainJson(store.getState().state)
  })
})

describe('duplicate tool-call ids', () => {
  it('restarts a call whose id comes again after it ended: one call, the latest arguments', async () => {
    const { store, errors } = await runOnce((input) => [
      ev.started(input),
      ev.toolStart('c1', 'search'),
      ev.toolArgs('c1', '{"q":"first"}'),
      ev.toolEnd('c1'),
      ev.toolStart('c1', 'search'),
      ev.toolArgs('c1', '{"q":"second"}'),
      ev.toolEnd('c1'),
      ev.finished(input),
    ])
    expect(errors).toEqual([])
    const calls = store.getState().messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []))
    expect(calls).toEqual([{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"second"}' } }])
  })
})

describe('hostile sizes and shapes', () => {
  const deep = (levels: number, leaf = '1') => '['.repeat(levels) + leaf + ']'.repeat(levels)
  const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)

  it('rejects a 100,000-level STATE_SNAPSHOT with LIMIT_EXCEEDED (maxDepth), without overflowing the stack', async () => {
    const { store } = await runOnce((input) => [ev.started(input), `{"type":"STATE_SNAPSHOT","snapshot":{"doc":${deepObject(100_000)}}}`, ev.finished(input)])
    expect(store.getState()).toMatchObject({ status: 'idle', state: initialState, error: { code: 'LIMIT_EXCEEDED', limit: 'maxDepth' } })
  })

  it('rejects a 100,000-level value in a STATE_DELTA with LIMIT_EXCEEDED (maxDepth)', async () => {
    const { store } = await runOnce((input) => [
      ev.started(input),
      `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/deep","value":${deep(100_000)}}]}`,
      ev.finished(input),
    ])
    expect(store.getState()).toMatchObject({ state: initialState, error: { code: 'LIMIT_EXCEEDED', limit: 'maxDepth' } })
  })

  it('passes a 100,000-level CUSTOM value to event listeners without walking it', async () => {
    const { store, seen, errors } = await runOnce((input) => [
      ev.started(input),
      `{"type":"CUSTOM","name":"deep","value":${deep(100_000)}}`,
      ev.finished(input),
    ])
    expect(errors).toEqual([])
    expect(seen).toEqual(['RUN_STARTED', 'CUSTOM', 'RUN_FINISHED'])
    expect(store.getState()).toMatchObject({ status: 'idle', state: initialState })
  })

  it('keeps a draft from 100,000-level tool arguments within maxDepth, so the next run can still be sent', async () => {
    const { store } = await runOnce((input) => [
      ev.started(input),
      ev.predict('doc', 'write_doc', 'text'),
      ev.toolStart('c1', 'write_doc'),
      ev.toolArgs('c1', `{"text":${deep(100_000, '"x"')}}`),
      ev.toolEnd('c1'),
      ev.finished(input),
    ])
    // Whatever the store made of it, the state must respect its own depth limit and serialize.
    const depth = (value: unknown) => {
      let max = 0
      const stack: [unknown, number][] = [[value, 0]]
      while (stack.length > 0) {
        const [node, d] = stack.pop()!
        max = Math.max(max, d)
        if (typeof node === 'object' && node !== null) for (const child of Object.values(node)) stack.push([child, d + 1])
      }
      return max
    }
    expect(depth(store.getState().state)).toBeLessThanOrEqual(512)
    expect(() => JSON.stringify(store.getState().committed)).not.toThrow()
    // What is at stake: a committed state that cannot be serialized fails every later run.
    await store.run()
    expect(store.getState().error).toBeUndefined()
  })

  it('applies a snapshot holding a 1,000,000-element array, and rejects a delta of 10,001 ops (maxOpsPerDelta)', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ op: 'replace', path: '/count', value: i }))
    const { store } = await runOnce((input) => [
      ev.started(input),
      `{"type":"STATE_SNAPSHOT","snapshot":{"doc":"big","count":0,"items":[${'0,'.repeat(999_999)}0]}}`,
      ev.delta(...many),
      ev.finished(input),
    ])
    const state = store.getState().state as Doc & { items: number[] }
    expect(state.items).toHaveLength(1_000_000)
    expect(state.count).toBe(0)
    expect(store.getState().error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxOpsPerDelta' })
  })

  it('rejects a state over maxStateBytes whether it comes whole or grows delta by delta', async () => {
    const chunk = 'z'.repeat(1024 * 1024)
    const { store, errors } = await runOnce(
      (input) => [
        ev.started(input),
        ev.delta({ op: 'add', path: '/a', value: chunk }),
        ev.delta({ op: 'add', path: '/b', value: chunk }),
        ev.delta({ op: 'add', path: '/c', value: chunk }),
        ev.finished(input),
      ],
      { limits: { maxStateBytes: 2.5 * 1024 * 1024 } },
    )
    expect(errors.map((e) => [e.code, e.limit])).toEqual([['LIMIT_EXCEEDED', 'maxStateBytes']])
    expect(Object.keys(store.getState().state)).toEqual(['doc', 'count', 'a', 'b'])
  })

  it('keeps strings with lone surrogates as they came, and sends them back as valid JSON', async () => {
    const lone = 'a\ud800b\udc00c\udbff'
    const escaped = JSON.stringify(lone) // "a\ud800b\udc00c\udbff" with escapes: ASCII on the wire
    const { store } = await runOnce((input) => [
      ev.started(input),
      `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/doc","value":${escaped}}]}`,
      ev.textStart('m1'),
      `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":${escaped}}`,
      ev.textEnd('m1'),
      ev.finished(input),
    ])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { doc: lone } })
    expect(store.getState().messages[0]!.content).toBe(lone)
    await expectReady(store, server, { doc: lone, count: 0 })
    expect(server.requests.at(-1)!.messages.map((m) => m.content)).toContain(lone)
  })
})

describe('prototype keys everywhere', () => {
  it('treats prototype names as plain data in ids, names, keys and values; refuses an own "__proto__" key in state', async () => {
    const { store, errors } = await runOnce((input) => [
      ev.started(input),
      // Keys named like prototype members are ordinary data.
      ev.snapshot({ doc: 'x', count: 0, constructor: { prototype: { polluted: true } }, toString: 'str', hasOwnProperty: 1, prototype: null }),
      // JSON.parse makes "__proto__" an own key: a state must never hold one.
      '{"type":"STATE_SNAPSHOT","snapshot":{"doc":"y","count":0,"__proto__":{"polluted":true}}}',
      '{"type":"STATE_DELTA","delta":[{"op":"add","path":"/nested","value":{"__proto__":{"polluted":true}}}]}',
      ev.textStart('__proto__'),
      ev.text('__proto__', 'constructor'),
      ev.textEnd('__proto__'),
      ev.toolStart('constructor', 'toString', '__proto__'),
      ev.toolArgs('constructor', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
      ev.toolEnd('constructor'),
      { type: 'TOOL_CALL_RESULT', messageId: 'hasOwnProperty', toolCallId: 'constructor', content: '__proto__' },
      ev.custom('__proto__', { __proto__: null, polluted: true }),
      '{"type":"CUSTOM","name":"constructor","value":{"__proto__":{"polluted":true}}}',
      { type: 'STEP_STARTED', stepName: '__proto__' },
      { type: 'STEP_FINISHED', stepName: '__proto__' },
      ev.finished(input),
    ])
    expect(errors.map((e) => e.code)).toEqual(['INVALID_STATE', 'PATCH_FAILED'])
    const { state, messages, status } = store.getState()
    expect(status).toBe('idle')
    expect(state).toEqual({ doc: 'x', count: 0, constructor: { prototype: { polluted: true } }, toString: 'str', hasOwnProperty: 1, prototype: null })
    expectPlainJson(state)
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype)
    expect(messages.map((m) => m.id)).toEqual(['__proto__', 'hasOwnProperty'])
    expect(messages[0]).toMatchObject({ content: 'constructor', toolCalls: [{ id: 'constructor', function: { name: 'toString' } }] })
    expectPlainJson(messages)
  })

  it('drafts into a state key named "constructor" from an argument named "__proto__", as data', async () => {
    const { store, errors } = await runOnce((input) => [
      ev.started(input),
      ev.predict('constructor', 'write', '__proto__'),
      ev.toolStart('c1', 'write'),
      ev.toolArgs('c1', '{"__proto__":{"polluted":true},"text":"x"}'),
      ev.toolEnd('c1'),
      ev.finished(input),
    ])
    expect(errors).toEqual([])
    const { state } = store.getState()
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(state, 'constructor')?.value).toEqual({ polluted: true })
    expect((state as unknown as Record<string, unknown>).polluted).toBeUndefined()
    expectPlainJson(state)
  })

  it('ignores a PredictState for the key "__proto__", so the state never holds a key a snapshot could not carry', async () => {
    const { store, errors } = await runOnce((input) => [
      ev.started(input),
      ev.predict('__proto__', 'write', 'text'),
      ev.toolStart('c1', 'write'),
      ev.toolArgs('c1', '{"text":{"polluted":true}}'),
      ev.toolEnd('c1'),
      ev.finished(input),
    ])
    expect(errors).toEqual([])
    expect(Object.hasOwn(store.getState().state, '__proto__')).toBe(false)
    // A state holding an own "__proto__" key fails every later setState built from it.
    store.setState((state) => ({ ...state, count: 5 }))
    expect(store.getState()).toMatchObject({ error: undefined, state: { count: 5 } })
  })

  it('answers an interrupt whose id is "__proto__"', async () => {
    server.handle(
      reply((input) => [ev.started(input), ev.finished(input, { type: 'interrupt', interrupts: [{ id: '__proto__', reason: 'input_required' }] })]),
      healthy,
    )
    const { store } = storeOn(server)
    await store.run()
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['__proto__'])
    await store.respond({ id: '__proto__', payload: { constructor: { prototype: { polluted: true } } } })
    expect(server.requests.at(-1)!.resume).toEqual([
      { interruptId: '__proto__', status: 'resolved', payload: { constructor: { prototype: { polluted: true } } } },
    ])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
  })
})

describe('reasoning, activities and subagents: malformed and out of order', () => {
  // RUN_STARTED and a committed change, nothing left open.
  const base = (input: RunAgentInput): Frame[] => [ev.started(input), ev.delta({ op: 'replace', path: '/count', value: 1 })]
  const activity = { type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'progress', content: { done: 0 } }

  // The verifier upstream saw this START open r1 (it does not check roles): its END keeps the run valid.
  const closeR1 = { type: 'REASONING_MESSAGE_END', messageId: 'r1' }
  it.each<[string, Record<string, unknown>, ...Frame[]]>([
    ['REASONING_MESSAGE_START with the role "assistant"', { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'assistant' }, closeR1],
    ['REASONING_MESSAGE_CONTENT whose delta is a number', { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r0', delta: 5 }],
    ['REASONING_ENCRYPTED_VALUE of an unknown subtype', { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'thought', entityId: 'r0', encryptedValue: 'x' }],
    ['ACTIVITY_SNAPSHOT whose content is an array', { type: 'ACTIVITY_SNAPSHOT', messageId: 'a2', activityType: 'progress', content: [1] }],
    ['ACTIVITY_DELTA whose patch is an object', { type: 'ACTIVITY_DELTA', messageId: 'act', activityType: 'progress', patch: { op: 'remove', path: '/done' } }],
    [
      'ACTIVITY_DELTA with an unknown op',
      { type: 'ACTIVITY_DELTA', messageId: 'act', activityType: 'progress', patch: [{ op: 'merge', path: '/done', value: 1 }] },
    ],
  ])('rejects a malformed %s whole (INVALID_EVENT), and the run goes on', async (_name, bad, ...after) => {
    const { store, errors } = await runOnce((input) => [
      ...base(input),
      activity,
      { type: 'REASONING_MESSAGE_START', messageId: 'r0', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r0', delta: 'hm' },
      bad,
      ...after,
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r0', delta: 'm' },
      { type: 'REASONING_MESSAGE_END', messageId: 'r0' },
      ev.finished(input),
    ])
    expect(errors.map((e) => e.code)).toEqual(['INVALID_EVENT'])
    const messages = store.getState().messages.filter((m) => m.role !== 'user')
    expect(messages).toStrictEqual([
      { id: 'act', role: 'activity', activityType: 'progress', content: { done: 0 } },
      { id: 'r0', role: 'reasoning', content: 'hmm' },
    ])
    expect(store.getState()).toMatchObject({ status: 'idle', state: { count: 1 }, error: { code: 'INVALID_EVENT' } })
  })

  it.each<[string, (input: RunAgentInput) => Frame[]]>([
    [
      'reasoning content before its message starts',
      (input) => [...base(input), { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r9', delta: 'x' }, ev.finished(input)],
    ],
    ['a reasoning span ended that never started', (input) => [...base(input), { type: 'REASONING_END', messageId: 's9' }, ev.finished(input)]],
    [
      'RUN_FINISHED while a reasoning message is open',
      (input) => [...base(input), { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' }, ev.finished(input)],
    ],
    ['a subagent finished that never started', (input) => [...base(input), { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub9' }, ev.finished(input)]],
    [
      'a subagent started twice',
      (input) => [...base(input), { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'a' }, { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'a' }],
    ],
    ['a subagent without a name', (input) => [...base(input), { type: 'SUBAGENT_STARTED', subagentRunId: 's1' }, ev.finished(input)]],
    ['RUN_FINISHED while a subagent runs', (input) => [...base(input), { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'a' }, ev.finished(input)]],
    [
      'a step finished by another owner than the one that started it',
      (input) => [
        ...base(input),
        { type: 'STEP_STARTED', stepName: 'tools' },
        { type: 'STEP_FINISHED', stepName: 'tools', subagentRunId: 's1' },
        ev.finished(input),
      ],
    ],
    [
      'an activity patched under another subagent than its own',
      (input) => [
        ...base(input),
        activity,
        { type: 'ACTIVITY_DELTA', messageId: 'act', activityType: 'progress', patch: [], subagentRunId: 's2' },
        ev.finished(input),
      ],
    ],
    [
      'a null subagentRunId',
      (input) => [...base(input), { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', subagentRunId: null }, ev.finished(input)],
    ],
  ])('%s fails the run with INVALID_EVENT', async (_name, build) => {
    const { store } = await runOnce(build)
    expect(store.getState()).toMatchObject({ status: 'error', error: { code: 'INVALID_EVENT' }, steps: [], subagentSteps: [] })
    expect(store.getState().subagents.every((s) => s.status !== 'running')).toBe(true)
    // What a failed run keeps of its state is the run-end's business, not this test's.
    await expectReady(store, server, store.getState().committed)
  })

  it.each<[string, Record<string, unknown>, string, ...Frame[]]>([
    ['an activity patched that was never created', { type: 'ACTIVITY_DELTA', messageId: 'ghost', activityType: 'progress', patch: [] }, 'INVALID_EVENT'],
    [
      'an encrypted value for a message that does not exist',
      { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'ghost', encryptedValue: 'x' },
      'INVALID_EVENT',
    ],
    [
      'an encrypted value for a tool call that does not exist',
      { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: 'ghost', encryptedValue: 'x' },
      'INVALID_EVENT',
    ],
    [
      'a text message started under an activity id',
      { type: 'TEXT_MESSAGE_START', messageId: 'act', role: 'assistant' },
      'INVALID_EVENT',
      { type: 'TEXT_MESSAGE_END', messageId: 'act' },
    ],
    [
      'an activity patch whose test fails',
      {
        type: 'ACTIVITY_DELTA',
        messageId: 'act',
        activityType: 'progress',
        patch: [
          { op: 'replace', path: '/done', value: 1 },
          { op: 'test', path: '/done', value: 2 },
        ],
      },
      'PATCH_FAILED',
    ],
    [
      'an activity patch through __proto__',
      { type: 'ACTIVITY_DELTA', messageId: 'act', activityType: 'progress', patch: [{ op: 'add', path: '/__proto__/polluted', value: true }] },
      'PATCH_FAILED',
    ],
    [
      'an activity patch through constructor.prototype',
      { type: 'ACTIVITY_DELTA', messageId: 'act', activityType: 'progress', patch: [{ op: 'add', path: '/constructor/prototype/polluted', value: true }] },
      'PATCH_FAILED',
    ],
  ])('%s is refused (%s) without changing anything, and the run goes on', async (_name, bad, code, ...after) => {
    const { store, errors, published } = await runOnce((input) => [...base(input), activity, bad, ...after, ev.finished(input)])
    expect(errors.map((e) => e.code)).toEqual([code])
    const rejected = published.findIndex((s) => s.error !== undefined)
    expect(published[rejected]!.messages).toBe(published[rejected - 1]!.messages)
    expect(store.getState().messages.filter((m) => m.role !== 'user')).toStrictEqual([
      { id: 'act', role: 'activity', activityType: 'progress', content: { done: 0 } },
    ])
    expect(store.getState()).toMatchObject({ status: 'idle', state: { count: 1 } })
  })

  it('activity content and subagent results with prototype keys stay plain data', async () => {
    const { store } = await runOnce((input) => [
      ...base(input),
      '{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"card","content":{"constructor":{"prototype":{"polluted":true}},"prototype":1}}',
      { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'x' },
      '{"type":"SUBAGENT_FINISHED","subagentRunId":"s1","result":{"constructor":{"prototype":{"polluted":true}}}}',
      ev.finished(input),
    ])
    const { messages, subagents } = store.getState()
    expectPlainJson(messages.find((m) => m.id === 'a'))
    expectPlainJson(subagents)
    expect(subagents[0]).toMatchObject({ status: 'finished', result: { constructor: { prototype: { polluted: true } } } })
  })
})
