import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { AgentStoreError } from '../../src/errors'
import { defaultLimits } from '../../src/limits'
import { type Effect, toError } from '../../src/machine/transition'
import { ev } from '../helpers'
import { approve, machine, release, show } from './support-machine'

// Events through the transition: malformed ones, the ones that report without stopping, and the
// details of state events and predictions.

describe('malformed events', () => {
  it('a non-terminal one is reported and set as the error, nothing else, and not shown', () => {
    const m = machine()
    m.events([ev.runStarted('r1')])
    const before = m.model
    const step = m.step({ type: 'event', event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm' } })
    const error = step.model.snapshot.error!
    expect(error.code).toBe('INVALID_EVENT')
    expect(step.effects).toStrictEqual([{ type: 'report', error }])
    expect({ ...step.model.snapshot, error: undefined }).toStrictEqual(before.snapshot)
    expect(step.model.run).toBe(before.run)
  })

  it('null and a primitive are reported, not thrown', () => {
    const m = machine()
    for (const event of [null, 5, 'x']) {
      const step = m.step({ type: 'event', event })
      expect(step.effects).toStrictEqual([{ type: 'report', error: step.model.snapshot.error }])
      expect(step.model.snapshot.error?.code).toBe('INVALID_EVENT')
    }
  })

  it('a terminal one of a request ends the run as an error, reports, then releases to drain', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('q1'), ev.stepStarted('s')], 'q1')
    const step = m.step({ type: 'event', event: { type: 'RUN_ERROR' }, requestId: 'q1' })
    const error = step.model.snapshot.error!
    expect(error.code).toBe('INVALID_EVENT')
    expect(step.effects).toStrictEqual([{ type: 'report', error }, release('q1', 'drain')])
    expect(step.model.snapshot).toMatchObject({ status: 'error', steps: [] })
    expect(step.model.request).toBeUndefined()
    expect(step.model.run).toBeUndefined()
  })

  it('a terminal one through apply() releases nothing', () => {
    const m = machine()
    m.events([ev.runStarted('r1')])
    const step = m.step({ type: 'event', event: { type: 'RUN_FINISHED' } })
    expect(step.effects).toStrictEqual([{ type: 'report', error: step.model.snapshot.error }])
    expect(step.model.snapshot.status).toBe('error')
  })
})

describe('toError', () => {
  it('keeps a store error, wraps an Error with its message and anything else as a string, with the cause', () => {
    const own = new AgentStoreError('PATCH_FAILED', 'p')
    expect(toError(own, 'VALIDATION')).toBe(own)
    const plain = new Error('bad')
    expect(toError(plain, 'VALIDATION')).toMatchObject({ code: 'VALIDATION', message: 'bad', cause: plain })
    expect(toError('nope', 'INVALID_EVENT')).toMatchObject({ code: 'INVALID_EVENT', message: 'nope', cause: 'nope' })
  })
})

describe('apply() events with their effects', () => {
  it('an orphan tool result is reported with its event type, changes nothing, and is shown', () => {
    const m = machine()
    // An answered confirmation naming call 'hidden', which no message shows.
    m.events([ev.runStarted('r1'), ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 'hidden' }] })])
    m.step(approve('i1'))
    m.events([ev.runStarted('q2')], 'q2')
    const before = m.model
    const event = ev.toolResult('res', 'hidden', 'x')
    const step = m.step({ type: 'event', event, requestId: 'q2' })
    expect(step.model).toBe(before)
    expect(step.effects).toHaveLength(2)
    expect((step.effects[0] as Extract<Effect, { type: 'report' }>).error).toMatchObject({
      code: 'INVALID_EVENT',
      eventType: 'TOOL_CALL_RESULT',
      reason: 'orphan-result',
      message: 'TOOL_CALL_RESULT for tool call hidden, which the conversation never showed: dropped',
    })
    expect(step.effects[1]).toStrictEqual(show)
  })

  it('a chunk stream expands into the events it stands for', () => {
    const m = machine()
    m.events([
      ev.runStarted('r1'),
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a1', role: 'assistant', delta: 'he' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a1', delta: 'llo' },
    ] as BaseEvent[])
    expect(m.model.snapshot.messages).toStrictEqual([{ id: 'a1', role: 'assistant', content: 'hello' }])
  })
})

describe('state events and predictions', () => {
  it('a refused STATE_SNAPSHOT says so by name, and changes nothing', () => {
    const m = machine({ rules: { limits: { ...defaultLimits, maxDepth: 2 }, validate: undefined } })
    m.events([ev.runStarted('r1')])
    const before = m.model
    const step = m.step({ type: 'event', event: ev.snapshot({ a: { b: { c: { d: 1 } } } }) })
    expect(step.model.snapshot.error).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxDepth' })
    expect(step.model.snapshot.error?.message.startsWith('STATE_SNAPSHOT: ')).toBe(true)
    expect(step.model.server).toBe(before.server)
    expect(step.model.snapshot.state).toBe(before.snapshot.state)
  })

  it('only an opening STATE_SNAPSHOT({}) is held: a first delta that empties the state shows at once', () => {
    const held = machine()
    held.events([ev.runStarted('r1'), ev.snapshot({})])
    expect(held.model.snapshot.state).toStrictEqual({ n: 0 })
    const shown = machine()
    shown.events([ev.runStarted('r1'), ev.delta({ op: 'remove', path: '/n' })])
    expect(shown.model.snapshot.state).toStrictEqual({})
  })

  it('a PredictState drafts from every call already streaming, not only the last one started', () => {
    const m = machine()
    m.events([
      ev.runStarted('r1'),
      ev.toolStart('w1', 'write'),
      ev.toolArgs('w1', '{"doc":"one'),
      ev.toolStart('w2', 'other'),
      ev.toolArgs('w2', '{"x":1'),
      ev.custom('PredictState', [{ state_key: 'doc', tool: 'write', tool_argument: 'doc' }]),
    ])
    expect(m.model.snapshot.state).toStrictEqual({ n: 0, doc: 'one' })
  })
})
