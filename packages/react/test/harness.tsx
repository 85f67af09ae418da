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
    const { container, unmount, rerender } = render(<Probe {...props} />)
    const setStore = async (store: typeof props.store) => act(() => rerender(<Probe {...props} store={store} />))
    return { text: () => container.textContent ?? '', setStore, unmount }
  },
  async flush(change) {
    act(() => change?.())
  },
  cleanup,
}
