import { type AgentSnapshot, canAbort, canAnswer, canRun, createAgentStore, createAgentThreads } from '@agent-state/core'
import { describe, expectTypeOf, it } from 'vitest'

// The questions a UI asks to enable its buttons (checked by tsc).

describe('canRun, canAnswer, canAbort', () => {
  it('take a snapshot of any state and return a boolean', () => {
    for (const can of [canRun, canAnswer, canAbort]) {
      expectTypeOf(can).toEqualTypeOf<(snapshot: AgentSnapshot<unknown>) => boolean>()
    }
  })

  it("accept any store's snapshot, a thread registry's included", () => {
    const store = createAgentStore({ initialState: { document: '' } })
    const threads = createAgentThreads({ initialState: { count: 0 } })
    expectTypeOf(canRun(store.getState())).toEqualTypeOf<boolean>()
    expectTypeOf(canAnswer(threads.getState())).toEqualTypeOf<boolean>()
    expectTypeOf(canAbort(store.getInitialState())).toEqualTypeOf<boolean>()
  })

  it('refuse what is not a snapshot: the store itself or nothing', () => {
    const store = createAgentStore({ initialState: {} })
    // @ts-expect-error: a store is not its snapshot
    canRun(store)
    // @ts-expect-error: a snapshot is required
    canAbort()
    // @ts-expect-error: a status is not a snapshot
    canAnswer('interrupted')
  })
})
