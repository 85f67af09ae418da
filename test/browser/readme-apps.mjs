// A new app from each package README alone, the way a new user builds it (not part of npm test: it
// installs from the npm registry). `node test/browser/readme-apps.mjs`:
//   1. builds and packs the packages;
//   2. per binding, a new Vite app: the README's install line (the packed tarballs in place of the
//      registry names), its quick start as the app's component, its vite.config.ts block, plus the
//      scaffold a `npm create vite` app has (vite, the framework and its Vite plugin);
//   3. the example server as the README starts it (`node --import tsx examples/server/main.ts`, port 8000);
//   4. each app's dev server, driven in Chromium: Write, Reject, Write, Approve, with no console error
//      or warning and no failed request; and the core's node quick start, run as it is.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const root = fileURLToPath(new URL('../..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'agent-state-readme-apps-'))
const started = []
const results = []

const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], timeout: 600_000 }).toString()

/** The first `lang` code block after `heading` in a README. */
function block(readme, heading, lang) {
  const at = readme.indexOf(heading)
  if (at < 0) throw new Error(`No "${heading}" in the README`)
  const match = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(readme.slice(at))
  if (!match) throw new Error(`No ${lang} block after "${heading}"`)
  return match[1]
}

/** Starts a process and resolves with the first stdout match of `ready`. */
function start(command, args, cwd, ready, env = {}) {
  const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  started.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(' ')}: not ready in 60 s:\n${output}`)), 60_000)
    const read = (chunk) => {
      output += chunk
      const match = ready.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match)
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', (code) => reject(new Error(`${command} exited (${code}):\n${output}`)))
  })
}

const apps = {
  react: {
    lang: 'tsx',
    scaffold: ['@vitejs/plugin-react@6', 'react@19', 'react-dom@19'],
    files: (quickStart) => ({
      'src/Writer.tsx': quickStart,
      'src/main.tsx':
        "import { createRoot } from 'react-dom/client'\nimport { Writer } from './Writer'\n\ncreateRoot(document.getElementById('app')!).render(<Writer />)\n",
    }),
    entry: 'main.tsx',
  },
  vue: {
    lang: 'vue',
    scaffold: ['@vitejs/plugin-vue@6', 'vue@3.5'],
    files: (quickStart) => ({
      'src/QuickStart.vue': quickStart,
      'src/main.ts': "import { createApp } from 'vue'\nimport QuickStart from './QuickStart.vue'\n\ncreateApp(QuickStart).mount('#app')\n",
    }),
    entry: 'main.ts',
  },
  svelte: {
    lang: 'svelte',
    scaffold: ['@sveltejs/vite-plugin-svelte@7', 'svelte@5'],
    files: (quickStart) => ({
      'src/QuickStart.svelte': quickStart,
      'src/main.ts':
        "import { mount } from 'svelte'\nimport QuickStart from './QuickStart.svelte'\n\nmount(QuickStart, { target: document.getElementById('app')! })\n",
    }),
    entry: 'main.ts',
  },
  solid: {
    lang: 'tsx',
    scaffold: ['vite-plugin-solid@2', 'solid-js@1'],
    files: (quickStart) => ({
      'src/Writer.tsx': quickStart,
      'src/main.tsx': "import { render } from 'solid-js/web'\nimport { Writer } from './Writer'\n\nrender(() => <Writer />, document.getElementById('app')!)\n",
    }),
    entry: 'main.tsx',
  },
}

async function drive(browser, url) {
  const page = await browser.newPage()
  const problems = []
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`)
  })
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`))
  await page.goto(url)
  const button = (name) => page.getByRole('button', { name, exact: true })
  const enabled = (name) => button(name).and(page.locator(':enabled')).waitFor({ timeout: 15_000 })
  const article = async () => (await page.locator('article').textContent()) ?? ''
  await enabled('Write')
  await button('Write').click()
  await enabled('Approve')
  const draft = await article()
  await button('Reject').click()
  await enabled('Write')
  const rejected = await article()
  await button('Write').click()
  await enabled('Approve')
  await button('Approve').click()
  await page.waitForFunction(() => [...document.querySelectorAll('button')].find((b) => b.textContent === 'Approve')?.disabled)
  await enabled('Write')
  const approved = await article()
  await page.close()
  const ok = draft.length > 100 && rejected === '' && approved === draft && problems.length === 0
  return { ok, draft: draft.length, rejected: rejected.length, approved: approved.length, problems }
}

try {
  run('npm', ['run', 'build', '--workspaces', '--silent'], root)
  const tarballs = join(work, 'tarballs')
  mkdirSync(tarballs)
  const tarball = (name) =>
    join(
      tarballs,
      run('npm', ['pack', '--silent', '--pack-destination', tarballs], join(root, 'packages', name))
        .trim()
        .split('\n')
        .at(-1),
    )
  const core = tarball('core')

  const server = start(process.execPath, ['--import', 'tsx', 'examples/server/main.ts'], root, /AG-UI agents at (http:\S+)/, { PORT: '8000' })
  await server
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  for (const [name, app] of Object.entries(apps)) {
    const readme = readFileSync(join(root, 'packages', name, 'README.md'), 'utf8')
    // The README's own install command, with its tarballs folder pointed at the ones packed above.
    const install = block(readme, '## Install', 'sh').trim().split('\n').at(-1)
    const expected = `npm install ../agent-state/dist/agent-state-core-0.1.0.tgz ../agent-state/dist/agent-state-${name}-0.1.0.tgz`
    if (install !== expected) throw new Error(`${name}: the install line changed: ${install}`)
    const installed = install.replaceAll('../agent-state/dist/', `${tarballs}/`).split(' ').slice(2)
    const dir = join(work, name)
    mkdirSync(join(dir, 'src'), { recursive: true })
    const files = {
      'package.json': JSON.stringify({ name: `new-${name}-app`, private: true, type: 'module' }),
      'index.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><div id="app"></div><script type="module" src="/src/${app.entry}"></script></body></html>`,
      'vite.config.ts': block(readme, '## Try it against the example server', 'ts'),
      ...app.files(block(readme, '## Quick start', app.lang)),
    }
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
    tarball(name)
    run('npm', ['install', '--no-audit', '--no-fund', ...installed, 'vite@8', ...app.scaffold], dir)
    const [, url] = await start(
      process.execPath,
      [join(dir, 'node_modules/vite/bin/vite.js'), '--host', '127.0.0.1', '--port', '0'],
      dir,
      /Local:[^h]*(http:\/\/[\d.]+:\d+\/)/,
    )
    results.push({ name, ...(await drive(browser, url)) })
  }
  await browser.close()

  const dir = join(work, 'core')
  mkdirSync(dir)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'new-core-app', private: true, type: 'module' }))
  // The core's quick start has no type annotations: a plain ES module runs it on Node 20.
  writeFileSync(join(dir, 'quick-start.mjs'), block(readFileSync(join(root, 'packages/core/README.md'), 'utf8'), '## Quick start', 'ts'))
  run('npm', ['install', '--no-audit', '--no-fund', core], dir)
  const output = run(process.execPath, ['quick-start.mjs'], dir).trim().split('\n')
  results.push({ name: 'core', ok: output[0] === 'running 0' && output.includes('The Brave Little Dog'), output: output.slice(0, 4) })
} finally {
  for (const child of started) child.kill()
  rmSync(work, { recursive: true, force: true })
}

for (const result of results) console.log(result.ok ? 'ok  ' : 'FAIL', JSON.stringify(result))
const failed = results.filter((result) => !result.ok).length
console.log(`${results.length - failed} passed, ${failed} failed`)
process.exitCode = failed === 0 && results.length === Object.keys(apps).length + 1 ? 0 : 1
