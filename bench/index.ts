// `npm run bench`: runs every bench module in plain node and prints one markdown table,
// also written to bench/results.md.
//
// Each module runs in a fresh node process of its own, as JMH forks a JVM per benchmark: in one
// process a module's figures depended on which modules ran before it (V8's type feedback from
// their workloads; measured: reasoning against text 0.94x alone, 1.14x after the drafts scenario).
// The modules that compare two nearly equal paths run in several processes, and report the median
// of the per-process ratios: which of two paths V8 happens to favour differs from process to
// process (measured: 0.92x to 1.15x for the same code in fresh processes), and these machines'
// two cores also differ in speed by up to 2x for minutes at a time.

// First, before anything that reads NODE_ENV loads.
import './production-mode'
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { markdownTable, type Row } from './harness'
import { type PersistMeasurement, reportPersist } from './persist'
import { type ReasoningMeasurement, reportReasoning } from './reasoning'

if (process.env.NODE_ENV !== 'production' || process.env.VITEST_WORKER_ID !== undefined) {
  throw new Error('The bench must run with NODE_ENV=production and without VITEST_WORKER_ID')
}

/** A module whose function returns its rows, run in one process. */
interface Single {
  scenario: string
  name: string
  module: string
  rows: string
}

/** A module whose measurement runs in `processes` processes; `report` makes the rows of them all. */
interface Repeated<T> {
  scenario: string
  name: string
  module: string
  measure: string
  processes: number
  report: (results: T[]) => Row[]
}

const REPEATS = 5

const benches: (Single | Repeated<never>)[] = [
  { scenario: 'Core state', name: 'core-state', module: './core-state.ts', rows: 'benchCoreState' },
  { scenario: 'Drafts', name: 'drafts', module: './drafts.ts', rows: 'benchDrafts' },
  repeated<ReasoningMeasurement>({ scenario: 'Reasoning', name: 'reasoning', module: './reasoning.ts', measure: 'measureReasoning', report: reportReasoning }),
  { scenario: 'Shell', name: 'shell', module: './shell.ts', rows: 'benchShell' },
  repeated<PersistMeasurement>({ scenario: 'Persisted thread', name: 'persist', module: './persist.ts', measure: 'measurePersist', report: reportPersist }),
  { scenario: 'Devtools', name: 'devtools', module: './devtools.ts', rows: 'benchDevtools' },
  { scenario: 'Binding renders', name: 'bindings-renders', module: './bindings-renders.ts', rows: 'benchBindingRenders' },
  { scenario: 'Bundle size', name: 'bundle-size', module: './bundle-size.ts', rows: 'benchBundleSize' },
]

function repeated<T>(bench: Omit<Repeated<T>, 'processes'>): Repeated<never> {
  return { ...bench, processes: REPEATS } as Repeated<unknown> as Repeated<never>
}

/** What `exportName` of `module` returns, run in a fresh node process with this one's flags (the `source` condition, tsx). */
async function inChild(module: string, exportName: string): Promise<unknown> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'agent-state-bench-'))
  const out = path.join(folder, 'result.json')
  try {
    const child = spawn(process.execPath, [...process.execArgv, new URL('./child.ts', import.meta.url).pathname, module, exportName, out], { stdio: 'inherit' })
    const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('exit', resolve))
    if (code !== 0) throw new Error(`bench ${module} ${exportName} exited with ${code}`)
    return JSON.parse(await readFile(out, 'utf8'))
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'} (${os.cpus().length} cores), ${os.platform()} ${os.release()}, Node ${process.version}`
// Other work on the machine shows up in every timing: the load is reported next to the results.
const loadAtStart = os.loadavg()[0]!
console.log(`Machine: ${machine}`)
console.log(`NODE_ENV=${process.env.NODE_ENV}\n`)

const rows: Row[] = []
for (const bench of benches) {
  const started = performance.now()
  let produced: Row[]
  if ('rows' in bench) {
    console.log(`Running ${bench.name} …`)
    produced = (await inChild(bench.module, bench.rows)) as Row[]
  } else {
    const results: never[] = []
    for (let i = 1; i <= bench.processes; i++) {
      console.log(`Running ${bench.name} (process ${i} of ${bench.processes}) …`)
      results.push((await inChild(bench.module, bench.measure)) as never)
    }
    produced = bench.report(results)
  }
  rows.push(...produced.map((row) => ({ ...row, scenario: row.scenario ?? bench.scenario })))
  console.log(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

// Notes are long: they go under the table, referenced by number from the measure column.
const notes: string[] = []
let lastScenario: string | undefined
const cells = rows.map((row) => {
  const scenario = row.scenario === lastScenario ? '' : (row.scenario ?? '')
  lastScenario = row.scenario
  let measureName = row.name
  if (row.note) {
    notes.push(row.note)
    measureName += ` [${notes.length}]`
  }
  const value = typeof row.value === 'number' ? row.value.toLocaleString('en-US') : row.value
  const pass = row.pass === undefined ? '' : row.pass ? 'yes' : '**NO**'
  return [scenario, measureName, value, row.target ?? '', pass]
})

const load = `load average ${loadAtStart.toFixed(2)} at the start, ${os.loadavg()[0]!.toFixed(2)} at the end`
const failed = rows.filter((row) => row.pass === false).length
const judged = rows.filter((row) => row.pass !== undefined).length
const report = [
  '# Benchmarks',
  '',
  `Machine: ${machine}. Plain node, NODE_ENV=production (@ag-ui/client 1.0 in production mode). Generated by \`npm run bench\`; ${load}.`,
  '',
  `The store runs from its TypeScript source through tsx, whose esbuild transform keeps function names: every closure created on a hot path costs an extra \`__name\` call that a normal build does not. @ag-ui/client runs from its published build. Measurements that are compared run round-robin, so load from other processes weighs on them alike; a full GC precedes each group. Each module runs in a fresh node process of its own; reasoning and persist, whose targets compare two nearly equal paths, run in ${REPEATS} processes each, and their ratios are the median of the per-process ratios.`,
  '',
  markdownTable(['Scenario', 'measure', 'value', 'target', 'pass?'], cells),
  '',
  `${judged - failed} of ${judged} targets met.`,
  '',
  '## Notes',
  '',
  ...notes.map((note, i) => `${i + 1}. ${note}`),
  '',
].join('\n')

console.log(`\n${report}`)
await writeFile(new URL('./results.md', import.meta.url), report)
console.log('Written to bench/results.md')
