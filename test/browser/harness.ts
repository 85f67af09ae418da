// Builds the example apps, serves them with the scripted agents, and drives Debian's Chromium.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { RunAgentInput } from '@ag-ui/core'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { type AgentServer, startAgentServer } from '../../examples/server/server'

const root = fileURLToPath(new URL('../..', import.meta.url))
export const screenshotsDir = join(root, 'test-results', 'screenshots')

/**
 * A production build of the examples, in a child process: under vitest NODE_ENV is "test", and a
 * build in this process would bundle the development builds of React and Vue. `devtools`: each app
 * mounts the devtools panel, as it does under `npm start`.
 */
export async function buildExamples(directory = 'examples-build', { devtools = false } = {}): Promise<string> {
  const outDir = join(root, 'test-results', directory)
  await promisify(execFile)(
    process.execPath,
    [
      join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      join(root, 'examples/vite.config.ts'),
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'error',
    ],
    { cwd: root, env: { ...process.env, NODE_ENV: 'production', VITE_DEVTOOLS: String(devtools) }, timeout: 120_000 },
  )
  return outDir
}

const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export interface Browser {
  /** A new tab that fails the test on any page error or console error. */
  newPage(): Promise<{ page: Page; errors: string[] }>
  close(): Promise<void>
}

/** Chromium with a fresh profile in a temporary directory, removed on close. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: apt-get install -y chromium (or set CHROMIUM_PATH)`)
  const profile = await mkdtemp(join(tmpdir(), 'agent-state-chromium-'))
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: chromiumFlags,
    viewport: { width: 1280, height: 820 },
    timeout: 30_000,
  })
  await mkdir(screenshotsDir, { recursive: true })
  return {
    async newPage() {
      const page = await context.newPage()
      page.setDefaultTimeout(10_000)
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      return { page, errors }
    },
    async close() {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}

/**
 * Records, in the page, every distinct value `read()` returns as the DOM changes: a MutationObserver
 * sees each render, where polling from the test would miss the short-lived ones.
 */
export async function recordInPage(page: Page, name: string, read: () => unknown): Promise<void> {
  await page.evaluate(
    ({ name, source }) => {
      const reader = new Function(`return (${source})()`) as () => unknown
      const seen: unknown[] = []
      ;(window as unknown as Record<string, unknown[]>)[name] = seen
      const sample = () => {
        const value = reader()
        if (JSON.stringify(value) !== JSON.stringify(seen[seen.length - 1])) seen.push(value)
      }
      sample()
      new MutationObserver(sample).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
    },
    { name, source: read.toString() },
  )
}

export function recorded<T>(page: Page, name: string): Promise<T[]> {
  return page.evaluate((key) => (window as unknown as Record<string, T[]>)[key]!, name)
}

/** Waits until the run in the page has ended: the status is no longer LIVE. */
export async function waitForStatus(page: Page, label: string): Promise<void> {
  await page.waitForFunction((text) => document.querySelector('[data-testid=status]')?.textContent?.trim().startsWith(text), label)
}

/** A test file's examples: built into `directory`, served with the scripted agents, and a Chromium of its own. */
export interface ServedExamples {
  readonly server: AgentServer
  readonly browser: Browser
  /** What each request to `agent` sent, in order. */
  requestsTo(agent: string): RunAgentInput[]
}

/** Serves the examples for the test file that calls it (its beforeAll) and stops the server and Chromium after it. */
export function serveExamples(directory: string, { delayMs, devtools = false }: { delayMs: number; devtools?: boolean }): ServedExamples {
  let server: AgentServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    const building = buildExamples(directory, { devtools })
    building.catch(() => undefined) // awaited below; not an unhandled rejection if the launch fails first
    // Assigned before the build is awaited, so afterAll closes Chromium even when the build fails.
    browser = await launchBrowser()
    server = await startAgentServer({ delayMs, staticDir: await building })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })
  return {
    get server() {
      return server!
    },
    get browser() {
      return browser!
    },
    requestsTo: (agent) => server!.requests.filter((request) => request.agent === agent).map((request) => request.input),
  }
}
