// One golden test per AG-UI 1.0 event type: what each does to the snapshot, driven through
// createAgentStore().apply() and getState().
import type { BaseEvent, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { messagesForServer } from '../src/snapshot/messages'
import { ev, recordedStore } from './helpers'

const e = (event: Record<string, unknown>) => event as unknown as BaseEvent

function storeWith(...events: BaseEvent[]) {
  const recorded = recordedStore<Record<string, unknown>>({ initialState: {} })
  const seen: BaseEvent[] = []
  recorded.store.onEvent((event) => seen.push(event))
  recorded.store.apply(events)
  return { ...recorded, seen }
}

describe('text messages', () => {
  it('TEXT_MESSAGE_START creates the message with its name, subagent and metadata', () => {
    const { store } = storeWith(e({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'user', name: 'ann', subagentRunId: 's1', metadata: { a: 1 } }))
    expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'user', content: '', name: 'ann', subagentRunId: 's1', metadata: { a: 1 } }])
  })

  it('TEXT_MESSAGE_CONTENT appends and merges metadata key by key, the last write winning', () => {
    const { store } = storeWith(
      e({ type: 'TEXT_MESSAGE_START', messageId: 'm1', metadata: { a: 1, b: 1 } }),
      e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hel' }),
      e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'lo', metadata: { b: 2 } }),
    )
    expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'Hello', metadata: { a: 1, b: 2 } }])
  })

  it('TEXT_MESSAGE_END lands its metadata (usage, finish reason) and nothing else', () => {
    const { store } = storeWith(ev.textStart('m1'), ev.text('m1', 'hi'))
    const before = store.getState()
    store.apply(ev.textEnd('m1'))
    expect(store.getState()).toBe(before)
    store.apply(e({ type: 'TEXT_MESSAGE_END', messageId: 'm1', metadata: { finish: 'stop' } }))
    expect(store.getState().messages[0]).toStrictEqual({ id: 'm1', role: 'assistant', content: 'hi', metadata: { finish: 'stop' } })
  })

  it('TEXT_MESSAGE_CHUNK carries its subagent and metadata onto the message it starts', () => {
    const { store } = storeWith(
      e({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'a', subagentRunId: 's1', metadata: { k: 1 } }),
      e({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'b' }),
    )
    expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'ab', subagentRunId: 's1', metadata: { k: 1 } }])
  })

  it('refuses a text START for an id held by another kind of message, changing nothing', () => {
    const { store, errors } = storeWith(e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x', activityType: 'card', content: {} }))
    const before = store.getState().messages
    store.apply([ev.textStart('x'), ev.text('x', 'oops')])
    expect(store.getState().messages).toBe(before)
    expect(errors.map((error) => (error as { code: string }).code)).toEqual(['INVALID_EVENT', 'INVALID_EVENT'])
  })
})

describe('tool calls', () => {
  it('TOOL_CALL_START gives a message it creates the subagent of the call, and the call its metadata', () => {
    const { store } = storeWith(e({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', subagentRunId: 's1', metadata: { m: 1 } }))
    expect(store.getState().messages).toStrictEqual([
      {
        id: 'c1',
        role: 'assistant',
        subagentRunId: 's1',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '' }, metadata: { m: 1 } }],
      },
    ])
  })

  it('TOOL_CALL_ARGS streams into the call; TOOL_CALL_END lands metadata on the call, not the message', () => {
    const { store } = storeWith(
      ev.textStart('a1'),
      ev.toolStart('c1', 'search', 'a1'),
      e({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":', metadata: { x: 1 } }),
      ev.toolArgs('c1', '1}'),
      e({ type: 'TOOL_CALL_END', toolCallId: 'c1', metadata: { y: 2 } }),
    )
    expect(store.getState().messages).toStrictEqual([
      {
        id: 'a1',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":1}' }, metadata: { x: 1, y: 2 } }],
      },
    ])
  })

  it('TOOL_CALL_CHUNK starts the call under its parent, then appends', () => {
    const { store } = storeWith(
      ev.textStart('a1'),
      e({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'plan', parentMessageId: 'a1', delta: '{' }),
      e({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', delta: '}' }),
    )
    expect(store.getState().messages).toStrictEqual([
      { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'plan', arguments: '{}' } }] },
    ])
  })

  it('TOOL_CALL_RESULT goes right after the message holding its call, after the results already there', () => {
    const { store } = storeWith(
      ev.textStart('a1'),
      ev.toolStart('c1', 'search', 'a1'),
      ev.toolStart('c2', 'search', 'a1'),
      ev.toolEnd('c1'),
      ev.toolEnd('c2'),
      ev.textStart('a2'),
      ev.text('a2', 'Looking…'),
      ev.toolResult('t1', 'c1', 'one'),
      e({ type: 'TOOL_CALL_RESULT', messageId: 't2', toolCallId: 'c2', content: 'two', subagentRunId: 's1', metadata: { ms: 3 } }),
      ev.toolResult('t3', 'nobody', 'orphan'),
    )
    const messages = store.getState().messages
    expect(messages.map((message) => message.id)).toEqual(['a1', 't1', 't2', 'a2', 't3'])
    expect(messages[2]).toStrictEqual({ id: 't2', role: 'tool', toolCallId: 'c2', content: 'two', subagentRunId: 's1', metadata: { ms: 3 } })
  })
})

describe('state events', () => {
  it('STATE_SNAPSHOT and STATE_DELTA change the state, not the messages', () => {
    const { store } = storeWith(ev.textStart('m1'))
    const { messages } = store.getState()
    store.apply([ev.snapshot({ a: 1 }), ev.delta({ op: 'add', path: '/b', value: 2 })])
    expect(store.getState().state).toEqual({ a: 1, b: 2 })
    expect(store.getState().messages).toBe(messages)
  })

  it('a subagent state event applies to the one state of the thread', () => {
    const { store } = storeWith(e({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/x', value: 1 }], subagentRunId: 's1' }))
    expect(store.getState().state).toEqual({ x: 1 })
  })
})

describe('MESSAGES_SNAPSHOT', () => {
  const held: Message[] = [
    { id: 'u1', role: 'user', content: 'hi' },
    { id: 'r1', role: 'reasoning', content: 'thinking' },
    { id: 'act1', role: 'activity', activityType: 'progress', content: { done: 1 } },
    { id: 'a1', role: 'assistant', content: 'hello' },
  ]

  it('keeps held messages in place with the snapshot version, drops the ones left out, appends the new ones', () => {
    const { store } = storeWith(e({ type: 'MESSAGES_SNAPSHOT', messages: held }))
    const [u1, r1, act1] = store.getState().messages
    store.apply(
      e({
        type: 'MESSAGES_SNAPSHOT',
        messages: [
          { id: 'new', role: 'user', content: 'later' },
          { id: 'u1', role: 'user', content: 'hi' },
        ],
      }),
    )
    const messages = store.getState().messages
    // a1 is gone; reasoning and activity are client-only when the snapshot carries none of their kind.
    expect(messages.map((message) => message.id)).toEqual(['u1', 'r1', 'act1', 'new'])
    expect(messages[0]).toBe(u1)
    expect(messages[1]).toBe(r1)
    expect(messages[2]).toBe(act1)
  })

  it('a snapshot carrying reasoning or activity owns that kind: the ones it leaves out go', () => {
    const { store } = storeWith(e({ type: 'MESSAGES_SNAPSHOT', messages: held }))
    store.apply(
      e({
        type: 'MESSAGES_SNAPSHOT',
        messages: [
          { id: 'r2', role: 'reasoning', content: 'canonical' },
          { id: 'act2', role: 'activity', activityType: 'card', content: {} },
        ],
      }),
    )
    expect(store.getState().messages.map((message) => message.id)).toEqual(['r2', 'act2'])
  })

  it('honours declared authoritative activity types: null owns all, a list owns its types', () => {
    const activities: Message[] = [
      { id: 'p', role: 'activity', activityType: 'progress', content: {} },
      { id: 'c', role: 'activity', activityType: 'card', content: {} },
    ]
    const declared = (types: unknown) => e({ type: 'MESSAGES_SNAPSHOT', messages: [], metadata: { '@ag-ui/client': { authoritativeActivityTypes: types } } })
    const ids = (store: { getState(): { messages: readonly Message[] } }) => store.getState().messages.map((message) => message.id)
    const all = storeWith(e({ type: 'MESSAGES_SNAPSHOT', messages: activities }), declared(null)).store
    expect(ids(all)).toEqual([])
    const some = storeWith(e({ type: 'MESSAGES_SNAPSHOT', messages: activities }), declared(['card'])).store
    expect(ids(some)).toEqual(['p'])
    const invalid = storeWith(e({ type: 'MESSAGES_SNAPSHOT', messages: activities }), declared('nonsense')).store
    expect(ids(invalid)).toEqual(['p', 'c'])
  })
})

describe('activities', () => {
  it('ACTIVITY_SNAPSHOT creates, replaces (keeping metadata, taking the new owner) or, with replace: false, leaves it', () => {
    const { store } = storeWith(
      e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'progress', content: { step: 1 }, subagentRunId: 's1', metadata: { k: 1 } }),
    )
    expect(store.getState().messages).toStrictEqual([
      { id: 'a', role: 'activity', activityType: 'progress', content: { step: 1 }, subagentRunId: 's1', metadata: { k: 1 } },
    ])
    store.apply(e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'progress', content: { step: 2 }, replace: false }))
    expect(store.getState().messages[0]).toMatchObject({ content: { step: 1 } })
    store.apply(e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'a2ui-surface', content: { step: 3 } }))
    expect(store.getState().messages).toStrictEqual([{ id: 'a', role: 'activity', activityType: 'a2ui-surface', content: { step: 3 }, metadata: { k: 1 } }])
  })

  it('ACTIVITY_DELTA patches the content with structural sharing, taking its activityType', () => {
    const { store } = storeWith(
      ev.textStart('m1'),
      e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'progress', content: { steps: [{ n: 1 }, { n: 2 }], meta: { v: 1 } } }),
    )
    const before = store.getState()
    const content = (before.messages[1] as unknown as { content: { steps: unknown[]; meta: unknown } }).content
    store.apply(e({ type: 'ACTIVITY_DELTA', messageId: 'a', activityType: 'card', patch: [{ op: 'replace', path: '/steps/1/n', value: 3 }] }))
    const after = store.getState()
    const next = after.messages[1] as unknown as { activityType: string; content: { steps: unknown[]; meta: unknown } }
    expect(next.activityType).toBe('card')
    expect(next.content).toEqual({ steps: [{ n: 1 }, { n: 3 }], meta: { v: 1 } })
    expect(next.content.meta).toBe(content.meta)
    expect(next.content.steps[0]).toBe(content.steps[0])
    expect(after.messages[0]).toBe(before.messages[0])
    expect(content).toEqual({ steps: [{ n: 1 }, { n: 2 }], meta: { v: 1 } })
  })

  it('activities are not sent back to the server', () => {
    const { store } = storeWith(ev.textStart('m1'), e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a', activityType: 'progress', content: {} }))
    expect(messagesForServer(store.getState().messages).map((message) => message.id)).toEqual(['m1'])
  })
})

describe('events that change no message', () => {
  it.each([
    ['RAW', { type: 'RAW', event: { any: 'thing' }, source: 'provider' }],
    ['CUSTOM', { type: 'CUSTOM', name: 'progress', value: 1 }],
    ['REASONING_START', { type: 'REASONING_START', messageId: 'r1' }],
    ['REASONING_END', { type: 'REASONING_END', messageId: 'r1' }],
  ])('%s leaves the snapshot as it is and reaches onEvent', (type, event) => {
    const { store, seen } = storeWith(ev.textStart('m1'))
    const before = store.getState()
    store.apply(e(event))
    expect(store.getState()).toBe(before)
    expect(seen.map((s) => s.type)).toEqual(['TEXT_MESSAGE_START', type])
  })

  it('an event type the protocol does not know is ignored without harm and reaches onEvent', () => {
    const { store, seen, errors } = storeWith(ev.textStart('m1'))
    const before = store.getState()
    store.apply(e({ type: 'FUTURE_EVENT', payload: 1 }))
    expect(store.getState()).toBe(before)
    expect(errors).toEqual([])
    expect(seen.map((s) => s.type)).toEqual(['TEXT_MESSAGE_START', 'FUTURE_EVENT'])
  })
})

describe('runs', () => {
  it('RUN_STARTED keeps parentRunId and input, and appends input messages not held yet', () => {
    const input = {
      threadId: 't1',
      runId: 'r2',
      messages: [
        { id: 'u1', role: 'user', content: 'again' },
        { id: 'u2', role: 'user', content: 'new' },
      ],
    }
    const { store } = storeWith(
      e({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u1', role: 'user', content: 'hi' }] }),
      e({ type: 'RUN_STARTED', threadId: 't1', runId: 'r2', parentRunId: 'r1', input }),
    )
    expect(store.getState().run).toStrictEqual({ runId: 'r2', parentRunId: 'r1', input })
    expect(store.getState().messages).toStrictEqual([
      { id: 'u1', role: 'user', content: 'hi' },
      { id: 'u2', role: 'user', content: 'new' },
    ])
  })

  it('RUN_FINISHED keeps result, usage, outcome and metadata on the run', () => {
    const usage = [{ provider: 'openai', model: 'o4', inputTokens: 10, outputTokens: 5, reasoningTokens: 3 }]
    const { store } = storeWith(
      e({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1', metadata: { trace: 'x' } }),
      e({ type: 'RUN_FINISHED', threadId: 't1', runId: 'r1', result: { answer: 42 }, usage, metadata: { cost: 1 } }),
    )
    expect(store.getState().run).toStrictEqual({ runId: 'r1', outcome: 'success', result: { answer: 42 }, usage, metadata: { trace: 'x', cost: 1 } })
    expect(store.getState().status).toBe('idle')
  })

  it('RUN_ERROR keeps usage and says the run failed', () => {
    const usage = [{ inputTokens: 1 }]
    const { store } = storeWith(ev.runStarted('r1'), e({ type: 'RUN_ERROR', message: 'quota', code: 'Q', usage }))
    expect(store.getState().run).toStrictEqual({ runId: 'r1', outcome: 'error', usage })
    expect(store.getState()).toMatchObject({ status: 'error', error: { code: 'RUN_ERROR', serverCode: 'Q' } })
  })
})

describe('steps per owner', () => {
  it('STEP_STARTED / STEP_FINISHED track the parent in steps and each subagent in subagentSteps', () => {
    const { store } = storeWith(
      ev.runStarted('r1'),
      ev.stepStarted('tools'),
      e({ type: 'STEP_STARTED', stepName: 'tools', subagentRunId: 's1' }),
      e({ type: 'STEP_STARTED', stepName: 'write', subagentRunId: 's1' }),
    )
    expect(store.getState().steps).toEqual(['tools'])
    expect(store.getState().subagentSteps).toEqual([
      { subagentRunId: 's1', stepName: 'tools' },
      { subagentRunId: 's1', stepName: 'write' },
    ])
    store.apply(e({ type: 'STEP_FINISHED', stepName: 'tools', subagentRunId: 's1' }))
    expect(store.getState().steps).toEqual(['tools'])
    expect(store.getState().subagentSteps).toEqual([{ subagentRunId: 's1', stepName: 'write' }])
  })

  it('a step finished by the wrong owner is INVALID_EVENT and changes nothing', () => {
    const { store, errors } = storeWith(ev.runStarted('r1'), ev.stepStarted('tools'), e({ type: 'STEP_STARTED', stepName: 'write', subagentRunId: 's1' }))
    const before = store.getState()
    store.apply([e({ type: 'STEP_FINISHED', stepName: 'tools', subagentRunId: 's1' }), ev.stepFinished('write')])
    expect(store.getState().steps).toBe(before.steps)
    expect(store.getState().subagentSteps).toBe(before.subagentSteps)
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatchObject({ code: 'INVALID_EVENT', eventType: 'STEP_FINISHED' })
    expect((errors[0] as Error).message).toContain('the parent agent')
    expect((errors[1] as Error).message).toContain('subagent "s1"')
  })
})

describe('reasoning', () => {
  it('REASONING_MESSAGE_START / CONTENT / END build a reasoning message, growing only it', () => {
    const { store } = storeWith(
      ev.textStart('a0'),
      e({ type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning', subagentRunId: 's1', metadata: { a: 1 } }),
      e({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'Let me ' }),
    )
    const before = store.getState()
    store.apply([
      e({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'think.' }),
      e({ type: 'REASONING_MESSAGE_END', messageId: 'r1', metadata: { b: 2 } }),
    ])
    const after = store.getState()
    expect(after.messages[1]).toStrictEqual({ id: 'r1', role: 'reasoning', content: 'Let me think.', subagentRunId: 's1', metadata: { a: 1, b: 2 } })
    expect(after.messages[0]).toBe(before.messages[0])
  })

  it('REASONING_MESSAGE_CHUNK starts the reasoning message, then appends', () => {
    const { store } = storeWith(
      e({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', delta: 'a' }),
      e({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', delta: 'b' }),
    )
    expect(store.getState().messages).toStrictEqual([{ id: 'r1', role: 'reasoning', content: 'ab' }])
  })

  it('REASONING_ENCRYPTED_VALUE lands on the message or tool call it names, and goes back to the server', () => {
    const { store } = storeWith(
      e({ type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' }),
      e({ type: 'REASONING_MESSAGE_END', messageId: 'r1' }),
      ev.textStart('a1'),
      ev.toolStart('c1', 'search', 'a1'),
      e({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r1', encryptedValue: 'enc-r1', metadata: { ignored: true } }),
      e({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: 'c1', encryptedValue: 'enc-c1' }),
      e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'progress', content: {} }),
    )
    const sent = messagesForServer(store.getState().messages)
    expect(sent).toStrictEqual([
      { id: 'r1', role: 'reasoning', content: '', encryptedValue: 'enc-r1' },
      {
        id: 'a1',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '' }, encryptedValue: 'enc-c1' }],
      },
    ])
  })
})

describe('subagents', () => {
  const started = (id: string, more: Record<string, unknown> = {}) => e({ type: 'SUBAGENT_STARTED', subagentRunId: id, name: 'researcher', ...more })

  it('SUBAGENT_STARTED adds an entry, in order, with its parents', () => {
    const { store } = storeWith(
      ev.runStarted('r1'),
      started('s1', { description: 'finds things', parentToolCallId: 'c1', parentMessageId: 'a1', metadata: { k: 1 } }),
      started('s2', { parentSubagentRunId: 's1' }),
    )
    expect(store.getState().subagents).toStrictEqual([
      {
        subagentRunId: 's1',
        name: 'researcher',
        description: 'finds things',
        parentToolCallId: 'c1',
        parentMessageId: 'a1',
        status: 'running',
        metadata: { k: 1 },
        runId: 'r1',
      },
      { subagentRunId: 's2', name: 'researcher', parentSubagentRunId: 's1', status: 'running', runId: 'r1' },
    ])
  })

  it('SUBAGENT_FINISHED keeps the result, or the interrupts of a suspended outcome; the other entries keep their identity', () => {
    const { store } = storeWith(ev.runStarted('r1'), started('s1'), started('s2'))
    const [, s2] = store.getState().subagents
    store.apply(e({ type: 'SUBAGENT_FINISHED', subagentRunId: 's1', result: { found: 3 } }))
    expect(store.getState().subagents[0]).toMatchObject({ status: 'finished', result: { found: 3 } })
    expect(store.getState().subagents[1]).toBe(s2)
    store.apply(e({ type: 'SUBAGENT_FINISHED', subagentRunId: 's2', outcome: { type: 'suspended', interruptIds: ['i1'] } }))
    expect(store.getState().subagents[1]).toMatchObject({ status: 'suspended', interruptIds: ['i1'] })
  })

  it('SUBAGENT_ERROR keeps the message and code; the run goes on', () => {
    const { store } = storeWith(ev.runStarted('r1'), started('s1'), e({ type: 'SUBAGENT_ERROR', subagentRunId: 's1', message: 'timeout', code: 'T' }))
    expect(store.getState().subagents[0]).toMatchObject({ status: 'error', error: { message: 'timeout', code: 'T' } })
    expect(store.getState().status).toBe('running')
  })

  it('a suspended subagent is continued by a later run, in its place', () => {
    const { store } = storeWith(
      ev.runStarted('r1'),
      started('s1'),
      started('s2'),
      e({ type: 'SUBAGENT_FINISHED', subagentRunId: 's1', outcome: { type: 'suspended' } }),
      e({ type: 'SUBAGENT_FINISHED', subagentRunId: 's2' }),
      ev.runStarted('r2'),
      started('s1'),
    )
    expect(store.getState().subagents.map((s) => [s.subagentRunId, s.status, s.runId])).toEqual([
      ['s1', 'running', 'r2'],
      ['s2', 'finished', 'r1'],
    ])
  })

  it('messages keep their subagentRunId, so a UI can nest them under the tool call that spawned the subagent', () => {
    const { store } = storeWith(
      ev.runStarted('r1'),
      ev.textStart('a1'),
      ev.toolStart('c1', 'delegate', 'a1'),
      started('s1', { parentToolCallId: 'c1' }),
      e({ type: 'TEXT_MESSAGE_START', messageId: 'm-s1', subagentRunId: 's1' }),
      e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm-s1', delta: 'found it', subagentRunId: 's1' }),
    )
    const { messages, subagents } = store.getState()
    const nested = messages.filter((message) => message.subagentRunId === subagents.find((s) => s.parentToolCallId === 'c1')?.subagentRunId)
    expect(nested).toStrictEqual([{ id: 'm-s1', role: 'assistant', content: 'found it', subagentRunId: 's1' }])
  })

  it.each([
    ['started twice while running', [started('s1'), started('s1')]],
    ['started again after it ended in the same run', [started('s1'), e({ type: 'SUBAGENT_FINISHED', subagentRunId: 's1' }), started('s1')]],
    ['with a parent that never started', [started('s1', { parentSubagentRunId: 'nobody' })]],
    ['finished without starting', [e({ type: 'SUBAGENT_FINISHED', subagentRunId: 's9' })]],
    [
      'failed after finishing',
      [started('s1'), e({ type: 'SUBAGENT_FINISHED', subagentRunId: 's1' }), e({ type: 'SUBAGENT_ERROR', subagentRunId: 's1', message: 'x' })],
    ],
  ])('a subagent %s is INVALID_EVENT', (_what, events) => {
    const { store, errors } = storeWith(ev.runStarted('r1'))
    store.apply(events.slice(0, -1))
    const before = store.getState().subagents
    store.apply(events.at(-1)!)
    expect(store.getState().subagents).toBe(before)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'INVALID_EVENT' })
  })

  it('a subagent still running when its run ends cannot finish any more', () => {
    const { store } = storeWith(ev.runStarted('r1'), started('s1'), e({ type: 'RUN_ERROR', message: 'crashed' }))
    expect(store.getState().subagents[0]).toMatchObject({ status: 'error', error: { message: 'crashed' } })
  })
})
