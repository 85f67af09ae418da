import type { BaseEvent, SubagentErrorEvent, SubagentFinishedEvent, SubagentStartedEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentSnapshot, type AgentStoreError, createAgentStore, type Subagent } from '../../src'
import { abandonSubagents, reduceSubagentError, reduceSubagentFinished, reduceSubagentStarted } from '../../src/snapshot/subagents'
import { ev, refusalOf } from '../helpers'

// SUBAGENT_* pinned: the exact entry (fields present only when sent, earlier ends dropped), the
// metadata carried across a continuation, the exact refusals, and what stays identical.

type S = Record<string, unknown>
const e = (event: Record<string, unknown>) => event as unknown as BaseEvent
const startedEvent = (id: string, more: Record<string, unknown> = {}) =>
  ({ type: 'SUBAGENT_STARTED', subagentRunId: id, name: 'helper', ...more }) as unknown as SubagentStartedEvent
const finishedEvent = (id: string, more: Record<string, unknown> = {}) =>
  ({ type: 'SUBAGENT_FINISHED', subagentRunId: id, ...more }) as unknown as SubagentFinishedEvent
const errorEvent = (id: string, more: Record<string, unknown> = {}) =>
  ({ type: 'SUBAGENT_ERROR', subagentRunId: id, message: 'failed', ...more }) as unknown as SubagentErrorEvent

function applied(...events: BaseEvent[]) {
  const errors: AgentStoreError[] = []
  const store = createAgentStore<S>({ initialState: {}, onError: (error) => errors.push(error) })
  store.apply(events)
  return { store, errors }
}

const inRun = (runId: string | undefined, subagents: Subagent[] = []): AgentSnapshot<S> => ({
  ...createAgentStore<S>({ initialState: {} }).getState(),
  runId,
  subagents,
})

const refusal = refusalOf

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
    const { subagents: _none, ...old } = inRun('r1')
    const next = reduceSubagentStarted(old as AgentSnapshot<S>, startedEvent('s1', { parentToolCallId: 'c1', parentMessageId: 'm1' }))
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
    const invalid = (message: string) => ({ code: 'INVALID_EVENT', message: `SUBAGENT_STARTED: ${message}`, eventType: 'SUBAGENT_STARTED' })
    expect(refusal(() => reduceSubagentStarted(snapshot, startedEvent('s1')))).toStrictEqual(invalid('subagent "s1" is already running'))
    expect(refusal(() => reduceSubagentStarted(snapshot, startedEvent('s2')))).toStrictEqual(invalid('subagent "s2" already ended in this run'))
    // A parent of an earlier run, or one unknown, is no parent in this run.
    expect(refusal(() => reduceSubagentStarted(snapshot, startedEvent('c', { parentSubagentRunId: 'p' })))).toStrictEqual(
      invalid('its parent subagent "p" has not started in this run'),
    )
    expect(refusal(() => reduceSubagentStarted(snapshot, startedEvent('c', { parentSubagentRunId: 'nobody' })))).toStrictEqual(
      invalid('its parent subagent "nobody" has not started in this run'),
    )
    // Same run id on another entry than the parent does not make it the parent.
    expect(refusal(() => reduceSubagentStarted(snapshot, startedEvent('c', { parentSubagentRunId: 'zz' }))).message).toContain('"zz"')
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
    expect(refusal(() => reduceSubagentFinished(snapshot, finishedEvent('s0')))).toStrictEqual(invalid('SUBAGENT_FINISHED', 's0'))
    expect(refusal(() => reduceSubagentError(snapshot, errorEvent('s9')))).toStrictEqual(invalid('SUBAGENT_ERROR', 's9'))
    const { subagents: _none, ...old } = snapshot
    expect(refusal(() => reduceSubagentFinished(old as AgentSnapshot<S>, finishedEvent('s1')))).toStrictEqual(invalid('SUBAGENT_FINISHED', 's1'))
  })

  it('through the store: finishes the one named among several', () => {
    const { store, errors } = applied(
      ev.runStarted('r1'),
      e({ type: 'SUBAGENT_STARTED', subagentRunId: 'a', name: 'n' }),
      e({ type: 'SUBAGENT_STARTED', subagentRunId: 'b', name: 'n' }),
      e({ type: 'SUBAGENT_FINISHED', subagentRunId: 'b' }),
    )
    expect(errors).toStrictEqual([])
    expect(store.getState().subagents.map((s) => [s.subagentRunId, s.status])).toStrictEqual([
      ['a', 'running'],
      ['b', 'finished'],
    ])
  })
})

describe('abandonSubagents', () => {
  it('returns the same array when none runs, and ends only the running ones', () => {
    const done: Subagent = { subagentRunId: 'a', name: 'n', status: 'finished', runId: 'r1' }
    const list = [done]
    expect(abandonSubagents(list, { message: 'x' })).toBe(list)
    const running: Subagent = { subagentRunId: 'b', name: 'n', status: 'running', runId: 'r1' }
    const out = abandonSubagents([done, running], { message: 'x', code: 'C' })
    expect(out).toStrictEqual([done, { ...running, status: 'error', error: { message: 'x', code: 'C' } }])
    expect(out[0]).toBe(done)
    expect(abandonSubagents([], { message: 'x' })).toStrictEqual([])
  })
})
