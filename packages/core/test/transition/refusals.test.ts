import { describe, expect, it } from 'vitest'
import { defaultLimits } from '../../src/limits'
import { transition } from '../../src/machine/transition'
import { ev } from '../helpers'
import { dropped, interrupted, machine } from './support-machine'

// A command the transition refuses: the step carries the refusal, the very model it was given,
// and no effect; the command's promise rejects with it (or reset() throws it).

describe('run', () => {
  it('is refused with nothing changed and no effect', () => {
    const m = machine({ hasAgent: false })
    const before = m.model
    const step = m.run()
    expect(step.model).toBe(before)
    expect(step.effects).toStrictEqual([])
    expect(step.refusal?.code).toBe('NO_AGENT')
  })

  it('is refused when its messages are beyond the limits, with nothing changed', () => {
    const m = machine({ rules: { limits: { ...defaultLimits, maxDepth: 2 }, validate: undefined } })
    const before = m.model
    const deep = Array.from({ length: 40 }).reduce<unknown>((inner) => ({ inner }), 1)
    const step = m.run('q1', { forwardedProps: deep })
    expect(step.model).toBe(before)
    expect(step.effects).toStrictEqual([])
    expect(step.refusal?.code).toBe('LIMIT_EXCEEDED')
  })
})

describe('reconnect', () => {
  it('is refused while a request is active, with nothing dropped, and without an agent', () => {
    const active = machine()
    active.run('q1')
    expect(active.step({ type: 'reconnect', requestId: 'c1' }).refusal).toMatchObject({ code: 'RUN_ACTIVE', message: 'A run is already active on this store' })
    expect(active.last.effects).toStrictEqual([])
    const idle = machine()
    const before = idle.model
    const step = idle.step({ type: 'reconnect', requestId: 'c1' })
    expect(step.refusal).toMatchObject({ code: 'RECONNECT', reason: 'nothing-to-rejoin', message: 'No run to re-attach: none dropped' })
    expect(step.model).toBe(before)
    const m = dropped()
    const rejoinable = m.model
    const noAgent = transition(rejoinable, { type: 'reconnect', requestId: 'c1' }, { ...m.config, hasAgent: false }, m.memo)
    expect(noAgent.refusal).toMatchObject({ code: 'NO_AGENT', message: 'reconnect() needs an agent' })
    expect(noAgent.model).toBe(rejoinable)
    expect(noAgent.effects).toStrictEqual([])
  })

  it('a second reconnect while the first is rejoining is refused', () => {
    const m = dropped()
    m.step({ type: 'reconnect', requestId: 'c1' })
    const rejoining = m.model
    const step = m.step({ type: 'reconnect', requestId: 'c2' })
    expect(step.refusal?.code).toBe('RUN_ACTIVE')
    expect(step.model).toBe(rejoining)
    expect(step.effects).toStrictEqual([])
  })
})

describe('reset', () => {
  it('refuses a state beyond the limits, keeping the thread and the request in flight', () => {
    const m = machine({ rules: { limits: { ...defaultLimits, maxDepth: 2 }, validate: undefined } })
    m.run('q1')
    const before = m.model
    const step = m.step({ type: 'reset', state: { a: { b: { c: 1 } } }, threadId: 'th' })
    expect(step.model).toBe(before)
    expect(step.effects).toStrictEqual([])
    expect(step.refusal).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    expect(step.refusal?.message.startsWith('reset: ')).toBe(true)
  })

  it("refuses a state the validator refuses, with the validator's message", () => {
    const validate = (value: unknown) => {
      if ((value as { n: number }).n < 0) throw new Error('negative')
      return value as { n: number }
    }
    const m = machine({ rules: { limits: { ...defaultLimits }, validate } })
    const before = m.model
    const step = m.step({ type: 'reset', state: { n: -1 }, threadId: 'th2' })
    expect(step.model).toBe(before)
    expect(step.refusal).toMatchObject({ code: 'VALIDATION', message: 'State rejected by the validator: negative' })
    expect(m.step({ type: 'reset', state: { n: 1 }, threadId: 'th2' }).model.snapshot).toMatchObject({ threadId: 'th2', state: { n: 1 } })
  })
})

describe('answers', () => {
  it('are refused while a request is active, and with no confirmation to answer', () => {
    const running = interrupted([{ id: 'i1', reason: 'input_required' }])
    // The last open confirmation answered: its resumed run's request is in flight.
    running.step({ type: 'answer', id: 'i1', answer: { kind: 'cancel' }, options: undefined, now: 0, runId: 'q2', messageId: 'm' })
    expect(running.model.request?.id).toBe('q2')
    const before = running.model
    const again = running.step({ type: 'answer', id: 'i1', answer: { kind: 'cancel' }, options: undefined, now: 0, runId: 'q3', messageId: 'm' })
    expect(again.refusal?.code).toBe('RUN_ACTIVE')
    expect(again.model).toBe(before)
    expect(again.effects).toStrictEqual([])
    const none = machine()
    none.events([ev.runStarted('r1'), ev.runFinished('r1')])
    expect(
      none.step({ type: 'answer', id: undefined, answer: { kind: 'cancel' }, options: undefined, now: 0, runId: 'q1', messageId: 'm' }).refusal,
    ).toMatchObject({
      code: 'NO_CONFIRMATION',
      message: 'There is no open confirmation to answer',
    })
  })
})
