// Issue 13's persistence cost: the same 32k-character text streamed in 4-character events through
// store.apply() with and without `persist` (a synchronous in-memory storage, the default throttle),
// and how many writes a stream paced like a model (1,000 tokens, one per millisecond) makes.

import { type BaseEvent, EventType } from '@ag-ui/core'
import { type AgentStore, createAgentStore } from '../packages/core/src'
import { assertProductionMode, buildText, PRECISE_TRIALS, STORE_TRIALS, wire, withLifecycle } from './core-state'
import { describePairedRatio, describeTiming, formatRatio, formatTime, type MeasureOptions, measureInterleaved, pairedRatio, type Row } from './harness'

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
      const store = createAgentStore<Record<string, never>>({ initialState: {}, ...(persisted ? { persist: { storage: memoryStorage().storage } } : {}) })
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
  const store = createAgentStore<Record<string, never>>({ initialState: {}, persist: { storage: memory.storage } })
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

export async function benchPersist(): Promise<Row[]> {
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
  const ratio = pairedRatio(persisted, plain)
  const paced = await pacedWrites()
  if (!paced.saved) throw new Error('Sanity check failed: the storage does not hold the final text')
  return [
    { scenario: SCENARIO, name: 'store.apply, 32k text in 4-char events, no persist', value: formatTime(plain.median), note: describeTiming(plain) },
    { name: 'the same with persist (sync storage, throttle 250 ms)', value: formatTime(persisted.median), note: describeTiming(persisted) },
    {
      name: 'persist cost on the per-token path',
      value: formatRatio(ratio),
      target: '≤ 1.1×',
      pass: ratio <= 1.1,
      note: describePairedRatio(persisted, plain),
    },
    {
      name: 'writes while 1,000 tokens arrive over ~1 s',
      value: `${paced.writes} writes in ${(paced.elapsed / 1000).toFixed(1)} s, the last one holding the final text`,
      target: '≤ 1 per 250 ms + the run start and end',
      pass: paced.writes <= Math.ceil(paced.elapsed / 250) + 3,
    },
  ]
}
