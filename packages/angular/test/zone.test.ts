// The same binding in an application that still runs on zone.js (its own file: zone.js patches the globals).
import 'zone.js'
import '@angular/compiler'
import { createAgentStore, injectAgentStore } from '@agent-state/angular'
import { Component, NgZone, provideZoneChangeDetection } from '@angular/core'
import { createApplication } from '@angular/platform-browser'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { demoState, replace } from '../../../test/binding-harness'

const store = createAgentStore({ initialState: demoState() })
let selectorRuns = 0

@Component({
  selector: 'agent-zone-title',
  // Default change detection: the template is checked on every tick zone.js triggers.
  template: '<h1>{{ title() }}</h1>',
})
class ZoneTitle {
  readonly title = injectAgentStore(store, (s) => (selectorRuns++, s.state.title))
}

let app: Awaited<ReturnType<typeof createApplication>>
beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {})
  app = await createApplication({ providers: [provideZoneChangeDetection()] })
})
afterAll(() => app.destroy())

describe('injectAgentStore with zone.js', () => {
  it('renders changes made inside and outside the Angular zone, and runs the selector once per store change', async () => {
    const zone = app.injector.get(NgZone)
    expect(zone).toBeInstanceOf(NgZone)
    expect(Zone.current.name).toBe('<root>')
    const ref = zone.run(() => app.bootstrap(ZoneTitle, document.body.appendChild(document.createElement('agent-zone-title'))))
    const text = () => (ref.location.nativeElement as HTMLElement).textContent
    expect(text()).toBe('Hello')

    zone.run(() => setTimeout(() => store.apply(replace('/title', 'Inside the zone'))))
    await vi.waitFor(() => expect(text()).toBe('Inside the zone'))
    zone.runOutsideAngular(() => setTimeout(() => store.apply(replace('/title', 'Outside the zone'))))
    await vi.waitFor(() => expect(text()).toBe('Outside the zone'))
    // Ticks for anything else re-check the template (default change detection), but run no selector.
    const runs = selectorRuns
    for (let i = 0; i < 3; i++) zone.run(() => app.tick())
    expect(selectorRuns).toBe(runs)
    expect(runs).toBe(3)
    ref.destroy()
  })
})
