// Angular without the CLI: standalone components compiled just in time, decorators transformed by Vite.
import '@angular/compiler'
import { injectAgentStore, type ReadableAgentStore } from '@agent-state/angular'
import {
  type ApplicationRef,
  ChangeDetectionStrategy,
  Component,
  type ComponentRef,
  createComponent,
  InjectionToken,
  Injector,
  inject,
  provideZonelessChangeDetection,
  type Signal,
  signal,
} from '@angular/core'
import { createApplication } from '@angular/platform-browser'
import { type BindingHarness, format, type ProbeProps } from '../../../test/binding-harness'

/** The Probe's props (Angular sets inputs after the constructor, and injectAgentStore runs in a field initializer), its store as a signal. */
const PROBE_PROPS = new InjectionToken<ProbeProps<any, any> & { stores: Signal<ReadableAgentStore<any>> }>('ProbeProps')

@Component({
  selector: 'agent-probe',
  template: '<output>{{ shown() }}</output>',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class Probe {
  readonly props = inject(PROBE_PROPS)
  readonly value = injectAgentStore(this.props.stores, this.props.selector, this.props.equalityFn)

  /** Called by the template, so once per render of the view. */
  shown() {
    const value = this.value()
    this.props.onRender?.(value)
    return format(value)
  }
}

let app: ApplicationRef | undefined
const mounted = new Set<ComponentRef<unknown>>()

export const angularHarness: BindingHarness = {
  name: 'angular',
  async mount(props) {
    app ??= await createApplication({ providers: [provideZonelessChangeDetection()] })
    const hostElement = document.body.appendChild(document.createElement('div'))
    const stores = signal(props.store)
    const elementInjector = Injector.create({ providers: [{ provide: PROBE_PROPS, useValue: { ...props, stores } }] })
    const ref = createComponent(Probe, { environmentInjector: app.injector, elementInjector, hostElement })
    app.attachView(ref.hostView)
    mounted.add(ref)
    app.tick()
    return {
      text: () => hostElement.textContent ?? '',
      setStore: async (store) => {
        stores.set(store)
        app?.tick()
      },
      unmount: () => {
        mounted.delete(ref)
        ref.destroy()
        hostElement.remove()
      },
    }
  },
  async flush(change) {
    change?.()
    app?.tick()
  },
  cleanup() {
    for (const ref of mounted) ref.destroy()
    mounted.clear()
    document.body.innerHTML = ''
  },
}
