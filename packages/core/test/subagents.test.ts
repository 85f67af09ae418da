// SUBAGENT_*: the exact entry (fields present only when sent, earlier ends dropped), the metadata
// carried across a continuation, the exact refusals, what stays identical, and how a run's end
// ends the subagents still running.
import type { SubagentErrorEvent, SubagentFinishedEvent, SubagentStartedEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import type { AgentSnapshot, Subagent } from '../src'
import { abandonSubagents, reduceSubagentError, reduceSubagentFinished, reduceSubagentStarted } from '../src/snapshot/subagents'
import { ev, refusalOf } from './helpers'
import { event, snapshotHolding, storeAfter } from './support/events'

type S = Record<string, unknown>
const startedEvent = (id: string, more: Record<string, unknown> = {}) =>
  event<SubagentStartedEvent>({ type: 'SUBAGENT_STARTED', subagentRunId: id, name: 'helper', ...more })
const finishedEvent = (id: string, more: Record<string, unknown> = {}) =>
  event<SubagentFinishedEvent>({ type: 'SUBAGENT_FINISHED', subagentRunId: id, ...more })
const errorEvent = (id: string, more: Record<string, unknown> = {}) =>
  event<SubagentErrorEvent>({ type: 'SUBAGENT_ERROR', subagentRunId: id, message: 'failed', ...more })

/** A snapshot in the run `runId`, holding these subagents. */
const inRun = (runId: string | undefined, subagents: Subagent[] = []): AgentSnapshot<S> => ({ ...snapshotHolding(), runId, subagents })
/** A snapshot as an older version saved it: without the subagents list. */
const withoutSubagents = (snapshot: AgentSnapshot<S>) => {
  const { subagents: _none, ...old } = snapshot
  return old as AgentSnapshot<S>
}
const invalidStart = (message: string) => ({ code: 'INVALID_EVENT', message: `SUBAGENT_STARTED: ${message}`, eventType: 'SUBAGENT_STARTED' })

describe('SUBAGENT_STARTED', () => {
  it('an entry with only the fields sent, after the earlier ones, which keep their identity', () => {
    const first: Subagent = { subagentRunId: 's0', name: 'old', status: 'finished', runId: 'r0' }
    const snapshot = inRun('r1', [first])
    const next = reduceSubagentStarted(snapshot, startedEvent('s1'))
    expect(next.subagents).toStrictEqual([first, { subagentRunId: 's1', name: 'helper', status: 'running', runId: 'r1' }])
    expect(next.subagents[0]).toBe(first)
    expect(snapshot.subagents).toStrictEqual([first])
    expect(next.messages).toBe(snapshot.messages)
  })

  it('works on a snapshot without subagents (restored from an older version)', () => {
    const next = reduceSubagentStarted(withoutSubagents(inRun('r1')), startedEvent('s1', { parentToolCallId: 'c1', parentMessageId: 'm1' }))
    expect(next.subagents).toStrictEqual([
      { subagentRunId: 's1', name: 'helper', parentToolCallId: 'c1', parentMessageId: 'm1', status: 'running', runId: 'r1' },
    ])
  })

  it('a continued subagent keeps its place and its metadata, merged with the new event, and drops its earlier end', () => {
    const suspended: Subagent = {
      subagentRunId: 's1',
      name: 'helper',
      description: 'old description',
      status: 'suspended',
      interruptIds: ['i1'],
      result: 1,
      metadata: { a: 1, b: 1 },
      runId: 'r1',
    }
    const other: Subagent = { subagentRunId: 's2', name: 'x', status: 'finished', runId: 'r1' }
    const snapshot = inRun('r2', [suspended, other])
    const next = reduceSubagentStarted(snapshot, startedEvent('s1', { metadata: { b: 2 } }))
    expect(next.subagents).toStrictEqual([{ subagentRunId: 's1', name: 'helper', status: 'running', metadata: { a: 1, b: 2 }, runId: 'r2' }, other])
    expect(next.subagents[1]).toBe(other)
    expect(snapshot.subagents[0]).toBe(suspended)
    const kept = reduceSubagentStarted(snapshot, startedEvent('s1'))
    expect(kept.subagents[0]).toStrictEqual({ subagentRunId: 's1', name: 'helper', status: 'running', metadata: { a: 1, b: 1 }, runId: 'r2' })
    const plain = reduceSubagentStarted(inRun('r2', [{ ...other, status: 'suspended' }]), startedEvent('s2'))
    expect(plain.subagents).toStrictEqual([{ subagentRunId: 's2', name: 'helper', status: 'running', runId: 'r2' }])
  })

  it('takes a parent that started in this run, even one that has ended', () => {
    const parent: Subagent = { subagentRunId: 'p', name: 'x', status: 'finished', runId: 'r1' }
    const next = reduceSubagentStarted(inRun('r1', [parent]), startedEvent('c', { parentSubagentRunId: 'p' }))
    expect(next.subagents[1]).toStrictEqual({ subagentRunId: 'c', name: 'helper', parentSubagentRunId: 'p', status: 'running', runId: 'r1' })
  })

  it('refuses, with the exact reason', () => {
    const running: Subagent = { subagentRunId: 's1', name: 'x', status: 'running', runId: 'r1' }
    const ended: Subagent = { subagentRunId: 's2', name: 'x', status: 'finished', runId: 'r1' }
    const earlier: Subagent = { subagentRunId: 'p', name: 'x', status: 'finished', runId: 'r0' }
    const snapshot = inRun('r1', [earlier, running, ended])
    expect(refusalOf(() => reduceSubagentStarted(snapshot, startedEvent('s1')))).toStrictEqual(invalidStart('subagent "s1" is already running'))
    expect(refusalOf(() => reduceSubagentStarted(snapshot, startedEvent('s2')))).toStrictEqual(invalidStart('subagent "s2" already ended in this run'))
    // A parent of an earlier run, or one unknown, is no parent in this run.
    expect(refusalOf(() => reduceSubagentStarted(snapshot, startedEvent('c', { parentSubagentRunId: 'p' })))).toStrictEqual(
      invalidStart('its parent subagent "p" has not started in this run'),
    )
    expect(refusalOf(() => reduceSubagentStarted(snapshot, startedEvent('c', { parentSubagentRunId: 'nobody' })))).toStrictEqual(
      invalidStart('its parent subagent "nobody" has not started in this run'),
    )
    // Same run id on another entry than the parent does not make it the parent.
    expect(refusalOf(() => reduceSubagentStarted(snapshot, startedEvent('c', { parentSubagentRunId: 'zz' }))).message).toContain('"zz"')
  })

  it('an entry ended in an earlier run may start again in a later one', () => {
    const ended: Subagent = { subagentRunId: 's1', name: 'x', status: 'error', error: { message: 'e' }, runId: 'r1' }
    const next = reduceSubagentStarted(inRun('r2', [ended]), startedEvent('s1'))
    expect(next.subagents).toStrictEqual([{ subagentRunId: 's1', name: 'helper', status: 'running', runId: 'r2' }])
  })
})

describe('SUBAGENT_FINISHED and SUBAGENT_ERROR', () => {
  const running = (more: Partial<Subagent> = {}): Subagent => ({ subagentRunId: 's1', name: 'helper', status: 'running', runId: 'r1', ...more })

  it('finished: no result key without a result; other entries and the array of the input stay', () => {
    const other: Subagent = { subagentRunId: 's0', name: 'x', status: 'finished', runId: 'r1' }
    const snapshot = inRun('r1', [other, running()])
    const next = reduceSubagentFinished(snapshot, finishedEvent('s1'))
    expect(next.subagents).toStrictEqual([other, { subagentRunId: 's1', name: 'helper', status: 'finished', runId: 'r1' }])
    expect(next.subagents[0]).toBe(other)
    expect(snapshot.subagents[1]!.status).toBe('running')
    const withResult = reduceSubagentFinished(snapshot, finishedEvent('s1', { result: 0 }))
    expect(withResult.subagents[1]).toStrictEqual({ subagentRunId: 's1', name: 'helper', status: 'finished', result: 0, runId: 'r1' })
  })

  it('a success outcome finishes; only a suspended one suspends, with its interrupts when it has them', () => {
    const snapshot = inRun('r1', [running()])
    expect(reduceSubagentFinished(snapshot, finishedEvent('s1', { outcome: { type: 'success' } })).subagents[0]).toStrictEqual(running({ status: 'finished' }))
    expect(reduceSubagentFinished(snapshot, finishedEvent('s1', { outcome: { type: 'suspended' } })).subagents[0]).toStrictEqual(
      running({ status: 'suspended' }),
    )
    expect(
      reduceSubagentFinished(snapshot, finishedEvent('s1', { outcome: { type: 'suspended', interruptIds: ['i1', 'i2'] }, result: 'r' })).subagents[0],
    ).toStrictEqual(running({ status: 'suspended', result: 'r', interruptIds: ['i1', 'i2'] }))
  })

  it('merges metadata key by key, and adds none without any', () => {
    const snapshot = inRun('r1', [running({ metadata: { a: 1, b: 1 } })])
    expect(reduceSubagentFinished(snapshot, finishedEvent('s1', { metadata: { b: 2 } })).subagents[0]).toStrictEqual(
      running({ status: 'finished', metadata: { a: 1, b: 2 } }),
    )
    expect(reduceSubagentError(inRun('r1', [running()]), errorEvent('s1', { metadata: { c: 3 } })).subagents[0]).toStrictEqual(
      running({ status: 'error', error: { message: 'failed' }, metadata: { c: 3 } }),
    )
    expect(reduceSubagentError(inRun('r1', [running()]), errorEvent('s1')).subagents[0]).toStrictEqual(
      running({ status: 'error', error: { message: 'failed' } }),
    )
  })

  it('error keeps the code only when sent', () => {
    const snapshot = inRun('r1', [running()])
    expect(reduceSubagentError(snapshot, errorEvent('s1', { code: 'T' })).subagents[0]!.error).toStrictEqual({ message: 'failed', code: 'T' })
  })

  it('refuses an id that is not running, with the exact reason', () => {
    const snapshot = inRun('r1', [running({ subagentRunId: 's0', status: 'finished' })])
    const invalid = (type: string, id: string) => ({ code: 'INVALID_EVENT', message: `${type}: no running subagent has the id "${id}"`, eventType: type })
    expect(refusalOf(() => reduceSubagentFinished(snapshot, finishedEvent('s0')))).toStrictEqual(invalid('SUBAGENT_FINISHED', 's0'))
    expect(refusalOf(() => reduceSubagentError(snapshot, errorEvent('s9')))).toStrictEqual(invalid('SUBAGENT_ERROR', 's9'))
    expect(refusalOf(() => reduceSubagentFinished(withoutSubagents(snapshot), finishedEvent('s1')))).toStrictEqual(invalid('SUBAGENT_FINISHED', 's1'))
  })

  it('through the store: finishes the one named among several', () => {
    const { store, errors } = storeAfter(ev.runStarted('r1'), startedEvent('a', { name: 'n' }), startedEvent('b', { name: 'n' }), finishedEvent('b'))
    expect(errors).toStrictEqual([])
    expect(store.getState().subagents.map((s) => [s.subagentRunId, s.status])).toStrictEqual([
      ['a', 'running'],
      ['b', 'finished'],
    ])
  })
})

describe('subagents a run leaves running', () => {
  it('abandonSubagents returns the same array when none runs, and ends only the running ones', () => {
    const done: Subagent = { subagentRunId: 'a', name: 'n', status: 'finished', runId: 'r1' }
    const list = [done]
    expect(abandonSubagents(list, { message: 'x' })).toBe(list)
    const running: Subagent = { subagentRunId: 'b', name: 'n', status: 'running', runId: 'r1' }
    const out = abandonSubagents([done, running], { message: 'x', code: 'C' })
    expect(out).toStrictEqual([done, { ...running, status: 'error', error: { message: 'x', code: 'C' } }])
    expect(out[0]).toBe(done)
    expect(abandonSubagents([], { message: 'x' })).toStrictEqual([])
  })

  it('a run superseded through apply() ends its running subagents as stopped', () => {
    const { store } = storeAfter(ev.runStarted('r1'), startedEvent('s1'), ev.runStarted('r2'))
    const [subagent] = store.getState().subagents
    expect([subagent!.status, subagent!.error]).toStrictEqual(['error', { message: 'The run was stopped' }])
  })
})
