// The client half of the soak test, run in its own process (`node --expose-gc`), so that its heap
// holds nothing but the store, the agent and the runs. Prints one JSON line with its measurements.
//   node --expose-gc --conditions=source --import tsx test/reliability/soak-client.ts <url> <runs>
import { HttpAgent } from '@ag-ui/client'
import { createAgentStore } from '@agent-state/core'

const [url, runsArg] = process.argv.slice(2)
const runs = Number(runsArg)
const gc = (globalThis as { gc?: () => void }).gc
if (!url || !Number.isInteger(runs) || !gc) throw new Error('usage: node --expose-gc … soak-client.ts <url> <runs>')

const settle = async () => {
  // Let sockets close and promises drain before measuring.
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    gc()
  }
  return process.memoryUsage().heapUsed
}

const resources = () => {
  const counts: Record<string, number> = {}
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1
  return counts
}

const agent = new HttpAgent({ url })
const store = createAgentStore({ agent, initialState: { count: 0, doc: '', last: '' } as Record<string, unknown> })

// A UI's worth of listeners, counted: one subscription held for the whole soak, one taken and
// released per run (a component that mounts while a run streams).
let subscriptions = 0
const subscribe = (listener: () => void) => {
  subscriptions++
  const unsubscribe = store.subscribe(listener)
  return () => {
    subscriptions--
    unsubscribe()
  }
}
let notifications = 0
const unsubscribeUi = subscribe(() => notifications++)
let events = 0
const stopEvents = store.onEvent(() => events++)

async function runMany(count: number, samples?: number[]) {
  for (let i = 0; i < count; i++) {
    const release = subscribe(() => {})
    await store.run()
    release()
    const { status, error } = store.getState()
    if (status !== 'idle' || error) throw new Error(`run ${i} ended ${status}: ${error?.code} ${error?.message}`)
    if (samples && (i + 1) % 250 === 0) samples.push(await settle())
  }
}

// Warm up (JIT, undici's pool, lazily created caches), then start from an empty conversation.
await runMany(50)
store.reset()
const resourcesBefore = resources()
const heapBefore = await settle()

const started = performance.now()
const samples: number[] = []
await runMany(runs, samples)
const elapsedMs = performance.now() - started

const heapAfter = await settle()
const { state, messages } = store.getState()
const conversationBytes = JSON.stringify(messages).length
const final = JSON.stringify({ state, messages })

// Without the conversation, whatever remains above the starting heap is what the runs leaked.
store.reset()
const heapAfterReset = await settle()
unsubscribeUi()
stopEvents()
const resourcesAfter = resources()

process.stdout.write(
  JSON.stringify({
    runs,
    elapsedMs,
    heapBefore,
    heapAfter,
    heapAfterReset,
    samples,
    conversationBytes,
    messages: messages.length,
    subscriptions,
    notifications,
    events,
    resourcesBefore,
    resourcesAfter,
    final,
  }) + '\n',
)
