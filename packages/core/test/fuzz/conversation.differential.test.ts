// The store's conversation against @ag-ui/client 1.0's own reducer (defaultApplyEvents, through
// runAgent) on the same random streams: after every run the messages deep-equal, and what the next
// run sends (messagesForServer) equals what @ag-ui/client would send. FUZZ_RUNS scales it up.
import { AbstractAgent } from '@ag-ui/client'
import { type BaseEvent, EventType, type Message, type RunAgentInput } from '@ag-ui/core'
import fc from 'fast-check'
import { Observable } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAgentStore } from '../../src'
import { messagesForServer } from '../../src/reduce/messages'
import { conversationArbitrary } from './conversation-streams'

const EventTypes = Object.values(EventType) as string[]
const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 2000

/** Replays one prepared run per runAgent() call. */
class ReplayAgent extends AbstractAgent {
  private readonly queue: BaseEvent[][]
  constructor(runs: BaseEvent[][]) {
    super({ threadId: 'thread' })
    this.queue = runs.map((events) => structuredClone(events))
  }
  run(_input: RunAgentInput) {
    const events = this.queue.shift() ?? []
    return new Observable<BaseEvent>((subscriber) => {
      for (const event of events) subscriber.next(event)
      subscriber.complete()
    })
  }
  /** The messages the next request would carry, as @ag-ui/client builds them. */
  nextInputMessages(): Message[] {
    return (this as unknown as { prepareRunAgentInput(parameters: object): RunAgentInput }).prepareRunAgentInput({}).messages
  }
}

// @ag-ui/client warns about every event its reducer drops (and the streams include some on
// purpose: a failing activity test, a result for an unknown call): keep the output readable.
// Replaced, not spied on: a spy would keep every call's (long) arguments for the whole test.
const warn = console.warn
beforeAll(() => {
  console.warn = () => {}
})
afterAll(() => {
  console.warn = warn
})

describe('the conversation against @ag-ui/client 1.0 (differential)', () => {
  it(
    `has the same messages after every run, and sends the same ones, over ${NUM_RUNS} random streams`,
    async () => {
      const started = performance.now()
      const counts = { events: 0, runs: 0 }
      const seen = new Map<string, number>()
      await fc.assert(
        fc.asyncProperty(conversationArbitrary, async (runs) => {
          const agent = new ReplayAgent(runs)
          const store = createAgentStore({ initialState: {} })
          for (const events of runs) {
            await agent.runAgent()
            store.apply(structuredClone(events))
            counts.events += events.length
            for (const event of events) seen.set(event.type, (seen.get(event.type) ?? 0) + 1)
            counts.runs++
            expect(store.getState().messages).toStrictEqual(agent.messages)
            expect(messagesForServer(store.getState().messages)).toStrictEqual(agent.nextInputMessages())
          }
        }),
        { numRuns: NUM_RUNS },
      )
      const seconds = (performance.now() - started) / 1000
      console.info(`differential: ${NUM_RUNS} streams, ${counts.runs} runs, ${counts.events} events in ${seconds.toFixed(1)} s`)
      // The generator must reach every kind of event, or the comparison proves little.
      expect(counts.events).toBeGreaterThan(NUM_RUNS * 10)
      const generated = [...seen.keys()].sort()
      expect(generated).toEqual([...EventTypes].sort())
      // Bounded: 4–23 ms a stream on this 2-core machine (the latter at a load average of 12).
    },
    Math.max(120_000, NUM_RUNS * 50),
  )
})
