import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore, type PersistStorage, persistThread, restoreThread, serializeThread } from '../src'
import { storeInternals } from '../src/internals'
import { ev, ManualAgent, recordedStore, rejectionOf } from './helpers'

// Every value the store keeps besides the state (metadata, a run's input and result, interrupts,
// subagent results, on_interrupt values, a snapshot's messages, run options) is saved with the
// thread. One deeper than the state's limits is refused with LIMIT_EXCEEDED, as a state would be,
// so that serializeThread() and every later save still work.

const LEVELS = 100_000

/** A value `levels` objects deep. */
function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {}
  for (let i = 1; i < levels; i++) value = { a: value }
  return value
}

const started = ev.runStarted('r1')

/** Each place an event brings a value the store keeps, with that value given. */
const carriers: Record<string, { before: BaseEvent[]; event: (value: unknown) => BaseEvent }> = {
  'message metadata': {
    before: [ev.runStarted('r1')],
    event: (value) => ({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', metadata: { source: value } }) as BaseEvent,
  },
  'a streamed token’s metadata': {
    before: [ev.runStarted('r1'), ev.textStart('m1')],
    event: (value) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi', metadata: { source: value } }) as BaseEvent,
  },
  'tool-call metadata': {
    before: [ev.runStarted('r1')],
    event: (value) => ({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', metadata: { source: value } }) as BaseEvent,
  },
  'RUN_FINISHED.result': { before: [started], event: (value) => ({ ...ev.runFinished('r1'), result: value }) as BaseEvent },
  'RUN_STARTED.input': {
    before: [],
    event: (value) =>
      ({ ...started, input: { threadId: 't1', runId: 'r1', messages: [], tools: [], context: [], state: {}, forwardedProps: value } }) as BaseEvent,
  },
  'an on_interrupt value': { before: [started], event: (value) => ev.custom('on_interrupt', value) },
  'interrupt metadata': {
    before: [started],
    event: (value) => ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required', metadata: { source: value } }] }),
  },
  'SUBAGENT_FINISHED.result': {
    before: [started, { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'researcher' } as BaseEvent],
    event: (value) => ({ type: 'SUBAGENT_FINISHED', subagentRunId: 's1', result: value }) as BaseEvent,
  },
  'an extra field of a MESSAGES_SNAPSHOT message': {
    before: [started],
    event: (value) => ({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u1', role: 'user', content: 'hi', extra: value }] }) as BaseEvent,
  },
  'ACTIVITY_SNAPSHOT content': {
    before: [started],
    event: (value) => ({ type: 'ACTIVITY_SNAPSHOT', messageId: 'a1', activityType: 'plan', content: { steps: value } }) as BaseEvent,
  },
}

describe('values an event brings besides the state', () => {
  for (const [where, { before, event }] of Object.entries(carriers)) {
    it(`${where}: a ${LEVELS.toLocaleString('en')}-level value is refused, the store keeps its last good state and can still be saved`, () => {
      const { store, errors } = recordedStore({ initialState: { n: 1 } })
      store.apply(before)
      const good = store.getState()
      store.apply(event(deep(LEVELS)))

      const refusal = errors.at(-1) as AgentStoreError
      expect(refusal.code).toBe('LIMIT_EXCEEDED')
      expect(refusal.limit).toBe('maxDepth')
      expect(store.getState().error).toBe(refusal)
      expect(store.getState().messages).toBe(good.messages)
      expect(store.getState().state).toBe(good.state)
      expect(store.getState().subagents).toBe(good.subagents)
      const saved = JSON.parse(JSON.stringify(serializeThread(store)))
      expect(createAgentStore({ initialState: { n: 1 }, restore: restoreThread(saved) }).getState().messages).toEqual(good.messages)

      // The store goes on: the same kind of value within the limits is kept.
      store.apply(event({ depth: 'ok' }))
      expect(errors).toHaveLength(1)
      expect(JSON.stringify(serializeThread(store))).toContain('"depth":"ok"')
    })
  }

  it('a value as deep as the state may be is kept; the refusal names the field and the event', () => {
    const { store, errors } = recordedStore({ initialState: {}, limits: { maxDepth: 8 } })
    store.apply([started, { ...ev.runFinished('r1'), result: deep(8) } as BaseEvent])
    expect(errors).toEqual([])
    expect(store.getState().run?.result).toEqual(deep(8))

    store.apply([ev.runStarted('r2'), { ...ev.runFinished('r2'), result: deep(40) } as BaseEvent])
    const refusal = errors[0] as AgentStoreError
    expect({ code: refusal.code, limit: refusal.limit, eventType: refusal.eventType }).toEqual({
      code: 'LIMIT_EXCEEDED',
      limit: 'maxDepth',
      eventType: 'RUN_FINISHED',
    })
    expect(refusal.message).toContain('/result')
    expect(refusal.path?.startsWith('/result/a/a')).toBe(true)
    // A terminal event refused still ends its run, as a failure.
    expect(store.getState().status).toBe('error')
  })

  it('an event larger than maxEventBytes is refused, whatever its depth', () => {
    const { store, errors } = recordedStore({ initialState: {}, limits: { maxEventBytes: 1000 } })
    store.apply([started, ev.custom('on_interrupt', { text: 'x'.repeat(2000) })])
    expect((errors[0] as AgentStoreError).limit).toBe('maxEventBytes')
    store.apply(ev.custom('on_interrupt', { text: 'short' }))
    expect(errors).toHaveLength(1)
  })

  it('a CUSTOM event the store does not act on reaches listeners unwalked, and the thread still saves', () => {
    const { store, errors } = recordedStore({ initialState: {} })
    const seen: unknown[] = []
    store.onEvent((event) => seen.push((event as { name?: string }).name))
    const value = deep(LEVELS)
    store.apply([started, ev.custom('progress', value), ev.runFinished('r1')])
    expect(errors).toEqual([])
    expect(seen).toEqual([undefined, 'progress', undefined])
    expect(JSON.stringify(serializeThread(store))).not.toContain('"progress"')
  })

  it('only depth and size are judged: undefined fields and a Date in metadata still apply', () => {
    const { store, errors } = recordedStore({ initialState: {} })
    const metadata = { at: new Date(0), note: undefined, score: Number.NaN }
    store.apply([started, { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', name: undefined, metadata } as BaseEvent])
    expect(errors).toEqual([])
    expect(store.getState().messages.map((m) => m.id)).toEqual(['m1'])
  })

  it('a metadata object that refers to itself is refused rather than walked for ever', () => {
    const { store, errors } = recordedStore({ initialState: {} })
    const metadata: Record<string, unknown> = { name: 'loop' }
    metadata.self = metadata
    store.apply([started, { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', metadata } as BaseEvent])
    expect((errors[0] as AgentStoreError).code).toBe('LIMIT_EXCEEDED')
    expect(store.getState().messages).toEqual([])
    expect(() => JSON.stringify(serializeThread(store))).not.toThrow()
  })
})

/** A storage that records what it was given, and whether a write failed. */
function recordingStorage() {
  const items = new Map<string, string>()
  const storage: PersistStorage = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
  return { storage, items }
}

describe('a thread that met a deep value', () => {
  it('is still saved by every later write, and restores', async () => {
    const { storage, items } = recordingStorage()
    const errors: string[] = []
    const options = { initialState: { n: 0 }, persist: persistThread({ storage }), onError: (error: AgentStoreError) => errors.push(error.code) }
    const store = createAgentStore(options)
    store.apply([started, { ...ev.runFinished('r1'), result: deep(LEVELS) } as BaseEvent])
    store.setState({ n: 1 })
    store.apply([ev.runStarted('r2'), ev.textStart('m1'), ev.text('m1', 'after'), ev.textEnd('m1'), ev.runFinished('r2')])
    await storeInternals(store).flush()

    expect(errors).toEqual(['LIMIT_EXCEEDED'])
    const restored = createAgentStore(options)
    expect(restored.getState().state).toEqual({ n: 1 })
    expect(restored.getState().messages.map((m) => m.content)).toEqual(['after'])
    expect(items.size).toBe(1)
  })
})

describe('values a command brings', () => {
  it('run() with deep options or message metadata is refused with LIMIT_EXCEEDED: nothing is sent, nothing changes', async () => {
    const agent = new ManualAgent()
    const store = createAgentStore({ agent, initialState: { n: 0 } })
    const before = store.getState()
    const refusals = [
      await rejectionOf(store.run({ message: 'hi', forwardedProps: deep(LEVELS) })),
      await rejectionOf(store.run({ message: 'hi', tools: [{ name: 'search', description: 'search', parameters: deep(LEVELS) }] })),
      await rejectionOf(
        store.run({ context: [{ description: 'page', value: 'home' }], message: { id: 'u1', role: 'user', content: 'hi', ...{ metadata: deep(LEVELS) } } }),
      ),
    ]
    expect(refusals.map((r) => r?.code)).toEqual(['LIMIT_EXCEEDED', 'LIMIT_EXCEEDED', 'LIMIT_EXCEEDED'])
    expect(refusals[0]?.message).toContain('/forwardedProps')
    expect(agent.inputs).toEqual([])
    expect(store.getState()).toBe(before)
    expect(() => JSON.stringify(serializeThread(store))).not.toThrow()
  })

  it('run options larger than maxEventBytes are refused with that limit; within it the run starts', async () => {
    const agent = new ManualAgent()
    const store = createAgentStore({ agent, initialState: {}, limits: { maxEventBytes: 1000 } })
    const refusal = await store.run({ message: 'hi', context: [{ description: 'page', value: 'x'.repeat(2000) }] }).catch((error) => error)
    expect({ code: refusal.code, limit: refusal.limit, eventType: refusal.eventType }).toEqual({
      code: 'LIMIT_EXCEEDED',
      limit: 'maxEventBytes',
      eventType: undefined,
    })
    const running = store.run({ message: 'hi', context: [{ description: 'page', value: 'home' }] })
    expect(agent.inputs.map((input) => input.context)).toEqual([[{ description: 'page', value: 'home' }]])
    store.abort()
    await running
  })

  it('an answer with deep run options is refused and its confirmation stays open; within the limits it goes', async () => {
    const agent = new ManualAgent()
    const store = createAgentStore({ agent, initialState: {} })
    store.apply([started, ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] })])
    const refusal = await rejectionOf(store.respond({ id: 'i1', payload: { answer: 'yes' }, forwardedProps: deep(LEVELS) }))
    expect(refusal?.code).toBe('LIMIT_EXCEEDED')
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['i1'])
    expect(agent.inputs).toEqual([])

    const answered = store.respond({ id: 'i1', payload: { answer: 'yes' }, forwardedProps: { page: 'home' } })
    expect(agent.inputs.map((input) => input.forwardedProps)).toEqual([{ page: 'home' }])
    store.abort()
    await answered
  })
})
