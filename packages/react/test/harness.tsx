import { useAgentStore } from '@agent-state/react'
import { act, cleanup, render } from '@testing-library/react'
import { type BindingHarness, format, type ProbeProps } from '../../../test/binding-harness'

export function Probe<TState, TSelected>({ store, selector, equalityFn, onRender }: ProbeProps<TState, TSelected>) {
  const value = useAgentStore(store, selector, equalityFn)
  onRender?.(value)
  return <output>{format(value)}</output>
}

export const reactHarness: BindingHarness = {
  name: 'react',
  async mount(props) {
    const { container, unmount } = render(<Probe {...props} />)
    return { text: () => container.textContent ?? '', unmount }
  },
  async flush(change) {
    act(() => change?.())
  },
  cleanup,
}
