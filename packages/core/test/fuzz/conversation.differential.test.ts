// The store's conversation against @ag-ui/client 1.0's own reducer (defaultApplyEvents, through
// runAgent) on the same random streams: after every run the messages deep-equal, and what the next
// run sends (messagesForServer) equals what @ag-ui/client would send. FUZZ_RUNS scales it up.
// One difference on purpose: a tool call cut off by RUN_ERROR in the middle of its arguments is
// dropped by the store (its half JSON and missing result would make the next run fail), where
// @ag-ui/client keeps it; @ag-ui/client is given the streams without those calls' events.
import { AbstractAgent } from '@ag-ui/client'
import { type BaseEvent, EventType, type Message, type RunAgentInput } from '@ag-ui/core'
import fc from 'fast-check'
import { Observable } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAgentStore } from '../../src'
import { messagesForServer } from '../../src/snapshot/messages'
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

const TOOL_CALL_EVENTS: string[] = [EventType.TOOL_CALL_START, EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END, EventType.TOOL_CALL_CHUNK]

/**
 * A run that ends with RUN_ERROR, without the events of its tool calls that never ended, have no
 * result and whose arguments are not whole JSON; undefined when another event names the message such a call made.
 */
function withoutCutCalls(events: BaseEvent[]): BaseEvent[] | undefined {
  if (events.at(-1)?.type !== EventType.RUN_ERROR) return events
  const argumentsOf = new Map<string, string>()
  const ended = new Set<string>()
  for (const event of events as (BaseEvent & { toolCallId?: string; delta?: string })[]) {
    if (!(TOOL_CALL_EVENTS.includes(event.type) || event.type === EventType.TOOL_CALL_RESULT) || event.toolCallId === undefined) continue
    if (event.type === EventType.TOOL_CALL_END || event.type === EventType.TOOL_CALL_RESULT) ended.add(event.toolCallId)
    if (event.type !== EventType.TOOL_CALL_END && event.type !== EventType.TOOL_CALL_RESULT)
      argumentsOf.set(event.toolCallId, (argumentsOf.get(event.toolCallId) ?? '') + (event.delta ?? ''))
  }
  const cut = new Set([...argumentsOf].filter(([id, text]) => !ended.has(id) && !isWholeJson(text)).map(([id]) => id))
  const madeBy = new Set<string>(cut)
  for (const event of events as (BaseEvent & { toolCallId?: string; parentMessageId?: string })[]) {
    if (event.type === EventType.TOOL_CALL_START && cut.has(event.toolCallId!) && event.parentMessageId) madeBy.add(event.parentMessageId)
  }
  const names = (event: { messageId?: string; parentMessageId?: string; toolCallId?: string }) =>
    (event.messageId !== undefined && madeBy.has(event.messageId)) ||
    (event.parentMessageId !== undefined && madeBy.has(event.parentMessageId) && !cut.has(event.toolCallId!))
  if ((events as { messageId?: string }[]).some(names)) return undefined
  // A MESSAGES_SNAPSHOT merged after a cut call began places messages by what was there before it.
  const unended = [...argumentsOf.keys()].some((id) => !ended.has(id))
  if (unended && events.some((event) => event.type === EventType.MESSAGES_SNAPSHOT)) return undefined
  // Replaced by a CUSTOM event of the same owner, not removed: it closes the same chunk lanes in @ag-ui/client's pipeline.
  return events.map((event) => {
    const { toolCallId, subagentRunId } = event as { toolCallId?: string; subagentRunId?: string }
    if (!TOOL_CALL_EVENTS.includes(event.type) || !cut.has(toolCallId!)) return event
    return { type: EventType.CUSTOM, name: 'cut', value: null, ...(subagentRunId === undefined ? {} : { subagentRunId }) } as BaseEvent
  })
}

function sharesATextMessageId(events: BaseEvent[]): boolean {
  const textIds = new Set<string>()
  for (const event of events as (BaseEvent & { messageId?: string; toolCallId?: string; parentMessageId?: string })[]) {
    if (event.messageId !== undefined && event.type.startsWith('TEXT_MESSAGE')) textIds.add(event.messageId)
  }
  return (events as (BaseEvent & { toolCallId?: string; parentMessageId?: string })[]).some(
    (event) =>
      (event.type === EventType.TOOL_CALL_START || event.type === EventType.TOOL_CALL_CHUNK) &&
      !event.parentMessageId &&
      event.toolCallId !== undefined &&
      textIds.has(event.toolCallId),
  )
}

function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

describe('the conversation against @ag-ui/client 1.0 (differential)', () => {
  it(
    `has the same messages after every run, and sends the same ones, over ${NUM_RUNS} random streams`,
    async () => {
      const started = performance.now()
      const counts = { events: 0, runs: 0 }
      const seen = new Map<string, number>()
      await fc.assert(
        fc.asyncProperty(conversationArbitrary, async (runs) => {
          const given = runs.map(withoutCutCalls)
          // A message reusing the id of the one a cut call made, or a MESSAGES_SNAPSHOT after a cut call began: the
          // store drops the call from the messages as they are, @ag-ui/client never had it. Not modelled: left out.
          fc.pre(given.every((run) => run !== undefined))
          // A tool call started without a parent takes its own id as its message's: when a text message already has
          // that id, two messages share it, and later events for it land on the first (@ag-ui/client) or the last
          // (the store). Not modelled yet: left out.
          fc.pre(!sharesATextMessageId(runs.flat()))
          const agent = new ReplayAgent(given as BaseEvent[][])
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
