import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { storeInternals } from '../src/internals'
import { ev } from './helpers'

// A drafted tool call reads its arguments with an incremental partial-JSON reader, cached beside
// the model. The cache must hold only calls that still stream: a run that fails, is aborted, is
// reset or ends with a call left open must not keep its reader for the store's life.

/** An agent whose open run the test streams into, then ends as it likes: finish, fail or leave open. */
class StreamingAgent extends AbstractAgent {
  private subscriber: Subscriber<BaseEvent> | undefined

  run(input: RunAgentInput) {
    return new Observable<BaseEvent>((subscriber) => {
      this.subscriber = subscriber
      subscriber.next(ev.runStarted(input.runId))
    })
  }

  push(...events: BaseEvent[]) {
    for (const event of events) this.subscriber?.next(event)
  }

  fail(error: Error) {
    this.subscriber?.error(error)
  }
}

const predict = [{ stateKey: 'document', tool: 'write_document', toolArgument: 'document' }]

/** A store on a streaming agent, a run started, and a drafted call half-way through its arguments. */
function draftingRun(callId = 'call-1') {
  const agent = new StreamingAgent()
  const errors: string[] = []
  const store = createAgentStore({ agent, initialState: { document: '' }, predict, onError: (error) => errors.push(error.code) })
  const running = store.run({ message: 'write' })
  agent.push(ev.toolStart(callId, 'write_document'), ev.toolArgs(callId, '{"document": "Once upon'))
  return { agent, store, running, errors, readers: () => storeInternals(store).readers() }
}

describe('partial-JSON readers of drafted tool calls', () => {
  it('hold one reader while the call streams, and none once it ends', async () => {
    const { agent, store, running, readers } = draftingRun()
    expect(store.getState().predictions.map((p) => p.value)).toEqual(['Once upon'])
    expect(readers()).toBe(1)
    agent.push(ev.toolEnd('call-1'), ev.runFinished(store.getState().runId))
    await running
    expect(readers()).toBe(0)
  })

  it('are dropped when the run fails while a drafted call streams', async () => {
    const { agent, running, readers, errors } = draftingRun()
    agent.fail(new Error('connection reset'))
    await running
    expect(errors).toEqual(['TRANSPORT'])
    expect(readers()).toBe(0)
  })

  it('are dropped when the run is aborted while a drafted call streams', async () => {
    const { store, running, readers } = draftingRun()
    store.abort()
    await running
    expect(store.getState().status).toBe('idle')
    expect(readers()).toBe(0)
  })

  it('are dropped when the server ends the run with RUN_ERROR or RUN_FINISHED before TOOL_CALL_END', async () => {
    const failed = draftingRun()
    failed.agent.push(ev.runError('model overloaded'))
    await failed.running
    expect(failed.readers()).toBe(0)

    const finished = draftingRun()
    finished.agent.push(ev.runFinished(finished.store.getState().runId))
    await finished.running
    expect(finished.readers()).toBe(0)
  })

  it('are dropped by reset() of a store whose events came through apply()', () => {
    const store = createAgentStore({ initialState: { document: '' }, predict })
    store.apply([ev.runStarted('r1'), ev.toolStart('call-1', 'write_document'), ev.toolArgs('call-1', '{"document": "Once')])
    expect(storeInternals(store).readers()).toBe(1)
    store.reset()
    expect(storeInternals(store).readers()).toBe(0)
    expect(store.getState().state).toEqual({ document: '' })
  })

  it('stay at none across 500 failed runs, and the next run still drafts from its arguments', async () => {
    const agent = new StreamingAgent()
    const store = createAgentStore({ agent, initialState: { document: '' }, predict, onError: () => {} })
    for (let i = 0; i < 500; i++) {
      const running = store.run({ message: `try ${i}` })
      agent.push(ev.toolStart(`call-${i}`, 'write_document'), ev.toolArgs(`call-${i}`, '{"document": "draft'))
      agent.fail(new Error('connection reset'))
      await running
    }
    expect(storeInternals(store).readers()).toBe(0)

    const running = store.run({ message: 'again' })
    agent.push(ev.toolStart('call-last', 'write_document'), ev.toolArgs('call-last', '{"document": "The '), ev.toolArgs('call-last', 'end"}'))
    expect(store.getState().predictions.map((p) => p.value)).toEqual(['The end'])
    expect(storeInternals(store).readers()).toBe(1)
    store.abort()
    await running
    expect(storeInternals(store).readers()).toBe(0)
  })
})
