// Renders of a component that selects a key no event touches (state.title) while an agent streams
// 1,000 STATE_DELTA events to other keys, in React, Vue, Svelte, Angular and Solid through the bindings, and in React
// through @ag-ui/client with a plain subscription, for comparison.
//
// Plain node with a jsdom window; the frameworks load only after the window exists. Every event arrives
// in its own macrotask, as SSE chunks do, and each framework renders between events on its own schedule.
// Run alone with `node --import tsx bench/bindings-renders.ts`.

import { register } from 'node:module'
import { pathToFileURL } from 'node:url'
import { AbstractAgent } from '@ag-ui/client'
import { type BaseEvent, EventType, type RunAgentInput } from '@ag-ui/core'
import { JSDOM } from 'jsdom'
import { Observable } from 'rxjs'
import type { Row } from './harness'

const DELTAS = 1000

interface BenchState {
  title: string
  items: number[]
  document: string
}

function streamedEvents(input: RunAgentInput): BaseEvent[] {
  const deltas = Array.from(
    { length: DELTAS },
    (_, i): BaseEvent => ({
      type: EventType.STATE_DELTA,
      delta: i % 2 === 0 ? [{ op: 'add', path: '/items/-', value: i }] : [{ op: 'replace', path: '/document', value: `Draft ${i}` }],
    }),
  )
  return [
    { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId },
    { type: EventType.STATE_SNAPSHOT, snapshot: { title: 'Title', items: [], document: '' } satisfies BenchState },
    ...deltas,
    { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId },
  ]
}

/** Streams the events one per macrotask, so the UI can render between them. */
class StreamingAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    const events = streamedEvents(input)
    return new Observable<BaseEvent>((subscriber) => {
      let index = 0
      let timer: ReturnType<typeof setTimeout>
      const next = () => {
        if (index === events.length) return subscriber.complete()
        subscriber.next(events[index++]!)
        timer = setTimeout(next, 0)
      }
      timer = setTimeout(next, 0)
      return () => clearTimeout(timer)
    })
  }
}

/** Waits until the frameworks have rendered what the last event changed (React's scheduler runs on setImmediate). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 5))

/** A global window for React, Vue and Svelte; returns the function that removes it again. */
function installWindow(): () => void {
  const { window } = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/' })
  const added: string[] = []
  for (const key of Object.getOwnPropertyNames(window)) {
    if (key in globalThis) continue
    Object.defineProperty(globalThis, key, { configurable: true, writable: true, value: (window as unknown as Record<string, unknown>)[key] })
    added.push(key)
  }
  Object.defineProperty(globalThis, 'window', { configurable: true, writable: true, value: window })
  return () => {
    for (const key of [...added, 'window']) delete (globalThis as Record<string, unknown>)[key]
    window.close()
  }
}

// Plain node knows neither the "source" condition (the workspace packages run from src/) nor that Svelte
// and Solid should load their browser builds here (Solid's server build runs no effects): both are added for those packages only.
const conditionsHook = `
export async function resolve(specifier, context, next) {
  const extra = specifier.startsWith('@agent-state/') ? ['source'] : /^(svelte|solid-js)($|\\/)/.test(specifier) ? ['browser'] : []
  return next(specifier, extra.length ? { ...context, conditions: [...extra, ...context.conditions] } : context)
}`

type Counter = { title: number; document: number }
type Mounted = { counts: Counter; unmount: () => void }
type Mount = (store: import('@agent-state/core').AgentStore<BenchState>, container: HTMLElement) => Promise<Mounted>

async function loadBindings(): Promise<Record<'React' | 'Vue' | 'Svelte' | 'Angular' | 'Solid', Mount>> {
  const React = await import('react')
  const { createRoot } = await import('react-dom/client')
  const { useAgentStore: useReact } = await import('@agent-state/react')
  const Vue = await import('vue')
  const { useAgentStore: useVue } = await import('@agent-state/vue')
  const { mount, unmount, flushSync } = await import('svelte')
  const { compile } = await import('svelte/compiler')
  const { useAgentStore: useSvelte } = await import('@agent-state/svelte')
  await import('@angular/compiler')
  const { ChangeDetectionStrategy, Component, provideZonelessChangeDetection } = await import('@angular/core')
  const { createApplication } = await import('@angular/platform-browser')
  const { injectAgentStore } = await import('@agent-state/angular')
  const { createEffect } = await import('solid-js')
  const { render } = await import('solid-js/web')
  const { useAgentStore: useSolid } = await import('@agent-state/solid')

  // The Svelte component is compiled here: plain node cannot import a .svelte file.
  const source = `<script>let { value, onRender } = $props()</script><output>{onRender($value)}</output>`
  const compiled = compile(source, { generate: 'client', runes: true, name: 'Probe' }).js.code
  const linked = compiled.replaceAll(/from '(svelte[^']*)'|import '(svelte[^']*)'/g, (match, from?: string, bare?: string) =>
    match.replace((from ?? bare)!, import.meta.resolve((from ?? bare)!)),
  )
  const SvelteProbe = (await import(`data:text/javascript,${encodeURIComponent(linked)}`)).default

  return {
    async React(store, container) {
      const counts = { title: 0, document: 0 }
      function Probe({ select, onRender }: { select: (s: ReturnType<typeof store.getState>) => string; onRender: () => void }) {
        const value = useReact(store, select)
        onRender()
        return React.createElement('output', null, value)
      }
      const root = createRoot(container)
      root.render(
        React.createElement(React.Fragment, null, [
          React.createElement(Probe, { key: 't', select: (s) => s.state.title, onRender: () => counts.title++ }),
          React.createElement(Probe, { key: 'd', select: (s) => s.state.document, onRender: () => counts.document++ }),
        ]),
      )
      await settle()
      return { counts, unmount: () => root.unmount() }
    },
    async Vue(store, container) {
      const counts = { title: 0, document: 0 }
      const probe = (key: 'title' | 'document') =>
        Vue.defineComponent(() => {
          const value = useVue(store, (s) => s.state[key])
          return () => {
            counts[key]++
            return Vue.h('output', value.value)
          }
        })
      const app = Vue.createApp(() => [Vue.h(probe('title')), Vue.h(probe('document'))])
      app.mount(container)
      await settle()
      return { counts, unmount: () => app.unmount() }
    },
    async Svelte(store, container) {
      const counts = { title: 0, document: 0 }
      const probe = (key: 'title' | 'document') =>
        mount(SvelteProbe, {
          target: container,
          props: { value: useSvelte(store, (s) => s.state[key]), onRender: (value: string) => (counts[key]++, value) },
        })
      const components = [probe('title'), probe('document')]
      flushSync()
      return {
        counts,
        unmount: () => {
          for (const component of components) unmount(component)
        },
      }
    },
    async Angular(store, container) {
      const counts = { title: 0, document: 0 }
      const app = await createApplication({ providers: [provideZonelessChangeDetection()] })
      // Plain node transforms no decorators: Component(...) is applied to the class as the decorator would be.
      const probe = (key: 'title' | 'document') =>
        Component({ selector: `probe-${key}`, template: '<output>{{ show() }}</output>', changeDetection: ChangeDetectionStrategy.OnPush })(
          class {
            readonly value = injectAgentStore(store, (s) => s.state[key])
            show() {
              counts[key]++
              return this.value()
            }
          },
        )
      for (const key of ['title', 'document'] as const) app.bootstrap(probe(key), container.appendChild(document.createElement(`probe-${key}`)))
      await app.whenStable()
      return { counts, unmount: () => app.destroy() }
    },
    async Solid(store, container) {
      const counts = { title: 0, document: 0 }
      // What Solid's JSX compiles to without a build step: an effect per bound text, rerun when its accessor changes.
      const probe = (key: 'title' | 'document') => {
        const value = useSolid(store, (s) => s.state[key])
        const output = document.createElement('output')
        createEffect(() => {
          counts[key]++
          output.textContent = value()
        })
        return output
      }
      const dispose = render(() => [probe('title'), probe('document')], container)
      await settle()
      return { counts, unmount: dispose }
    },
  }
}

/** The usual hand-written integration: subscribe to the agent and re-render on every state change. */
async function agUiRenders(pattern: 'forceUpdate' | 'useState', container: HTMLElement): Promise<number> {
  const React = await import('react')
  const { createRoot } = await import('react-dom/client')
  const agent = new StreamingAgent({ initialState: { title: 'Title', items: [], document: '' } satisfies BenchState })
  let renders = 0
  function ForcedTitle() {
    // As CopilotKit's useAgent does: any agent change re-renders, then the component reads what it needs.
    const [, forceUpdate] = React.useReducer((n: number) => n + 1, 0)
    React.useEffect(() => agent.subscribe({ onStateChanged: () => forceUpdate() }).unsubscribe, [])
    renders++
    return React.createElement('output', null, (agent.state as BenchState).title)
  }
  function StateTitle() {
    // The careful variant: keep only the title; React bails out when a setState repeats the same value.
    const [title, setTitle] = React.useState(() => (agent.state as Partial<BenchState>).title)
    React.useEffect(() => agent.subscribe({ onStateChanged: ({ state }) => setTitle((state as BenchState).title) }).unsubscribe, [])
    renders++
    return React.createElement('output', null, title)
  }
  const root = createRoot(container)
  root.render(React.createElement(pattern === 'forceUpdate' ? ForcedTitle : StateTitle))
  await settle()
  const mountRenders = renders
  await agent.runAgent()
  await settle()
  root.unmount()
  await settle()
  if ((agent.state as BenchState).items.length !== DELTAS / 2) throw new Error('@ag-ui/client did not apply every delta')
  return renders - mountRenders
}

export async function benchBindingRenders(): Promise<Row[]> {
  register(`data:text/javascript,${encodeURIComponent(conditionsHook)}`)
  const removeWindow = installWindow()
  try {
    const { createAgentStore } = await import('@agent-state/core')
    const bindings = await loadBindings()
    const rows: Row[] = []
    for (const [name, mountProbes] of Object.entries(bindings)) {
      const container = document.body.appendChild(document.createElement('div'))
      const store = createAgentStore<BenchState>({ agent: new StreamingAgent(), initialState: { title: 'Title', items: [], document: '' } })
      const { counts, unmount } = await mountProbes(store, container)
      const atMount = { ...counts }
      await store.run()
      await settle()
      if (container.textContent !== `Title${store.getState().state.document}` || !store.getState().state.document.endsWith(`${DELTAS - 1}`)) {
        throw new Error(`${name}: the DOM does not show the final state`)
      }
      unmount()
      await settle()
      container.remove()
      const extra = counts.title - atMount.title
      rows.push({
        name: `${name} (@agent-state/${name.toLowerCase()}), renders beyond the first`,
        value: extra,
        target: '0',
        pass: extra === 0,
        note:
          rows.length === 0
            ? `A component selecting state.title, mounted next to one selecting state.document, while one store.run() streams ${DELTAS.toLocaleString('en-US')} STATE_DELTA events (one per macrotask) to state.items and state.document. The state.document component rendered ${counts.document - atMount.document} more times, once per change of it: the renders are counted.`
            : `Same stream; the state.document component rendered ${counts.document - atMount.document} more times.`,
      })
    }
    for (const pattern of ['forceUpdate', 'useState'] as const) {
      const container = document.body.appendChild(document.createElement('div'))
      const extra = await agUiRenders(pattern, container)
      container.remove()
      rows.push({
        name: `React + @ag-ui/client, ${pattern === 'forceUpdate' ? 're-render on onStateChanged' : 'useState(title) set in onStateChanged'}, renders beyond the first`,
        value: extra,
        note:
          pattern === 'forceUpdate'
            ? `The same title component over @ag-ui/client 1.0's runAgent() with the same stream, as a typical integration writes it (CopilotKit's useAgent): agent.subscribe({ onStateChanged }) forces a render and the component reads agent.state.title. Every state event replaces agent.state, so each one renders: the snapshot and the 1,000 deltas.`
            : `A hand-tuned variant of the same component: onStateChanged stores only the title in useState, and React skips renders for an unchanged primitive. It stays quiet only because the selection is a primitive; a derived object or array (a filtered list, a summary) renders on every delta unless memoised by hand, which the bindings do with equalityFn.`,
      })
    }
    return rows
  } finally {
    removeWindow()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchBindingRenders()
  console.table(rows.map(({ name, value, target, pass }) => ({ name, value, target, pass })))
  for (const [i, row] of rows.entries()) if (row.note) console.log(`${i}. ${row.note}`)
}
