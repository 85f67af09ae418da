// A saved thread is held to the limits its store keeps live: a value beside the state (a run's
// result or metadata, a confirmation's metadata, its options) deeper or larger than any the store
// would have accepted is refused as RESTORE, though not deep enough to overflow anything; and a
// thread made live at the very limits restores as it was.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore, restoreThread, serializeThread } from '../../src'
import { type Doc, throughJson } from './support-threads'

const THREAD = 'limits'
const limits = { maxDepth: 10, maxEventBytes: 2_000 }
const initialState: Doc = { document: 'blank' }

/** A value `levels` deep: `{ a: { a: … 'leaf' } }`. */
const nested = (levels: number): unknown => (levels === 0 ? 'leaf' : { a: nested(levels - 1) })

/** A thread saved after one finished run, as plain JSON to edit. */
function savedThread(): Record<string, any> {
  const store = createAgentStore<Doc>({ initialState, threadId: THREAD, limits })
  store.apply([
    { type: 'RUN_STARTED', threadId: THREAD, runId: 'r1' },
    { type: 'STATE_SNAPSHOT', snapshot: { document: 'saved' } },
    { type: 'RUN_FINISHED', threadId: THREAD, runId: 'r1', result: 'done' },
  ] as BaseEvent[])
  return throughJson(serializeThread(store)) as Record<string, any>
}

function restoring(restore: unknown) {
  const errors: AgentStoreError[] = []
  const store = createAgentStore<Doc>({
    initialState,
    threadId: THREAD,
    limits,
    restore: restoreThread(restore as never),
    onError: (error) => errors.push(error),
  })
  return { store, errors: errors.map((error) => ({ code: error.code, reason: error.reason, message: error.message })) }
}

describe('a saved thread beyond the limits', () => {
  it('a run metadata far deeper than maxDepth (100 levels, no overflow) is refused as RESTORE; the store starts clean', () => {
    const saved = savedThread()
    saved.model.snapshot.run.metadata = { deep: nested(100) }
    const { store, errors } = restoring(saved)
    expect(errors).toEqual([{ code: 'RESTORE', reason: 'damaged', message: expect.stringMatching(/^The saved thread is damaged: .*deeper than .*maxDepth/) }])
    expect(store.getState().state).toEqual(initialState)
    expect(store.getState().messages).toEqual([])
  })

  it("a confirmation's metadata deeper than maxDepth is refused the same way", () => {
    const saved = savedThread()
    saved.model.snapshot.confirmations = [{ id: 'i1', source: 'interrupt', value: null, metadata: { deep: nested(60) }, stateKeys: [] }]
    saved.model.snapshot.status = 'interrupted'
    expect(restoring(saved).errors).toEqual([{ code: 'RESTORE', reason: 'damaged', message: expect.stringMatching(/deeper than/) }])
  })

  it("a run's result larger than maxEventBytes (it came in one event) is refused as RESTORE", () => {
    const saved = savedThread()
    saved.model.snapshot.run.result = 'x'.repeat(limits.maxEventBytes)
    const { store, errors } = restoring(saved)
    expect(errors).toEqual([{ code: 'RESTORE', reason: 'damaged', message: expect.stringMatching(/snapshot\.run\.result.*larger than 2000.*maxEventBytes/) }])
    expect(store.getState().state).toEqual(initialState)
  })

  it('run options larger than maxEventBytes are refused as RESTORE', () => {
    const saved = savedThread()
    saved.model.settings.forwardedProps = { note: 'x'.repeat(limits.maxEventBytes) }
    expect(restoring(saved).errors).toEqual([{ code: 'RESTORE', reason: 'damaged', message: expect.stringMatching(/settings.*maxEventBytes/) }])
  })
})

describe('a saved thread at the limits', () => {
  it('a thread made live with the deepest state and result the store accepts restores as it was, with no error', () => {
    const live: AgentStoreError[] = []
    const store = createAgentStore<Doc>({ initialState, threadId: THREAD, limits, onError: (error) => live.push(error) })
    store.apply([
      {
        type: 'RUN_STARTED',
        threadId: THREAD,
        runId: 'r1',
        input: { threadId: THREAD, runId: 'r1', state: {}, messages: [], tools: [], context: [], forwardedProps: { deep: nested(8) } },
      },
      { type: 'STATE_SNAPSHOT', snapshot: { document: nested(limits.maxDepth - 1) } },
      { type: 'RUN_FINISHED', threadId: THREAD, runId: 'r1', result: nested(limits.maxDepth + 5) },
    ] as BaseEvent[])
    expect(live).toEqual([])
    expect(store.getState().run?.result).toEqual(nested(limits.maxDepth + 5))

    const { store: back, errors } = restoring(throughJson(serializeThread(store)))
    expect(errors).toEqual([])
    expect(back.getState().state).toEqual(store.getState().state)
    expect(back.getState().run).toEqual(store.getState().run)
  })
})
