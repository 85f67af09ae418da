import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { ev } from '../helpers'

// How a run ends, pinned through the public API: what a failed run rolls back and keeps, what
// it does to open steps and subagents, and what a finished run commits, holds and opens.

type S = Record<string, unknown>
const predict = (stateKey: string, tool: string, toolArgument: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, tool_argument: toolArgument }])
const interrupt = (runId: string, interrupts: Record<string, unknown>[]) => ev.runFinished(runId, 't1', { type: 'interrupt', interrupts })
const subagentStarted = (id: string) => ({ type: 'SUBAGENT_STARTED', subagentRunId: id, name: 'helper' }) as BaseEvent

/** Streams what the test pushes; `fail` errors the stream the way a broken connection does. */
class OpenAgent extends AbstractAgent {
  subscriber: Subscriber<BaseEvent> | undefined
  run(input: RunAgentInput) {
    return new Observable<BaseEvent>((subscriber) => {
      this.subscriber = subscriber
      subscriber.next(ev.runStarted(input.runId))
    })
  }
  push(...events: BaseEvent[]) {
    for (const event of events) this.subscriber!.next(event)
  }
}

function streaming(initialState: S, options: { keepFailedRunChanges?: boolean } = {}) {
  const agent = new OpenAgent()
  const errors: AgentStoreError[] = []
  const store = createAgentStore<S>({ agent, initialState, onError: (error) => errors.push(error), ...options })
  const done = store.run()
  return { agent, store, errors, done }
}

describe('a failed run and what it started', () => {
  it('abort() ends open steps and running subagents with "The run was stopped", without a code', async () => {
    const { agent, store, done } = streaming({ n: 0 })
    agent.push(subagentStarted('s1'), ev.stepStarted('plan'))
    expect(store.getState().steps).toStrictEqual(['plan'])
    store.abort()
    await done
    const after = store.getState()
    expect(after.status).toBe('idle')
    expect(after.error).toBeUndefined()
    expect(after.steps).toStrictEqual([])
    expect(after.subagents.map(({ subagentRunId, status, error }) => ({ subagentRunId, status, error }))).toStrictEqual([
      { subagentRunId: 's1', status: 'error', error: { message: 'The run was stopped' } },
    ])
  })

  it('a broken stream ends running subagents with its error and code', async () => {
    const { agent, store, done } = streaming({ n: 0 })
    agent.push(subagentStarted('s1'))
    agent.subscriber!.error(new Error('socket closed'))
    await done
    const after = store.getState()
    expect(after.status).toBe('error')
    expect(after.error?.code).toBe('TRANSPORT')
    expect(after.subagents[0]!.status).toBe('error')
    expect(after.subagents[0]!.error).toStrictEqual({ message: after.error!.message, code: 'TRANSPORT' })
  })

  it('a malformed RUN_ERROR ends the run as an error, its subagents with the error code', () => {
    const store = createAgentStore<S>({ initialState: { n: 0 }, onError: () => {} })
    store.apply([ev.runStarted(), subagentStarted('s1'), ev.stepStarted('plan'), { type: 'RUN_ERROR' } as BaseEvent])
    const after = store.getState()
    expect(after.status).toBe('error')
    expect(after.error?.code).toBe('INVALID_EVENT')
    expect(after.steps).toStrictEqual([])
    expect(after.subagents[0]!.error).toStrictEqual({ message: after.error!.message, code: 'INVALID_EVENT' })
  })

  it('rolls back what the server changed, keeping the user edits made during the run', async () => {
    const { agent, store, errors, done } = streaming({ a: 0, b: 0 })
    agent.push(ev.delta({ op: 'replace', path: '/a', value: 1 }))
    store.setState((s) => ({ ...s, b: 5 }))
    agent.push(ev.delta({ op: 'add', path: '/c', value: 1 }))
    expect(store.getState().state).toStrictEqual({ a: 1, b: 5, c: 1 })
    agent.push(ev.runError('boom'))
    await done
    expect(store.getState().state).toStrictEqual({ a: 0, b: 5 })
    expect(store.getState().committed).toBe(store.getState().state)
    expect(errors.map((e) => e.code)).toStrictEqual(['RUN_ERROR'])
  })

  it('a user edit of something the failed run created is handed back as a conflict', async () => {
    const { agent, store, errors, done } = streaming({ items: [] })
    agent.push(ev.delta({ op: 'add', path: '/items/0', value: { id: 1, v: 1 } }))
    store.setState((s) => ({ ...s, items: [{ id: 1, v: 2 }] }))
    agent.push(ev.runError('boom'))
    await done
    expect(store.getState().state).toStrictEqual({ items: [] })
    const conflicts = errors.filter((e) => e.code === 'EDIT_CONFLICT')
    expect(conflicts.map((e) => ({ path: e.path, value: e.value }))).toStrictEqual([{ path: '/items/0/v', value: 2 }])
  })

  it('with keepFailedRunChanges, commits what the run changed and drafted', async () => {
    const { agent, store, done } = streaming({ a: 0, doc: 'old' }, { keepFailedRunChanges: true })
    agent.push(
      predict('doc', 'write', 'doc'),
      ev.delta({ op: 'replace', path: '/a', value: 1 }),
      ev.toolStart('c1', 'write'),
      ev.toolArgs('c1', '{"doc":"new'),
      ev.runError('boom'),
    )
    await done
    const after = store.getState()
    expect(after).toMatchObject({ status: 'error', predictions: [] })
    expect(after.state).toStrictEqual({ a: 1, doc: 'new' })
    expect(after.committed).toBe(after.state)
  })

  it('a cancelled outcome discards the drafts and ends idle', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old' } })
    store.apply([ev.runStarted(), predict('doc', 'write', 'doc'), ev.toolStart('c1', 'write'), ev.toolArgs('c1', '{"doc":"new"}')])
    store.apply(ev.runFinished('r1', 't1', { type: 'cancelled' }))
    const after = store.getState()
    expect(after).toMatchObject({ status: 'idle', error: undefined, predictions: [], confirmations: [] })
    expect(after.state).toStrictEqual({ doc: 'old' })
  })

  it('a failed later run keeps the drafts an earlier run left to its confirmation', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old', n: 0 }, onError: () => {} })
    store.apply([
      ev.runStarted('r1'),
      predict('doc', 'write', 'doc'),
      ev.toolStart('w1', 'write'),
      ev.toolArgs('w1', '{"doc":"draft"}'),
      ev.toolEnd('w1'),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
    ])
    store.apply([ev.runStarted('r2'), ev.delta({ op: 'replace', path: '/n', value: 1 }), ev.runError('boom')])
    const after = store.getState()
    expect(after.state).toStrictEqual({ doc: 'draft', n: 0 })
    expect(after.committed).toStrictEqual({ doc: 'old', n: 0 })
    expect(after.confirmations.map((c) => ({ id: c.id, stateKeys: c.stateKeys }))).toStrictEqual([{ id: 'i1', stateKeys: ['doc'] }])
  })

  it('a run-less RUN_ERROR only reports', () => {
    const errors: AgentStoreError[] = []
    const store = createAgentStore<S>({ initialState: { n: 0 }, onError: (e) => errors.push(e) })
    store.apply(ev.runError('boom'))
    expect(store.getState()).toMatchObject({ status: 'error', state: { n: 0 }, confirmations: [] })
    expect(errors.map((e) => e.code)).toStrictEqual(['RUN_ERROR'])
  })
})

describe('a finished run', () => {
  it('commits the drafts nobody confirms and holds those a confirmation governs', () => {
    const store = createAgentStore<S>({ initialState: { doc: 'old', notes: 'n' } })
    store.apply([
      ev.runStarted('r1'),
      predict('doc', 'write', 'doc'),
      predict('notes', 'note', 'notes'),
      ev.toolStart('w1', 'write'),
      ev.toolArgs('w1', '{"doc":"draft"}'),
      ev.toolEnd('w1'),
      ev.toolStart('n1', 'note'),
      ev.toolArgs('n1', '{"notes":"more"}'),
      ev.toolEnd('n1'),
      ev.stepStarted('left open'),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
    ])
    const after = store.getState()
    expect(after.status).toBe('interrupted')
    expect(after.steps).toStrictEqual([])
    expect(after.state).toStrictEqual({ doc: 'draft', notes: 'more' })
    expect(after.committed).toStrictEqual({ doc: 'old', notes: 'more' })
    expect(after.predictions.map((p) => p.stateKey)).toStrictEqual(['doc'])
  })

  it('a RUN_FINISHED fed without RUN_STARTED still opens its interrupts', () => {
    const store = createAgentStore<S>({ initialState: { n: 0 } })
    store.apply(interrupt('r9', [{ id: 'i1', reason: 'input_required', message: 'Name?' }]))
    const after = store.getState()
    expect(after.status).toBe('interrupted')
    expect(after.confirmations.map((c) => ({ id: c.id, source: c.source, message: c.message, stateKeys: c.stateKeys }))).toStrictEqual([
      { id: 'i1', source: 'interrupt', message: 'Name?', stateKeys: [] },
    ])
  })

  it('names on_interrupt confirmations after the run, or "run" when it has no id', () => {
    const named = createAgentStore<S>({ initialState: { n: 0 } })
    named.apply([ev.runStarted('r7'), ev.custom('on_interrupt', '{"q":1}'), ev.custom('on_interrupt', '{"q":2}'), ev.runFinished('r7')])
    expect(named.getState().confirmations.map((c) => c.id)).toStrictEqual(['r7:on_interrupt:0', 'r7:on_interrupt:1'])
    const unnamed = createAgentStore<S>({ initialState: { n: 0 } })
    unnamed.apply([ev.custom('on_interrupt', '{"q":1}'), ev.runFinished('r7')])
    expect(unnamed.getState().confirmations.map((c) => c.id)).toStrictEqual(['run:on_interrupt:0'])
    expect(unnamed.getState().status).toBe('interrupted')
  })

  it('ends idle, with no confirmations, when none is open', () => {
    const store = createAgentStore<S>({ initialState: { n: 0 } })
    store.apply([ev.runStarted('r1'), ev.stepStarted('s'), ev.runFinished('r1')])
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], steps: [] })
  })

  it('an interrupt a live run asks again after its answer arrived opens again: it is that run’s own', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'i1', reason: 'input_required' }])],
        (input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'i1', reason: 'input_required' }])],
      ],
    })
    const store = createAgentStore<S>({ agent, initialState: { n: 0 } })
    await store.run()
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i1'])
    await store.respond({ id: 'i1', payload: { name: 'Ada' } })
    expect(agent.inputs).toHaveLength(2)
    expect(store.getState().status).toBe('interrupted')
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i1'])
  })

  it('a draft the validator refuses at the end is discarded, reported and shown as the error', () => {
    const errors: AgentStoreError[] = []
    const validate = (state: unknown) => {
      if ((state as S).doc === 'bad') throw new Error('doc may not be bad')
      return state as S
    }
    const store = createAgentStore<S>({ initialState: { doc: 'old', n: 0 }, validate, onError: (e) => errors.push(e) })
    store.apply([
      ev.runStarted('r1'),
      predict('doc', 'write', 'doc'),
      ev.delta({ op: 'replace', path: '/n', value: 1 }),
      ev.toolStart('w1', 'write'),
      ev.toolArgs('w1', '{"doc":"bad"}'),
      ev.toolEnd('w1'),
      ev.runFinished('r1'),
    ])
    const after = store.getState()
    expect(after.state).toStrictEqual({ doc: 'old', n: 1 })
    expect(after.committed).toBe(after.state)
    expect(after.predictions).toStrictEqual([])
    expect(errors.map((e) => e.code)).toStrictEqual(['VALIDATION'])
    expect(after.error).toBe(errors[0])
    expect(after.status).toBe('idle')
  })
})

describe('after a run', () => {
  it("the user's edit made during it is folded into the state: a later server change stands", () => {
    const store = createAgentStore<S>({ initialState: { a: 0, b: 0 } })
    store.apply(ev.runStarted('r1'))
    store.setState((s) => ({ ...s, b: 5 }))
    store.apply(ev.runFinished('r1'))
    expect(store.getState().state).toStrictEqual({ a: 0, b: 5 })
    store.apply(ev.delta({ op: 'replace', path: '/b', value: 7 }))
    expect(store.getState().state).toStrictEqual({ a: 0, b: 7 })
  })

  it('an answered interrupt id does not hide a confirmation tool call that has the same id', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'x1', reason: 'input_required' }])],
        (input) => [
          ev.runStarted(input.runId),
          ev.toolStart('x1', 'confirm_changes', 'm9'),
          ev.toolArgs('x1', '{}'),
          ev.toolEnd('x1'),
          ev.runFinished(input.runId),
        ],
      ],
    })
    const store = createAgentStore<S>({ agent, initialState: {} })
    await store.run()
    await store.respond({ id: 'x1', payload: { ok: true } })
    expect(store.getState().confirmations.map((c) => [c.id, c.source])).toStrictEqual([['x1', 'tool']])
  })
})
