import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../../src'
import { ev } from '../helpers'

// Two defects found while writing the mutation tests, now fixed.

type S = Record<string, unknown>

describe('defects found by the mutation work', () => {
  it('a run superseded through apply() ends its running subagents as stopped', () => {
    const store = createAgentStore<S>({ initialState: {} })
    store.apply([ev.runStarted('r1'), { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'helper' } as BaseEvent, ev.runStarted('r2')])
    const [subagent] = store.getState().subagents
    expect([subagent!.status, subagent!.error]).toStrictEqual(['error', { message: 'The run was stopped' }])
  })

  it('the confirmations of a RUN_FINISHED fed without RUN_STARTED carry the run id the event names', () => {
    const store = createAgentStore<S>({ initialState: {} })
    store.apply(ev.runFinished('r9', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] }))
    expect(store.getState().confirmations.map((c) => c.runId)).toStrictEqual(['r9'])
  })
})
