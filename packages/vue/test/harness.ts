import { useAgentStore } from '@agent-state/vue'
import { cleanup, render } from '@testing-library/vue'
import { defineComponent, h, nextTick } from 'vue'
import { type BindingHarness, format, type ProbeProps } from '../../../test/binding-harness'

// Typed loosely on purpose: the harness passes every scenario's store and selector through the same component.
export const Probe = defineComponent(
  (props: ProbeProps<any, any>) => {
    const value = useAgentStore(() => props.store, props.selector, props.equalityFn)
    return () => {
      props.onRender?.(value.value)
      return h('output', format(value.value))
    }
  },
  { props: ['store', 'selector', 'equalityFn', 'onRender'] },
)

export const vueHarness: BindingHarness = {
  name: 'vue',
  async mount(props) {
    const { container, unmount, rerender } = render(Probe, { props })
    const setStore = async (store: typeof props.store) => {
      await rerender({ ...props, store })
      await nextTick()
    }
    return { text: () => container.textContent ?? '', setStore, unmount }
  },
  async flush(change) {
    change?.()
    await nextTick()
  },
  cleanup,
}
