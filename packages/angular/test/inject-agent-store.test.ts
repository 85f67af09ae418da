// Angular-only concerns; the behaviour shared by all bindings is in test/bindings.table.test.tsx at the root.
import '@angular/compiler'
import { createAgentStore, injectAgentStore, type ReadableAgentStore, shallow } from '@agent-state/angular'
import {
  type ApplicationRef,
  ChangeDetectionStrategy,
  Component,
  createEnvironmentInjector,
  type EnvironmentInjector,
  effect,
  Input,
  input,
  isSignal,
  provideZonelessChangeDetection,
  runInInjectionContext,
  type Signal,
  signal,
} from '@angular/core'
import { createApplication } from '@angular/platform-browser'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { append, countSubscriptions, type DemoState, demoState, replace } from '../../../test/binding-harness'

let app: ApplicationRef
beforeAll(async () => {
  app = await createApplication({ providers: [provideZonelessChangeDetection()] })
})
afterAll(() => app.destroy())

/** A store with counted subscriptions, and an injector of its own to call injectAgentStore in and destroy. */
function scenario(initial: Partial<DemoState> = {}) {
  const store = createAgentStore({ initialState: { ...demoState(), ...initial } })
  const counted = countSubscriptions(store)
  const injector = createEnvironmentInjector([], app.injector as EnvironmentInjector)
  const inject = <T>(make: () => T): T => runInInjectionContext(injector, make)
  return { store, counted, injector, inject }
}

/** A selector that counts its runs. */
function counting<TIn, TOut>(select: (value: TIn) => TOut) {
  const counter = { runs: 0, select: (value: TIn) => (counter.runs++, select(value)) }
  return counter
}

/** Runs of an effect reading `value`, with the values it saw; root effects run on the application's tick. */
function effectRuns<T>(inject: <R>(make: () => R) => R, value: Signal<T>) {
  const seen: T[] = []
  inject(() => effect(() => void seen.push(value())))
  return seen
}

describe('injectAgentStore', () => {
  it('returns a read-only signal whose first read is synchronous and holds the snapshot data itself', () => {
    const { store, inject } = scenario()
    store.apply(append('/items', 1))
    const items = inject(() => injectAgentStore(store, (s) => s.state.items))
    expect(isSignal(items)).toBe(true)
    expect('set' in items).toBe(false)
    expect(items()).toBe(store.getState().state.items)
    const snapshot = inject(() => injectAgentStore(store))
    expect(snapshot()).toBe(store.getState())
  })

  it('must be called in an injection context', () => {
    const store = createAgentStore({ initialState: demoState() })
    expect(() => injectAgentStore(store)).toThrow(/NG0203.*injectAgentStore/s)
  })

  it('subscribes on the first read, once, and releases when its injector is destroyed', () => {
    const { store, counted, injector, inject } = scenario()
    const title = inject(() => injectAgentStore(counted.store, (s) => s.state.title))
    expect(counted.active()).toBe(0)
    expect(title()).toBe('Hello')
    title()
    expect([counted.active(), counted.total()]).toEqual([1, 1])
    store.apply(replace('/title', 'Followed'))
    expect(title()).toBe('Followed')
    injector.destroy()
    expect(counted.active()).toBe(0)
    store.apply(replace('/title', 'After destroy'))
    expect(title()).toBe('Followed')
    expect(counted.total()).toBe(1)
  })

  it('runs the selector once per store change it is read after, and never for a change nobody reads', () => {
    const { store, inject } = scenario()
    const selector = counting((s: { state: DemoState }) => s.state.title)
    const title = inject(() => injectAgentStore(store, selector.select))
    expect(selector.runs).toBe(0)
    title()
    title()
    expect(selector.runs).toBe(1)
    for (let i = 0; i < 5; i++) store.apply(append('/items', i))
    expect(selector.runs).toBe(1)
    expect(title()).toBe('Hello')
    expect(selector.runs).toBe(2)
  })

  it('wakes an effect only when the selected value changes', () => {
    const { store, inject } = scenario()
    const selector = counting((s: { state: DemoState }) => s.state.title)
    const seen = effectRuns(
      inject,
      inject(() => injectAgentStore(store, selector.select)),
    )
    app.tick()
    expect(seen).toEqual(['Hello'])
    for (let i = 0; i < 10; i++) {
      store.apply(append('/items', i))
      app.tick()
    }
    store.apply(replace('/title', 'Changed'))
    app.tick()
    expect(seen).toEqual(['Hello', 'Changed'])
    expect(selector.runs).toBe(12)
  })

  it('keeps the previous selection when equalityFn calls the new one equal (Object.is by default)', () => {
    const { store, inject } = scenario()
    const summary = (s: { state: DemoState }) => ({ title: s.state.title, count: s.state.items.length })
    const quiet = inject(() => injectAgentStore(store, summary, shallow))
    const loud = inject(() => injectAgentStore(store, summary))
    const [quietFirst, loudFirst] = [quiet(), loud()]
    store.apply(replace('/document', 'elsewhere'))
    expect(quiet()).toBe(quietFirst)
    expect(loud()).not.toBe(loudFirst)
    expect(loud()).toEqual(loudFirst)
    store.apply(append('/items', 1))
    expect(quiet()).toEqual({ title: 'Hello', count: 1 })
    expect(quiet()).not.toBe(quietFirst)
  })

  it('follows a signal of a store: the value switches at once and the subscription moves', () => {
    const first = scenario()
    const second = countSubscriptions(createAgentStore({ initialState: { ...demoState(), title: 'Second' } }))
    const current = signal<ReadableAgentStore<DemoState>>(first.counted.store)
    const title = first.inject(() => injectAgentStore(current, (s) => s.state.title))
    expect(title()).toBe('Hello')
    current.set(second.store)
    expect(title()).toBe('Second')
    expect([first.counted.active(), second.active()]).toEqual([0, 1])
    first.store.apply(replace('/title', 'Ignored'))
    expect(title()).toBe('Second')
    first.injector.destroy()
    expect(second.active()).toBe(0)
  })

  it('tracks the signals its selector reads', () => {
    const { store, inject } = scenario({ items: [10, 20, 30] })
    const index = signal(0)
    const selector = counting((s: { state: DemoState }) => s.state.items[index()])
    const item = inject(() => injectAgentStore(store, selector.select))
    expect(item()).toBe(10)
    index.set(2)
    expect(item()).toBe(30)
    store.apply(replace('/items/2', 31))
    expect(item()).toBe(31)
    expect(selector.runs).toBe(3)
  })
})

/** What the Angular CLI's JIT transform adds to a signal input; these tests compile components without the CLI. */
const signalInput = (options: Input) => Input({ ...options, isSignal: true } as Input)

@Component({
  selector: 'agent-title',
  template: '<h1>{{ title() }}</h1>',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
class Title {
  @signalInput({ required: true })
  readonly store = input.required<ReadableAgentStore<DemoState>>()
  // An input is first read at render, after Angular has set it.
  readonly title = injectAgentStore(this.store, (s) => s.state.title)
}

/** Hands Title a store through its input, as a parent component would: `stores` gives the store to hand over. */
function hostOf(stores: Signal<ReadableAgentStore<DemoState>>) {
  @Component({
    selector: 'agent-host',
    imports: [Title],
    template: '<agent-title [store]="stores()" />',
    changeDetection: ChangeDetectionStrategy.OnPush,
  })
  class Host {
    readonly stores = stores
  }
  return Host
}

describe('injectAgentStore in a zoneless component', () => {
  it('renders on its own when the store changes, follows an input that hands it another store, and releases on destroy', async () => {
    const errors = vi.spyOn(console, 'error')
    const first = scenario()
    const second = countSubscriptions(createAgentStore({ initialState: { ...demoState(), title: 'Second' } }))
    const stores = signal<ReadableAgentStore<DemoState>>(first.counted.store)
    const ref = app.bootstrap(hostOf(stores), document.body.appendChild(document.createElement('agent-host')))
    const text = () => (ref.location.nativeElement as HTMLElement).textContent
    expect(text()).toBe('Hello')
    first.store.apply(replace('/title', 'Scheduled'))
    expect(text()).toBe('Hello')
    await app.whenStable()
    expect(text()).toBe('Scheduled')
    stores.set(second.store)
    await app.whenStable()
    expect(text()).toBe('Second')
    expect([first.counted.active(), second.active()]).toEqual([0, 1])
    ref.destroy()
    expect(second.active()).toBe(0)
    expect(errors).not.toHaveBeenCalled()
  })
})
