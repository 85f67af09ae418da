import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'
import { ev } from '../helpers'

// Scenario builders for runs through the store: an agent whose streams the test drives, and the
// events that map a tool to a key, interrupt a run, or make a whole run.

export type S = Record<string, unknown>

export const predict = (stateKey: string, tool: string, toolArgument: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, tool_argument: toolArgument }])

export const interrupt = (runId: string, interrupts: Record<string, unknown>[]) => ev.runFinished(runId, 't1', { type: 'interrupt', interrupts })

/** A whole run: RUN_STARTED then RUN_FINISHED. */
export const done = (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId), ev.runFinished(input.runId)]

/** Each run streams what the test pushes; `streams[i]` is run i's stream. */
export class OpenAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  readonly streams: Subscriber<BaseEvent>[] = []
  constructor(private readonly opening = true) {
    super({ threadId: 'thread-x' })
  }
  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    return new Observable<BaseEvent>((subscriber) => {
      this.streams.push(subscriber)
      if (this.opening) subscriber.next(ev.runStarted(input.runId))
    })
  }
}
