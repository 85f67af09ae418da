import {
  type AgentSnapshot,
  createAgentStore,
  createAgentThreads,
  type ReadableAgentStore,
  shallow,
  type ThreadSummary,
  useAgentStore,
} from '@agent-state/react'
import { describe, expectTypeOf, it } from 'vitest'

const store = createAgentStore({ initialState: { title: '', items: [] as number[] } })
type State = { title: string; items: number[] }

describe('useAgentStore (React) types', () => {
  it('infers the selected type from the selector', () => {
    expectTypeOf(useAgentStore(store, (s) => s.state.title)).toEqualTypeOf<string>()
    expectTypeOf(useAgentStore(store, (s) => s.status)).toEqualTypeOf<'idle' | 'running' | 'interrupted' | 'error'>()
    expectTypeOf(useAgentStore(store, (s) => ({ count: s.state.items.length }), shallow)).toEqualTypeOf<{ count: number }>()
  })

  it('returns the whole snapshot without a selector, and accepts any ReadableAgentStore', () => {
    expectTypeOf(useAgentStore(store)).toEqualTypeOf<AgentSnapshot<State>>()
    expectTypeOf(useAgentStore({} as ReadableAgentStore<State>, (s) => s.state.items)).toEqualTypeOf<number[]>()
  })

  it('reads a thread registry like a store, its list of threads included', () => {
    const threads = createAgentThreads({ initialState: { title: '', items: [] as number[] } })
    expectTypeOf(useAgentStore(threads, (s) => s.threads)).toEqualTypeOf<readonly ThreadSummary[]>()
    expectTypeOf(useAgentStore(threads, (s) => s.activeThreadId)).toEqualTypeOf<string | undefined>()
    expectTypeOf(useAgentStore(threads, (s) => s.state.title)).toEqualTypeOf<string>()
    // @ts-expect-error: a plain store has no list of threads
    useAgentStore(store, (s) => s.threads)
  })

  it('types equalityFn by the selection', () => {
    useAgentStore(
      store,
      // @ts-expect-error: the selection is a string, the equality function compares numbers
      (s) => s.state.title,
      (a: number, b: number) => a === b,
    )
  })
})
