// The three workloads, as AG-UI events cut into batches: one batch is fed per animation frame, the
// same to every contender. Deterministic (a seeded generator), so every round sees the same events.

const rng = (seed) => () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32

const chunks = (text, size) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size))

const batches = (events, size) => Array.from({ length: Math.ceil(events.length / size) }, (_, i) => events.slice(i * size, (i + 1) * size))

const start = { type: 'RUN_STARTED', threadId: 't', runId: 'r' }
const finish = { type: 'RUN_FINISHED', threadId: 't', runId: 'r' }

export const visibleRows = 20

/** 1. A 1 MB state (5,000 records), then 2,000 `replace` deltas, 20 per frame; 20 rows on screen. */
function largeState() {
  const random = rng(1)
  const note = 'lorem ipsum dolor sit amet '.repeat(6)
  const records = Array.from({ length: 5000 }, (_, i) => ({ id: `r${String(i).padStart(5, '0')}`, name: `Record ${i}`, value: 0, note }))
  const deltas = Array.from({ length: 2000 }, (_, i) => {
    // One delta in ten changes a row on screen; the rest change records nobody shows.
    const index = i % 10 === 0 ? Math.floor(random() * visibleRows) : visibleRows + Math.floor(random() * (records.length - visibleRows))
    return { type: 'STATE_DELTA', delta: [{ op: 'replace', path: `/records/${index}/value`, value: i + 1 }] }
  })
  return [[start, { type: 'STATE_SNAPSHOT', snapshot: { title: 'Inventory', records } }], ...batches(deltas, 20), [finish]]
}

/** 2. A 32k document drafted from streamed tool arguments: 1,000 argument chunks of 32 characters, 10 per frame. */
function draft() {
  const random = rng(2)
  const words = ['the', 'keeper', 'climbed', 'lighthouse', 'sea', 'night', 'beam', 'fog', 'boat', 'harbour', 'quiet', 'stairs']
  let text = ''
  while (text.length < 32_000) text += `${words[Math.floor(random() * words.length)]}${random() < 0.08 ? '.\n\n' : ' '}`
  const args = chunks(JSON.stringify({ document: text.slice(0, 32_000) }), 32)
  const toolCallId = 'call_1'
  const events = [
    start,
    { type: 'CUSTOM', name: 'PredictState', value: [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }] },
    { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'write_document', parentMessageId: 'm1' },
    ...args.map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId, delta })),
    { type: 'TOOL_CALL_END', toolCallId },
  ]
  return [...batches(events, 10), [finish]]
}

/** 3. A 32k assistant message streamed in 1,000 pieces, 10 per frame, beside a 200-row list from the state. */
function textBesideList() {
  const rows = Array.from({ length: 200 }, (_, i) => ({ id: `row${i}`, label: `Item ${i}` }))
  const text = 'Streaming text goes by, token after token. '.repeat(750).slice(0, 32_000)
  const messageId = 'm1'
  const events = [
    start,
    { type: 'STATE_SNAPSHOT', snapshot: { rows } },
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    ...chunks(text, 32).map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
    { type: 'TEXT_MESSAGE_END', messageId },
  ]
  return [...batches(events, 10), [finish]]
}

export const workloads = { state: largeState, draft, text: textBesideList }
