// What the READMEs tell a new user to set up around their quick start, done for the tests: the example
// server (examples/server) and a dev-server proxy that sends the app's `/api/agent` to its writer agent.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { type AgentStore, createAgentStore } from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { expect, vi } from 'vitest'
import { storyFor } from '../examples/server/content'
import { type AgentServer, startAgentServer } from '../examples/server/server'

export interface ReadmeServer {
  server: AgentServer
  close(): Promise<void>
}

/**
 * Starts the example server on a free port and routes `fetch('/api/agent')` (relative, as in a browser
 * app) and `fetch('http://127.0.0.1:8000/…')` (its documented standalone address) to it, the way
 * the proxy in the README's vite.config.ts does. Every other URL is refused, so nothing leaves the machine.
 */
export async function startReadmeServer(): Promise<ReadmeServer> {
  const server = await startAgentServer({ delayMs: 1 })
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input)
    if (url === '/api/agent') return realFetch(`${server.url}/agents/writer`, init)
    if (url.startsWith('http://127.0.0.1:8000/')) return realFetch(server.url + url.slice('http://127.0.0.1:8000'.length), init)
    return Promise.reject(new TypeError(`The README tests only reach the example server, not ${url}`))
  })
  return {
    server,
    async close() {
      vi.unstubAllGlobals()
      await server.close()
    },
  }
}

/** Waits, bounded in time, until `ready()` holds; fails with `what` otherwise. */
async function until(what: string, ready: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/**
 * Uses a mounted quick start (an article and the buttons Write, Approve and Reject) the way a new user
 * would against the example server's writer: write, reject, write again, approve. Returns what it saw.
 */
export async function useQuickStart(container: Element, server: AgentServer) {
  const button = (name: string) => {
    const found = [...container.querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === name)
    if (!found) throw new Error(`No button "${name}" in ${container.innerHTML}`)
    return found
  }
  const enabled = () => ['Write', 'Approve', 'Reject'].filter((name) => !button(name).disabled)
  const text = () => container.querySelector('article')?.textContent ?? ''
  const seen: { enabled: string[]; text: string }[] = []
  const note = () => seen.push({ enabled: enabled(), text: text() })

  note()
  button('Write').click()
  await until('the run has started', () => enabled().length === 0)
  note()
  button('Write').click() // disabled: a second click during the run sends nothing and throws nothing
  await until('the draft waits for an answer', () => enabled().join() === 'Approve,Reject')
  note()
  button('Reject').click()
  await until('the rejection has been answered', () => enabled().join() === 'Write' && server.requests.length === 2)
  note()
  button('Write').click()
  await until('the second draft waits for an answer', () => enabled().join() === 'Approve,Reject')
  button('Approve').click()
  await until('the approval has been answered', () => enabled().join() === 'Write' && server.requests.length === 4)
  note()
  return { seen, requests: server.requests.map((request) => request.input) }
}

/**
 * What `useQuickStart` must see: the story as a draft, gone on Reject, the next version (asked again
 * after a Reject, the writer tells another story) kept on Approve, and the answers on the wire.
 */
export function expectQuickStartWorked({ seen, requests }: Awaited<ReturnType<typeof useQuickStart>>) {
  const story = storyFor('Write a story')
  const next = storyFor('Write a story', 1)
  expect(story.length).toBeGreaterThan(100)
  expect(next).not.toBe(story)
  expect(seen).toEqual([
    { enabled: ['Write'], text: '' },
    { enabled: [], text: expect.any(String) },
    { enabled: ['Approve', 'Reject'], text: story },
    { enabled: ['Write'], text: '' },
    { enabled: ['Write'], text: next },
  ])
  expect(requests).toHaveLength(4)
  expect(requests.map((input) => input.state)).toEqual([{ document: '' }, { document: '' }, { document: '' }, { document: next }])
  expect(requests[0]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'Write a story' })
  expect(requests.map((input) => input.resume?.map((entry) => [entry.status, entry.payload]))).toEqual([
    undefined,
    [['resolved', { accepted: false }]],
    undefined,
    [['resolved', { accepted: true }]],
  ])
}

/** The longest line a quick start may have: one a reader takes in at once. */
const QUICK_START_WIDTH = 100
/** Long enough for honest formatting, short enough to stay a quick start. */
const QUICK_START_LINES = 30
// A path, not `new URL('..', import.meta.url)`: Vite rewrites that into a dev-server address.
const root = resolve(fileURLToPath(import.meta.url), '../..')

/** `source` as Biome formats it at `path` (so the repository's settings for that path apply). */
function formattedByBiome(path: string, source: string): string {
  return execFileSync(resolve(root, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${path}`], { cwd: root, input: source, encoding: 'utf8' })
}

export interface QuickStartMirror {
  /** The test file calling, `import.meta.url`: `mirror` and `readme` are relative to it. */
  testFile: string
  /** The file that gets compiled and run, which the block must equal. */
  mirror: string
  /** The block's language, after its opening fence. */
  lang: string
  readme?: string
  /** The heading the block follows. */
  section?: string
  /** A first line the mirror has and the block leaves out (Solid's JSX pragma). */
  pragma?: string
}

/**
 * Checks that the `lang` code block under a README's `section` heading (Quick start by default) is exactly `mirror`,
 * a file that gets compiled; that the mirror is as Biome formats it (TypeScript; Biome leaves .vue and .svelte
 * alone here) with no line over 100 characters; and that the block is at most 30 lines.
 */
export function expectQuickStartMirrored({ testFile, mirror, lang, readme = '../README.md', section = '## Quick start', pragma = '' }: QuickStartMirror) {
  const read = (path: string) => readFileSync(new URL(path, testFile), 'utf8')
  const text = read(readme)
  const fence = `\`\`\`${lang}\n`
  expect(text).toContain(section)
  const start = text.indexOf(fence, text.indexOf(section))
  expect(start).toBeGreaterThan(0)
  const code = text.slice(start + fence.length, text.indexOf('```', start + fence.length))
  const source = read(mirror)
  expect(source.startsWith(pragma)).toBe(true)
  expect(code).toBe(source.slice(pragma.length))
  if (lang === 'ts' || lang === 'tsx') expect(formattedByBiome(fileURLToPath(new URL(mirror, testFile)), source)).toBe(source)
  const lines = code.trimEnd().split('\n')
  expect(lines.filter((line) => line.length > QUICK_START_WIDTH)).toEqual([])
  expect(lines.length).toBeLessThanOrEqual(QUICK_START_LINES)
}

/** A store whose first question was edited once: two versions of it, the edited one shown. */
export async function storeWithTwoVersions(): Promise<{ store: AgentStore<{ document: string }>; messageId: string }> {
  const answer = ({ threadId, runId }: RunAgentInput) =>
    [
      { type: 'RUN_STARTED', threadId, runId },
      { type: 'TEXT_MESSAGE_START', messageId: `a-${runId}`, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: `a-${runId}`, delta: 'ok' },
      { type: 'TEXT_MESSAGE_END', messageId: `a-${runId}` },
      { type: 'RUN_FINISHED', threadId, runId },
    ] as BaseEvent[]
  const store = createAgentStore({ agent: new ScriptedAgent({ runs: [answer] }), initialState: { document: '' } })
  await store.run({ message: 'first' })
  await store.edit({ messageId: store.getState().messages[0]!.id, content: 'second' })
  return { store, messageId: store.getState().messages[0]!.id }
}

/** The Branches snippet as rendered for the edited question: ‹ 2 / 2 ›, and ‹ shows the first version. */
export async function expectSwitcherWorked(container: Element, { store, messageId }: { store: AgentStore<{ document: string }>; messageId: string }) {
  const label = () => container.textContent!.replace(/\s+/g, ' ').trim()
  await vi.waitFor(() => expect(label()).toBe('‹ 2 / 2 ›'))
  const [back, forward] = [...container.querySelectorAll('button')]
  expect([back!.disabled, forward!.disabled]).toStrictEqual([false, true])
  back!.click()
  await vi.waitFor(() => expect(store.getState().messages.map((message) => message.content)).toStrictEqual(['first', 'ok']))
  expect(store.getState().branches[store.getState().messages[0]!.id]).toStrictEqual({ index: 0, count: 2 })
  // The edited question is off the branch shown now: its switcher has nothing to show.
  expect(store.getState().branches[messageId]).toBeUndefined()
  await vi.waitFor(() => expect(label()).toBe(''))
}
