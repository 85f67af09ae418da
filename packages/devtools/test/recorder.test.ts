import { EventType } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { storeInternals } from '@agent-state/core/internals'
import { ScriptedAgent } from '@agent-state/core/testing'
import { createRecorder, DEFAULT_LIMIT, type Recorder, replayRecording } from '@agent-state/devtools'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fixtures, initialStateOf, withIds } from './fixtures'

const delta = (n: number) => ({ type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/n', value: n }] }) as const
const started = { type: EventType.RUN_STARTED, threadId: 't', runId: 'r1' } as const

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the read contract', () => {
  it('starts empty, changes reference only when an input arrives, and tells listeners once per batch', async () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const recorder = createRecorder(store)
    const initial = recorder.getInitialState()
    expect(initial).toEqual({ entries: [], dropped: 0, limit: DEFAULT_LIMIT, start: storeInternals(store).model(), current: undefined })
    expect(recorder.getState()).toBe(initial)
    const calls: [number, number][] = []
    recorder.subscribe((state, previous) => calls.push([state.entries.length, previous.entries.length]))
    store.apply([delta(1), delta(2), delta(3)])
    // Read right away: the entries are there; the listener waits for the batch to end.
    const state = recorder.getState()
    expect(state.entries.map((e) => [e.index, e.snapshot.state])).toEqual([
      [0, { n: 1 }],
      [1, { n: 2 }],
      [2, { n: 3 }],
    ])
    expect(recorder.getState()).toBe(state)
    expect(calls).toEqual([])
    await Promise.resolve()
    expect(calls).toEqual([[3, 0]])
    store.apply(delta(4))
    await Promise.resolve()
    expect(calls).toEqual([
      [3, 0],
      [4, 3],
    ])
  })

  it('tells every listener of a batch, whenever each subscribed', async () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const recorder = createRecorder(store)
    const first = vi.fn()
    const second = vi.fn()
    recorder.subscribe(first)
    store.apply(delta(1))
    recorder.subscribe(second)
    await Promise.resolve()
    expect(first).toHaveBeenCalledTimes(1)
    expect(second).toHaveBeenCalledTimes(1)
    expect(first.mock.calls[0]![0].entries).toHaveLength(1)
  })

  it('keeps the model after each input by reference, with its time', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1234)
    const store = createAgentStore({ initialState: { n: 0 } })
    const recorder = createRecorder(store)
    store.apply(delta(1))
    const [entry] = recorder.getState().entries
    expect(entry!.model).toBe(storeInternals(store).model())
    expect(entry!.snapshot).toBe(store.getState())
    expect(entry!.time).toBe(1234)
    expect(entry!.input).toEqual({ type: 'event', event: delta(1) })
  })

  it('records commands with what they resolved to: a setState function as its value', () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const recorder = createRecorder(store)
    store.setState((previous) => ({ n: previous.n + 41 }))
    store.reset()
    expect(recorder.getState().entries.map((e) => e.input)).toEqual([
      { type: 'setState', update: { n: 41 } },
      { type: 'reset', state: { n: 0 }, threadId: store.getState().threadId },
    ])
  })

  it('stops recording and notifying on dispose', async () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const recorder = createRecorder(store)
    const listener = vi.fn()
    recorder.subscribe(listener)
    recorder.dispose()
    store.apply(delta(1))
    await Promise.resolve()
    expect(recorder.getState().entries).toEqual([])
    expect(listener).not.toHaveBeenCalled()
  })
})

describe('limit', () => {
  it('keeps the last `limit` entries, counts the dropped ones, and exports from the first kept', () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const recorder = createRecorder(store, { limit: 3 })
    for (let n = 1; n <= 10; n++) store.apply(delta(n))
    const state = recorder.getState()
    expect(state.dropped).toBe(7)
    expect(state.entries.map((e) => [e.index, e.snapshot.state])).toEqual([
      [7, { n: 8 }],
      [8, { n: 9 }],
      [9, { n: 10 }],
    ])
    expect(state.start.snapshot.state).toEqual({ n: 7 })
    const replay = replayRecording(recorder.exportRecording())
    expect(replay.recording.header.dropped).toBe(7)
    expect(replay.start).toEqual(state.start.snapshot)
    expect(replay.snapshots).toEqual(state.entries.map((e) => e.snapshot))
  })

  it('stays exact across many compactions', () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const recorder = createRecorder(store, { limit: 4 })
    for (let n = 1; n <= 1001; n++) store.apply(delta(n))
    expect(recorder.getState().dropped).toBe(997)
    expect(recorder.getState().entries.map((e) => e.index)).toEqual([997, 998, 999, 1000])
    expect(recorder.entry(996)).toBeUndefined()
    expect(recorder.entry(1000)!.snapshot.state).toEqual({ n: 1001 })
    expect(recorder.diff(997).state).toEqual([{ op: 'replace', path: '/n', value: 998 }])
  })

  it('refuses a limit below 1', () => {
    const store = createAgentStore({ initialState: {} })
    expect(() => createRecorder(store, { limit: 0 })).toThrow(RangeError)
  })
})

describe('diffs', () => {
  it('gives the exact ops of each part, computed on demand', () => {
    const store = createAgentStore({ initialState: { list: [1] as number[], title: 'a' } })
    const recorder = createRecorder(store)
    store.apply([
      started,
      { type: EventType.STATE_DELTA, delta: [{ op: 'add', path: '/list/-', value: 2 }] },
      { type: EventType.TEXT_MESSAGE_START, messageId: 'm1', role: 'assistant' },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'm1', delta: 'Hel' },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'm1', delta: 'lo' },
    ])
    const [run, add, start, hel, lo] = recorder.getState().entries.map((e) => recorder.diff(e.index))
    expect(run!.other).toEqual([
      { op: 'replace', path: '/status', value: 'running' },
      { op: 'add', path: '/runId', value: 'r1' },
      { op: 'add', path: '/run', value: { runId: 'r1' } },
    ])
    expect(run!.state).toEqual([])
    expect(add).toEqual({
      state: [{ op: 'add', path: '/list/1', value: 2 }],
      committed: [{ op: 'add', path: '/list/1', value: 2 }],
      messages: [],
      confirmations: [],
      predictions: [],
      other: [],
    })
    expect(start!.messages).toEqual([{ op: 'add', path: '/0', value: { id: 'm1', role: 'assistant', content: '' } }])
    expect(hel!.messages).toEqual([{ op: 'replace', path: '/0/content', value: 'Hel' }])
    expect(lo!.messages).toEqual([{ op: 'replace', path: '/0/content', value: 'Hello' }])
    expect(() => recorder.diff(5)).toThrow(RangeError)
  })

  it('shows a draft as it streams: state and predictions change, committed does not', () => {
    const store = createAgentStore({ initialState: { document: '' }, predict: [{ stateKey: 'document', tool: 'write', toolArgument: 'document' }] })
    const recorder = createRecorder(store)
    store.apply([
      started,
      { type: EventType.TOOL_CALL_START, toolCallId: 'c1', toolCallName: 'write', parentMessageId: 'm1' },
      { type: EventType.TOOL_CALL_ARGS, toolCallId: 'c1', delta: '{"document":"Hi' },
      { type: EventType.TOOL_CALL_ARGS, toolCallId: 'c1', delta: ' there' },
    ])
    const last = recorder.getState().entries.at(-1)!
    const diff = recorder.diff(last.index)
    expect(diff.state).toEqual([{ op: 'replace', path: '/document', value: 'Hi there' }])
    expect(diff.committed).toEqual([])
    expect(diff.predictions).toEqual([{ op: 'replace', path: '/0/value', value: 'Hi there' }])
    expect(diff.messages).toEqual([{ op: 'replace', path: '/0/toolCalls/0/function/arguments', value: '{"document":"Hi there' }])
    expect(last.model.drafts.map((d) => [d.stateKey, d.baseline])).toEqual([['document', '']])
  })
})

describe('jumpTo', () => {
  const fixture = fixtures.find((f) => f.name === 'core/02-predictive-document-approve.agent-framework.json')!
  const afterAnswer = fixture.nextRuns[0]!.events

  /** Ids from a counter, so two stores that answer alike make the same ids. */
  function countIds() {
    let n = 0
    vi.spyOn(globalThis.crypto, 'randomUUID').mockImplementation(
      () => `00000000-0000-4000-a000-${String(++n).padStart(12, '0')}` as `${string}-${string}-${string}-${string}-${string}`,
    )
    return (to: number) => {
      n = to
    }
  }

  it('puts the store back before the answer; answering again there is what a store that had been there does', async () => {
    const setIds = countIds()
    const agent = new ScriptedAgent({ runs: [fixture.events, afterAnswer] })
    const store = createAgentStore({ agent, initialState: initialStateOf(fixture) })
    const recorder = createRecorder(store)
    await store.run({ messages: withIds(fixture.input.messages) })
    await store.reject()
    const entries = recorder.getState().entries
    const answer = entries.findIndex((e) => e.input.type === 'answer')
    const before = entries[answer - 1]!
    expect(before.snapshot.status).toBe('interrupted')

    recorder.jumpTo(before.index)
    expect(store.getState()).toBe(before.snapshot)
    expect(recorder.getState().current).toBe(before.index)
    expect(recorder.getState().entries).toHaveLength(entries.length)

    setIds(100)
    await store.approve()
    store.setState((previous) => ({ ...previous, note: 'after' }))
    store.apply({ type: EventType.STATE_DELTA, delta: [{ op: 'add', path: '/extra', value: 1 }] })

    // A fresh store fed the same inputs up to there, then given the same answer and the same edits.
    const freshAgent = new ScriptedAgent({ runs: [afterAnswer] })
    const fresh = createAgentStore({ agent: freshAgent, initialState: initialStateOf(fixture), threadId: store.getInitialState().threadId })
    for (const entry of entries.slice(0, answer)) storeInternals(fresh).feed(entry.input)
    expect(fresh.getState()).toEqual(before.snapshot)
    setIds(100)
    await fresh.approve()
    fresh.setState((previous) => ({ ...previous, note: 'after' }))
    fresh.apply({ type: EventType.STATE_DELTA, delta: [{ op: 'add', path: '/extra', value: 1 }] })

    expect(store.getState()).toEqual(fresh.getState())
    expect(store.getState().committed).toMatchObject({ extra: 1, note: 'after' })
    expect(agent.inputs.at(-1)).toEqual(freshAgent.inputs[0])
    expect(agent.inputs.at(-1)!.resume).toBeDefined()

    // The history now goes through the jump: the rejected branch is gone, and the export replays.
    const now = recorder.getState()
    expect(now.current).toBeUndefined()
    expect(now.entries.slice(0, answer)).toEqual(entries.slice(0, answer))
    expect(now.entries[answer]!.input).toMatchObject({ type: 'answer', answer: { kind: 'approve' } })
    expect(now.entries.map((e) => e.index)).toEqual(now.entries.map((_, i) => i))
    const replay = replayRecording(recorder.exportRecording())
    expect(replay.snapshots).toEqual(now.entries.map((e) => e.snapshot))
  })

  it('jumps to the start with first index - 1, and refuses an index it does not hold', () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const recorder = createRecorder(store)
    store.apply([delta(1), delta(2)])
    recorder.jumpTo(-1)
    expect(store.getState()).toBe(recorder.getState().start.snapshot)
    expect(() => recorder.jumpTo(2)).toThrow(RangeError)
    expect(() => recorder.jumpTo(-2)).toThrow(RangeError)
    store.apply(delta(5))
    expect(recorder.getState().entries.map((e) => [e.index, e.snapshot.state])).toEqual([[0, { n: 5 }]])
  })
})

describe('a recording that starts inside a request', () => {
  const fixture = fixtures.find((f) => f.name === 'core/05-predictive-confirm-changes-approve.langgraph.json')!

  it('attached mid-run: replays the rest of that request from the model it was attached at', async () => {
    const agent = new ScriptedAgent({ runs: [fixture.events], delay: 1 })
    const store = createAgentStore({ agent, initialState: initialStateOf(fixture) })
    let recorder: Recorder<any> | undefined
    let seen = 0
    store.subscribe(() => {
      if (++seen === 5) recorder = createRecorder(store)
    })
    await store.run({ messages: withIds(fixture.input.messages) })
    const { entries, start } = recorder!.getState()
    expect(start.request).toBeDefined()
    expect(entries.length).toBeGreaterThan(5)
    const replay = replayRecording(recorder!.exportRecording())
    expect(replay.start).toEqual(start.snapshot)
    expect(replay.snapshots).toEqual(entries.map((e) => e.snapshot))
    expect(replay.store.getState().status).toBe('interrupted')
  })

  it('front dropped by the limit mid-run: the same', async () => {
    const agent = new ScriptedAgent({ runs: [fixture.events] })
    const store = createAgentStore({ agent, initialState: initialStateOf(fixture) })
    const recorder = createRecorder(store, { limit: 6 })
    await store.run({ messages: withIds(fixture.input.messages) })
    const { entries, start, dropped } = recorder.getState()
    expect(dropped).toBeGreaterThan(0)
    expect(start.request).toBeDefined()
    const replay = replayRecording(recorder.exportRecording())
    expect(replay.snapshots).toEqual(entries.map((e) => e.snapshot))
  })
})
