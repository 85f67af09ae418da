// What a user gets before the first release: `npm run pack` (each package's prepack builds its dist/),
// the tarballs installed together into a new app, and each entry point of each exports map imported
// by plain Node. Everything comes from the npm cache: the app's other packages are the versions this
// repository's lock file holds, so `npm ci` installed them into the cache already.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

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

const run = (command: string, args: string[], cwd: string, timeout: number) =>
  promisify(execFile)(command, args, { cwd, timeout, maxBuffer: 16 * 1024 * 1024 }).then(({ stdout }) => stdout)

/** Imports each entry point in a Node process run from `app`: its export names, or the error. */
const importEach = `
const result = {}
for (const specifier of JSON.parse(process.argv[1])) {
  try { result[specifier] = Object.keys(await import(specifier)).sort() } catch (error) { result[specifier] = String(error) }
}
console.log(JSON.stringify(result))
`

describe('the packed packages, installed together into a new app', () => {
  let work = ''
  let app = ''
  const installed = (name: string, file = '') => join(app, 'node_modules', name, file)
  /** Where `npm run pack` puts a package's tarball. */
  const tarball = ({ name, version }: Pick<Manifest, 'name' | 'version'>) => join(root, 'dist', `${name.slice(1).replace('/', '-')}-${version}.tgz`)

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'agent-state-tarballs-'))
    app = join(work, 'app')
    // Without dist/, a tarball holds a build only if its prepack made one.
    for (const dir of workspaces) rmSync(join(root, dir, 'dist'), { recursive: true, force: true })
    for (const manifest of manifests.values()) rmSync(tarball(manifest), { force: true })
    await run('npm', ['run', 'pack', '--silent'], root, 200_000)

    // The app first has the peers a user's app has (the framework, @ag-ui/client), from a lock file
    // cut from the root one: npm ci reads it offline, with no registry lookup.
    const peers = [...new Set([...manifests.values()].flatMap((manifest) => Object.keys(manifest.peerDependencies ?? {})))].filter((name) => !ours(name))
    const dependencies = Object.fromEntries(peers.map((name) => [name, rootLock[`node_modules/${name}`]?.version]))
    const lock = { name: 'app', lockfileVersion: 3, requires: true, packages: { '': { name: 'app', dependencies }, ...lockEntries(peers) } }
    mkdirSync(app)
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module', dependencies }))
    writeFileSync(join(app, 'package-lock.json'), JSON.stringify(lock))
    await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], app, 60_000)

    // Then the tarballs, in one command as the READMEs say. --offline: a binding's dependency on the core
    // must be met by the core's tarball, never looked up in the registry. --legacy-peer-deps only because
    // npm's peer check fetches full registry documents, which the cache does not hold; `npm ls` checks the peers.
    const tarballs = [...manifests.values()].map(tarball)
    await run('npm', ['install', '--offline', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], app, 60_000)
  }, 300_000)

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true })
  })

  it('every package installs from its tarball, with one copy of the core, and no dependency or peer unmet', async () => {
    const appLock: Record<string, { resolved?: string }> = readJson(join(app, 'package-lock.json')).packages
    const fromTarballs = Object.entries(appLock)
      .filter(([path]) => ours(path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)))
      .map(([path, entry]) => `${path} ${entry.resolved}`)
    expect(fromTarballs.sort()).toEqual(
      ['core', 'devtools', 'react', 'svelte', 'vue'].map(
        (name) => `node_modules/@agent-state/${name} file:${relative(app, tarball({ name: `@agent-state/${name}`, version: '0.1.0' }))}`,
      ),
    )
    await expect(run('npm', ['ls', '--all', '--offline', '--loglevel=error'], app, 30_000)).resolves.toContain('@agent-state/core@0.1.0')
  })

  it("each entry point of each exports map imports in Node and exports the same names as the package's source", async () => {
    const imported = JSON.parse(await run(process.execPath, ['--input-type=module', '-e', importEach, JSON.stringify(entryPoints)], app, 30_000))
    const fromSource = Object.fromEntries(await Promise.all(entryPoints.map(async (specifier) => [specifier, Object.keys(await import(specifier)).sort()])))
    expect([...entryPoints].sort()).toEqual([
      '@agent-state/core',
      '@agent-state/core/internals',
      '@agent-state/core/testing',
      '@agent-state/devtools',
      '@agent-state/devtools/panel',
      '@agent-state/react',
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
