import { describe, expect, it } from 'vitest'
import { type AgentSnapshot, type AgentStoreError, canAnswer, canRun, createAgentStore } from '../src'
import { ev, ManualAgent } from './helpers'

const refusal = (promise: Promise<void>) =>
  promise.then(
    () => 'accepted',
    (error: AgentStoreError) => error.code,
  )
const both = (snapshot: AgentSnapshot<unknown>) => ({ run: canRun(snapshot), answer: canAnswer(snapshot) })

describe('canRun and canAnswer', () => {
  it('agree with what run() and approve() accept, through a whole interrupted run', async () => {
    const agent = new ManualAgent()
    const store = createAgentStore({ agent, initialState: { document: '' } })
    expect(both(store.getState())).toEqual({ run: true, answer: false })
    expect(await refusal(store.approve())).toBe('NO_CONFIRMATION')

    const first = store.run({ message: 'Write' })
    expect(store.getState().status).toBe('running')
    expect(both(store.getState())).toEqual({ run: false, answer: false })
    expect(await refusal(store.run())).toBe('RUN_ACTIVE')

    const runId = agent.inputs[0]!.runId
    agent.push(ev.runFinished(runId, agent.inputs[0]!.threadId, { type: 'interrupt', interrupts: [{ id: 'approve-1', reason: 'tool_call' }] }))
    await first
    expect(store.getState().status).toBe('interrupted')
    expect(both(store.getState())).toEqual({ run: false, answer: true })
    expect(await refusal(store.run())).toBe('PENDING_CONFIRMATION')

    const resumed = store.approve()
    expect(both(store.getState())).toEqual({ run: false, answer: false })
    expect(await refusal(store.reject())).toBe('RUN_ACTIVE')
    expect(await refusal(store.run())).toBe('RUN_ACTIVE')

    agent.push(ev.runError('boom', 'FAILED'))
    await resumed
    expect(store.getState().status).toBe('error')
    expect(both(store.getState())).toEqual({ run: true, answer: false })
    const next = store.run()
    expect(store.getState().status).toBe('running')
    agent.finish(agent.inputs[2]!.runId)
    expect(await refusal(next)).toBe('accepted')
    expect(both(store.getState())).toEqual({ run: true, answer: false })
  })

  it('say no to both while a run is active, even with confirmations already listed', () => {
    const running = {
      status: 'running',
      requesting: true,
      confirmations: [{ id: 'c', source: 'tool', runId: 'r', stateKeys: [] }],
    } as unknown as AgentSnapshot<unknown>
    expect(both(running)).toEqual({ run: false, answer: false })
  })
})
