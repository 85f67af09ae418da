import { canAnswer, createAgentStore } from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { createRecorder, parseRecording, type Recorder, replayRecording } from '@agent-state/devtools'
import { scriptedAgentFromRecording } from '@agent-state/devtools/testing'
import { describe, expect, it } from 'vitest'
import { type Fixture, fixtures, initialStateOf, serverScenarios, withIds } from './fixtures'

/** Exports the recording, replays it, and checks every replayed snapshot against the recorded one. */
function expectReplays(recorder: Recorder<any>, live: { getState(): unknown }) {
  const text = recorder.exportRecording()
  const { entries } = recorder.getState()
  const replay = replayRecording(text)
  expect(replay.snapshots).toHaveLength(entries.length)
  for (const [i, snapshot] of replay.snapshots.entries()) expect(snapshot, `after input ${i} (${entries[i]!.input.type})`).toEqual(entries[i]!.snapshot)
  expect(replay.store.getState()).toEqual(live.getState())
  return { text, replay }
}

type Store = ReturnType<typeof createAgentStore<Record<string, unknown>>>

async function runWithAnswers(fixture: Fixture, answer: 'approve' | 'reject', midStream?: (store: Store, count: number) => void) {
  const agent = new ScriptedAgent({ runs: [fixture.events, ...fixture.nextRuns.map((run) => run.events)], threadId: fixture.input.threadId })
  const store = createAgentStore({ agent, initialState: initialStateOf(fixture) })
  const recorder = createRecorder(store)
  let notified = 0
  if (midStream) store.subscribe(() => midStream(store, ++notified))
  await store.run({ messages: withIds(fixture.input.messages) })
  if (canAnswer(store.getState())) await (answer === 'approve' ? store.approve() : store.reject())
  return { store, recorder, agent }
}

it('loads every recording fixture', () => {
  expect(fixtures.map((f) => f.name)).toEqual([
    'test/02-predictive-document-approve.agent-framework.json',
    'test/14-agentic-gen-ui-step-status-deltas.server-starter.json',
    'core/01-shared-state-recipe-snapshot.dotnet.json',
    'core/02-predictive-document-approve.agent-framework.json',
    'core/04-predictive-args-only-confirm-changes.server-starter.json',
    'core/05-predictive-confirm-changes-approve.langgraph.json',
    'core/07-tool-approval-interrupt-approve.agent-framework.json',
    'core/10-interrupt-approval-resume.dotnet.json',
    'core/11-interrupt-input-required.dotnet.json',
    'core/12-langgraph-interrupt-outcome-resume.langgraph.json',
    'core/14-agentic-gen-ui-step-status-deltas.server-starter.json',
    'core/20-predictive-greeting.client-test-literal.json',
  ])
})

describe.each(fixtures)('$name', (fixture) => {
  it('apply(): recorded, exported, replayed, every snapshot equal', () => {
    const store = createAgentStore({ initialState: initialStateOf(fixture), threadId: fixture.input.threadId })
    const recorder = createRecorder(store)
    store.apply(fixture.events)
    expect(recorder.getState().entries.map((e) => e.input)).toEqual(fixture.events.map((event) => ({ type: 'event', event })))
    const { text } = expectReplays(recorder, store)
    expect(text.trimEnd().split('\n')).toHaveLength(fixture.events.length + 1)
  })

  for (const answer of ['approve', 'reject'] as const) {
    it(`run() and ${answer}: every replayed snapshot equal, no request made`, async () => {
      const { store, recorder, agent } = await runWithAnswers(fixture, answer)
      const types = recorder.getState().entries.map((e) => e.input.type)
      expect(types[0]).toBe('run')
      expect(types.filter((t) => t === 'answer')).toHaveLength(agent.inputs.length - 1)
      const { replay } = expectReplays(recorder, store)
      // The replayed store carries the requests' ids but never opened one: it has no agent.
      expect(replay.store.getState().status).toBe(store.getState().status)
    })
  }

  it('setState in the middle of the stream: replayed between the same events', async () => {
    const half = Math.max(1, Math.floor(fixture.events.length / 2))
    const { store, recorder } = await runWithAnswers(fixture, 'approve', (live, count) => {
      if (count === half) live.setState((previous) => ({ ...previous, note: `edited at ${count}` }))
    })
    const setStates = recorder.getState().entries.filter((e) => e.input.type === 'setState')
    expect(setStates).toHaveLength(1)
    expect(setStates[0]!.input).toEqual({ type: 'setState', update: expect.objectContaining({ note: `edited at ${half}` }) })
    expectReplays(recorder, store)
  })
})

describe.each(serverScenarios)('real server: $name', (scenario) => {
  it('run() through every recorded request, answering as the scenario did: every replayed snapshot equal', async () => {
    const [first, ...later] = scenario.runs
    const agent = new ScriptedAgent({ runs: scenario.runs.map((run) => run.events), threadId: first!.body.threadId })
    const store = createAgentStore({ agent, initialState: (first!.body.state ?? {}) as Record<string, unknown> })
    const recorder = createRecorder(store)
    await store.run({ messages: withIds(first!.body.messages) })
    for (const run of later) {
      if (canAnswer(store.getState())) {
        if (scenario.name.includes('reject')) await store.reject()
        else if (scenario.name.includes('cancel')) await store.cancel()
        else await store.approve()
      } else {
        const last = run.body.messages.at(-1)
        if (last?.role !== 'user') break
        await store.run({ message: last })
      }
    }
    expect(agent.inputs.length).toBeGreaterThan(later.length > 0 ? 1 : 0)
    // Every request's events were recorded under its id (the client may add or merge some on the way).
    const requests = new Set(recorder.getState().entries.flatMap((e) => (e.input.type === 'event' && e.input.requestId ? [e.input.requestId] : [])))
    expect([...requests]).toEqual(agent.inputs.map((input) => input.runId))
    expectReplays(recorder, store)
  })
})

describe('scriptedAgentFromRecording', () => {
  const fixture = fixtures.find((f) => f.name === 'core/02-predictive-document-approve.agent-framework.json')!

  it('turns the recorded requests into runs: the bug report replays through run() and approve()', async () => {
    const { store, recorder, agent } = await runWithAnswers(fixture, 'approve')
    const text = recorder.exportRecording()
    const scripted = scriptedAgentFromRecording(text)
    const again = createAgentStore({ agent: scripted, initialState: initialStateOf(fixture) })
    await again.run({ messages: withIds(fixture.input.messages) })
    await again.approve()
    expect(again.getState().state).toEqual(store.getState().state)
    expect(again.getState().committed).toEqual(store.getState().committed)
    expect(again.getState().messages.filter((m) => m.role !== 'tool')).toEqual(store.getState().messages.filter((m) => m.role !== 'tool'))
    expect(scripted.inputs.map((i) => i.state)).toEqual(agent.inputs.map((i) => i.state))
    expect(scripted.threadId).toBe(parseRecording(text).header.threadId)
  })

  it('has one run per request, in order, each with its events', async () => {
    const { recorder } = await runWithAnswers(fixture, 'approve')
    const scripted = scriptedAgentFromRecording(recorder.exportRecording())
    const runs = (scripted as unknown as { runs: unknown[][] }).runs
    expect(runs.map((run) => run.length)).toEqual([fixture.events.length, fixture.nextRuns[0]!.events.length])
    expect(runs[0]).toEqual(fixture.events)
  })
})
