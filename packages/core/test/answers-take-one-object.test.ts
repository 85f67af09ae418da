import type { RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStore, createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'

/** A store whose first run ends asking two questions (i1, i2); the run the answers resume just finishes. */
async function askingTwo() {
  const interrupts = [
    { id: 'i1', reason: 'input_required' },
    // A schema with a property for it: a reject's reason is sent.
    { id: 'i2', reason: 'input_required', responseSchema: { type: 'object', properties: { accepted: { type: 'boolean' }, reason: { type: 'string' } } } },
  ]
  const agent = new ScriptedAgent({
    runs: [
      (input: RunAgentInput) => [ev.runStarted(input.runId), ev.runFinished(input.runId, input.threadId, { type: 'interrupt', interrupts })],
      (input: RunAgentInput) => [ev.runStarted(input.runId), ev.runFinished(input.runId)],
    ],
  })
  const store = createAgentStore({ agent, initialState: {} })
  await store.run({ forwardedProps: { first: true } })
  return { agent, store }
}

type Loose = (...args: unknown[]) => Promise<void>
const loosely = (store: AgentStore<object>, name: 'approve' | 'reject' | 'respond' | 'cancel') => store[name] as unknown as Loose

describe('the answers take one object', () => {
  it('id, answer and run options in one object: each goes where it belongs in the resumed request', async () => {
    const { agent, store } = await askingTwo()
    await store.respond({ id: 'i1', payload: { name: 'Ada' }, forwardedProps: { second: true }, timeoutMs: 5_000 })
    await store.reject({ id: 'i2', reason: 'not now', context: [{ description: 'page', value: 'home' }] })
    expect(agent.inputs).toHaveLength(2)
    expect(agent.inputs[1]!.resume).toStrictEqual([
      { interruptId: 'i1', status: 'resolved', payload: { name: 'Ada' } },
      { interruptId: 'i2', status: 'resolved', payload: { accepted: false, reason: 'not now' } },
    ])
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ second: true })
    expect(agent.inputs[1]!.context).toStrictEqual([{ description: 'page', value: 'home' }])
  })

  it('without run options the resumed run resends those of the run it resumes', async () => {
    const { agent, store } = await askingTwo()
    await store.cancel({ id: 'i1' })
    await store.approve({ id: 'i2' })
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ first: true })
  })

  it.each([
    ['approve', ['i1', { name: 'Ada' }]],
    ['reject', ['i1', 'no']],
    ['respond', ['i1', 'yes']],
    ['cancel', ['i1']],
    ['approve', [null]],
    ['respond', [['i1']]],
  ] as const)('%s called from JavaScript with %j (the positional form of 0.1) is refused: INVALID_ANSWER, nothing answered', async (name, args) => {
    const { agent, store } = await askingTwo()
    const before = store.getState()
    await expect(loosely(store, name)(...args)).rejects.toMatchObject({ code: 'INVALID_ANSWER' })
    expect(store.getState()).toBe(before)
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i1', 'i2'])
    expect(agent.inputs).toHaveLength(1)
  })
})
