// Issue 10's bound on the shell: its queue must not cost the per-token path more than 10%. The
// same parsed events go through store.apply() (with one subscriber, as a UI has) and through the
// pure transition alone, in a plain loop over the same configuration: the difference is the whole
// shell (the queue, publishing, the listener call, the ownership of apply()'s events). That
// difference is then set against a token's path through store.run(), where tokens come from in an
// app (here from an in-process ScriptedAgent, so without the network's parsing: an upper bound on
// the shell's share of a real run).

import { type BaseEvent, EventType } from '@ag-ui/core'
import { createAgentStore } from '../packages/core/src/index'
import { createMemo, type MachineConfig, type Memo, machineConfig } from '../packages/core/src/machine/config'
import { initialModel, type Model } from '../packages/core/src/machine/model'
import { transition } from '../packages/core/src/machine/transition'
import { blankSnapshot } from '../packages/core/src/snapshot/copy'
import { assertProductionMode, buildText, expectEqual, STORE_TRIALS, storeRun, wire, withLifecycle } from './core-state'
import {
  describePairedRatio,
  describeTiming,
  formatRatio,
  formatTime,
  type MeasureOptions,
  measureInterleaved,
  median,
  pairedRatio,
  type Row,
  type Timing,
} from './harness'

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
): MeasureOptions<{ model: Model<Doc>; config: MachineConfig<Doc>; memo: Memo<Doc> }> => ({
  setup: () => {
    const config = machineConfig<Doc>({ initialState }, blankSnapshot('bench-thread', initialState))
    return { model: initialModel(config.initial), config, memo: createMemo(config) }
  },
  run: (context) => {
    let model = context.model
    for (const event of events) model = transition(model, { type: 'event', event }, context.config, context.memo).model
    context.model = model
  },
  check: ({ model }) => check(model.snapshot.state, model.snapshot.messages.length),
})

/** The events of a whole run: the stream's open message and tool call closed, RUN_STARTED and RUN_FINISHED around. */
const asRun = (events: readonly BaseEvent[], end: object): BaseEvent[] => withLifecycle([...events, ...wire([end]).events])

/** The shell's time per event (apply minus the transition), as a share of a token's time through run(). */
function shareOfRun(apply: Timing, transitionAlone: Timing, run: Timing): number {
  return Math.max(0, pairedDifference(apply, transitionAlone)) / run.median
}

/** The median of the per-round differences a[i] - b[i]. */
function pairedDifference(a: Timing, b: Timing): number {
  return median(a.samples.map((value, i) => value - b.samples[i]!))
}

export async function benchShell(): Promise<Row[]> {
  assertProductionMode()
  const text = buildText(128 * 1024, 11)
  const streamed = textEvents(text)
  const drafted = draftEvents(text)
  const oneMessage = (_state: Doc, messages: number) => expectEqual(messages, 1, 'one streamed message')
  const wholeDraft = (state: Doc) => expectEqual(state.document, text, 'the draft holds the whole document')
  const [storeText, pureText, storeDraft, pureDraft] = await measureInterleaved(
    [throughStore(streamed, oneMessage), throughTransition(streamed, oneMessage), throughStore(drafted, wholeDraft), throughTransition(drafted, wholeDraft)],
    { ...STORE_TRIALS, alternate: true },
  )
  const [runText, runDraft] = await measureInterleaved(
    [
      storeRun(initialState, asRun(streamed, { type: EventType.TEXT_MESSAGE_END, messageId: 'm1' }), (store) =>
        oneMessage(store.getState().state, store.getState().messages.length),
      ),
      storeRun(initialState, asRun(drafted, { type: EventType.TOOL_CALL_END, toolCallId: 'call-1' }), (store) => wholeDraft(store.getState().state)),
    ],
    { warmup: 3, trials: 9 },
  )
  const textRatio = pairedRatio(storeText, pureText)
  const draftRatio = pairedRatio(storeDraft, pureDraft)
  const textShare = shareOfRun(storeText, pureText, runText)
  const draftShare = shareOfRun(storeDraft, pureDraft, runDraft)
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`
  return [
    { name: 'store.apply, 128k text in 4-character events', value: formatTime(storeText.median), note: describeTiming(storeText) },
    { name: 'the transition alone, same events', value: formatTime(pureText.median), note: describeTiming(pureText) },
    {
      name: 'whole shell on the bare apply() loop, text: store.apply / transition',
      value: formatRatio(textRatio),
      target: 'report',
      note: `the queue, publishing, one listener call and apply()'s ownership, over a transition of ${formatTime(pureText.median / streamed.length)} an event; ${describePairedRatio(storeText, pureText)}`,
    },
    { name: 'store.run, the same text as one run (ScriptedAgent, delay 0)', value: formatTime(runText.median), note: describeTiming(runText) },
    {
      name: "the shell's share of a token's path through run(), text",
      value: percent(textShare),
      target: '≤ 10%',
      pass: textShare <= 0.1,
      note: '(store.apply − transition alone, per-round median) / store.run',
    },
    { name: 'store.apply, 128k draft from tool arguments', value: formatTime(storeDraft.median), note: describeTiming(storeDraft) },
    { name: 'the transition alone, same events', value: formatTime(pureDraft.median), note: describeTiming(pureDraft) },
    {
      name: 'whole shell on the bare apply() loop, draft: store.apply / transition',
      value: formatRatio(draftRatio),
      target: 'report',
      note: describePairedRatio(storeDraft, pureDraft),
    },
    { name: 'store.run, the same draft as one run (ScriptedAgent, delay 0)', value: formatTime(runDraft.median), note: describeTiming(runDraft) },
    {
      name: "the shell's share of a token's path through run(), draft",
      value: percent(draftShare),
      target: '≤ 10%',
      pass: draftShare <= 0.1,
      note: '(store.apply − transition alone, per-round median) / store.run',
    },
  ].map((row) => ({ scenario: SCENARIO, ...row }))
}
