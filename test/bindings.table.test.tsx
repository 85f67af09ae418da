// @vitest-environment jsdom
// One table of scenarios, run against every binding through its harness. Each scenario asserts on its own
// and returns what it observed; the last test checks that all bindings observed exactly the same thing.

import type { BaseEvent } from '@ag-ui/core'
import { type AgentSnapshot, type AgentStore, createAgentStore, shallow } from '@agent-state/core'
import { afterEach, describe, expect, it } from 'vitest'
import { angularHarness } from '../packages/angular/test/harness'
import { reactHarness } from '../packages/react/test/harness'
import { solidHarness } from '../packages/solid/test/harness'
import { svelteHarness } from '../packages/svelte/test/harness'
import { vueHarness } from '../packages/vue/test/harness'
import {
  append,
  type BindingHarness,
  changedBeforeSubscribe,
  countSubscriptions,
  type DemoState,
  demoState,
  eventsOf,
  type Mounted,
  replace,
} from './binding-harness'
import documentRecording from './fixtures/02-predictive-document-approve.agent-framework.json'
import stepsRecording from './fixtures/14-agentic-gen-ui-step-status-deltas.server-starter.json'

type Snapshot = AgentSnapshot<DemoState>
const title = (s: Snapshot) => s.state.title
const documentText = (s: Snapshot) => s.state.document

/** Counts renders and keeps the values rendered, in order. */
function renders<T>() {
  const values: T[] = []
  return { values, onRender: (value: T) => void values.push(value) }
}

/** Applies each event in its own flush and returns the distinct texts the DOM showed, in order. */
async function replay(h: BindingHarness, view: Mounted, store: Pick<AgentStore, 'apply'>, events: readonly BaseEvent[]) {
  const seen = [view.text()]
  for (const event of events) {
    await h.flush(() => store.apply(event))
    if (view.text() !== seen.at(-1)) seen.push(view.text())
  }
  return seen
}

interface Scenario {
  name: string
  run(h: BindingHarness): Promise<unknown>
}

const scenarios: Scenario[] = [
  {
    name: 'shows the current value on the first render',
    async run(h) {
      const store = createAgentStore({ initialState: demoState() })
      store.apply(replace('/title', 'Before mount'))
      const probe = renders<string>()
      const view = await h.mount({ store, selector: title, onRender: probe.onRender })
      expect(view.text()).toBe('Before mount')
      expect(probe.values).toEqual(['Before mount'])
      return probe.values
    },
  },
  {
    name: 'updates when the selected value changes',
    async run(h) {
      const store = createAgentStore({ initialState: demoState() })
      const probe = renders<string>()
      const view = await h.mount({ store, selector: title, onRender: probe.onRender })
      await h.flush(() => store.apply(replace('/title', 'Changed')))
      expect(view.text()).toBe('Changed')
      expect(probe.values).toEqual(['Hello', 'Changed'])
      return probe.values
    },
  },
  {
    name: 'selector isolation: 1,000 deltas to other keys cost no render; each change of the selected key costs one',
    async run(h) {
      const store = createAgentStore({ initialState: demoState() })
      const titles = renders<string>()
      const documents = renders<string>()
      const titleView = await h.mount({ store, selector: title, onRender: titles.onRender })
      const documentView = await h.mount({ store, selector: documentText, onRender: documents.onRender })
      let snapshots = 0
      const stop = store.subscribe(() => snapshots++)
      for (let i = 0; i < 1000; i++) {
        // A quarter of the events write /document, a quarter rewrite it with the value it already has.
        const event = i % 4 === 1 ? replace('/document', `v${i}`) : i % 4 === 2 ? replace('/document', `v${i - 1}`) : append('/items', i)
        await h.flush(() => store.apply(event))
      }
      stop()
      expect(store.getState().state.items).toHaveLength(500)
      expect(snapshots).toBeGreaterThanOrEqual(750)
      expect(titleView.text()).toBe('Hello')
      expect(titles.values).toEqual(['Hello'])
      expect(documentView.text()).toBe('v997')
      expect(documents.values).toEqual(['', ...Array.from({ length: 250 }, (_, k) => `v${4 * k + 1}`)])
      return { titles: titles.values.length, documents: documents.values.length }
    },
  },
  {
    name: 'equality: shallow keeps a new-object selection quiet; a custom equalityFn decides what changed',
    async run(h) {
      const store = createAgentStore({ initialState: demoState() })
      const summary = (s: Snapshot) => ({ title: s.state.title, count: s.state.items.length })
      const quiet = renders<{ title: string; count: number }>()
      const loud = renders<{ title: string; count: number }>()
      const caseless = renders<string>()
      await h.mount({ store, selector: summary, equalityFn: shallow, onRender: quiet.onRender })
      await h.mount({ store, selector: summary, onRender: loud.onRender })
      const view = await h.mount({
        store,
        selector: title,
        equalityFn: (a, b) => a.toLowerCase() === b.toLowerCase(),
        onRender: caseless.onRender,
      })
      for (let i = 0; i < 5; i++) await h.flush(() => store.apply(replace('/document', `d${i}`)))
      await h.flush(() => store.apply(append('/items', 1)))
      await h.flush(() => store.apply(replace('/title', 'HELLO')))
      expect(view.text()).toBe('Hello')
      await h.flush(() => store.apply(replace('/title', 'World')))
      expect(view.text()).toBe('World')
      expect(quiet.values).toEqual([
        { title: 'Hello', count: 0 },
        { title: 'Hello', count: 1 },
        { title: 'HELLO', count: 1 },
        { title: 'World', count: 1 },
      ])
      // Object.is on a new object: one render per store change, and never a loop.
      expect(loud.values).toHaveLength(1 + 8)
      expect(caseless.values).toEqual(['Hello', 'World'])
      return { quiet: quiet.values, loud: loud.values.length, caseless: caseless.values }
    },
  },
  {
    name: 'unsubscribes from the core on unmount',
    async run(h) {
      const store = createAgentStore({ initialState: demoState() })
      const counted = countSubscriptions(store)
      const probe = renders<string>()
      const first = await h.mount({ store: counted.store, selector: title, onRender: probe.onRender })
      const second = await h.mount({ store: counted.store, selector: documentText })
      expect(counted.active()).toBe(2)
      first.unmount()
      expect(counted.active()).toBe(1)
      second.unmount()
      expect(counted.active()).toBe(0)
      await h.flush(() => store.apply(replace('/title', 'After unmount')))
      expect(probe.values).toEqual(['Hello'])
      return { active: counted.active(), subscriptions: counted.total(), renders: probe.values.length }
    },
  },
  {
    name: 'race: a change between the first render and the subscription still shows',
    async run(h) {
      const store = createAgentStore({ initialState: demoState() })
      const late = changedBeforeSubscribe(store, () => store.apply(replace('/title', 'Changed before subscribe')))
      const probe = renders<string>()
      const view = await h.mount({ store: late, selector: title, onRender: probe.onRender })
      await h.flush()
      expect(view.text()).toBe('Changed before subscribe')
      expect(probe.values.at(-1)).toBe('Changed before subscribe')
      await h.flush(() => store.apply(replace('/title', 'And after')))
      expect(view.text()).toBe('And after')
      // How many renders the race costs is the framework's business (React renders twice, Vue and Svelte once).
      return view.text()
    },
  },
  {
    name: 'streaming: a recorded agent-framework run grows the document in the DOM',
    async run(h) {
      const store = createAgentStore({ initialState: { document: '' } })
      const view = await h.mount({ store, selector: (s) => s.state.document })
      const seen = await replay(h, view, store, eventsOf(documentRecording))
      const final = documentRecording.expected.state.document
      expect(view.text()).toBe(final)
      expect(seen.at(0)).toBe('')
      expect(seen.at(-1)).toBe(final)
      // Every intermediate text was a longer prefix of the final document, and each predicted draft appeared in order.
      for (const text of seen) expect(final.startsWith(text)).toBe(true)
      expect(seen).toEqual([...seen].sort((a, b) => a.length - b.length))
      const drafts = documentRecording.expected.predictionTrace.map((entry) => entry.value)
      expect(seen.filter((text) => drafts.includes(text))).toEqual([...new Set(drafts)])
      return seen
    },
  },
  {
    name: 'streaming: a recorded server-starter run ticks its steps off one by one',
    async run(h) {
      const store = createAgentStore({ initialState: { steps: [] as { description: string; status: string }[] } })
      const view = await h.mount({
        store,
        selector: (s) => `${s.state.steps.filter((step) => step.status === 'completed').length}/${s.state.steps.length}`,
      })
      const seen = await replay(h, view, store, eventsOf(stepsRecording))
      expect(seen).toEqual(['0/0', ...Array.from({ length: 11 }, (_, done) => `${done}/10`)])
      expect(store.getState().state).toEqual(stepsRecording.expected.state)
      return seen
    },
  },
  {
    name: 'a store switched at run time: the value follows the new store, and the old one is released',
    async run(h) {
      const first = createAgentStore({ initialState: demoState() })
      const second = createAgentStore({ initialState: { ...demoState(), title: 'Second' } })
      const [firstCounted, secondCounted] = [countSubscriptions(first), countSubscriptions(second)]
      const probe = renders<string>()
      const view = await h.mount({ store: firstCounted.store, selector: title, onRender: probe.onRender })
      await view.setStore(secondCounted.store)
      expect(view.text()).toBe('Second')
      expect([firstCounted.active(), secondCounted.active()]).toEqual([0, 1])
      await h.flush(() => first.apply(replace('/title', 'Ignored')))
      expect(view.text()).toBe('Second')
      await h.flush(() => second.apply(replace('/title', 'Followed')))
      expect(view.text()).toBe('Followed')
      view.unmount()
      expect(secondCounted.active()).toBe(0)
      return { renders: probe.values, subscriptions: [firstCounted.total(), secondCounted.total()] }
    },
  },
]

const harnesses = [reactHarness, vueHarness, svelteHarness, angularHarness, solidHarness]
const observed = new Map<string, Record<string, unknown>>()

describe.each(harnesses)('$name binding', (h) => {
  afterEach(() => h.cleanup())
  it.each(scenarios)('$name', async ({ name, run }) => {
    const record = observed.get(name) ?? {}
    record[h.name] = await run(h)
    observed.set(name, record)
  })
})

describe('all bindings', () => {
  it.each(scenarios)('observed the same: $name', ({ name }) => {
    const record = observed.get(name)
    expect(Object.keys(record ?? {})).toEqual(harnesses.map((h) => h.name))
    expect(record?.vue).toEqual(record?.react)
    expect(record?.svelte).toEqual(record?.react)
    expect(record?.angular).toEqual(record?.react)
    expect(record?.solid).toEqual(record?.react)
  })
})
