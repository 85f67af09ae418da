import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable } from 'rxjs'
import { decodeModel } from './persistence/model-codec'

/** One run's events: a list, or a function of the input the store sent (to answer what it asked). */
export type ScriptedRun = readonly BaseEvent[] | ((input: RunAgentInput) => readonly BaseEvent[])

/** `ScriptedAgent`'s one argument. */
export interface ScriptedAgentOptions {
  /** One entry per run, used in order; the last one repeats. */
  runs: readonly ScriptedRun[]
  threadId?: string
  /** Milliseconds between events (0: all in one macrotask tick, still asynchronous). */
  delay?: number
}

/**
 * An AG-UI agent that replays scripted events and records every input it receives, so a UI
 * can be tested against real recordings without a server: `agent.inputs[1].resume` is what approve() sent.
 * It extends @ag-ui/client's AbstractAgent and streams rxjs Observables: `@agent-state/core/testing`
 * needs both installed (the core itself needs neither: they are optional peers).
 */
export class ScriptedAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  private readonly runs: readonly ScriptedRun[]
  private readonly delay: number

  /**
   * The server's side of a devtools recording (`recorder.exportRecording()`): one run per request
   * it recorded, with the events that request received, so a user's bug report replays as a test.
   */
  static fromRecording(text: string, options: Omit<ScriptedAgentOptions, 'runs'> = {}): ScriptedAgent {
    const [first = '', ...lines] = text.split('\n').filter((line) => line.trim() !== '')
    const header = JSON.parse(first) as { format?: unknown; threadId?: string }
    if (header.format !== 'agent-state-recording')
      throw new SyntaxError('Not an agent-state recording: its first line has no "format": "agent-state-recording"')
    const runs = new Map<string, BaseEvent[]>()
    for (const line of lines) {
      const input = decodeModel<unknown>((JSON.parse(line) as { input: unknown }).input) as unknown as { type: string; event?: BaseEvent; requestId?: string }
      if (input.type !== 'event' || input.requestId === undefined) continue
      runs.set(input.requestId, [...(runs.get(input.requestId) ?? []), input.event!])
    }
    return new ScriptedAgent({ ...(header.threadId === undefined ? {} : { threadId: header.threadId }), ...options, runs: [...runs.values()] })
  }

  constructor({ runs, threadId, delay = 0 }: ScriptedAgentOptions) {
    super(threadId === undefined ? {} : { threadId })
    this.runs = runs
    this.delay = delay
  }

  /** Records the input and streams the next scripted run's events, then completes. */
  run(input: RunAgentInput): Observable<BaseEvent> {
    const script = this.runs[Math.min(this.inputs.length, this.runs.length - 1)]
    this.inputs.push(structuredClone(input))
    const events = typeof script === 'function' ? script(input) : (script ?? [])
    return new Observable<BaseEvent>((subscriber) => {
      let index = 0
      let timer: ReturnType<typeof setTimeout> | undefined
      const next = () => {
        if (subscriber.closed) return
        if (this.delay === 0) {
          for (; index < events.length && !subscriber.closed; index++) subscriber.next(events[index]!)
          subscriber.complete()
          return
        }
        if (index >= events.length) return subscriber.complete()
        subscriber.next(events[index++]!)
        timer = setTimeout(next, this.delay)
      }
      timer = setTimeout(next, 0)
      return () => clearTimeout(timer)
    })
  }
}
