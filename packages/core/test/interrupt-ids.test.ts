// Interrupt ids a server reuses. An interrupt answered once is never opened again by a replay of
// its run (events fed through apply(), a restore followed by a replay); an interrupt a live run of
// this store asks, whatever its id, is that run's own and opens, holding its drafts.
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { createAgentStore, restoreThread, serializeThread } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'

type Doc = Record<string, unknown>

const predict = ev.custom('PredictState', [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }])
/** A run that drafts `text` through call `callId` and asks interrupt `id` about it. */
const drafting =
  (text: string, callId: string, id = 'i1') =>
  (input: RunAgentInput): BaseEvent[] => [
    ev.runStarted(input.runId),
    predict,
    ev.toolStart(callId, 'write_document', `m-${callId}`),
    ev.toolArgs(callId, JSON.stringify({ document: text })),
    ev.toolEnd(callId),
    ev.runFinished(input.runId, 't1', { type: 'interrupt', interrupts: [{ id, reason: 'tool_call', toolCallId: callId }] }),
  ]
const finishing = (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId), ev.runFinished(input.runId)]

describe('an interrupt id reused by a new live run', () => {
  it('opens again: the new run’s draft waits for its own answer instead of being committed', async () => {
    // agent-framework names an interrupt after its tool call, and some models number their calls from 0 each turn.
    const agent = new ScriptedAgent({ runs: [drafting('first draft', 'call_0'), finishing, drafting('second draft', 'call_0'), finishing] })
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run({ message: 'write' })
    await store.approve({ id: 'i1' })
    expect(store.getState().committed).toStrictEqual({ document: 'first draft' })

    await store.run({ message: 'write it again' })
    const asked = store.getState()
    expect(asked.status).toBe('interrupted')
    expect(asked.confirmations.map((c) => [c.id, c.toolCallId, c.stateKeys])).toStrictEqual([['i1', 'call_0', ['document']]])
    expect(asked.state).toStrictEqual({ document: 'second draft' })
    expect(asked.committed).toStrictEqual({ document: 'first draft' })

    await store.reject({ id: 'i1' })
    expect(agent.inputs[3]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: false } }])
    expect(agent.inputs[3]!.state).toStrictEqual({ document: 'first draft' })
    expect(store.getState()).toMatchObject({ status: 'idle', state: { document: 'first draft' }, confirmations: [] })
  })

  it('the run resumed by an answer that asks the same id again opens it again, and the next run() waits for it', async () => {
    const agent = new ScriptedAgent({ runs: [drafting('first draft', 'w1'), drafting('again', 'w2'), finishing] })
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run()
    await store.approve()
    expect(store.getState()).toMatchObject({ status: 'interrupted', committed: { document: 'first draft' }, state: { document: 'again' } })
    await expect(store.run({ message: 'next' })).rejects.toMatchObject({ code: 'PENDING_CONFIRMATION' })
    await store.approve({ id: 'i1' })
    expect(agent.inputs).toHaveLength(3)
    expect(store.getState()).toMatchObject({ status: 'idle', committed: { document: 'again' } })
  })

  it('a replay of the answered run through apply() still opens nothing, before and after a restore', async () => {
    const agent = new ScriptedAgent({ runs: [drafting('first draft', 'w1'), finishing] })
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' }, threadId: 't1' })
    await store.run()
    await store.approve()
    const replay = drafting('first draft', 'w1')(agent.inputs[0]!)
    const restored = createAgentStore<Doc>({
      initialState: { document: 'before' },
      threadId: 't1',
      restore: restoreThread(JSON.parse(JSON.stringify(serializeThread(store)))),
    })
    for (const one of [store, restored]) {
      one.apply(replay)
      expect(one.getState()).toMatchObject({ status: 'idle', confirmations: [], committed: { document: 'first draft' } })
    }
  })
})

describe('the answered interrupts a thread remembers', () => {
  it('are bounded: after many answers only the most recent are remembered, and a replay of a recent one still opens nothing', async () => {
    const rounds = 105
    const agent = new ScriptedAgent({
      runs: Array.from({ length: rounds }, (_, i) => [drafting(`draft ${i}`, `w${i}`, `i${i}`), finishing]).flat(),
    })
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' }, threadId: 't1' })
    for (let i = 0; i < rounds; i++) {
      await store.run()
      await store.approve({ id: `i${i}` })
    }
    const saved = JSON.stringify(serializeThread(store))
    const remembered = Array.from({ length: rounds }, (_, i) => `"i${i}"`).filter((id) => saved.includes(id))
    expect(remembered.length).toBeLessThanOrEqual(100)
    expect(remembered).toContain(`"i${rounds - 1}"`)
    // The latest answered interrupt replayed opens nothing.
    store.apply(drafting(`draft ${rounds - 1}`, `w${rounds - 1}`, `i${rounds - 1}`)(agent.inputs.at(-2)!))
    expect(store.getState().confirmations).toStrictEqual([])
  })
})
