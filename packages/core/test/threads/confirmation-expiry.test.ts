// An interrupt's `expiresAt`, live and restored alike: a date in the past leaves only cancel(); a
// text that is not a date is no expiry (the server said nothing a client can act on, and refusing
// every answer would leave the thread stuck); a saved `expiresAt` that is not text is damage.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStore, type AgentStoreError, createAgentStore, restoreThread, serializeThread } from '../../src'
import { type Doc, SteppedAgent, throughJson } from './support-threads'

const THREAD = 'thread-expiry'

function interrupted(expiresAt: string) {
  const agent = new SteppedAgent()
  const store = createAgentStore<Doc>({ agent, initialState: {}, threadId: THREAD })
  store.apply([
    { type: 'RUN_STARTED', threadId: THREAD, runId: 'r1' } as BaseEvent,
    {
      type: 'RUN_FINISHED',
      threadId: THREAD,
      runId: 'r1',
      outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'input_required', expiresAt }] },
    } as BaseEvent,
  ])
  expect(store.getState().confirmations.map((c) => c.expiresAt)).toStrictEqual([expiresAt])
  return { store, agent }
}

function restored(store: AgentStore<Doc>) {
  const agent = new SteppedAgent()
  const errors: AgentStoreError[] = []
  const again = createAgentStore<Doc>({
    agent,
    initialState: {},
    threadId: THREAD,
    onError: (error) => errors.push(error),
    restore: restoreThread(throughJson(serializeThread(store))),
  })
  return { store: again, agent, errors }
}

const outcome = (promise: Promise<void>) =>
  promise.then(
    () => 'sent',
    (error: AgentStoreError) => error.code,
  )

describe('an interrupt that expires', () => {
  it('a text that is not a date never expires, live and after a restore', async () => {
    const live = interrupted('soon')
    const reloaded = restored(live.store)
    expect(reloaded.errors).toStrictEqual([])
    for (const { store, agent } of [live, reloaded]) {
      const answering = store.respond({ id: 'int-1', payload: { ok: true } })
      expect(agent.inputs.at(-1)?.resume).toStrictEqual([{ interruptId: 'int-1', status: 'resolved', payload: { ok: true } }])
      store.abort()
      expect(await outcome(answering)).toBe('sent')
    }
  })

  it('a date in the past leaves only cancel(), live and after a restore', async () => {
    const live = interrupted('2001-01-01T00:00:00Z')
    const reloaded = restored(live.store)
    for (const { store, agent } of [live, reloaded]) {
      expect(await outcome(store.respond({ id: 'int-1', payload: { ok: true } }))).toBe('EXPIRED')
      void store.cancel({ id: 'int-1' })
      expect(agent.inputs.at(-1)?.resume).toStrictEqual([{ interruptId: 'int-1', status: 'cancelled' }])
    }
  })

  it('a saved expiresAt that is not text is damage: refused, and the store starts clean', () => {
    const { store } = interrupted('soon')
    const saved = throughJson(serializeThread(store)) as unknown as { model: { snapshot: { confirmations: { expiresAt: unknown }[] } } }
    saved.model.snapshot.confirmations[0]!.expiresAt = 1_700_000_000
    const errors: AgentStoreError[] = []
    const again = createAgentStore<Doc>({ initialState: {}, threadId: THREAD, onError: (error) => errors.push(error), restore: restoreThread(saved as never) })
    expect(errors.map((error) => [error.code, error.reason])).toStrictEqual([['RESTORE', 'damaged']])
    expect(again.getState().confirmations).toStrictEqual([])
  })
})
