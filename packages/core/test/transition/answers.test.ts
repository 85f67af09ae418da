import { describe, expect, it } from 'vitest'
import { AgentStoreError } from '../../src/errors'
import type { Effect } from '../../src/machine/transition'
import { ev } from '../helpers'
import { approve, interrupted, machine, release } from './support-machine'

// Answers through the transition: applied at once and kept in the outbox until the resumed run's
// first event delivers them; given back whole when its request ends before that.

describe('answers', () => {
  it('are given back whole when the request fails before its first event, keeping the edit made meanwhile', () => {
    const m = interrupted([{ id: 'i1', reason: 'input_required' }])
    const before = m.model
    m.step(approve('i1'))
    expect(m.model.outbox).toBeDefined()
    m.step({ type: 'setState', update: { n: 4 } })
    expect(m.model.userEdits).toHaveLength(1)
    const error = new AgentStoreError('TRANSPORT', 'HTTP 503', { reason: 'http' })
    const step = m.failed('q2', error)
    expect(step.effects).toStrictEqual([{ type: 'report', error }, release('q2', 'none')])
    const model = step.model
    const edited = { state: { n: 4 }, committed: { n: 4 } }
    expect(model.snapshot).toStrictEqual({
      ...before.snapshot,
      ...edited,
      status: 'interrupted',
      steps: [],
      subagentSteps: [],
      error,
      runId: 'q2',
      run: { runId: 'q2' },
    })
    expect(model.snapshot.confirmations).toBe(before.snapshot.confirmations)
    expect(model.server).toStrictEqual({ n: 4 })
    expect(model.drafts).toBe(before.drafts)
    expect(model.edit).toBeUndefined()
    expect(model.userEdits).toStrictEqual([])
    expect(model.run).toBeUndefined()
    expect(model.request).toBeUndefined()
    expect(model.outbox).toBeUndefined()
    expect(model.rejoin).toBeUndefined()
    expect(model.answeredInterrupts).toStrictEqual([])
  })

  it('abort() before the first event gives them back with no error, and cancels', () => {
    const m = interrupted([{ id: 'i1', reason: 'input_required' }])
    m.step(approve('i1'))
    const step = m.step({ type: 'abort' })
    expect(step.effects).toStrictEqual([release('q2', 'cancel')])
    expect(step.model.snapshot).toMatchObject({ status: 'interrupted', error: undefined, steps: [], subagentSteps: [] })
    expect(step.model.snapshot.confirmations.map((c) => c.id)).toStrictEqual(['i1'])
    expect(step.model.outbox).toBeUndefined()
  })

  it("are delivered by the resumed run's first event and recorded once; a live run asking an answered id again opens it; other answers are not recorded", () => {
    const m = machine()
    m.events([
      ev.runStarted('r1'),
      ev.toolStart('c1', 'confirm_changes', 'a1'),
      ev.toolArgs('c1', '{}'),
      ev.toolEnd('c1'),
      ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] }),
    ])
    expect(m.model.snapshot.confirmations.map((c) => [c.id, c.source])).toStrictEqual([['i1', 'interrupt']])
    m.step(approve('i1'))
    m.events([ev.runStarted('q2')], 'q2')
    expect(m.model.answeredInterrupts).toStrictEqual(['i1'])
    expect(m.model.outbox).toBeUndefined()
    expect(m.model.request?.delivered).toBe(true)
    // The resumed run's end asks the interrupt again: a live run's question is its own, whatever its id.
    m.events(
      [
        ev.runFinished('q2', 't1', {
          type: 'interrupt',
          interrupts: [
            { id: 'i1', reason: 'input_required' },
            { id: 'i2', reason: 'input_required' },
          ],
        }),
      ],
      'q2',
    )
    expect(m.model.snapshot.confirmations.map((c) => c.id)).toStrictEqual(['i1', 'i2'])
    m.step(approve('i1', 'q3'))
    m.step(approve('i2', 'q3'))
    m.events([ev.runStarted('q3')], 'q3')
    expect(m.model.answeredInterrupts).toStrictEqual(['i1', 'i2'])
  })

  it('a confirmation tool call answered is not recorded as an answered interrupt', () => {
    const m = machine()
    m.events([ev.runStarted('r1'), ev.toolStart('c1', 'confirm_changes', 'a1'), ev.toolArgs('c1', '{}'), ev.toolEnd('c1'), ev.runFinished('r1')])
    const [confirmation] = m.model.snapshot.confirmations
    expect(confirmation?.source).not.toBe('interrupt')
    const answeredBefore = m.model.answeredInterrupts
    m.step(approve(confirmation!.id))
    m.events([ev.runStarted('q2')], 'q2')
    expect(m.model.answeredInterrupts).toBe(answeredBefore)
    m.events([ev.runFinished('q2', 't1', { type: 'interrupt', interrupts: [{ id: confirmation!.id, reason: 'input_required' }] })], 'q2')
    expect(m.model.snapshot.confirmations.map((c) => c.id)).toStrictEqual([confirmation!.id])
  })

  it('send the resume of the answer in the start input', () => {
    const m = interrupted([{ id: 'i1', reason: 'input_required' }])
    const step = m.step(approve('i1'))
    const start = step.effects[0] as Extract<Effect, { type: 'start' }>
    expect(step.effects).toHaveLength(1)
    expect(start.input.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
    expect(start.requestId).toBe('q2')
  })
})
