// What the cross-binding scenarios need from each framework, plus the helpers they share.
// Each package's test folder implements `BindingHarness` once (packages/<fw>/test/harness.*).
import { type BaseEvent, EventType } from '@ag-ui/core'
import type { AgentSnapshot, ReadableAgentStore } from '@agent-state/core'

export interface DemoState {
  title: string
  items: number[]
  document: string
}

export const demoState = (): DemoState => ({ title: 'Hello', items: [], document: '' })

export const replace = (path: string, value: unknown): BaseEvent => ({
  type: EventType.STATE_DELTA,
  delta: [{ op: 'replace', path, value }],
})

export const append = (path: string, value: unknown): BaseEvent => ({
  type: EventType.STATE_DELTA,
  delta: [{ op: 'add', path: `${path}/-`, value }],
})

/** The props of every framework's Probe component: it shows one selection and reports each render. */
export interface ProbeProps<TState, TSelected> {
  store: ReadableAgentStore<TState>
  selector: (snapshot: AgentSnapshot<TState>) => TSelected
  equalityFn?: (a: TSelected, b: TSelected) => boolean
  onRender?: (value: TSelected) => void
}

export interface Mounted {
  /** The text the Probe shows right now. */
  text(): string
  /** Hands the Probe another store, as a parent passing a new prop would (switching threads), and lets it render. */
  setStore(store: ReadableAgentStore<any>): Promise<void>
  unmount(): void
}

export interface BindingHarness {
  readonly name: 'react' | 'vue' | 'svelte' | 'angular' | 'solid'
  mount<TState, TSelected>(props: ProbeProps<TState, TSelected>): Promise<Mounted>
  /** Runs a change to the store, then lets the framework finish rendering it. */
  flush(change?: () => void): Promise<void>
  /** Unmounts whatever is still mounted. */
  cleanup(): void
}

/** How a Probe prints its value, the same in every framework. */
export const format = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))

/** The same store with another `subscribe`: reads go straight through. */
const withSubscribe = <TState>(store: ReadableAgentStore<TState>, subscribe: ReadableAgentStore<TState>['subscribe']): ReadableAgentStore<TState> => ({
  getState: () => store.getState(),
  getInitialState: () => store.getInitialState(),
  subscribe,
})

export { countSubscriptions } from './support/count-subscriptions'

/** A store whose first subscription comes late: `change` lands after the first read and before the subscription. */
export function changedBeforeSubscribe<TState>(store: ReadableAgentStore<TState>, change: () => void): ReadableAgentStore<TState> {
  let pending = true
  return withSubscribe(store, (listener) => {
    if (pending) {
      pending = false
      change()
    }
    return store.subscribe(listener)
  })
}

/** The events of a recording in test/fixtures (JSON is typed loosely; the store validates every event). */
export const eventsOf = (recording: { events: readonly unknown[] }): BaseEvent[] => recording.events as BaseEvent[]
