// Issue 13: the user's edits made while a run streams are part of the saved thread. After a
// reload, the server's next change must merge with them exactly as it would have without the
// reload: no conflict the uninterrupted store does not report, the same state, the same body.
//
// Found: the three-way merge (state/edit-merge.ts) takes `before === after` to mean "the user left this
// alone". In a live store the edit's `mine` shares every untouched subtree with its `base`; after
// JSON they are equal copies, so the untouched parts look edited and the server's next change to
// them is reported as an EDIT_CONFLICT (and the user's copy wins over the server's change).
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStore, type AgentStoreError, createAgentStore, restoreThread, serializeThread } from '../../src'
import { type Doc, throughJson } from './support-threads'

const THREAD = 'thread-edits'
const ev = (event: Record<string, unknown>) => event as unknown as BaseEvent

function pair(initialState: Doc) {
  const errors: [AgentStoreError[], AgentStoreError[]] = [[], []]
  const without = createAgentStore<Doc>({ initialState, threadId: THREAD, onError: (error) => errors[0].push(error) })
  return {
    errors,
    without,
    reload(from: AgentStore<Doc>) {
      return createAgentStore<Doc>({
        initialState,
        threadId: THREAD,
        onError: (error) => errors[1].push(error),
        restore: restoreThread(throughJson(serializeThread(from))),
      })
    },
  }
}

describe('a reload between a user edit and the server change after it', () => {
  it('an edit of a key of its own, then a change of an array element the user never touched', () => {
    const { errors, without, reload } = pair({})
    without.apply([
      ev({ type: 'RUN_STARTED', threadId: THREAD, runId: 'r1' }),
      ev({ type: 'STATE_SNAPSHOT', snapshot: { steps: [{ status: 'pending' }, { status: 'pending' }] } }),
    ])
    without.setState((previous) => ({ ...previous, note: 'mine' }))
    const after = reload(without)
    expect(after.getState()).toStrictEqual(without.getState())
    const change = ev({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/steps/0/status', value: 'completed' }] })
    without.apply(change)
    after.apply(change)
    expect(errors[0]).toStrictEqual([])
    expect(errors[1].map((error) => `${error.code} ${error.path}`)).toStrictEqual([])
    expect(after.getState().state).toStrictEqual({ steps: [{ status: 'completed' }, { status: 'pending' }], note: 'mine' })
    expect(after.getState()).toStrictEqual(without.getState())
  })

  it('an edit inside an object, then the server changes a sibling object', () => {
    const { errors, without, reload } = pair({ recipe: { title: 'Soup', items: [{ name: 'salt' }] }, meta: { n: 1 } })
    without.apply(ev({ type: 'RUN_STARTED', threadId: THREAD, runId: 'r1' }))
    without.setState((previous) => ({ ...previous, recipe: { ...(previous.recipe as Doc), title: 'My soup' } }))
    const after = reload(without)
    const change = ev({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/recipe/items/-', value: { name: 'pepper' } }] })
    without.apply(change)
    after.apply(change)
    expect(errors[1]).toStrictEqual(errors[0])
    expect(after.getState().state).toStrictEqual(without.getState().state)
    expect(after.getState().state).toStrictEqual({ recipe: { title: 'My soup', items: [{ name: 'salt' }, { name: 'pepper' }] }, meta: { n: 1 } })
  })
})
