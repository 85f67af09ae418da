// Run by registry.test.ts in its own node (with --expose-gc): the heap that 50 threads take with
// maxThreads 5 and a storage, against the heap of 5 threads kept live. Prints one JSON line.
import { createAgentThreads, persistThread } from '../../src'

const gc = (globalThis as { gc?: () => void }).gc!
const items = new Map<string, string>()
const storage = {
  getItem: (key: string) => items.get(key) ?? null,
  setItem: (key: string, value: string) => void items.set(key, value),
  removeItem: (key: string) => void items.delete(key),
}
const text = 'x'.repeat(40_000)

function fill(count: number, maxThreads: number) {
  const threads = createAgentThreads<Record<string, never>>({ initialState: {}, persist: persistThread({ storage }), maxThreads })
  for (let i = 0; i < count; i++) {
    const store = threads.open(`thread-${maxThreads}-${i}`)
    // A distinct string per thread: V8 would otherwise share one.
    store.apply([
      { type: 'TEXT_MESSAGE_START', messageId: `m${i}`, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: `m${i}`, delta: `${i}${text}`.slice(0, 40_000) },
      { type: 'TEXT_MESSAGE_END', messageId: `m${i}` },
    ] as never)
  }
  return threads
}

async function heapOf(count: number, maxThreads: number) {
  gc()
  const before = process.memoryUsage().heapUsed
  const threads = fill(count, maxThreads)
  await threads.flush()
  await new Promise((resolve) => setTimeout(resolve, 20))
  // The storage is outside the registry: a browser keeps it out of the page's heap.
  items.clear()
  gc()
  const used = process.memoryUsage().heapUsed - before
  return { threads, used }
}

const live = await heapOf(5, 5)
const dropped = await heapOf(50, 5)
console.log(JSON.stringify({ live: live.used, dropped: dropped.used, threads: dropped.threads.getState().threads.length }))
