// npm run bench:browser: builds the page once (production), then measures every contender on every
// workload in Debian's Chromium. Main-thread CPU is CDP's Performance.getMetrics TaskDuration
// around the run; rounds are interleaved (each round runs every contender once, in a rotated order).
//   ROUNDS=3 (default)   WORKLOADS=state,draft,text   CONTENDERS=agent-state,@ag-ui/client,copilotkit,floor
import { execFileSync } from 'node:child_process'
import { createReadStream, existsSync, writeFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const here = fileURLToPath(new URL('.', import.meta.url))
const rounds = Number(process.env.ROUNDS || 3)
const workloads = (process.env.WORKLOADS || 'state,draft,text').split(',')
const contenders = (process.env.CONTENDERS || 'agent-state,@ag-ui/client,copilotkit,floor').split(',')
const runTimeoutMs = 180_000

console.log('Building the page (vite build, production)…')
execFileSync(process.execPath, [join(here, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], {
  cwd: here,
  env: { ...process.env, NODE_ENV: 'production' },
  stdio: 'inherit',
  timeout: 300_000,
})

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf' }
const dist = join(here, 'dist')
const server = createServer(async (request, response) => {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname
  const file = join(dist, path === '/' ? 'index.html' : path)
  if (!file.startsWith(dist) || !(await stat(file).catch(() => undefined))?.isFile()) {
    response.writeHead(404).end()
    return
  }
  response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' })
  createReadStream(file).pipe(response)
})
await new Promise((done) => server.listen(0, '127.0.0.1', done))
const origin = `http://127.0.0.1:${server.address().port}`

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: apt-get install -y chromium`)
const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})

async function measure(contender, workload) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  const errors = []
  page.on('pageerror', (error) => errors.push(error.message))
  // Offline: nothing but this server.
  await page.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()))
  try {
    await page.goto(`${origin}/?contender=${encodeURIComponent(contender)}&workload=${workload}`)
    await page.waitForFunction(() => window.bench !== undefined, undefined, { timeout: 30_000 })
    await page.evaluate(() => window.bench.ready)
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    const metric = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map(({ name, value }) => [name, value]))
    const before = await metric()
    const result = await Promise.race([
      page.evaluate(() => window.bench.run()),
      new Promise((_, fail) => setTimeout(() => fail(new Error(`${contender} ${workload}: no end after ${runTimeoutMs} ms`)), runTimeoutMs)),
    ])
    const after = await metric()
    if (errors.length) throw new Error(`${contender} ${workload}: ${errors.join('; ')}`)
    return { cpu: after.TaskDuration - before.TaskDuration, script: after.ScriptDuration - before.ScriptDuration, ...result }
  } finally {
    await page.close()
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

const results = {} // workload → contender → [run]
for (let round = 0; round < rounds; round++) {
  for (const workload of workloads) {
    const order = contenders.map((_, i) => contenders[(i + round) % contenders.length])
    for (const contender of order) {
      const run = await measure(contender, workload)
      ;((results[workload] ??= {})[contender] ??= []).push(run)
      console.log(`round ${round + 1}/${rounds}  ${workload.padEnd(6)} ${contender.padEnd(14)} ${(run.cpu * 1000).toFixed(0).padStart(7)} ms CPU`)
    }
  }
}
await browser.close()
server.close()

// Every contender must end with the same screen.
for (const workload of workloads) {
  const digests = Object.entries(results[workload]).flatMap(([contender, runs]) => runs.map((run) => `${contender} ${JSON.stringify(run.digest)}`))
  if (new Set(digests.map((line) => line.slice(line.indexOf(' ')))).size !== 1) {
    throw new Error(`${workload}: the contenders ended on different screens:\n${digests.join('\n')}`)
  }
}

const names = { state: '1 MB state + 2,000 replace deltas', draft: '32k draft from streamed tool arguments', text: '32k text stream beside a 200-row list' }
const ms = (seconds) => `${(seconds * 1000).toFixed(0)} ms`
const ratio = (value) => `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`
const lines = [
  `| workload | contender | main-thread CPU (median of ${rounds}) | per-round ratio to agent-state (median) | commits per component (median) |`,
  '| --- | --- | --- | --- | --- |',
]
for (const workload of workloads) {
  const ours = results[workload]['agent-state']
  for (const contender of contenders) {
    const runs = results[workload][contender]
    const ratios = ours ? runs.map((run, i) => run.cpu / ours[i].cpu) : []
    const commitNames = [...new Set(runs.flatMap((run) => Object.keys(run.commits)))].sort()
    const commits = commitNames.map((name) => `${name} ${median(runs.map((run) => run.commits[name] ?? 0))}`).join(', ')
    lines.push(`| ${names[workload]} | ${contender} | ${ms(median(runs.map((run) => run.cpu)))} | ${ours ? ratio(median(ratios)) : ''} | ${commits} |`)
  }
}
const table = lines.join('\n')
console.log(`\n${table}\n`)
writeFileSync(
  join(here, 'results.md'),
  `# Browser benchmark: latest run\n\n${new Date().toISOString().slice(0, 10)}, Chromium ${browser.version?.() ?? ''}, ${rounds} rounds, ${batchNote()}.\n\n${table}\n`,
)

function batchNote() {
  return 'one batch per animation frame for every contender (state: 20 deltas, draft and text: 10 events)'
}
