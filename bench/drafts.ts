// Issue 3's draft scenario: a 128k-character `document` argument streamed in 4-character
// TOOL_CALL_ARGS chunks with a PredictState mapping, through the store, through the incremental
// parser alone, and through @ag-ui/client 1.0's runAgent() (production mode) on the same events.

import { type BaseEvent, EventType } from '@ag-ui/core'
import { JSONParser } from '@streamparser/json'
import { createPartialJsonReader, selectArgument } from '../packages/core/src/json/partial-json'
import { assertProductionMode, buildText, clientRunAgent, expectEqual, STORE_TRIALS, storeApply, wire, withLifecycle } from './core-state'
import {
  describeGrowth,
  describeSmallStreams,
  describeTiming,
  formatCount,
  formatRatio,
  formatTime,
  growthRatio,
  type MeasureOptions,
  measureAgainst,
  measureInterleaved,
  type Row,
  repeated,
  SMALL_STREAMS,
} from './harness'

const SCENARIO = '4. Draft from streamed tool arguments'
const CHUNK = 4
const TOOL_CALL = 'call-write-1'

/** The draft's events: PredictState, then the tool call whose `document` argument streams in CHUNK-character pieces. */
export function draftEvents(text: string) {
  const args = JSON.stringify({ document: text })
  const chunks: string[] = []
  for (let i = 0; i < args.length; i += CHUNK) chunks.push(args.slice(i, i + CHUNK))
  const events = wire([
    { type: EventType.CUSTOM, name: 'PredictState', value: [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }] },
    { type: EventType.TOOL_CALL_START, toolCallId: TOOL_CALL, toolCallName: 'write_document', parentMessageId: 'm1' },
    ...chunks.map((delta) => ({ type: EventType.TOOL_CALL_ARGS, toolCallId: TOOL_CALL, delta })),
    { type: EventType.TOOL_CALL_END, toolCallId: TOOL_CALL },
  ]).events
  return { text, chunks, events }
}
type Draft = ReturnType<typeof draftEvents>

/** The store's whole path for the events: validation, messages, the draft, notifications. */
const storeOf = (draft: Draft) =>
  storeApply<{ document: string }>({ document: '' }, draft.events, (store) => {
    const { state, committed } = store.getState()
    expectEqual(state.document, draft.text, 'the draft holds the whole document')
    expectEqual(committed.document, '', 'committed keeps the value from before the run')
  })

/** The store's own partial-JSON reader alone, on the same chunks. */
const readerOf = (draft: Draft): MeasureOptions<readonly string[]> => ({
  setup: () => draft.chunks,
  run: (chunks) => {
    const reader = createPartialJsonReader()
    for (const chunk of chunks) reader.push(chunk)
    return selectArgument(reader.value, 'document')
  },
  check: (_chunks, value) => expectEqual(value, draft.text, 'the reader alone reads the document'),
})

/** @streamparser/json's JSONParser alone, set up to give the partial `document` after every chunk: what a draft needs from a parser. */
const parserOf = (draft: Draft): MeasureOptions<readonly string[]> => ({
  setup: () => draft.chunks,
  run: (chunks) => {
    const parser = new JSONParser({ emitPartialTokens: true, emitPartialValues: true, stringBufferSize: 4096, paths: ['$.document'] })
    let value: unknown
    parser.onValue = (info) => {
      value = info.value
    }
    for (const chunk of chunks) parser.write(chunk)
    return value
  },
  check: (_chunks, value) => expectEqual(value, draft.text, '@streamparser/json reads the document'),
})

export async function benchDrafts(): Promise<Row[]> {
  assertProductionMode()
  const full = buildText(128 * 1024, 7)
  const medium = draftEvents(full.slice(0, 32 * 1024))
  const large = draftEvents(full)
  const [store32x4, store128, reader128, parser128] = await measureInterleaved(
    [repeated(storeOf(medium), SMALL_STREAMS), storeOf(large), readerOf(large), parserOf(large)],
    {
      ...STORE_TRIALS,
      alternate: true,
    },
  )
  // runAgent clones the message list, arguments included, on every event: seconds per run, so three
  // runs per size (the median of one run was the noisiest figure of the table).
  const client = (draft: Draft) =>
    clientRunAgent({ document: '' }, withLifecycle(draft.events as BaseEvent[]), (agent) => {
      const call = agent.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []))[0]
      expectEqual(call?.function.arguments, JSON.stringify({ document: draft.text }), '@ag-ui/client holds the arguments')
    })
  const [client32] = await measureInterleaved([client(medium)], { warmup: 0, trials: 3 })
  // The speed-up from the same rounds: each client run, then nine store runs.
  const against = await measureAgainst(client(large), storeOf(large), { warmup: 5, trials: 3, fastPerRound: 9 })
  const client128 = against.slow

  const overReader = store128.median / reader128.median
  const overParser = store128.median / parser128.median
  const growth = growthRatio(store128, store32x4)
  const speedUp = against.ratio
  return [
    {
      name: 'events',
      value: `${formatCount(large.events.length)} (128k)`,
      note: `PredictState, TOOL_CALL_START, ${CHUNK}-character TOOL_CALL_ARGS chunks of {"document": …}, TOOL_CALL_END; prose with paragraphs and quotes, so the JSON has escapes cut mid-way`,
    },
    {
      name: 'store.apply 32k',
      value: formatTime(store32x4.median / SMALL_STREAMS),
      note: describeSmallStreams(store32x4),
    },
    {
      name: 'store.apply 128k',
      value: formatTime(store128.median),
      note: `${describeTiming(store128)}; ${formatTime(store128.median / large.events.length)} per event`,
    },
    {
      name: 'store.apply 128k / 32k',
      value: formatRatio(growth),
      target: '≤ 5× (linear: 4×)',
      pass: growth <= 5,
      note: describeGrowth(store128, store32x4),
    },
    { name: 'the store’s partial-JSON reader alone, 128k', value: formatTime(reader128.median), note: describeTiming(reader128) },
    {
      name: '@streamparser/json JSONParser alone, 128k',
      value: formatTime(parser128.median),
      note: `${describeTiming(parser128)}; emitPartialTokens + emitPartialValues on $.document`,
    },
    {
      name: 'store.apply / @streamparser/json alone',
      value: formatRatio(overParser),
      target: '≤ 2.5×',
      pass: overParser <= 2.5,
      note: 'the whole store (event checks, the message, the draft, notifications) against the library parser on the same chunks',
    },
    {
      name: 'store.apply / the store’s reader alone',
      value: formatRatio(overReader),
      note: 'the store’s reader hands plain string text to the tokenizer in batches, so it is faster than the library alone',
    },
    {
      name: '@ag-ui/client runAgent 32k',
      value: formatTime(client32.median),
      note: `median of three runs (${describeTiming(client32)}): it clones every message, arguments included, on every event`,
    },
    {
      name: '@ag-ui/client runAgent 128k',
      value: formatTime(client128.median),
      note: `median of three runs (${describeTiming(client128)}); and it never shows this draft: its ESM build reports partialToolCallArgs as {}`,
    },
    {
      name: 'speed-up at 128k: @ag-ui/client / store.apply',
      value: formatRatio(speedUp),
      target: '≥ 50×',
      pass: speedUp >= 50,
      note: `median of ${against.ratios.length} rounds' ratios (${against.ratios.map(formatRatio).join(', ')}), each one client run over the median of the nine store runs after it (${describeTiming(against.fast)}); the medians of the table's separate rows give ${formatRatio(client128.median / store128.median)}`,
    },
  ].map((row) => ({ scenario: SCENARIO, ...row }))
}
