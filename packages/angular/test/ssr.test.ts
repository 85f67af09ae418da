// Server rendering with a thread (issue 13): the server renders a store, embeds serializeThread(store), the
// client restores from that JSON and hydrates. The first client render must equal the server's.
//
// The server half is @angular/platform-server's renderApplication (its own DOM, with Angular's hydration
// annotations); the client half bootstraps the same component with provideClientHydration in jsdom.
import '@angular/compiler'
import type { BaseEvent } from '@ag-ui/core'
import {
  type AgentStore,
  type AgentStoreOptions,
  createAgentStore,
  injectAgentStore,
  restoreThread,
  type SerializedThread,
  serializeThread,
} from '@agent-state/angular'
import { ScriptedAgent } from '@agent-state/core/testing'
import { type ApplicationRef, ChangeDetectionStrategy, Component, InjectionToken, inject, provideZonelessChangeDetection } from '@angular/core'
import { type BootstrapContext, bootstrapApplication, provideClientHydration } from '@angular/platform-browser'
import { provideServerRendering, renderApplication } from '@angular/platform-server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import recording from '../../../test/fixtures/02-predictive-document-approve.agent-framework.json'

interface Doc {
  document: string
}

const firstRun = recording.events as BaseEvent[]
const resumedRun = recording.nextRuns[0]!.events as BaseEvent[]
const options = (agent?: ScriptedAgent): AgentStoreOptions<Doc> => ({
  initialState: { document: '' },
  threadId: recording.input.threadId,
  ...(agent ? { agent } : {}),
})

/** The store of this request (server) or of this page (client). */
const THREAD = new InjectionToken<AgentStore<Doc>>('thread')

@Component({
  selector: 'agent-thread',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `<main>
    <p data-status>{{ snapshot().status }}</p>
    <article>{{ snapshot().state.document }}</article>
    <ul>@for (message of snapshot().messages; track message.id) {<li>{{ message.role }}: {{ textOf(message.content) }}</li>}</ul>
    @for (confirmation of snapshot().confirmations; track confirmation.id) {<button type="button">Approve {{ confirmation.id }}</button>}
  </main>`,
})
class Thread {
  readonly snapshot = injectAgentStore(inject(THREAD))
  textOf(content: unknown) {
    return typeof content === 'string' ? content : ''
  }
}

/** The thread as a server keeps it between requests: the recording's first run, waiting for approval. */
function savedThread(): SerializedThread {
  const store = createAgentStore(options())
  store.apply(firstRun)
  return JSON.parse(JSON.stringify(serializeThread(store))) as SerializedThread
}

const page = '<!doctype html><html><head><title>Thread</title></head><body><agent-thread></agent-thread></body></html>'

/** What a server answers a request with: the page with the thread rendered, Angular's hydration annotations included. */
function serverRender(store: AgentStore<Doc>): Promise<string> {
  // Called inside the render, where the server flag that provideServerRendering sets is the render's own (reset after it).
  const bootstrap = (context: BootstrapContext) => {
    const providers = [provideServerRendering(), provideZonelessChangeDetection(), provideClientHydration(), { provide: THREAD, useValue: store }]
    return bootstrapApplication(Thread, { providers }, context)
  }
  return renderApplication(bootstrap, { document: page, url: '/' })
}

/** console.error / console.warn calls that speak of hydration (Angular's NG05xx errors and warnings). */
function watchHydration() {
  const calls: string[] = []
  const keep = (...args: unknown[]) => {
    const text = args.map(String).join(' ')
    if (/hydrat|mismatch|NG05/i.test(text)) calls.push(text)
  }
  vi.spyOn(console, 'error').mockImplementation(keep)
  vi.spyOn(console, 'warn').mockImplementation(keep)
  return calls
}

const textOf = (html: string) => new DOMParser().parseFromString(html, 'text/html').querySelector('agent-thread')?.textContent ?? ''

let app: ApplicationRef | undefined
afterEach(() => {
  app?.destroy()
  app = undefined
  document.body.innerHTML = ''
  vi.restoreAllMocks()
})

/** Loads the server's page into jsdom (the body, with the transfer state Angular hydrates from) and hydrates it with `client`. */
async function hydrate(html: string, client: AgentStore<Doc>) {
  vi.spyOn(console, 'log').mockImplementation(() => {}) // "Angular is running in development mode."
  document.body.innerHTML = new DOMParser().parseFromString(html, 'text/html').body.innerHTML
  const host = document.querySelector('agent-thread')!
  // Hydration keeps the server's nodes; a client render would replace them.
  const serverNodes = [...host.querySelectorAll('*')]
  const providers = [provideZonelessChangeDetection(), provideClientHydration(), { provide: THREAD, useValue: client }]
  app = await bootstrapApplication(Thread, { providers })
  await app.whenStable()
  const kept = serverNodes.filter((node) => host.contains(node)).length
  return { host, kept: kept / serverNodes.length }
}

async function serverThenClient(server: AgentStore<Doc>, agent: ScriptedAgent) {
  const html = await serverRender(server)
  // What the page embeds in a <script> tag, and what the client reads back.
  const embedded = JSON.stringify(serializeThread(server))
  const hydration = watchHydration()
  const client = createAgentStore({ ...options(agent), restore: restoreThread(JSON.parse(embedded) as SerializedThread) })
  const { host, kept } = await hydrate(html, client)
  return { html, client, host, kept, hydration }
}

describe('server rendering a thread (Angular)', () => {
  it('hydrates a restored thread without a mismatch, then follows the client store', async () => {
    const server = createAgentStore({ ...options(), restore: restoreThread(savedThread()) })
    const agent = new ScriptedAgent({ runs: [resumedRun] })
    const { html, client, host, kept, hydration } = await serverThenClient(server, agent)

    // Angular's hydration annotations are there: this is a server render, not a client one.
    expect(html).toContain('ngh=')
    expect(textOf(html)).toContain('interrupted')
    expect(textOf(html)).toContain('Approve call_write_doc_1')
    expect(textOf(html)).toContain(recording.expected.state.document)
    expect(host.textContent).toBe(textOf(html))
    expect(html).toContain('<script id="ng-state" type="application/json">')
    expect(kept).toBe(1)
    expect(hydration).toEqual([])

    await client.approve()
    await app!.whenStable()
    expect(agent.inputs[0]!.resume).toEqual([{ interruptId: 'call_write_doc_1', status: 'resolved', payload: { accepted: true } }])
    expect(host.querySelector('[data-status]')!.textContent).toBe('idle')
    expect(host.querySelectorAll('button')).toHaveLength(0)
    expect(host.textContent).not.toBe(textOf(html))
    expect(hydration).toEqual([])
  })

  it('hydrates a thread the server built by applying events in the same request', async () => {
    const server = createAgentStore(options())
    server.apply(firstRun)
    const { html, host, kept, hydration } = await serverThenClient(server, new ScriptedAgent({ runs: [resumedRun] }))
    expect(textOf(html)).toContain(recording.expected.state.document)
    expect(host.textContent).toBe(textOf(html))
    expect(kept).toBe(1)
    expect(hydration).toEqual([])
  })

  it('notices when the client starts from another thread (the checks can fail)', async () => {
    const server = createAgentStore(options())
    server.apply(firstRun)
    const html = await serverRender(server)
    const hydration = watchHydration()
    const { host } = await hydrate(html, createAgentStore(options()))
    expect(host.textContent).not.toBe(textOf(html))
    expect(host.querySelector('[data-status]')!.textContent).toBe('idle')
    expect(hydration).toEqual([])
  })
})
