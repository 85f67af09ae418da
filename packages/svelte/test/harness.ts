import { cleanup, render } from '@testing-library/svelte'
import { flushSync } from 'svelte'
import type { BindingHarness, ProbeProps } from '../../../test/binding-harness'
import Probe from './Probe.svelte'

export const svelteHarness: BindingHarness = {
  name: 'svelte',
  async mount(props) {
    // Probe.svelte is written once for any store: its props are typed with unknown state and selection.
    const { container, unmount, rerender } = render(Probe, { props: props as unknown as ProbeProps<unknown, unknown> })
    const setStore = async (store: typeof props.store) => {
      await rerender({ store } as Partial<ProbeProps<unknown, unknown>>)
      flushSync()
    }
    return { text: () => container.textContent ?? '', setStore, unmount }
  },
  async flush(change) {
    change?.()
    flushSync()
  },
  cleanup,
}
