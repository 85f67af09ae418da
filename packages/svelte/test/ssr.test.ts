// Server rendering with a thread (issue 13): the server renders a store, embeds serializeThread(store), the
// client restores from that JSON and hydrates. The first client render must equal the server's.
//
// This project resolves `svelte` with the browser condition and compiles components for the client,
// so the server half compiles the same SsrThread.svelte with `generate: 'server'` itself and renders it
// with `svelte/server` (which has no browser build): the markup and hydration markers are Svelte's own.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BaseEvent } from '@ag-ui/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { type AgentStore, type AgentStoreOptions, createAgentStore, restoreThread, type SerializedThread, serializeThread } from '@agent-state/svelte'
import { type Component, flushSync, hydrate, unmount } from 'svelte'
import { compile } from 'svelte/compiler'
import { render } from 'svelte/server'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import recording from '../../../test/fixtures/02-predictive-document-approve.agent-framework.json'
import SsrThread from './SsrThread.svelte'

interface Doc {
  document: string
}
type ThreadProps = { store: AgentStore<Doc> }

const firstRun = recording.events as BaseEvent[]
const resumedRun = recording.nextRuns[0]!.events as BaseEvent[]
const options = (agent?: ScriptedAgent): AgentStoreOptions<Doc> => ({
  initialState: { document: '' },
  threadId: recording.input.threadId,
  ...(agent ? { agent } : {}),
})

let ServerThread: Component<ThreadProps>

beforeAll(async () => {
  const source = join(import.meta.dirname, 'SsrThread.svelte')
  const { js } = compile(await readFile(source, 'utf8'), { generate: 'server', filename: 'SsrThread.svelte' })
  // Written outside the source tree (test-results is ignored) and imported through Vite, so its
  // `@agent-state/svelte` import resolves to the same source as the client's.
  const directory = join(import.meta.dirname, '../../../test-results/svelte-ssr')
  await mkdir(directory, { recursive: true })
  const file = join(directory, 'SsrThread.server.js')
  await writeFile(file, js.code)
  ServerThread = ((await import(/* @vite-ignore */ file)) as { default: Component<ThreadProps> }).default
})

/** The thread as a server keeps it between requests: the recording's first run, waiting for approval. */
function savedThread(): SerializedThread {
  const store = createAgentStore(options())
  store.apply(firstRun)
  return JSON.parse(JSON.stringify(serializeThread(store))) as SerializedThread
}

/** console.error / console.warn calls that speak of hydration (Svelte warns `hydration_mismatch`). */
function watchHydration() {
  const calls: string[] = []
  const keep = (...args: unknown[]) => {
    const text = args.map(String).join(' ')
    if (/hydrat|mismatch/i.test(text)) calls.push(text)
  }
  vi.spyOn(console, 'error').mockImplementation(keep)
  vi.spyOn(console, 'warn').mockImplementation(keep)
  return calls
}

/** Runs as on a server: no `window` (jsdom's stays for the client half). */
function onServer<T>(run: () => T): T {
  vi.stubGlobal('window', undefined)
  try {
    return run()
  } finally {
    vi.unstubAllGlobals()
  }
}

const textOf = (html: string) => {
  const element = document.createElement('div')
  element.innerHTML = html
  return element.textContent ?? ''
}

let mounted: Record<string, unknown> | undefined
afterEach(() => {
  if (mounted) unmount(mounted)
  mounted = undefined
  document.body.innerHTML = ''
  vi.restoreAllMocks()
})

const serverRender = (store: AgentStore<Doc>) => onServer(() => render(ServerThread, { props: { store } }).body)

function serverThenClient(server: AgentStore<Doc>, agent: ScriptedAgent) {
  const html = serverRender(server)
  // What the page embeds in a <script> tag, and what the client reads back.
  const embedded = JSON.stringify(serializeThread(server))
  const hydration = watchHydration()
  const client = createAgentStore({ ...options(agent), restore: restoreThread(JSON.parse(embedded) as SerializedThread) })
  const container = document.body.appendChild(document.createElement('div'))
  container.innerHTML = html
  mounted = hydrate(SsrThread, { target: container, props: { store: client } })
  flushSync()
  return { html, client, container, hydration }
}

describe('server rendering a thread (Svelte)', () => {
  it('hydrates a restored thread without a mismatch, then follows the client store', async () => {
    const server = createAgentStore({ ...options(), restore: restoreThread(savedThread()) })
    const agent = new ScriptedAgent({ runs: [resumedRun] })
    const { html, client, container, hydration } = serverThenClient(server, agent)

    // Svelte's hydration markers are there: this is a server render, not a client one.
    expect(html).toContain('<!--[-->')
    expect(textOf(html)).toContain('interrupted')
    expect(textOf(html)).toContain('Approve call_write_doc_1')
    expect(textOf(html)).toContain(recording.expected.state.document)
    expect(container.textContent).toBe(textOf(html))
    expect(hydration).toEqual([])
    expect(client.getState().confirmations.map((c) => c.id)).toEqual(['call_write_doc_1'])

    await client.approve()
    flushSync()
    expect(agent.inputs[0]!.resume).toEqual([{ interruptId: 'call_write_doc_1', status: 'resolved', payload: { accepted: true } }])
    expect(container.querySelector('[data-status]')!.textContent).toBe('idle')
    expect(container.querySelectorAll('button')).toHaveLength(0)
    expect(container.textContent).not.toBe(textOf(html))
    expect(hydration).toEqual([])
  })

  it('hydrates a thread the server built by applying events in the same request', () => {
    const server = createAgentStore(options())
    server.apply(firstRun)
    const { html, container, hydration } = serverThenClient(server, new ScriptedAgent({ runs: [resumedRun] }))
    expect(textOf(html)).toContain(recording.expected.state.document)
    expect(container.textContent).toBe(textOf(html))
    expect(hydration).toEqual([])
  })

  it('notices when the client starts from another thread (the checks can fail)', () => {
    const server = createAgentStore(options())
    server.apply(firstRun)
    const html = serverRender(server)
    const hydration = watchHydration()
    const container = document.body.appendChild(document.createElement('div'))
    container.innerHTML = html
    mounted = hydrate(SsrThread, { target: container, props: { store: createAgentStore(options()) } })
    flushSync()
    // Svelte 5 repairs text and list differences without a warning: the text comparison is the check.
    expect(hydration).toEqual([])
    expect(container.textContent).not.toBe(textOf(html))
    expect(container.querySelector('[data-status]')!.textContent).toBe('idle')
  })

  it('gives two requests two stores that share nothing', () => {
    const thread = savedThread()
    const first = createAgentStore({ ...options(), restore: restoreThread(thread) })
    const second = createAgentStore({ ...options(), restore: restoreThread(thread) })
    const before = second.getState()
    expect(first.getState()).not.toBe(before)
    expect(first.getState().messages).not.toBe(before.messages)
    expect(first.getState().confirmations).not.toBe(before.confirmations)
    expect(first.getState().state).not.toBe(before.state)
    expect(first.getState().messages[0]).not.toBe(before.messages[0])
    expect(first.getState().confirmations[0]).not.toBe(before.confirmations[0])
    expect(first.getState()).toEqual(before)
    // Nothing is aliased to the saved value either: a request that changes it afterwards changes no store.
    const savedJson = JSON.stringify(thread)
    ;(thread as { model: unknown }).model = null
    expect(second.getState()).toEqual(first.getState())
    expect(JSON.stringify(serializeThread(second).model)).toBe(JSON.stringify((JSON.parse(savedJson) as SerializedThread).model))
    // Even a snapshot mutated in place (which apps must not do) reaches no other request's store.
    ;(first.getState().state as { document: string }).document = 'Mutated in the first request'
    expect(second.getState().state.document).toBe(recording.expected.state.document)

    first.apply({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/document', value: 'Only the first request' }] } as BaseEvent)
    first.setState({ document: 'Edited in the first request' })
    expect(first.getState().state.document).toBe('Edited in the first request')
    expect(second.getState()).toBe(before)
    expect(second.getState().state.document).toBe(recording.expected.state.document)
    expect(serverRender(second)).not.toContain('first request')
    expect(JSON.stringify(createAgentStore({ ...options(), restore: restoreThread(JSON.parse(savedJson) as SerializedThread) }).getState())).toBe(
      JSON.stringify(before),
    )
  })
})
