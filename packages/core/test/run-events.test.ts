// RUN_* and STEP_* events: what a run's info holds and drops, what ends with a run, and steps per
// owner with the exact refusals. The reducers are pure, so identities are checked on them directly.
import type { RunErrorEvent, RunFinishedEvent, RunStartedEvent, StepFinishedEvent, StepStartedEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import type { AgentSnapshot, AgentStoreError } from '../src'
import { endRunWork, reduceRunError, reduceRunFinished, reduceRunStarted, reduceStepFinished, reduceStepStarted } from '../src/snapshot/lifecycle'
import { ev, refusalOf } from './helpers'
import { event, snapshotHolding, storeAfter } from './support/events'

type S = Record<string, unknown>

const blank = () => snapshotHolding<S>()
const started = (runId: string, threadId = 't1') => event<RunStartedEvent>({ type: 'RUN_STARTED', threadId, runId })
const finished = (fields: Record<string, unknown>) => event<RunFinishedEvent>({ type: 'RUN_FINISHED', threadId: 't1', ...fields })
const failed = (fields: Record<string, unknown>) => event<RunErrorEvent>({ type: 'RUN_ERROR', ...fields })
const owned = (subagentRunId?: string) => (subagentRunId === undefined ? {} : { subagentRunId })
const stepStart = (stepName: string, subagentRunId?: string) => event<StepStartedEvent>({ type: 'STEP_STARTED', stepName, ...owned(subagentRunId) })
const stepFinish = (stepName: string, subagentRunId?: string) => event<StepFinishedEvent>({ type: 'STEP_FINISHED', stepName, ...owned(subagentRunId) })
/** A snapshot as an older version saved it: without the subagent lists. */
const withoutSubagentLists = ({ subagents: _a, subagentSteps: _b, ...old }: AgentSnapshot<S>) => old as AgentSnapshot<S>

describe('RUN_STARTED', () => {
  it('holds only the fields the event has: no parentRunId, input or metadata keys when absent', () => {
    const { store } = storeAfter(ev.runStarted('r1'))
    expect(store.getState().run).toStrictEqual({ runId: 'r1' })
    expect(store.getState().status).toBe('running')
    expect(store.getState().runId).toBe('r1')
  })

  it('keeps parentRunId, input and metadata, and appends the input messages it does not hold', () => {
    const input = { threadId: 't1', runId: 'r2', state: {}, messages: [{ id: 'u1', role: 'user', content: 'hi' }], tools: [], context: [], forwardedProps: {} }
    const { store } = storeAfter(event({ type: 'RUN_STARTED', threadId: 't1', runId: 'r2', parentRunId: 'r1', input, metadata: { trace: 'x' } }))
    expect(store.getState().run).toStrictEqual({ runId: 'r2', parentRunId: 'r1', input, metadata: { trace: 'x' } })
    expect(store.getState().messages).toStrictEqual([{ id: 'u1', role: 'user', content: 'hi' }])
  })

  it('clears the last error, the steps of both owners, and starts from a fresh run info', () => {
    const snapshot: AgentSnapshot<S> = {
      ...blank(),
      status: 'error',
      steps: ['old'],
      subagentSteps: [{ subagentRunId: 's1', stepName: 'x' }],
      error: new Error('old') as AgentStoreError,
      run: { runId: 'r0', outcome: 'error', metadata: { a: 1 } },
    }
    const next = reduceRunStarted(snapshot, started('r1'))
    expect(next.status).toBe('running')
    expect(next.runId).toBe('r1')
    expect(next.steps).toStrictEqual([])
    expect(next.subagentSteps).toStrictEqual([])
    expect(next.error).toBeUndefined()
    expect(next.run).toStrictEqual({ runId: 'r1' })
    expect(Object.isFrozen(next.steps)).toBe(true)
    expect(Object.isFrozen(next.subagentSteps)).toBe(true)
  })
})

describe('RUN_FINISHED', () => {
  it('is interrupted only with at least one interrupt; an empty interrupt list ends idle', () => {
    const base = reduceRunStarted(blank(), started('r1'))
    const empty = reduceRunFinished(base, finished({ runId: 'r1', outcome: { type: 'interrupt', interrupts: [] } }))
    expect(empty.status).toBe('idle')
    expect(empty.run).toStrictEqual({ runId: 'r1', outcome: 'interrupt' })
    const one = reduceRunFinished(base, finished({ runId: 'r1', outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirm' }] } }))
    expect(one.status).toBe('interrupted')
    const cancelled = reduceRunFinished(base, finished({ runId: 'r1', outcome: { type: 'cancelled' } }))
    expect(cancelled.status).toBe('idle')
    expect(cancelled.run).toStrictEqual({ runId: 'r1', outcome: 'cancelled' })
  })

  it('drops the earlier outcome, result, usage of the same run, keeping its other fields and merging metadata', () => {
    const snapshot: AgentSnapshot<S> = {
      ...blank(),
      runId: 'r1',
      run: { runId: 'r1', parentRunId: 'p', outcome: 'error', result: 1, usage: [{ inputTokens: 1 }], metadata: { a: 1, b: 1 } },
    }
    const next = reduceRunFinished(snapshot, finished({ runId: 'r1' }))
    expect(next.run).toStrictEqual({ runId: 'r1', parentRunId: 'p', outcome: 'success', metadata: { a: 1, b: 1 } })
    const merged = reduceRunFinished(snapshot, finished({ runId: 'r1', metadata: { b: 2 }, result: 'ok' }))
    expect(merged.run).toStrictEqual({ runId: 'r1', parentRunId: 'p', outcome: 'success', result: 'ok', metadata: { a: 1, b: 2 } })
  })

  it('of another run id starts a new run info, taking nothing from the current one', () => {
    const snapshot: AgentSnapshot<S> = { ...blank(), runId: 'r1', run: { runId: 'r1', parentRunId: 'p', metadata: { a: 1 } } }
    const next = reduceRunFinished(snapshot, finished({ runId: 'r9' }))
    expect(next.run).toStrictEqual({ runId: 'r9', outcome: 'success' })
    const withMeta = reduceRunFinished(snapshot, finished({ runId: 'r9', metadata: { z: 1 } }))
    expect(withMeta.run).toStrictEqual({ runId: 'r9', outcome: 'success', metadata: { z: 1 } })
  })

  it('with no run held starts one from the event (a recording may end a run it never started)', () => {
    const next = reduceRunFinished(blank(), finished({ runId: 'r5', usage: [{ outputTokens: 2 }] }))
    expect(next.run).toStrictEqual({ runId: 'r5', outcome: 'success', usage: [{ outputTokens: 2 }] })
  })

  it('fed without RUN_STARTED, its interrupts become confirmations carrying the run id the event names', () => {
    const { store } = storeAfter(ev.runFinished('r9', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] }))
    expect(store.getState().confirmations.map((c) => c.runId)).toStrictEqual(['r9'])
  })

  it('ends the steps of both owners and the running subagents with its own message', () => {
    const snapshot: AgentSnapshot<S> = {
      ...blank(),
      status: 'running',
      runId: 'r1',
      run: { runId: 'r1' },
      steps: ['a'],
      subagentSteps: [{ subagentRunId: 's1', stepName: 'b' }],
      subagents: [
        { subagentRunId: 's1', name: 'x', status: 'running', runId: 'r1' },
        { subagentRunId: 's2', name: 'y', status: 'finished', runId: 'r1' },
      ],
    }
    const next = reduceRunFinished(snapshot, finished({ runId: 'r1' }))
    expect(next.steps).toStrictEqual([])
    expect(next.subagentSteps).toStrictEqual([])
    expect(next.subagents).toStrictEqual([
      { subagentRunId: 's1', name: 'x', status: 'error', runId: 'r1', error: { message: 'The run finished before the subagent did' } },
      { subagentRunId: 's2', name: 'y', status: 'finished', runId: 'r1' },
    ])
    expect(next.subagents[1]).toBe(snapshot.subagents[1])
  })
})

describe('RUN_ERROR', () => {
  it('without a code: no serverCode on the error, no code on the subagents it ends, no usage on the run', () => {
    const snapshot: AgentSnapshot<S> = {
      ...blank(),
      runId: 'r1',
      run: { runId: 'r1', result: 1 },
      subagents: [{ subagentRunId: 's1', name: 'x', status: 'running', runId: 'r1' }],
    }
    const next = reduceRunError(snapshot, failed({ message: 'boom' }))
    expect(next.status).toBe('error')
    expect(next.error?.code).toBe('RUN_ERROR')
    expect(next.error?.message).toBe('boom')
    expect(next.error?.serverCode).toBeUndefined()
    expect(next.subagents[0]!.error).toStrictEqual({ message: 'boom' })
    expect(next.run).toStrictEqual({ runId: 'r1', outcome: 'error' })
  })

  it('with a code: the serverCode, and the subagents end with it', () => {
    const snapshot: AgentSnapshot<S> = { ...blank(), subagents: [{ subagentRunId: 's1', name: 'x', status: 'running', runId: 'r1' }] }
    const next = reduceRunError(snapshot, failed({ message: 'quota', code: 'Q' }))
    expect(next.error?.serverCode).toBe('Q')
    expect(next.subagents[0]!.error).toStrictEqual({ message: 'quota', code: 'Q' })
    expect(next.run).toStrictEqual({ runId: undefined, outcome: 'error' })
  })

  it('belongs to the current run whatever its id (RUN_ERROR has no runId)', () => {
    const snapshot: AgentSnapshot<S> = { ...blank(), runId: 'r1', run: { runId: 'r1', parentRunId: 'p', metadata: { a: 1 } } }
    const next = reduceRunError(snapshot, failed({ message: 'x', metadata: { b: 2 } }))
    expect(next.run).toStrictEqual({ runId: 'r1', parentRunId: 'p', outcome: 'error', metadata: { a: 1, b: 2 } })
  })
})

describe('the work a run leaves open (endRunWork)', () => {
  const failure = { message: 'stop' }

  it('returns the snapshot itself when nothing is open', () => {
    const snapshot = blank()
    expect(endRunWork(snapshot, failure)).toBe(snapshot)
    const ended = { ...snapshot, subagents: [{ subagentRunId: 's1', name: 'x', status: 'finished' as const, runId: 'r1' }] }
    expect(endRunWork(ended, failure)).toBe(ended)
  })

  it('copies when a parent step, a subagent step or a running subagent is open', () => {
    const snapshot = blank()
    const parentStep = { ...snapshot, steps: ['a'] }
    const next = endRunWork(parentStep, failure)
    expect(next).not.toBe(parentStep)
    expect(next.steps).toStrictEqual([])
    expect(next.subagents).toBe(parentStep.subagents)
    const subagentStep = { ...snapshot, subagentSteps: [{ subagentRunId: 's1', stepName: 'b' }] }
    const next2 = endRunWork(subagentStep, failure)
    expect(next2).not.toBe(subagentStep)
    expect(next2.subagentSteps).toStrictEqual([])
    const running = { ...snapshot, subagents: [{ subagentRunId: 's1', name: 'x', status: 'running' as const, runId: 'r1' }] }
    const next3 = endRunWork(running, failure)
    expect(next3.subagents).toStrictEqual([{ subagentRunId: 's1', name: 'x', status: 'error', runId: 'r1', error: { message: 'stop' } }])
  })

  it('copes with a snapshot without subagents or subagentSteps (one restored from an older version)', () => {
    const snapshot = withoutSubagentLists(blank())
    expect(endRunWork(snapshot, failure)).toStrictEqual({ ...snapshot, steps: [], subagentSteps: [], subagents: [] })
    const withSteps = { ...snapshot, steps: ['a'] }
    expect(endRunWork(withSteps, failure).steps).toStrictEqual([])
  })
})

describe('STEP_STARTED and STEP_FINISHED', () => {
  it('STEP_STARTED adds to the owner list only, copying it', () => {
    const snapshot = blank()
    const parent = reduceStepStarted(snapshot, stepStart('a'))
    expect(parent.steps).toStrictEqual(['a'])
    expect(parent.subagentSteps).toBe(snapshot.subagentSteps)
    const child = reduceStepStarted(parent, stepStart('a', 's1'))
    expect(child.steps).toBe(parent.steps)
    expect(child.subagentSteps).toStrictEqual([{ subagentRunId: 's1', stepName: 'a' }])
    expect(reduceStepStarted(withoutSubagentLists(snapshot), stepStart('b', 's2')).subagentSteps).toStrictEqual([{ subagentRunId: 's2', stepName: 'b' }])
  })

  it('STEP_FINISHED removes the last open step of that name, and the last of the list leaves the shared empty list', () => {
    const snapshot = { ...blank(), steps: ['a', 'b', 'a'] }
    const next = reduceStepFinished(snapshot, stepFinish('a'))
    expect(next.steps).toStrictEqual(['a', 'b'])
    expect(snapshot.steps).toStrictEqual(['a', 'b', 'a'])
    const first = reduceStepFinished(snapshot, stepFinish('b'))
    expect(first.steps).toStrictEqual(['a', 'a'])
    const one = { ...blank(), steps: ['z'] }
    const empty = reduceStepFinished(one, stepFinish('z'))
    expect(empty.steps).toStrictEqual([])
    expect(Object.isFrozen(empty.steps)).toBe(true)
    expect(empty.steps).toBe(reduceRunStarted(blank(), started('r', 't')).steps)
  })

  it('STEP_FINISHED of a subagent removes its own last entry of that name, not another owner one', () => {
    const list = [
      { subagentRunId: 's1', stepName: 'a' },
      { subagentRunId: 's2', stepName: 'a' },
      { subagentRunId: 's1', stepName: 'b' },
      { subagentRunId: 's1', stepName: 'a' },
      { subagentRunId: 's2', stepName: 'b' },
    ]
    const snapshot = { ...blank(), steps: ['a'], subagentSteps: list }
    const next = reduceStepFinished(snapshot, stepFinish('a', 's1'))
    expect(next.subagentSteps).toStrictEqual([list[0], list[1], list[2], list[4]])
    expect(next.steps).toBe(snapshot.steps)
    const again = reduceStepFinished(next, stepFinish('a', 's1'))
    expect(again.subagentSteps).toStrictEqual([list[1], list[2], list[4]])
    const first = reduceStepFinished({ ...blank(), subagentSteps: list }, stepFinish('a', 's2'))
    expect(first.subagentSteps).toStrictEqual([list[0], list[2], list[3], list[4]])
    const only = { ...blank(), subagentSteps: [{ subagentRunId: 's1', stepName: 'a' }] }
    const empty = reduceStepFinished(only, stepFinish('a', 's1'))
    expect(empty.subagentSteps).toStrictEqual([])
    expect(Object.isFrozen(empty.subagentSteps)).toBe(true)
  })

  it('STEP_FINISHED of a subagent finds its step at index 0', () => {
    const snapshot = {
      ...blank(),
      subagentSteps: [
        { subagentRunId: 's1', stepName: 'a' },
        { subagentRunId: 's2', stepName: 'c' },
      ],
    }
    expect(reduceStepFinished(snapshot, stepFinish('a', 's1')).subagentSteps).toStrictEqual([{ subagentRunId: 's2', stepName: 'c' }])
  })

  it('refuses a step nobody started, naming it', () => {
    expect(refusalOf(() => reduceStepFinished(blank(), stepFinish('x')))).toStrictEqual({
      code: 'INVALID_EVENT',
      message: 'STEP_FINISHED for step "x", which has not started',
      eventType: 'STEP_FINISHED',
    })
    expect(refusalOf(() => reduceStepFinished(withoutSubagentLists(blank()), stepFinish('x', 's1'))).message).toBe(
      'STEP_FINISHED for step "x", which has not started',
    )
  })

  it('refuses a step finished by the wrong owner, naming who holds it', () => {
    const refusal = (snapshot: AgentSnapshot<S>, step: StepFinishedEvent) => refusalOf(() => reduceStepFinished(snapshot, step)).message
    const snapshot = { ...blank(), steps: ['p'], subagentSteps: [{ subagentRunId: 's2', stepName: 'q' }] }
    expect(refusal(snapshot, stepFinish('p', 's1'))).toBe(
      'STEP_FINISHED for step "p" of subagent "s1": it is open under the parent agent, which must finish it',
    )
    expect(refusal(snapshot, stepFinish('q'))).toBe('STEP_FINISHED for step "q" of the parent agent: it is open under subagent "s2", which must finish it')
    expect(refusal(snapshot, stepFinish('q', 's1'))).toBe('STEP_FINISHED for step "q" of subagent "s1": it is open under subagent "s2", which must finish it')
    // Its own open step of another name does not count as holding this one.
    const own = { ...blank(), subagentSteps: [{ subagentRunId: 's1', stepName: 'q' }] }
    expect(refusal(own, stepFinish('r', 's1'))).toBe('STEP_FINISHED for step "r", which has not started')
    // Another owner's open step of another name does not hold it either.
    expect(refusal(snapshot, stepFinish('r', 's1'))).toBe('STEP_FINISHED for step "r", which has not started')
    expect(refusal(snapshot, stepFinish('r'))).toBe('STEP_FINISHED for step "r", which has not started')
  })

  it('through the store: the refusal changes nothing and reports the error', () => {
    const { store, errors } = storeAfter(ev.runStarted('r1'), ev.stepStarted('a'))
    const before = store.getState().steps
    store.apply(ev.stepFinished('b'))
    expect(store.getState().steps).toBe(before)
    expect(errors.map((error) => error.message)).toStrictEqual(['STEP_FINISHED for step "b", which has not started'])
  })
})
