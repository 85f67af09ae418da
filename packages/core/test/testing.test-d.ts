import type { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { ScriptedAgent, type ScriptedAgentOptions, type ScriptedRun } from '@agent-state/core/testing'
import { describe, expectTypeOf, it } from 'vitest'

// The testing entry: an agent that replays scripted events (checked by tsc).

const event = { type: 'RUN_STARTED', threadId: 't', runId: 'r' } as BaseEvent

describe('ScriptedAgent', () => {
  it('is an AG-UI agent a store takes', () => {
    const agent = new ScriptedAgent({ runs: [[event]] })
    expectTypeOf(agent).toExtend<AbstractAgent>()
    createAgentStore({ agent, initialState: {} })
  })

  it('takes runs as event lists or functions of the input, with a thread id and a delay', () => {
    expectTypeOf<ScriptedRun>().toEqualTypeOf<readonly BaseEvent[] | ((input: RunAgentInput) => readonly BaseEvent[])>()
    expectTypeOf<keyof ScriptedAgentOptions>().toEqualTypeOf<'runs' | 'threadId' | 'delay'>()
    new ScriptedAgent({
      runs: [
        [event],
        (input) => {
          expectTypeOf(input).toEqualTypeOf<RunAgentInput>()
          return [event]
        },
      ],
      threadId: 't1',
      delay: 5,
    })
    // @ts-expect-error: runs are required
    new ScriptedAgent({ threadId: 't1' })
    // @ts-expect-error: a run is a list of events, not one event
    new ScriptedAgent({ runs: [event] })
    // @ts-expect-error: not an option
    new ScriptedAgent({ runs: [], loop: true })
  })

  it('records every input it received', () => {
    const agent = new ScriptedAgent({ runs: [[]] })
    expectTypeOf(agent.inputs).toEqualTypeOf<RunAgentInput[]>()
    expectTypeOf(agent.inputs[0]?.resume).toEqualTypeOf<RunAgentInput['resume'] | undefined>()
    // @ts-expect-error: the list is the agent's
    agent.inputs = []
  })

  it('is made from a devtools recording, with the options other than runs', () => {
    expectTypeOf(ScriptedAgent.fromRecording).toEqualTypeOf<(text: string, options?: Omit<ScriptedAgentOptions, 'runs'>) => ScriptedAgent>()
    ScriptedAgent.fromRecording('', { delay: 1 })
    // @ts-expect-error: the runs come from the recording
    ScriptedAgent.fromRecording('', { runs: [] })
  })
})
