// Issue 12's reasoning scenario: a 128k-character reasoning message streamed in 4-character
// REASONING_MESSAGE_CONTENT events, next to the same text streamed as TEXT_MESSAGE_CONTENT, through
// store.apply() (and @ag-ui/client 1.0's runAgent() at 32k, for scale), on the same event objects.

import { type BaseEvent, EventType, type Message } from '@ag-ui/core'
import { assertProductionMode, buildText, clientRunAgent, PRECISE_TRIALS, STORE_TRIALS, storeApply, wire, withLifecycle } from './core-state'
import { describePairedRatio, describeTiming, formatCount, formatRatio, formatTime, measureInterleaved, pairedRatio, type Row } from './harness'

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

export async function benchReasoning(): Promise<Row[]> {
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
  // Each 128k pair runs back to back, in alternating order, and is compared round by round.
  const [reasoning32, text32, reasoning128, text128] = await measureInterleaved(
    [applyOf('32k', 'reasoning'), applyOf('32k', 'text'), applyOf('128k', 'reasoning'), applyOf('128k', 'text')],
    // The two paths are compared to 10%, far finer than this machine's noise per trial (a round's
    // ratio wanders by a third): 101 rounds put the median's own spread at a few percent, in 5 s.
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
  const linear = reasoning128.median / reasoning32.median
  const versusText = pairedRatio(reasoning128, text128)
  return [
    {
      name: 'events',
      value: `128k: ${formatCount(streamEvents(full, 'reasoning').length)} events`,
      note: `REASONING_START, REASONING_MESSAGE_START, ${CHUNK}-character REASONING_MESSAGE_CONTENT events, REASONING_MESSAGE_END, REASONING_END; the text path is the same text as TEXT_MESSAGE_* events`,
    },
    { name: 'store.apply reasoning 32k', value: formatTime(reasoning32.median), note: describeTiming(reasoning32) },
    { name: 'store.apply reasoning 128k', value: formatTime(reasoning128.median), note: describeTiming(reasoning128) },
    { name: 'store.apply reasoning 128k / 32k', value: formatRatio(linear), target: '≤ 5× (linear: 4×)', pass: linear <= 5 },
    { name: 'store.apply text 128k (same text)', value: formatTime(text128.median), note: `${describeTiming(text128)}; text 32k ${formatTime(text32.median)}` },
    {
      name: 'reasoning 128k / text 128k',
      value: formatRatio(versusText),
      // One code path for both: any difference is the machine's noise, hence the 10% allowance.
      target: '≤ 1.1× (at least as fast; same path)',
      pass: versusText <= 1.1,
      note: describePairedRatio(reasoning128, text128),
    },
    { name: '@ag-ui/client runAgent reasoning 32k', value: formatTime(client32.median), note: describeTiming(client32) },
    { name: 'speed-up at 32k: @ag-ui/client / store.apply', value: formatRatio(client32.median / reasoning32.median) },
  ].map((row) => ({ scenario: SCENARIO, ...row }))
}
