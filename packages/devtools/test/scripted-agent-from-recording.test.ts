// A bug report as a two-line test: a recording of real traffic becomes a ScriptedAgent
// (`ScriptedAgent.fromRecording` in @agent-state/core/testing) that serves the same runs again.

import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { describe, expect, it } from 'vitest'
import { createRecorder } from '../src'
import { scriptedAgentFromRecording } from '../src/testing'

type Doc = { document: string }

const run = (input: RunAgentInput, text: string): BaseEvent[] =>
  [
    { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId },
    { type: 'CUSTOM', name: 'PredictState', value: [{ state_key: 'document', tool: 'write', tool_argument: 'document' }] },
    { type: 'TOOL_CALL_START', toolCallId: `c-${text}`, toolCallName: 'write', parentMessageId: `m-${text}` },
    { type: 'TOOL_CALL_ARGS', toolCallId: `c-${text}`, delta: JSON.stringify({ document: text }) },
    { type: 'TOOL_CALL_END', toolCallId: `c-${text}` },
    { type: 'TOOL_CALL_RESULT', messageId: `r-${text}`, toolCallId: `c-${text}`, content: 'ok' },
    { type: 'STATE_SNAPSHOT', snapshot: { document: text } },
    { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId },
  ] as BaseEvent[]

async function recorded() {
  const agent = new ScriptedAgent({ threadId: 'bug-report', runs: [(input) => run(input, 'first'), (input) => run(input, 'second')] })
  const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
  const recorder = createRecorder(store)
  await store.run({ message: 'one' })
  store.setState({ document: 'edited' })
  await store.run({ message: 'two' })
  return { text: recorder.exportRecording(), store, agent }
}

describe('ScriptedAgent.fromRecording', () => {
  it("serves each recorded request's events again, in order, on the recorded thread", async () => {
    const { text, store, agent } = await recorded()
    const replayed = ScriptedAgent.fromRecording(text)
    expect(replayed.threadId).toBe('bug-report')

    const again = createAgentStore<Doc>({ agent: replayed, initialState: { document: '' } })
    await again.run({ message: 'one' })
    again.setState({ document: 'edited' })
    await again.run({ message: 'two' })
    expect(again.getState().state).toEqual(store.getState().state)
    expect(again.getState().messages.map((m) => [m.role, m.id])).toEqual(
      store.getState().messages.map((m) => [m.role, m.role === 'user' ? expect.any(String) : m.id]),
    )
    // The same requests reach the scripted server, edits included.
    expect(replayed.inputs.map((input) => input.state)).toEqual(agent.inputs.map((input) => input.state))
  })

  it('is the same agent the devtools build', async () => {
    const { text } = await recorded()
    const fromCore = ScriptedAgent.fromRecording(text)
    const fromDevtools = scriptedAgentFromRecording(text)
    const events = (agent: ScriptedAgent) => (agent as unknown as { runs: readonly unknown[] }).runs
    expect(events(fromCore)).toEqual(events(fromDevtools))
    expect(events(fromCore)).toHaveLength(2)
  })

  it('refuses text that is not a recording', () => {
    expect(() => ScriptedAgent.fromRecording('{"hello":1}\n')).toThrow(/Not an agent-state recording/)
  })
})
