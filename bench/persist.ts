// Issue 13's persistence cost: the same 32k-character text streamed in 4-character events through
// store.apply() with and without `persist` (a synchronous in-memory storage, the default throttle),
// and how many writes a stream paced like a model (1,000 tokens, one per millisecond) makes.

import { type BaseEvent, EventType } from '@ag-ui/core'
import { type AgentStore, createAgentStore, persistThread } from '../packages/core/src'
import { assertProductionMode, buildText, PRECISE_TRIALS, STORE_TRIALS, wire, withLifecycle } from './core-state'
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

const SCENARIO = '7. Persisted thread'
const ID = 'bench-persist'

function textEvents(text: string, chunk: number): BaseEvent[] {
  const events: object[] = [{ type: EventType.TEXT_MESSAGE_START, messageId: ID, role: 'assistant' }]
  for (let i = 0; i < text.length; i += chunk) events.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: ID, delta: text.slice(i, i + chunk) })
  events.push({ type: EventType.TEXT_MESSAGE_END, messageId: ID })
  return withLifecycle(wire(events).events)
}

function memoryStorage() {
  const items = new Map<string, string>()
  let writes = 0
  return {
    storage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => {
        writes++
        items.set(key, value)
      },
      removeItem: (key: string) => void items.delete(key),
    },
    writes: () => writes,
    items,
  }
}

function streamed(events: readonly BaseEvent[], text: string, persisted: boolean): MeasureOptions<{ store: AgentStore<Record<string, never>> }> {
  return {
    setup: () => {
      const store = createAgentStore<Record<string, never>>({
        initialState: {},
        ...(persisted ? { persist: persistThread({ storage: memoryStorage().storage }) } : {}),
      })
      store.subscribe(() => {})
      return { store }
    },
    run: ({ store }) => store.apply(events),
    check: ({ store }) => {
      if (store.getState().messages[0]?.content !== text) throw new Error('Sanity check failed: the streamed text differs')
    },
  }
}

/** Writes made while 1,000 tokens arrive one per millisecond: the throttle, not the tokens, sets the count. */
async function pacedWrites(): Promise<{ writes: number; elapsed: number; saved: boolean }> {
  const memory = memoryStorage()
  const store = createAgentStore<Record<string, never>>({ initialState: {}, persist: persistThread({ storage: memory.storage }) })
  const text = buildText(4_000, 3)
  const events = textEvents(text, 4)
  const started = performance.now()
  for (const event of events) {
    store.apply(event)
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  await new Promise((resolve) => setTimeout(resolve, 300))
  const saved = JSON.stringify(JSON.parse(memory.items.get('agent-state') ?? 'null')?.model ?? null).includes(text.slice(-40))
  return { writes: memory.writes(), elapsed: performance.now() - started, saved }
}

/** One process's measurement; index.ts runs several and reports them together. */
export interface PersistMeasurement {
  plain: Timing
  persisted: Timing
  paced: { writes: number; elapsed: number }
}

export async function measurePersist(): Promise<PersistMeasurement> {
  assertProductionMode()
  const text = buildText(32 * 1024, 5)
  const events = textEvents(text, 4)
  // Alternating, compared round by round, over many rounds: a 10% difference on a few milliseconds
  // is far finer than this machine's noise per trial.
  const [plain, persisted] = await measureInterleaved([streamed(events, text, false), streamed(events, text, true)], {
    warmup: STORE_TRIALS.warmup,
    trials: PRECISE_TRIALS,
    alternate: true,
  })
  const paced = await pacedWrites()
  if (!paced.saved) throw new Error('Sanity check failed: the storage does not hold the final text')
  return { plain, persisted, paced: { writes: paced.writes, elapsed: paced.elapsed } }
}

/** The rows of several processes' measurements: the median of their paired ratios, and the most writes any of them made. */
export function reportPersist(results: readonly PersistMeasurement[]): Row[] {
  const ratios = results.map((result) => pairedRatio(result.persisted, result.plain))
  const ratio = median(ratios)
  const processes = `median over ${results.length} processes of each one's median`
  const mostWrites = results.reduce((most, result) => (result.paced.writes > most.paced.writes ? result : most))
  const rows: Row[] = [
    {
      name: 'store.apply, 32k text in 4-char events, no persist',
      value: formatTime(median(results.map((result) => result.plain.median))),
      note: `${processes}; the first: ${describeTiming(results[0]!.plain)}`,
    },
    {
      name: 'the same with persist (sync storage, throttle 250 ms)',
      value: formatTime(median(results.map((result) => result.persisted.median))),
      note: `${processes}; the first: ${describeTiming(results[0]!.persisted)}`,
    },
    {
      name: 'persist cost on the per-token path',
      value: formatRatio(ratio),
      target: '≤ 1.1×',
      pass: ratio <= 1.1,
      note: `median of the ${results.length} processes' paired ratios (${ratios.map(formatRatio).join(', ')}); the first: ${describePairedRatio(results[0]!.persisted, results[0]!.plain)}`,
    },
    {
      name: 'writes while 1,000 tokens arrive over ~1 s',
      value: `${mostWrites.paced.writes} writes in ${(mostWrites.paced.elapsed / 1000).toFixed(1)} s (the most of ${results.length} processes), the last one holding the final text`,
      target: '≤ 1 per 250 ms + the run start and end',
      pass: results.every((result) => result.paced.writes <= Math.ceil(result.paced.elapsed / 250) + 3),
    },
  ]
  return rows.map((row) => ({ scenario: SCENARIO, ...row }))
}
