// Issue 13: a saved thread that cannot be continued (another version, a damaged storage, a value
// that is not a thread at all) is refused with RESTORE and a reason, reported once, shown as the
// store's error, and the store starts from initialState, usable. Nothing throws while the store is
// created (that happens during render). And what serializeThread() returns is plain JSON.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStore, type AgentStoreError, type AgentStoreOptions, createAgentStore, restoreThread, serializeThread } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { type Doc, finishing, SteppedAgent, throughJson } from './support-threads'

const THREAD = 'thread-errors'
const initialState: Doc = { document: 'Blank', count: 0 }

const ev = (event: Record<string, unknown>) => event as unknown as BaseEvent
const conversation: BaseEvent[] = [
  ev({ type: 'RUN_STARTED', threadId: THREAD, runId: 'r1' }),
  ev({ type: 'STATE_SNAPSHOT', snapshot: { document: 'Saved', count: 3 } }),
  ev({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }),
  ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hello' }),
  ev({ type: 'TEXT_MESSAGE_END', messageId: 'm1' }),
  ev({ type: 'RUN_FINISHED', threadId: THREAD, runId: 'r1' }),
]

// A validator the saved thread's state must pass: `count` a number.
const validate = (value: unknown): Doc => {
  const doc = value as Doc
  if (typeof doc !== 'object' || doc === null || typeof doc.count !== 'number') throw new Error('count must be a number')
  return doc
}

/** A good saved thread, as plain JSON to damage. */
function savedThread(): Record<string, any> {
  const store = createAgentStore<Doc>({ initialState, threadId: THREAD, validate })
  store.apply(conversation)
  return throughJson(serializeThread(store)) as Record<string, any>
}

function restoring(restore: unknown, extra: Partial<AgentStoreOptions<Doc>> = {}) {
  const errors: AgentStoreError[] = []
  const agent = new ScriptedAgent({ runs: [finishing] })
  let store: AgentStore<Doc> | undefined
  expect(() => {
    store = createAgentStore<Doc>({
      agent,
      initialState,
      threadId: THREAD,
      validate,
      onError: (error) => errors.push(error),
      restore: restoreThread(restore as never),
      ...extra,
    })
  }).not.toThrow()
  return { store: store!, errors, agent }
}

/** Refused with this reason, reported once, shown, and the store is the blank one and works. */
async function expectRefused(restore: unknown, reason: 'unknown-version' | 'damaged' | 'not-a-thread', extra: Partial<AgentStoreOptions<Doc>> = {}) {
  const { store, errors, agent } = restoring(restore, extra)
  expect(errors.map((error) => [error.code, error.reason])).toStrictEqual([['RESTORE', reason]])
  const shown = store.getState()
  expect(shown.error).toBe(errors[0])
  expect(shown.error?.code).toBe('RESTORE')
  expect(typeof shown.error?.message).toBe('string')
  expect(shown).toMatchObject({ status: 'idle', messages: [], confirmations: [], predictions: [], threadId: THREAD, runId: undefined })
  expect(shown.state).toBe(initialState)
  expect(shown.committed).toBe(initialState)
  expect(store.getInitialState()).toBe(shown)
  // Usable: events apply, a local edit applies, and a run goes out with the blank thread.
  store.apply(conversation.slice(0, 2))
  expect(store.getState().state).toStrictEqual({ document: 'Saved', count: 3 })
  store.apply(conversation.slice(2))
  store.setState((previous) => ({ ...previous, count: 4 }))
  expect(store.getState().state).toStrictEqual({ document: 'Saved', count: 4 })
  await store.run({ message: { id: 'u1', role: 'user', content: 'Hi' } })
  expect(agent.inputs).toHaveLength(1)
  expect(agent.inputs[0]!.state).toStrictEqual({ document: 'Saved', count: 4 })
  expect(agent.inputs[0]!.threadId).toBe(THREAD)
  expect(agent.inputs[0]!.messages.map((message) => message.id)).toStrictEqual(['m1', 'u1'])
  expect(store.getState().error).toBeUndefined()
  // Still reported once: nothing later reports the refusal again.
  expect(errors).toHaveLength(1)
}

describe('restore: a saved thread of another version', () => {
  for (const [what, version] of [
    ['version 0', 0],
    ['version 4', 4],
    ["version '2' (a string)", '2'],
    ['version 1.5', 1.5],
    ['version null', null],
  ] as const) {
    it(`${what} is refused (unknown-version)`, async () => {
      await expectRefused({ ...savedThread(), version }, 'unknown-version')
    })
  }

  it('no version at all is refused (unknown-version)', async () => {
    const { version: _version, ...rest } = savedThread()
    await expectRefused(rest, 'unknown-version')
  })
})

describe('restore: a value that is not a thread', () => {
  for (const [what, value] of [
    ['a string', 'thread'],
    ['a number', 42],
    ['true', true],
    ['an array', [savedThread()]],
    ['the JSON text of a thread (not parsed)', JSON.stringify(savedThread())],
  ] as const) {
    it(`${what} is refused (not-a-thread)`, async () => {
      await expectRefused(value, 'not-a-thread')
    })
  }

  it('null and undefined mean no thread: the blank store, nothing reported', () => {
    for (const value of [null, undefined]) {
      const { store, errors } = restoring(value)
      expect(errors).toStrictEqual([])
      expect(store.getState().error).toBeUndefined()
      expect(store.getState().state).toBe(initialState)
    }
  })
})

describe('restore: a damaged thread', () => {
  const damaged: [string, (thread: Record<string, any>) => void][] = [
    ['the model missing', (t) => delete t.model],
    ['the model null', (t) => (t.model = null)],
    ['the model a string', (t) => (t.model = 'model')],
    ['the snapshot missing', (t) => delete t.model.snapshot],
    ['messages not a list', (t) => (t.model.snapshot.messages = { 0: t.model.snapshot.messages[0] })],
    ['a message that is not a message', (t) => t.model.snapshot.messages.push({ id: 'x', role: 'alien', content: 1 })],
    ['a message without its role', (t) => delete t.model.snapshot.messages[0].role],
    ['drafts not a list', (t) => (t.model.drafts = {})],
    ['a draft without its key', (t) => (t.model.drafts = [{ runId: 'r1' }])],
    ['confirmations not a list', (t) => (t.model.snapshot.confirmations = 'none')],
    ['a confirmation without an id', (t) => (t.model.snapshot.confirmations = [{ source: 'interrupt', stateKeys: [] }])],
    ['an unknown status', (t) => (t.model.snapshot.status = 'paused')],
    ['the state failing validate', (t) => (t.model.snapshot.state = { document: 'Saved', count: 'three' })],
    ['the committed state failing validate', (t) => (t.model.snapshot.committed = { document: 'Saved' })],
    ["the server's state failing validate", (t) => (t.model.server = null)],
    ['the thread id not the one its model holds', (t) => (t.threadId = 'another-thread')],
    ["the model's thread id not a string", (t) => (t.model.snapshot.threadId = 7)],
    ['answered interrupts that are not ids', (t) => (t.model.answeredInterrupts = [1, 2])],
    ['run options missing', (t) => delete t.model.settings],
    ['answers not yet sent with no list of answers', (t) => (t.model.outbox = { answered: [] })],
  ]
  for (const [what, damage] of damaged) {
    it(`${what} is refused (damaged)`, async () => {
      const thread = savedThread()
      damage(thread)
      await expectRefused(thread, 'damaged')
    })
  }

  // The limits guard the store against what it is given; a saved thread is given too (another
  // release, another tab, a hand-edited storage). Accepted, the store would hold a state its own
  // limits forbid, and the next setState would fail.
  for (const [what, limits, state] of [
    ['deeper than maxDepth', { maxDepth: 8 }, { document: 'Saved', count: 3, deep: [[[[[[[[[[['x']]]]]]]]]]] }],
    ['larger than maxStateBytes', { maxStateBytes: 2_000 }, { document: 'x'.repeat(5_000), count: 3 }],
  ] as const) {
    it(`a saved state ${what} is refused (damaged), as the limits refuse it from the server`, async () => {
      const thread = savedThread()
      thread.model.snapshot.state = state
      thread.model.snapshot.committed = state
      thread.model.server = state
      await expectRefused(thread, 'damaged', { limits })
    })
  }

  it('an onError that throws does not make the store throw', () => {
    const thread = savedThread()
    delete thread.model
    let store: AgentStore<Doc> | undefined
    expect(() => {
      store = createAgentStore<Doc>({
        initialState,
        threadId: THREAD,
        restore: restoreThread(thread as never),
        onError: () => {
          throw new Error('boom')
        },
      })
    }).not.toThrow()
    expect(store!.getState().error?.code).toBe('RESTORE')
  })

  it('a state with an own __proto__ key is refused (damaged), as from the server, and nothing is polluted', async () => {
    const thread = savedThread()
    const state = JSON.parse('{"document":"Saved","count":3,"__proto__":{"polluted":true}}')
    thread.model.snapshot.state = state
    thread.model.snapshot.committed = state
    thread.model.server = state
    await expectRefused(JSON.parse(JSON.stringify(thread)), 'damaged')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('a model nested deeper than any stack is refused, not thrown', async () => {
    const thread = savedThread()
    let deep: unknown = 'bottom'
    for (let i = 0; i < 200_000; i++) deep = [deep]
    thread.model.snapshot.subagents = deep
    await expectRefused(thread, 'damaged')
  })

  it('the restored thread id is the saved one, whatever the options say', () => {
    const { store, errors } = restoring(savedThread(), { threadId: 'a-new-page' })
    expect(errors).toStrictEqual([])
    expect(store.getState().threadId).toBe(THREAD)
  })
})

/** Every value in it is JSON: plain objects and arrays, strings, finite numbers, booleans, null. */
function expectPlainJson(value: unknown, path = '$'): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return
  if (typeof value === 'number') return void expect(Number.isFinite(value), path).toBe(true)
  expect(typeof value, path).toBe('object')
  const prototype = Object.getPrototypeOf(value)
  expect(prototype === Object.prototype || prototype === Array.prototype, `${path} is a plain object or array`).toBe(true)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      expect(i in value, `${path}[${i}] is not a hole`).toBe(true)
      expectPlainJson(value[i], `${path}[${i}]`)
    }
    return
  }
  expect(Object.getOwnPropertySymbols(value), path).toStrictEqual([])
  for (const [key, item] of Object.entries(value as object)) expectPlainJson(item, `${path}.${key}`)
}

describe('serializeThread(): plain JSON in every state of a thread', () => {
  async function states(): Promise<[string, AgentStore<Doc>][]> {
    const found: [string, AgentStore<Doc>][] = []
    const keep = (what: string, store: AgentStore<Doc>) => found.push([what, store])
    keep('blank', createAgentStore<Doc>({ initialState, threadId: THREAD }))

    const finished = createAgentStore<Doc>({ initialState, threadId: THREAD })
    finished.apply(conversation)
    keep('a finished run', finished)

    // Streaming with a draft and a user edit, through a request.
    const agent = new SteppedAgent()
    const streaming = createAgentStore<Doc>({ agent, initialState, threadId: THREAD, predict: [{ stateKey: 'document', tool: 'write', toolArgument: 'text' }] })
    void streaming.run({ message: 'Write' })
    agent.push(ev({ type: 'RUN_STARTED', threadId: THREAD, runId: agent.inputs[0]!.runId }))
    agent.push(ev({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'write', parentMessageId: 'a1' }))
    agent.push(ev({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"text":"Draf' }))
    streaming.setState((previous) => ({ ...previous, count: 9 }))
    expect(streaming.getState().predictions).toHaveLength(1)
    keep('streaming, with a draft and a user edit', streaming)

    const failed = createAgentStore<Doc>({ initialState, threadId: THREAD })
    failed.apply([conversation[0]!, ev({ type: 'RUN_ERROR', message: 'The model exploded', code: 'MODEL' })])
    expect(failed.getState().error?.code).toBe('RUN_ERROR')
    keep('a failed run (an error instance in the snapshot)', failed)

    const interrupted = createAgentStore<Doc>({ initialState, threadId: THREAD, agent: new ScriptedAgent({ runs: [finishing] }) })
    interrupted.apply([
      conversation[0]!,
      ev({
        type: 'RUN_FINISHED',
        threadId: THREAD,
        runId: 'r1',
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: 'a', reason: 'input_required', responseSchema: { type: 'object' }, expiresAt: '2999-01-01T00:00:00.000Z' },
            { id: 'b', reason: 'tool_call' },
          ],
        },
      }),
    ])
    keep('interrupted, two confirmations', interrupted)
    // One answered: it waits in the outbox for the other.
    const answered = createAgentStore<Doc>({
      initialState,
      threadId: THREAD,
      agent: new ScriptedAgent({ runs: [finishing] }),
      restore: restoreThread(serializeThread(interrupted)),
    })
    await answered.approve({ id: 'a' })
    expect(answered.getState().confirmations.map((c) => c.id)).toStrictEqual(['b'])
    keep('one answer waiting for the other', answered)
    return found
  }

  it('JSON.stringify round-trips it exactly, it holds only plain JSON, and a restore of it serializes the same', async () => {
    for (const [what, store] of await states()) {
      const serialized = serializeThread(store)
      const text = JSON.stringify(serialized)
      expect(JSON.stringify(JSON.parse(text)), what).toBe(text)
      expect(serialized, what).toStrictEqual(JSON.parse(text))
      expectPlainJson(serialized)
      expect(serialized).toMatchObject({ version: 3, threadId: THREAD })
      expect(typeof serialized.savedAt).toBe('number')
      expect(Math.abs(serialized.savedAt - Date.now())).toBeLessThan(60_000)
      const restored = createAgentStore<Doc>({ initialState, threadId: THREAD, restore: restoreThread(JSON.parse(text)) })
      expect(restored.getState().error?.code, what).not.toBe('RESTORE')
      if (store.getState().status !== 'running') {
        expect(restored.getState(), what).toStrictEqual(store.getState())
        expect(JSON.stringify(serializeThread(restored).model), what).toBe(JSON.stringify(serialized.model))
      }
    }
  })

  it('serializeThread() takes a copy: changing the value it returned changes nothing in the store', () => {
    const store = createAgentStore<Doc>({ initialState, threadId: THREAD })
    store.apply(conversation)
    const before = JSON.stringify(store.getState())
    const serialized = serializeThread(store) as { model: Record<string, any> }
    serialized.model.snapshot.state.document = 'Changed'
    serialized.model.snapshot.messages.length = 0
    expect(JSON.stringify(store.getState())).toBe(before)
  })
})
