// A model-based fuzz of persistence: random sequences of runs, answers, edits, aborts, failures,
// evictions, reloads and a second tab, over storages that are sync, slow, reordering or throwing,
// through createAgentThreads and the stores it returns. After every step (persistence-model.ts,
// World.check): no listener is left on a snapshot a reload would not give back, nothing the user
// did is lost, no store is running without a request, and the list of threads matches the threads.
// Short cases of what it checks are written out step by step in threads/across-reloads-and-tabs.test.ts.
import fc from 'fast-check'
import { describe, it } from 'vitest'
import { commands, World } from './persistence-model'
import type { StorageKind } from './persistence-world'

// A case is up to 40 steps, each followed by a flush and a reload of every thread it touched: it
// costs about what four cases of the other fuzzers do, so FUZZ_RUNS counts for a quarter here.
const NUM_RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) / 4 : 200
const kinds: StorageKind[] = ['sync', 'slow', 'reordering', 'throwing']
const perKind = Math.max(1, Math.round(NUM_RUNS / kinds.length))
// Fixed so that a failure replays; FUZZ_SEED explores other cases.
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 2121

describe('persistence under random use', () => {
  for (const kind of kinds) {
    it(
      `over a ${kind} storage, what the user sees, did and answered survives every step and every reload`,
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.integer(), fc.commands(commands(kind), { maxCommands: 40, size: 'large' }), async (seed, steps) => {
            await fc.asyncModelRun(() => ({ model: {}, real: new World(kind, seed) }), steps)
          }),
          { numRuns: perKind, seed: SEED },
        )
      },
      Math.max(30_000, perKind * 200),
    )
  }
})
