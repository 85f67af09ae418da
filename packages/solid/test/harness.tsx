/** @jsxImportSource solid-js */
import { useAgentStore } from '@agent-state/solid'
import { createRenderEffect, createSignal } from 'solid-js'
import { render } from 'solid-js/web'
import { type BindingHarness, format, type ProbeProps } from '../../../test/binding-harness'

// Typed loosely on purpose: the harness passes every scenario's store and selector through the same component.
export function Probe(props: ProbeProps<any, any>) {
  // An accessor of the prop: a parent handing over another store switches the selection to it.
  const value = useAgentStore(() => props.store, props.selector, props.equalityFn)
  // Solid renders a component once; what re-runs is the effect that reads the value: it is the "render".
  createRenderEffect(() => props.onRender?.(value()))
  return <output>{format(value())}</output>
}

const mounted = new Set<() => void>()

export const solidHarness: BindingHarness = {
  name: 'solid',
  async mount(props) {
    const container = document.body.appendChild(document.createElement('div'))
    const [store, setStore] = createSignal(props.store)
    const dispose = render(() => <Probe {...props} store={store()} />, container)
    const unmount = () => {
      if (!mounted.delete(unmount)) return
      dispose()
      container.remove()
    }
    mounted.add(unmount)
    return {
      text: () => container.textContent ?? '',
      setStore: async (next) => {
        setStore(() => next)
      },
      unmount,
    }
  },
  // Solid updates synchronously: the change is rendered when it returns.
  async flush(change) {
    change?.()
  },
  cleanup() {
    for (const unmount of [...mounted]) unmount()
  },
}
