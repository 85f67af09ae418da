import { ScriptedAgent, type ScriptedAgentOptions } from '@agent-state/core/testing'
import { parseRecording } from './recording'

// Its own entry, as the core's testing helpers are: ScriptedAgent is an @ag-ui/client agent, and an
// app that records or shows the panel must not need @ag-ui/client installed.

/**
 * A ScriptedAgent whose runs are the recording's server events, grouped per request in order, so
 * a recorded bug report replays through `run()` and the answers: `createAgentStore({ agent, initialState })`.
 */
export function scriptedAgentFromRecording(text: string, options: Omit<ScriptedAgentOptions, 'runs'> = {}): ScriptedAgent {
  const { header, entries } = parseRecording(text)
  const runs = new Map<string, unknown[]>()
  for (const { input } of entries) {
    if (input.type !== 'event' || input.requestId === undefined) continue
    const run = runs.get(input.requestId) ?? []
    run.push(input.event)
    runs.set(input.requestId, run)
  }
  return new ScriptedAgent({ threadId: header.threadId, ...options, runs: [...runs.values()] as ScriptedAgentOptions['runs'] })
}
