// Issue 10's bound on the shell: the queue, the publishing and the ownership of apply()'s events
// must not cost the per-token path more than 10%. The same parsed events go through store.apply()
// (with one subscriber, as a UI has) and through the pure transition alone, in a plain loop over
// the same configuration; the ratio is the shell's share.

import { type BaseEvent, EventType } from '@ag-ui/core'
import { createAgentStore } from '../packages/core/src/index'
import { type MachineConfig, transition } from '../packages/core/src/machine'
import { initialModel, type Model } from '../packages/core/src/model'
import { blankSnapshot } from '../packages/core/src/snapshot'
import { machineConfig } from '../packages/core/src/store'
import { assertProductionMode, buildText, expectEqual, STORE_TRIALS, wire } from './core-state'
import { describeTiming, formatRatio, formatTime, type MeasureOptions, measureInterleaved, type Row } from './harness'

const SCENARIO = '8. The shell on the per-token path'
const CHUNK = 4

function textEvents(text: string): BaseEvent[] {
  const events: object[] = [{ type: EventType.TEXT_MESSAGE_START, messageId: 'm1', role: 'assistant' }]
  for (let i = 0; i < text.length; i += CHUNK) events.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'm1', delta: text.slice(i, i + CHUNK) })
  return wire(events).events
}

function draftEvents(text: string): BaseEvent[] {
  const args = JSON.stringify({ document: text })
  const events: object[] = [
    { type: EventType.CUSTOM, name: 'PredictState', value: [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }] },
    { type: EventType.TOOL_CALL_START, toolCallId: 'call-1', toolCallName: 'write_document', parentMessageId: 'm1' },
  ]
  for (let i = 0; i < args.length; i += CHUNK) events.push({ type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-1', delta: args.slice(i, i + CHUNK) })
  return wire(events).events
}

type Doc = { document: string }
const initialState: Doc = { document: '' }

const throughStore = (
  events: readonly BaseEvent[],
  check: (state: Doc, messages: number) => void,
): MeasureOptions<ReturnType<typeof createAgentStore<Doc>>> => ({
  setup: () => {
    const store = createAgentStore<Doc>({ initialState })
    store.subscribe(() => {})
    return store
  },
  run: (store) => store.apply(events),
  check: (store) => check(store.getState().state, store.getState().messages.length),
})

const throughTransition = (
  events: readonly BaseEvent[],
  check: (state: Doc, messages: number) => void,
): MeasureOptions<{ model: Model<Doc>; config: MachineConfig<Doc> }> => ({
  setup: () => {
    const initial = blankSnapshot('bench-thread', initialState)
    return { model: initialModel(initial), config: machineConfig<Doc>({ initialState }, initial) }
  },
  run: (context) => {
    let model = context.model
    for (const event of events) model = transition(model, { type: 'event', event }, context.config).model
    context.model = model
  },
  check: ({ model }) => check(model.snapshot.state, model.snapshot.messages.length),
})

export async function benchShell(): Promise<Row[]> {
  assertProductionMode()
  const text = buildText(128 * 1024, 11)
  const streamed = textEvents(text)
  const drafted = draftEvents(text)
  const oneMessage = (_state: Doc, messages: number) => expectEqual(messages, 1, 'one streamed message')
  const wholeDraft = (state: Doc) => expectEqual(state.document, text, 'the draft holds the whole document')
  const [storeText, pureText, storeDraft, pureDraft] = await measureInterleaved(
    [throughStore(streamed, oneMessage), throughTransition(streamed, oneMessage), throughStore(drafted, wholeDraft), throughTransition(drafted, wholeDraft)],
    STORE_TRIALS,
  )
  const textRatio = storeText.median / pureText.median
  const draftRatio = storeDraft.median / pureDraft.median
  return [
    { name: 'store.apply, 128k text in 4-character events', value: formatTime(storeText.median), note: describeTiming(storeText) },
    { name: 'the transition alone, same events', value: formatTime(pureText.median), note: describeTiming(pureText) },
    { name: 'shell cost, text: store.apply / transition', value: formatRatio(textRatio), target: '≤ 1.1×', pass: textRatio <= 1.1 },
    { name: 'store.apply, 128k draft from tool arguments', value: formatTime(storeDraft.median), note: describeTiming(storeDraft) },
    { name: 'the transition alone, same events', value: formatTime(pureDraft.median), note: describeTiming(pureDraft) },
    { name: 'shell cost, draft: store.apply / transition', value: formatRatio(draftRatio), target: '≤ 1.1×', pass: draftRatio <= 1.1 },
  ].map((row) => ({ scenario: SCENARIO, ...row }))
}
