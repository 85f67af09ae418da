// Server rendering with a thread (issue 13): the server renders a store, embeds serializeThread(store), the
// client restores from that JSON and hydrates. The first client render must equal the server's.
import type { BaseEvent } from '@ag-ui/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import {
  type AgentStore,
  type AgentStoreOptions,
  createAgentStore,
  restoreThread,
  type SerializedThread,
  serializeThread,
  useAgentStore,
} from '@agent-state/vue'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type App, createSSRApp, defineComponent, h, nextTick } from 'vue'
import { renderToString } from 'vue/server-renderer'
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

/** The thread as a server keeps it between requests: the recording's first run, waiting for approval. */
function savedThread(): SerializedThread {
  const store = createAgentStore(options())
  store.apply(firstRun)
  return JSON.parse(JSON.stringify(serializeThread(store))) as SerializedThread
}

const Thread = defineComponent(
  (props: { store: AgentStore<Doc> }) => {
    const snapshot = useAgentStore(props.store)
    return () =>
      h('main', [
        h('p', { 'data-status': '' }, snapshot.value.status),
        h('article', snapshot.value.state.document),
        h(
          'ul',
          snapshot.value.messages.map((message) =>
            h('li', { key: message.id }, `${message.role}: ${typeof message.content === 'string' ? message.content : ''}`),
          ),
        ),
        ...snapshot.value.confirmations.map((confirmation) => h('button', { key: confirmation.id, type: 'button' }, `Approve ${confirmation.id}`)),
      ])
  },
  { props: ['store'] },
)

/** console.error / console.warn calls that speak of hydration (Vue warns per mismatch, then errors once). */
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
async function onServer<T>(render: () => Promise<T>): Promise<T> {
  vi.stubGlobal('window', undefined)
  try {
    return await render()
  } finally {
    vi.unstubAllGlobals()
  }
}

const textOf = (html: string) => {
  const element = document.createElement('div')
  element.innerHTML = html
  return element.textContent ?? ''
}

let app: App | undefined
afterEach(() => {
  app?.unmount()
  app = undefined
  document.body.innerHTML = ''
  vi.restoreAllMocks()
})

async function serverThenClient(server: AgentStore<Doc>, agent: ScriptedAgent) {
  const html = await onServer(() => renderToString(createSSRApp(Thread, { store: server })))
  // What the page embeds in a <script> tag, and what the client reads back.
  const embedded = JSON.stringify(serializeThread(server))
  const hydration = watchHydration()
  const client = createAgentStore({ ...options(agent), restore: restoreThread(JSON.parse(embedded) as SerializedThread) })
  const container = document.body.appendChild(document.createElement('div'))
  container.innerHTML = html
  app = createSSRApp(Thread, { store: client })
  app.mount(container)
  return { html, client, container, hydration }
}

describe('server rendering a thread (Vue)', () => {
  it('hydrates a restored thread without a mismatch, then follows the client store', async () => {
    const server = createAgentStore({ ...options(), restore: restoreThread(savedThread()) })
    const agent = new ScriptedAgent({ runs: [resumedRun] })
    const { html, client, container, hydration } = await serverThenClient(server, agent)

    expect(textOf(html)).toContain('interrupted')
    expect(textOf(html)).toContain('Approve call_write_doc_1')
    expect(textOf(html)).toContain(recording.expected.state.document)
    expect(container.textContent).toBe(textOf(html))
    expect(hydration).toEqual([])
    expect(client.getState().confirmations.map((c) => c.id)).toEqual(['call_write_doc_1'])

    await client.approve()
    await nextTick()
    expect(agent.inputs[0]!.resume).toEqual([{ interruptId: 'call_write_doc_1', status: 'resolved', payload: { accepted: true } }])
    expect(container.querySelector('[data-status]')!.textContent).toBe('idle')
    expect(container.querySelectorAll('button')).toHaveLength(0)
    expect(container.textContent).not.toBe(textOf(html))
    expect(hydration).toEqual([])
  })

  it('hydrates a thread the server built by applying events in the same request', async () => {
    const server = createAgentStore(options())
    server.apply(firstRun)
    const { html, container, hydration } = await serverThenClient(server, new ScriptedAgent({ runs: [resumedRun] }))
    expect(textOf(html)).toContain(recording.expected.state.document)
    expect(container.textContent).toBe(textOf(html))
    expect(hydration).toEqual([])
  })

  it('reports a mismatch when the client starts from another thread (the check can fail)', async () => {
    const server = createAgentStore(options())
    server.apply(firstRun)
    const html = await onServer(() => renderToString(createSSRApp(Thread, { store: server })))
    const hydration = watchHydration()
    const container = document.body.appendChild(document.createElement('div'))
    container.innerHTML = html
    app = createSSRApp(Thread, { store: createAgentStore(options()) })
    app.mount(container)
    expect(hydration.length).toBeGreaterThan(0)
  })

  it('gives two requests two stores that share nothing', async () => {
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
    expect(await renderToString(createSSRApp(Thread, { store: second }))).not.toContain('first request')
    expect(JSON.stringify(createAgentStore({ ...options(), restore: restoreThread(JSON.parse(savedJson) as SerializedThread) }).getState())).toBe(
      JSON.stringify(before),
    )
  })
})
