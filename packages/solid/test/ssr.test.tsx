/** @jsxImportSource solid-js */
// Server rendering with a thread (issue 13): the server renders a store, embeds serializeThread(store), the
// client restores from that JSON and hydrates. The first client render must equal the server's.
//
// This project resolves solid-js to its browser build and compiles components for hydration on the client.
// The server half (ssr-server.tsx) is loaded through Vite's SSR module loader, where solid-js resolves to its
// server build and the same components compile for the server: the markup and hydration keys are Solid's own.
import { fileURLToPath } from 'node:url'
import type { BaseEvent } from '@ag-ui/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { type AgentStore, type AgentStoreOptions, createAgentStore, restoreThread, type SerializedThread, serializeThread } from '@agent-state/solid'
import { hydrate, render } from 'solid-js/web'
import { createServer, type ViteDevServer } from 'vite'
import solid from 'vite-plugin-solid'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import recording from '../../../test/fixtures/02-predictive-document-approve.agent-framework.json'
import { countSubscriptions } from '../../../test/support/count-subscriptions'
import { type Doc, Thread } from './ssr-thread'

const firstRun = recording.events as BaseEvent[]
const resumedRun = recording.nextRuns[0]!.events as BaseEvent[]
const options = (agent?: ScriptedAgent): AgentStoreOptions<Doc> => ({
  initialState: { document: '' },
  threadId: recording.input.threadId,
  ...(agent ? { agent } : {}),
})

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url))
type RenderThread = (store: AgentStore<Doc>) => { html: string; hydrationScript: string }
let vite: ViteDevServer
let renderThread: RenderThread

beforeAll(async () => {
  vite = await createServer({
    configFile: false,
    root: src('..'),
    logLevel: 'silent',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    plugins: [solid({ ssr: true, include: /packages\/solid\// })],
    resolve: {
      alias: {
        '@agent-state/core': src('../../core/src/index.ts'),
        '@agent-state/solid': src('../src/index.ts'),
      },
    },
  })
  renderThread = ((await vite.ssrLoadModule(src('./ssr-server.tsx'))) as { renderThread: RenderThread }).renderThread
}, 60_000)
afterAll(() => vite?.close())

/** The thread as a server keeps it between requests: the recording's first run, waiting for approval. */
function savedThread(): SerializedThread {
  const store = createAgentStore(options())
  store.apply(firstRun)
  return JSON.parse(JSON.stringify(serializeThread(store))) as SerializedThread
}

/** console.error / console.warn calls that speak of hydration. */
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

const textOf = (html: string) => {
  const element = document.createElement('div')
  element.innerHTML = html
  return element.textContent ?? ''
}

/** What the page's <head> runs before the app: the hydration script the server rendered. */
function runHydrationScript(script: string) {
  const code = /<script>([\s\S]*)<\/script>/.exec(script)?.[1]
  expect(code).toContain('_$HY')
  new Function(code!)()
}

let dispose: (() => void) | undefined
afterEach(() => {
  dispose?.()
  dispose = undefined
  document.body.innerHTML = ''
  delete (globalThis as { _$HY?: unknown })._$HY
  vi.restoreAllMocks()
})

function serverThenClient(server: AgentStore<Doc>, client: AgentStore<Doc>) {
  const { html, hydrationScript } = renderThread(server)
  const hydration = watchHydration()
  runHydrationScript(hydrationScript)
  const container = document.body.appendChild(document.createElement('div'))
  container.innerHTML = html
  const serverArticle = container.querySelector('article')
  dispose = hydrate(() => <Thread store={client} />, container)
  return { html, container, hydration, serverArticle, clientText: clientRender(client) }
}

/**
 * The text of a plain client render of the same store. Solid's hydration adopts the server's text nodes as they
 * are (a text that differs stays until it next changes), so the hydrated page alone cannot show a mismatch.
 */
function clientRender(client: AgentStore<Doc>): string {
  const element = document.createElement('div')
  const disposeRender = render(() => <Thread store={client} />, element)
  const text = element.textContent ?? ''
  disposeRender()
  return text
}

/** The client's store, restored from what the page embeds in a <script> tag. */
const clientOf = (server: AgentStore<Doc>, agent: ScriptedAgent) =>
  createAgentStore({ ...options(agent), restore: restoreThread(JSON.parse(JSON.stringify(serializeThread(server))) as SerializedThread) })

describe('server rendering a thread (Solid)', () => {
  it('hydrates a restored thread without a mismatch, then follows the client store', async () => {
    const server = createAgentStore({ ...options(), restore: restoreThread(savedThread()) })
    const agent = new ScriptedAgent({ runs: [resumedRun] })
    const client = clientOf(server, agent)
    const { html, container, hydration, serverArticle, clientText } = serverThenClient(server, client)

    // Solid's hydration keys are there: this is a server render, not a client one.
    expect(html).toMatch(/data-hk="[^"]+"/)
    expect(textOf(html)).toContain('interrupted')
    expect(textOf(html)).toContain('Approve call_write_doc_1')
    expect(textOf(html)).toContain(recording.expected.state.document)
    expect(clientText).toBe(textOf(html))
    expect(container.textContent).toBe(textOf(html))
    // Hydration adopted the server's elements instead of rendering new ones.
    expect(container.querySelector('article')).toBe(serverArticle)
    expect(hydration).toEqual([])
    expect(client.getState().confirmations.map((c) => c.id)).toEqual(['call_write_doc_1'])

    await client.approve()
    expect(agent.inputs[0]!.resume).toEqual([{ interruptId: 'call_write_doc_1', status: 'resolved', payload: { accepted: true } }])
    expect(container.querySelector('[data-status]')!.textContent).toBe('idle')
    expect(container.querySelectorAll('button')).toHaveLength(0)
    expect(container.textContent).not.toBe(textOf(html))
    expect(hydration).toEqual([])
  })

  it('hydrates a thread the server built by applying events in the same request', () => {
    const server = createAgentStore(options())
    server.apply(firstRun)
    const { html, container, hydration, serverArticle, clientText } = serverThenClient(server, clientOf(server, new ScriptedAgent({ runs: [resumedRun] })))
    expect(textOf(html)).toContain(recording.expected.state.document)
    expect(clientText).toBe(textOf(html))
    expect(container.textContent).toBe(textOf(html))
    expect(container.querySelector('article')).toBe(serverArticle)
    expect(hydration).toEqual([])
  })

  it('notices when the client starts from another thread (the check can fail)', () => {
    const server = createAgentStore(options())
    server.apply(firstRun)
    const client = createAgentStore(options())
    const { html, container, clientText } = serverThenClient(server, client)
    expect(clientText).not.toBe(textOf(html))
    expect(clientText).toContain('idle')
    // What the hydrated page shows is the server's text until the client's store next changes.
    expect(container.textContent).toBe(textOf(html))
    client.setState({ document: 'Changed on the client' })
    expect(container.querySelector('article')!.textContent).toBe('Changed on the client')
  })

  it("releases the server render's subscription once the render is done", async () => {
    const counted = countSubscriptions(createAgentStore(options()))
    renderThread(counted.store)
    expect(counted.total()).toBe(1)
    // renderToString disposes its root on the next tick.
    await new Promise((resolve) => setTimeout(resolve))
    expect(counted.active()).toBe(0)
  })
})
