import { cleanup, render } from '@testing-library/svelte'
import { flushSync } from 'svelte'
import type { BindingHarness } from '../../../test/binding-harness'
import Probe from './Probe.svelte'

export const svelteHarness: BindingHarness = {
  name: 'svelte',
  async mount(props) {
    const { container, unmount } = render(Probe, { props })
    return { text: () => container.textContent ?? '', unmount }
  },
  async flush(change) {
    change?.()
    flushSync()
  },
  cleanup,
}
