// Issue 12's reasoning scenario: a 128k-character reasoning message streamed in 4-character
// REASONING_MESSAGE_CONTENT events, next to the same text streamed as TEXT_MESSAGE_CONTENT, through
// store.apply() (and @ag-ui/client 1.0's runAgent() at 32k, for scale), on the same event objects.

import { type BaseEvent, EventType, type Message } from '@ag-ui/core'
import { assertProductionMode, buildText, clientRunAgent, PRECISE_TRIALS, STORE_TRIALS, storeApply, wire, withLifecycle } from './core-state'
import {
  describeGrowth,
  describePairedRatio,
  describeTiming,
  formatCount,
  formatRatio,
  formatTime,
  growthRatio,
  measureInterleaved,
  median,
  pairedRatio,
  type Row,
  repeated,
  SMALL_STREAMS,
  type Timing,
} from './harness'

const SCENARIO = '5. Streamed reasoning message'
const CHUNK = 4
const ID = 'bench-reasoning'

function streamEvents(text: string, kind: 'reasoning' | 'text'): BaseEvent[] {
  const content = kind === 'reasoning' ? EventType.REASONING_MESSAGE_CONTENT : EventType.TEXT_MESSAGE_CONTENT
  const events: object[] =
    kind === 'reasoning'
      ? [
          { type: EventType.REASONING_START, messageId: ID },
          { type: EventType.REASONING_MESSAGE_START, messageId: ID, role: 'reasoning' },
        ]
      : [{ type: EventType.TEXT_MESSAGE_START, messageId: ID, role: 'assistant' }]
  for (let i = 0; i < text.length; i += CHUNK) events.push({ type: content, messageId: ID, delta: text.slice(i, i + CHUNK) })
  if (kind === 'reasoning') events.push({ type: EventType.REASONING_MESSAGE_END, messageId: ID }, { type: EventType.REASONING_END, messageId: ID })
  else events.push({ type: EventType.TEXT_MESSAGE_END, messageId: ID })
  return wire(events).events
}

function expectStreamed(messages: readonly Message[], role: string, text: string, what: string) {
  const [message] = messages
  if (messages.length !== 1 || message!.role !== role || message!.content !== text)
    throw new Error(`Sanity check failed: ${what}: the message differs from the streamed text`)
}

/** One process's measurement; index.ts runs several and reports them together. */
export interface ReasoningMeasurement {
  events: number
  /** Four 32k streams of each, timed as one trial. */
  reasoning32x4: Timing
  text32x4: Timing
  reasoning128: Timing
  text128: Timing
  client32: Timing
}

export async function measureReasoning(): Promise<ReasoningMeasurement> {
  assertProductionMode()
  const full = buildText(128 * 1024, 12)
  const sizes = { '32k': full.slice(0, 32 * 1024), '128k': full }
  const applyOf = (label: keyof typeof sizes, kind: 'reasoning' | 'text') => {
    const text = sizes[label]
    const role = kind === 'reasoning' ? 'reasoning' : 'assistant'
    return storeApply<Record<string, never>>({}, streamEvents(text, kind), (store) =>
      expectStreamed(store.getState().messages, role, text, `store.apply ${kind} ${label}`),
    )
  }
  // All four in the same rounds, in alternating order, compared round by round.
  const [reasoning32x4, text32x4, reasoning128, text128] = await measureInterleaved(
    [
      repeated(applyOf('32k', 'reasoning'), SMALL_STREAMS),
      repeated(applyOf('32k', 'text'), SMALL_STREAMS),
      applyOf('128k', 'reasoning'),
      applyOf('128k', 'text'),
    ],
    // The two paths are compared to 10%, far finer than this machine's noise per trial (a round's
    // ratio wanders by a third): 101 rounds put the median's own spread at a few percent.
    { warmup: STORE_TRIALS.warmup, trials: PRECISE_TRIALS, alternate: true },
  )
  const [client32] = await measureInterleaved(
    [
      clientRunAgent({}, withLifecycle(streamEvents(sizes['32k'], 'reasoning')), (agent) =>
        expectStreamed(agent.messages, 'reasoning', sizes['32k'], '@ag-ui/client reasoning 32k'),
      ),
    ],
    { warmup: 1, trials: 3 },
  )
  return { events: streamEvents(full, 'reasoning').length, reasoning32x4, text32x4, reasoning128, text128, client32 }
}

/** The rows of several processes' measurements: times are the median of their medians, ratios the median of their paired ratios. */
export function reportReasoning(results: readonly ReasoningMeasurement[]): Row[] {
  const acrossProcesses = (of: (result: ReasoningMeasurement) => number) => median(results.map(of))
  const time = (of: (result: ReasoningMeasurement) => Timing, share = 1) => formatTime(acrossProcesses((result) => of(result).median) / share)
  const linear = acrossProcesses((result) => growthRatio(result.reasoning128, result.reasoning32x4))
  const versusText = acrossProcesses((result) => pairedRatio(result.reasoning128, result.text128))
  const perProcess = (of: (result: ReasoningMeasurement) => number) => results.map((result) => formatRatio(of(result))).join(', ')
  const processes = (of: (result: ReasoningMeasurement) => Timing) =>
    `median over ${results.length} processes of each one's median; the first: ${describeTiming(of(results[0]!))}`
  return [
    {
      name: 'events',
      value: `128k: ${formatCount(results[0]!.events)} events`,
      note: `REASONING_START, REASONING_MESSAGE_START, ${CHUNK}-character REASONING_MESSAGE_CONTENT events, REASONING_MESSAGE_END, REASONING_END; the text path is the same text as TEXT_MESSAGE_* events`,
    },
    {
      name: 'store.apply reasoning 32k',
      value: time((result) => result.reasoning32x4, SMALL_STREAMS),
      note: `${processes((result) => result.reasoning32x4)} (a quarter of ${SMALL_STREAMS} streams timed as one trial)`,
    },
    { name: 'store.apply reasoning 128k', value: time((result) => result.reasoning128), note: processes((result) => result.reasoning128) },
    {
      name: 'store.apply reasoning 128k / 32k',
      value: formatRatio(linear),
      target: '≤ 5× (linear: 4×)',
      pass: linear <= 5,
      note: `median of the ${results.length} processes' ratios (${perProcess((result) => growthRatio(result.reasoning128, result.reasoning32x4))}); the first: ${describeGrowth(results[0]!.reasoning128, results[0]!.reasoning32x4)}`,
    },
    {
      name: 'store.apply text 128k (same text)',
      value: time((result) => result.text128),
      note: `${processes((result) => result.text128)}; text 32k ${time((result) => result.text32x4, SMALL_STREAMS)}`,
    },
    {
      name: 'reasoning 128k / text 128k',
      value: formatRatio(versusText),
      // One code path for both: any difference is the machine's noise, hence the 10% allowance.
      target: '≤ 1.1× (at least as fast; same path)',
      pass: versusText <= 1.1,
      note: `median of the ${results.length} processes' paired ratios (${perProcess((result) => pairedRatio(result.reasoning128, result.text128))}); the first: ${describePairedRatio(results[0]!.reasoning128, results[0]!.text128)}`,
    },
    {
      name: '@ag-ui/client runAgent reasoning 32k',
      value: time((result) => result.client32),
      note: `median of ${results.length} processes, 3 trials each after one warm-up`,
    },
    {
      name: 'speed-up at 32k: @ag-ui/client / store.apply',
      value: formatRatio(acrossProcesses((result) => result.client32.median / (result.reasoning32x4.median / SMALL_STREAMS))),
    },
  ].map((row) => ({ scenario: SCENARIO, ...row }))
}
