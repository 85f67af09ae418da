// What a user gets before the first release: `npm run pack` (each package's prepack builds its dist/),
// the tarballs installed together into a new app, and each entry point of each exports map imported
// by plain Node; then a new React app with the core and the binding alone, no @ag-ui/client, built by
// Vite and driven in Chromium. Everything comes from the npm cache: the apps' other packages are the
// versions this repository's lock file holds, so `npm ci` installed them into the cache already.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storyFor } from '../../examples/server/content'
import { type AgentHandler, createAgentHandler } from '../../examples/server/server'
import { type Browser, launchBrowser } from '../browser/harness'

const root = fileURLToPath(new URL('../..', import.meta.url))
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'))

interface Manifest {
  name: string
  version: string
  exports: Record<string, string | { types: string; default: string }>
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}
interface LockEntry {
  version: string
  dev?: boolean
  devOptional?: boolean
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

const workspaces: string[] = readJson(join(root, 'package.json')).workspaces
const manifests = new Map<string, Manifest>(workspaces.map((dir) => [dir, readJson(join(root, dir, 'package.json'))]))
const rootLock: Record<string, LockEntry> = readJson(join(root, 'package-lock.json')).packages
const ours = (name: string) => name.startsWith('@agent-state/')
const entryPoints = [...manifests.values()].flatMap((manifest) =>
  Object.keys(manifest.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => manifest.name + subpath.slice(1)),
)

/** Where Node finds `name` from the package installed at `from`: its own node_modules, then each parent's. */
function locate(from: string, name: string): string | undefined {
  let at = from
  for (;;) {
    const path = `${at ? `${at}/` : ''}node_modules/${name}`
    if (rootLock[path]) return path
    if (!at) return undefined
    const parent = at.lastIndexOf('/node_modules/')
    at = parent < 0 ? '' : at.slice(0, parent)
  }
}

/** The root lock file's entries for `names` and everything they need, at the same places. */
function lockEntries(names: string[]): Record<string, LockEntry> {
  const entries: Record<string, LockEntry> = {}
  const add = (path: string) => {
    if (entries[path]) return
    const { dev, devOptional, ...entry } = rootLock[path] as LockEntry
    entries[path] = entry
    const needs = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies }
    for (const name of Object.keys(needs)) {
      if (entry.peerDependenciesMeta?.[name]?.optional) continue
      const found = locate(path, name)
      if (found) add(found)
      else if (!entry.optionalDependencies?.[name]) throw new Error(`${path} needs ${name}, which the root lock file does not hold`)
    }
  }
  for (const name of names) add(`node_modules/${name}`)
  return entries
}

const run = (command: string, args: string[], cwd: string, timeout: number, env: NodeJS.ProcessEnv = process.env) =>
  promisify(execFile)(command, args, { cwd, timeout, env, maxBuffer: 16 * 1024 * 1024 }).then(({ stdout }) => stdout)

/** Imports each entry point in a Node process run from `app`: its export names, or the error. */
const importEach = `
const result = {}
for (const specifier of JSON.parse(process.argv[1])) {
  try { result[specifier] = Object.keys(await import(specifier)).sort() } catch (error) { result[specifier] = String(error) }
}
console.log(JSON.stringify(result))
`

/** Where `npm run pack` puts a package's tarball. */
const tarball = ({ name, version }: Pick<Manifest, 'name' | 'version'>) => join(root, 'dist', `${name.slice(1).replace('/', '-')}-${version}.tgz`)

/** A new app in `app` with `names` at the versions the root lock file holds, installed by `npm ci` offline from a lock file cut from the root one. */
async function appWith(app: string, names: string[]): Promise<void> {
  const dependencies = Object.fromEntries(names.map((name) => [name, rootLock[`node_modules/${name}`]?.version]))
  const lock = { name: 'app', lockfileVersion: 3, requires: true, packages: { '': { name: 'app', dependencies }, ...lockEntries(names) } }
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module', dependencies }))
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(lock))
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], app, 60_000)
}

let work = ''

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'agent-state-tarballs-'))
  // Without dist/, a tarball holds a build only if its prepack made one.
  for (const dir of workspaces) rmSync(join(root, dir, 'dist'), { recursive: true, force: true })
  for (const manifest of manifests.values()) rmSync(tarball(manifest), { force: true })
  await run('npm', ['run', 'pack', '--silent'], root, 200_000)
}, 300_000)

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('the packed packages, installed together into a new app', () => {
  let app = ''
  const installed = (name: string, file = '') => join(app, 'node_modules', name, file)

  beforeAll(async () => {
    app = join(work, 'app')
    // The app first has the peers a user's app has (the framework, @ag-ui/client).
    const peers = [...new Set([...manifests.values()].flatMap((manifest) => Object.keys(manifest.peerDependencies ?? {})))].filter((name) => !ours(name))
    await appWith(app, peers)

    // Then the tarballs, in one command as the READMEs say. --offline: a binding's dependency on the core
    // must be met by the core's tarball, never looked up in the registry. --legacy-peer-deps only because
    // npm's peer check fetches full registry documents, which the cache does not hold; `npm ls` checks the peers.
    const tarballs = [...manifests.values()].map(tarball)
    await run('npm', ['install', '--offline', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], app, 60_000)
  }, 120_000)

  it('every package installs from its tarball, with one copy of the core, and no dependency or peer unmet', async () => {
    const appLock: Record<string, { resolved?: string }> = readJson(join(app, 'package-lock.json')).packages
    const fromTarballs = Object.entries(appLock)
      .filter(([path]) => ours(path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)))
      .map(([path, entry]) => `${path} ${entry.resolved}`)
    expect(fromTarballs.sort()).toEqual(
      ['angular', 'core', 'devtools', 'react', 'solid', 'svelte', 'vue'].map(
        (name) => `node_modules/@agent-state/${name} file:${relative(app, tarball({ name: `@agent-state/${name}`, version: '0.1.0' }))}`,
      ),
    )
    await expect(run('npm', ['ls', '--all', '--offline', '--loglevel=error'], app, 30_000)).resolves.toContain('@agent-state/core@0.1.0')
  })

  it("each entry point of each exports map imports in Node and exports the same names as the package's source", async () => {
    const imported = JSON.parse(await run(process.execPath, ['--input-type=module', '-e', importEach, JSON.stringify(entryPoints)], app, 30_000))
    const fromSource = Object.fromEntries(await Promise.all(entryPoints.map(async (specifier) => [specifier, Object.keys(await import(specifier)).sort()])))
    expect([...entryPoints].sort()).toEqual([
      '@agent-state/angular',
      '@agent-state/core',
      '@agent-state/core/internals',
      '@agent-state/core/testing',
      '@agent-state/devtools',
      '@agent-state/devtools/panel',
      '@agent-state/devtools/testing',
      '@agent-state/react',
      '@agent-state/solid',
      '@agent-state/svelte',
      '@agent-state/vue',
    ])
    expect(imported).toEqual(fromSource)
  })

  it('each tarball holds the files its exports map names, its README and the MIT license', () => {
    const license = readFileSync(join(root, 'LICENSE'), 'utf8')
    for (const manifest of manifests.values()) {
      const files = Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : [target.types, target.default]))
      expect(
        files.filter((file) => !existsSync(installed(manifest.name, file))),
        manifest.name,
      ).toEqual([])
      expect(existsSync(installed(manifest.name, 'README.md')), manifest.name).toBe(true)
      expect(readFileSync(installed(manifest.name, 'LICENSE'), 'utf8'), manifest.name).toBe(license)
    }
    expect(license).toContain('Copyright (c) 2026 the agent-state authors')
  })
})

/** The first `lang` code block after `heading` in a README. */
function codeBlock(readme: string, heading: string, lang: string): string {
  const after = readme.slice(readme.indexOf(heading))
  const fence = `\`\`\`${lang}\n`
  const start = after.indexOf(fence) + fence.length
  return after.slice(start, after.indexOf('```', start))
}

const contentTypes: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' }

describe('a new React app with the packed core and binding and no @ag-ui/client: the README quick start, built by Vite', () => {
  let app = ''
  let agents: AgentHandler | undefined
  let server: Server | undefined
  let origin = ''
  let browser: Browser | undefined

  beforeAll(async () => {
    app = join(work, 'writer')
    const core = manifests.get('packages/core')!
    // React and the core's own dependencies first, so that installing the tarballs looks nothing up.
    await appWith(app, ['react', 'react-dom', ...Object.keys(core.dependencies ?? {})])
    // Then the two tarballs of the README's install line. --legacy-peer-deps as above (npm's peer check
    // needs registry documents the cache does not hold); it also keeps npm from adding a peer the app did
    // not ask for, which the test below checks.
    await run(
      'npm',
      ['install', '--offline', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=error', tarball(core), tarball(manifests.get('packages/react')!)],
      app,
      60_000,
    )

    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const pluginReact = pathToFileURL(join(root, 'node_modules/@vitejs/plugin-react/dist/index.js')).href
    const files = {
      'index.html':
        '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><div id="app"></div><script type="module" src="/src/main.tsx"></script></body></html>',
      'src/Writer.tsx': codeBlock(readme, '## Quick start', 'tsx'),
      'src/main.tsx':
        "import { createRoot } from 'react-dom/client'\nimport { Writer } from './Writer'\n\ncreateRoot(document.getElementById('app')!).render(<Writer />)\n",
      // The repository's Vite and React plugin build it; everything the app imports resolves from its own node_modules.
      'vite.config.mjs': `import react from '${pluginReact}'\nexport default { plugins: [react()], logLevel: 'error' }\n`,
    }
    mkdirSync(join(app, 'src'))
    for (const [file, text] of Object.entries(files)) writeFileSync(join(app, file), text)
    // A production build in a child process: under vitest NODE_ENV is "test".
    await run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], app, 120_000, { ...process.env, NODE_ENV: 'production' })

    // What the README's dev-server proxy does: /api/agent goes to the example server's writer; the rest is the build.
    const agentHandler = createAgentHandler({ delayMs: 1 })
    agents = agentHandler
    const dist = join(app, 'dist')
    server = createServer((request, response) => {
      if (request.url === '/api/agent') {
        request.url = '/agents/writer'
        return agentHandler.handle(request, response)
      }
      const file = join(dist, new URL(request.url ?? '/', 'http://localhost').pathname.replace(/\/$/, '/index.html'))
      if (!file.startsWith(`${dist}/`)) return void response.writeHead(403).end()
      readFile(file).then(
        (body) => response.writeHead(200, { 'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream' }).end(body),
        () => response.writeHead(404).end(),
      )
    })
    const listening = server
    await new Promise<void>((resolve, reject) => listening.once('error', reject).listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
    browser = await launchBrowser()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    agents?.close()
    server?.closeAllConnections()
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  })

  it('installs the core and the binding from their tarballs and nothing of @ag-ui/client', () => {
    expect(readJson(join(app, 'node_modules/@agent-state/core/package.json')).version).toBe('0.1.0')
    expect(readJson(join(app, 'node_modules/@agent-state/react/package.json')).version).toBe('0.1.0')
    expect(existsSync(join(app, 'node_modules/@ag-ui/client'))).toBe(false)
    expect(Object.keys(readJson(join(app, 'package.json')).dependencies).sort()).toEqual(
      ['@agent-state/core', '@agent-state/react', 'react', 'react-dom', ...Object.keys(manifests.get('packages/core')!.dependencies ?? {})].sort(),
    )
  })

  it('runs in Chromium against the example server: the story streams in as a draft, and Approve keeps it', async () => {
    const { page, errors } = await browser!.newPage()
    const failed: string[] = []
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`))
    await page.goto(`${origin}/`)
    const button = (name: string) => page.getByRole('button', { name, exact: true })
    const enabled = (name: string) => button(name).and(page.locator(':enabled')).waitFor()
    const story = storyFor('Write a story')

    await enabled('Write')
    await button('Write').click()
    await enabled('Approve')
    expect(await page.locator('article').textContent()).toBe(story)
    await button('Approve').click()
    await enabled('Write')
    expect(await button('Approve').isDisabled()).toBe(true)
    expect(await page.locator('article').textContent()).toBe(story)

    const requests = agents!.requests.map(({ agent, input }) => ({ agent, state: input.state, resume: input.resume?.map((entry) => entry.payload) }))
    expect(requests).toEqual([
      { agent: 'writer', state: { document: '' }, resume: undefined },
      { agent: 'writer', state: { document: story }, resume: [{ accepted: true }] },
    ])
    expect(errors).toEqual([])
    expect(failed).toEqual([])
    await page.close()
  }, 60_000)
})
