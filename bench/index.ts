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
import { type HandTunedMeasurement, handTunedNotes, reportHandTuned } from './hand-tuned'
import { markdownTable, type Row } from './harness'
import { type PersistMeasurement, reportPersist } from './persist'
import { type ReasoningMeasurement, reportReasoning } from './reasoning'

if (process.env.NODE_ENV !== 'production' || process.env.VITEST_WORKER_ID !== undefined) {
  throw new Error('The bench must run with NODE_ENV=production and without VITEST_WORKER_ID')
}

/** How many processes a comparison of two nearly equal paths runs in. */
const PROCESSES = 5

const benches: { scenario: string; name: string; rows: () => Promise<Row[]> }[] = [
  { scenario: 'Core state', name: 'core-state', rows: () => inOneProcess('./core-state.ts', 'benchCoreState') },
  { scenario: 'Drafts', name: 'drafts', rows: () => inOneProcess('./drafts.ts', 'benchDrafts') },
  { scenario: 'Reasoning', name: 'reasoning', rows: () => inProcesses<ReasoningMeasurement>('./reasoning.ts', 'measureReasoning', reportReasoning) },
  { scenario: 'Shell', name: 'shell', rows: () => inOneProcess('./shell.ts', 'benchShell') },
  { scenario: 'Persisted thread', name: 'persist', rows: () => inProcesses<PersistMeasurement>('./persist.ts', 'measurePersist', reportPersist) },
  { scenario: 'Devtools', name: 'devtools', rows: () => inOneProcess('./devtools.ts', 'benchDevtools') },
  { scenario: 'Binding renders', name: 'bindings-renders', rows: () => inOneProcess('./bindings-renders.ts', 'benchBindingRenders') },
  { scenario: 'Bundle size', name: 'bundle-size', rows: () => inOneProcess('./bundle-size.ts', 'benchBundleSize') },
  { scenario: 'HTTP/SSE', name: 'http', rows: () => inOneProcess('./http.ts', 'benchHttp') },
  { scenario: 'Hand-tuned code', name: 'hand-tuned', rows: () => inProcesses<HandTunedMeasurement>('./hand-tuned.ts', 'measureHandTuned', reportHandTuned) },
  { scenario: 'Conversation tree', name: 'conversation-tree', rows: () => inOneProcess('./conversation-tree.ts', 'benchConversationTree') },
]

// `npm run bench -- http shell` runs only the modules named and prints their table: a partial
// run never overwrites the whole one in bench/results.md.
const only = process.argv.slice(2)
const unknown = only.filter((name) => !benches.some((bench) => bench.name === name))
if (unknown.length > 0) throw new Error(`No bench module named ${unknown.join(', ')}; there are ${benches.map((bench) => bench.name).join(', ')}`)
const selected = only.length === 0 ? benches : benches.filter((bench) => only.includes(bench.name))

/** A module whose function returns its rows, run in one fresh process. */
const inOneProcess = async (module: string, exportName: string) => (await inChild(module, exportName)) as Row[]

/** A module's measurement run in PROCESSES fresh processes, one after another; `report` makes the rows of them all. */
async function inProcesses<T>(module: string, measure: string, report: (results: T[]) => Row[]): Promise<Row[]> {
  const results: T[] = []
  for (let i = 1; i <= PROCESSES; i++) {
    console.log(`  process ${i} of ${PROCESSES} …`)
    results.push((await inChild(module, measure)) as T)
  }
  return report(results)
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
for (const bench of selected) {
  const started = performance.now()
  console.log(`Running ${bench.name} …`)
  const produced = await bench.rows()
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
  `The store runs from its TypeScript source through tsx, whose esbuild transform keeps function names: every closure created on a hot path costs an extra \`__name\` call that a normal build does not. @ag-ui/client runs from its published build. Measurements that are compared run round-robin, so load from other processes weighs on them alike; a full GC precedes each group. Each module runs in a fresh node process of its own; reasoning, persist and the hand-tuned code, whose targets compare two nearly equal paths, run in ${PROCESSES} processes each, and their ratios are the median of the per-process ratios.`,
  '',
  markdownTable(['Scenario', 'measure', 'value', 'target', 'pass?'], cells),
  '',
  `${judged - failed} of ${judged} targets met.`,
  '',
  '## Notes',
  '',
  ...notes.map((note, i) => `${i + 1}. ${note}`),
  '',
  '## Notes on the hand-tuned code',
  '',
  ...handTunedNotes,
  '',
].join('\n')

console.log(`\n${report}`)
if (selected === benches) {
  await writeFile(new URL('./results.md', import.meta.url), report)
  console.log('Written to bench/results.md')
} else {
  console.log(`Only ${only.join(', ')}: bench/results.md left as it is`)
}
