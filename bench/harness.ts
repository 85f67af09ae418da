// Timing and reporting helpers shared by every bench module. Plain node, no test runner:
// vitest sets VITEST_WORKER_ID, which switches @ag-ui/client into its cloning development mode.

import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

// A full collection before each measurement, so it does not pay for the garbage of the one
// before. Not before each trial: a forced GC shrinks the young generation, and the next trial
// would then run in an unrealistically small heap. (The bench command has no --expose-gc.)
setFlagsFromString('--expose-gc')
export const collectGarbage = runInNewContext('gc') as () => void

/** One line of the results table. `name`, `value` and `note` are all a bench module has to fill in. */
export interface Row {
  name: string
  value: string | number
  note?: string
  /** The table's first column; index.ts fills it in from the module when a row leaves it out. */
  scenario?: string
  /** The goal from the issue, printed next to the measurement. */
  target?: string
  /** Whether the measurement meets `target`; absent for rows that only report. */
  pass?: boolean
}

export interface Timing {
  /** Untimed rounds that ran first. */
  warmup: number
  median: number
  min: number
  max: number
  /** Every timed trial, in milliseconds, in the order they ran. */
  samples: number[]
}

export interface MeasureOptions<TContext> {
  /** Untimed, before every run (warm-ups included): a fresh store, an agent, the initial snapshot. */
  setup(): TContext | Promise<TContext>
  /** The timed part. */
  run(context: TContext): unknown
  /** Untimed, after every run: throws if the result is wrong, so a fast wrong answer never counts. */
  check?(context: TContext, result: unknown): void
  warmup?: number
  trials?: number
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values')
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Runs `warmup` untimed rounds, then `trials` timed ones; reports the median in milliseconds. */
export async function measure<TContext>(options: MeasureOptions<TContext>): Promise<Timing> {
  const [timing] = await measureInterleaved([options], options)
  return timing
}

/**
 * Measures several things round-robin (one trial of each per round, warm-ups first), so that
 * whatever else the machine is doing weighs on all of them alike and their ratios stay meaningful.
 * `rounds` gives the warm-up and trial counts for all; the options' own counts are ignored.
 */
export async function measureInterleaved<const TList extends readonly MeasureOptions<unknown>[]>(
  list: TList,
  rounds: { warmup?: number; trials?: number; alternate?: boolean },
): Promise<{ [K in keyof TList]: Timing }> {
  const { warmup = 1, trials = 5, alternate = false } = rounds
  const samples = list.map((): number[] => [])
  collectGarbage()
  for (let round = 0; round < warmup + trials; round++) {
    // Alternating the order every round: whatever one contender leaves behind (garbage, a cold
    // cache) falls on the others in turn, not always on the one that runs after it.
    const order = [...list.keys()]
    if (alternate && round % 2 === 1) order.reverse()
    for (const i of order) {
      const elapsed = await timeOnce(list[i]!)
      if (round >= warmup) samples[i]!.push(elapsed)
    }
  }
  return samples.map((values) => timingOf(values, warmup)) as { [K in keyof TList]: Timing }
}

/**
 * A slow contender against a fast one in the same rounds: each round times `slow` once and `fast`
 * `fastPerRound` times right after it, and the ratio is the median of the rounds' ratios (slow over
 * the median of that round's fast trials). A fast trial lasts a fiftieth of a slow one: measured
 * apart, the fast trials sample a minute of the machine's load and the slow ones another.
 */
export async function measureAgainst<A, B>(
  slow: MeasureOptions<A>,
  fast: MeasureOptions<B>,
  rounds: { warmup: number; trials: number; fastPerRound: number },
): Promise<{ slow: Timing; fast: Timing; ratio: number; ratios: number[] }> {
  const slowSamples: number[] = []
  const fastSamples: number[] = []
  const ratios: number[] = []
  collectGarbage()
  for (let i = 0; i < rounds.warmup; i++) await timeOnce(fast)
  for (let round = 0; round < rounds.trials; round++) {
    const slowTime = await timeOnce(slow)
    const fastTimes: number[] = []
    for (let i = 0; i < rounds.fastPerRound; i++) fastTimes.push(await timeOnce(fast))
    slowSamples.push(slowTime)
    fastSamples.push(...fastTimes)
    ratios.push(slowTime / median(fastTimes))
  }
  return { slow: timingOf(slowSamples, 0), fast: timingOf(fastSamples, rounds.warmup), ratio: median(ratios), ratios }
}

/**
 * `options` done `count` times in one trial, each on a fresh context: a small workload timed as the
 * same amount of work as a larger one. A growth ratio compares one 128k stream with four 32k ones,
 * so both halves stream as many tokens and allocate alike; a single 32k trial could finish between
 * two scavenges, and its median left out garbage collection that every 128k trial pays.
 */
export function repeated<TContext>(options: MeasureOptions<TContext>, count: number): MeasureOptions<TContext[]> {
  // An asynchronous workload (store.run) finishes before the next one starts, as a synchronous one does.
  async function finishInTurn(started: Promise<unknown>, rest: TContext[], results: unknown[]): Promise<unknown[]> {
    results.push(await started)
    for (const context of rest) results.push(await options.run(context))
    return results
  }
  return {
    setup: async () => {
      const contexts: TContext[] = []
      for (let i = 0; i < count; i++) contexts.push(await options.setup())
      return contexts
    },
    run: (contexts) => {
      const results: unknown[] = []
      for (const [i, context] of contexts.entries()) {
        const result = options.run(context)
        if (result instanceof Promise) return finishInTurn(result, contexts.slice(i + 1), results)
        results.push(result)
      }
      return results
    },
    check: (contexts, results) => {
      for (const [i, context] of contexts.entries()) options.check?.(context, (results as unknown[])[i])
    },
  }
}

/** How many 32k streams one trial of a growth ratio times: as many tokens as one 128k stream. */
export const SMALL_STREAMS = 4

/** Growth from 32k to 128k, round by round: one 128k stream over SMALL_STREAMS 32k streams, times 4 (linear: 4×). */
export function growthRatio(large: Timing, smalls: Timing): number {
  return SMALL_STREAMS * pairedRatio(large, smalls)
}

/** One 32k stream's share of a trial of SMALL_STREAMS of them, and how that trial was timed. */
export function describeSmallStreams(smalls: Timing): string {
  return `a quarter of ${SMALL_STREAMS} streams timed as one trial: ${describeTiming(smalls)}`
}

/** How a growth ratio was found. */
export function describeGrowth(large: Timing, smalls: Timing): string {
  return `${SMALL_STREAMS} × the median of ${large.samples.length} per-round ratios of one 128k stream to ${SMALL_STREAMS} 32k streams timed as one trial (as many tokens, as much allocated); one 32k stream per trial gave ${formatRatio(large.median / (smalls.median / SMALL_STREAMS))} by the medians`
}

const timingOf = (samples: number[], warmup: number): Timing => ({
  warmup,
  median: median(samples),
  min: Math.min(...samples),
  max: Math.max(...samples),
  samples,
})

async function timeOnce<TContext>(options: MeasureOptions<TContext>): Promise<number> {
  const context = await options.setup()
  const start = performance.now()
  let result = options.run(context)
  if (result instanceof Promise) result = await result
  const elapsed = performance.now() - start
  options.check?.(context, result)
  return elapsed
}

const group = (value: number, digits: number) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

/** A duration given in milliseconds, in the unit that keeps three significant digits readable. */
export function formatTime(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms)
  const abs = Math.abs(ms)
  if (abs >= 1000) return `${group(ms / 1000, 2)} s`
  if (abs >= 1) return `${group(ms, abs >= 100 ? 0 : abs >= 10 ? 1 : 2)} ms`
  if (abs >= 0.001) return `${group(ms * 1000, abs >= 0.1 ? 0 : abs >= 0.01 ? 1 : 2)} µs`
  return `${group(ms * 1e6, 0)} ns`
}

/** A ratio as `512×`, `3.4×` or `0.13×`. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return String(ratio)
  const abs = Math.abs(ratio)
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2
  return `${group(ratio, digits)}×`
}

export function formatCount(count: number): string {
  return group(count, 0)
}

/** Bytes as KB / MB (decimal, as the issue counts "1 MB"). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e6) return `${group(bytes / 1e6, 2)} MB`
  if (bytes >= 1e3) return `${group(bytes / 1e3, 1)} KB`
  return `${bytes} B`
}

/** The samples behind a median, for a note: "median of 7 after 2 warm-ups (min 1.2 ms, max 1.5 ms)". */
/**
 * The median of the per-round ratios a[i] / b[i] of two timings measured in the same interleaved
 * rounds. Each pair ran back to back, so a burst of load from elsewhere weighs on both halves of a
 * pair alike; the ratio of the two medians mixes rounds that ran under different loads.
 */
export function pairedRatio(a: Timing, b: Timing): number {
  if (a.samples.length !== b.samples.length) throw new Error('paired timings need the same rounds')
  return median(a.samples.map((value, i) => value / b.samples[i]!))
}

/** How a paired ratio was found, with the ratio of the medians beside it for comparison. */
export function describePairedRatio(a: Timing, b: Timing): string {
  return `median of ${a.samples.length} per-round ratios (each pair measured back to back); ratio of the medians ${formatRatio(a.median / b.median)}, of the minimums ${formatRatio(a.min / b.min)}`
}

export function describeTiming(timing: Timing): string {
  const warmups = timing.warmup === 0 ? 'no warm-up' : `${timing.warmup} warm-up${timing.warmup === 1 ? '' : 's'}`
  return `median of ${timing.samples.length} after ${warmups} (min ${formatTime(timing.min)}, max ${formatTime(timing.max)})`
}

/** GitHub-flavoured markdown; `|` and line breaks in cells are escaped so a note cannot break the table. */
export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll(/\r?\n/g, ' ')
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n')
}

/** A deterministic pseudo-random source (mulberry32): the same scenario on every run and machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
