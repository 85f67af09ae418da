import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import type { Effect } from '../../src/machine/transition'
import { ev } from '../helpers'
import { approve, interrupted, machine, networkError, show } from './support-machine'

// What a step asks of the shell besides requests and reports: the events it shows to onEvent
// listeners, and the writes of a persisted thread, with their urgency.

const persistNow: Effect = { type: 'persist', urgent: true }
const persistLater: Effect = { type: 'persist', urgent: false }
const persisting = () => machine({ persists: true })

describe('the effect lists', () => {
  it('steps that have no effect hand back the one frozen empty list', () => {
    const m = machine()
    const lists = [
      m.step({ type: 'abort' }).effects,
      m.step({ type: 'event', event: ev.snapshot({ n: 1 }), requestId: 'gone' }).effects,
      m.step({ type: 'failed', requestId: 'gone', error: networkError('x') }).effects,
    ]
    for (const list of lists) {
      expect(list).toStrictEqual([])
      expect(Object.isFrozen(list)).toBe(true)
    }
    expect(lists[1]).toBe(lists[0])
  })

  it('an event taken in and nothing else to do is shown alone: RUN_STARTED, or a type from a newer protocol', () => {
    const m = machine()
    const started = m.step({ type: 'event', event: ev.runStarted('r1') }).effects
    expect(started).toStrictEqual([show])
    const newer = m.step({ type: 'event', event: { type: 'NEWER_EVENT' } }).effects
    expect(newer).toStrictEqual([show])
    // One frozen list for them all: a token's step allocates nothing for its effects.
    expect(newer).toBe(started)
    expect(Object.isFrozen(newer)).toBe(true)
  })

  it('a chunk is shown once, not once for each event it stands for', () => {
    const m = machine()
    m.events([ev.runStarted('r1')])
    const chunk = { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a1', role: 'assistant', delta: 'he' }
    expect(m.step({ type: 'event', event: chunk }).effects).toStrictEqual([show])
  })
})

describe('persistence', () => {
  it('without persistence no step asks for a write', () => {
    const m = machine()
    const steps = [m.run('q1'), ...m.events([ev.runStarted('q1'), ev.textStart('a1')], 'q1'), m.step({ type: 'setState', update: { n: 2 } })]
    expect(steps.flatMap((step) => step.effects).filter((effect) => effect.type === 'persist')).toStrictEqual([])
  })

  it('a step that changes the model asks for a write before its other effects; one that changes nothing, for none', () => {
    const m = persisting()
    expect(m.step({ type: 'abort' }).effects).toStrictEqual([])
    const set = m.step({ type: 'setState', update: { n: 2 } })
    expect(set.effects).toStrictEqual([persistNow])
    const run = m.run('q1')
    expect(run.effects.map((effect) => effect.type)).toStrictEqual(['persist', 'start'])
    expect(run.effects[0]).toStrictEqual(persistNow)
    expect(m.step({ type: 'event', event: ev.snapshot({ n: 9 }), requestId: 'gone' }).effects).toStrictEqual([])
  })

  it('commands, and events that change the status or the confirmations, are urgent; the others are not', () => {
    const m = persisting()
    const urgency = (event: object) => m.step({ type: 'event', event }).effects[0]
    expect(urgency(ev.runStarted('r1'))).toStrictEqual(persistNow)
    expect(urgency(ev.textStart('a1'))).toStrictEqual(persistLater)
    expect(urgency(ev.text('a1', 'Hi'))).toStrictEqual(persistLater)
    // The end of a message changes nothing the model holds: nothing to write.
    expect(m.step({ type: 'event', event: ev.textEnd('a1') }).effects).toStrictEqual([show])
    expect(urgency(ev.delta({ op: 'replace', path: '/n', value: 1 }))).toStrictEqual(persistLater)
    expect(urgency(ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] }))).toStrictEqual(persistNow)
    expect(m.step({ type: 'abort' }).effects).toStrictEqual([])
    expect(m.step({ type: 'setState', update: { n: 3 } }).effects[0]).toStrictEqual(persistNow)
  })

  it('tokens of a persisted store share one frozen list: written later, shown', () => {
    const m = persisting()
    m.events([ev.runStarted('r1'), ev.textStart('a1')])
    const [first, second] = m.events([ev.text('a1', 'a'), ev.text('a1', 'b')]).map((step) => step.effects)
    expect(first).toStrictEqual([persistLater, show])
    expect(second).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
  })

  it('the event that delivers answers is urgent, though it changes no status', () => {
    const m = interrupted([{ id: 'i1', reason: 'input_required' }], { persists: true })
    m.step(approve('i1'))
    expect(m.model.snapshot.status).toBe('running')
    const delivered = m.step({ type: 'event', event: ev.runStarted('q2'), requestId: 'q2' })
    expect(delivered.model.outbox).toBeUndefined()
    expect(delivered.effects[0]).toStrictEqual(persistNow)
  })

  it('a streamed token taken in is checked for delivery alone: one that changes the status is not urgent, any other event that does is', () => {
    /** A run dropped with text a1, reasoning r1 and call w1 streaming, re-attached from a cursor: its first event continues the cut run. */
    const continued = () => {
      const m = persisting()
      m.run('q1')
      m.events(
        [
          ev.runStarted('q1'),
          ev.textStart('a1'),
          ev.text('a1', 'x'),
          { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
          ev.toolStart('w1', 'other', 'a2'),
          ev.toolArgs('w1', '{"x":'),
        ],
        'q1',
      )
      m.failed('q1')
      m.step({ type: 'reconnect', requestId: 'c1' })
      expect(m.model.snapshot.status).toBe('error')
      return m
    }
    const first = (event: object) => {
      const m = continued()
      const step = m.step({ type: 'event', event, requestId: 'c1' })
      expect(step.model.snapshot.status).toBe('running')
      return step.effects[0]
    }
    expect(first(ev.text('a1', 'y'))).toStrictEqual(persistLater)
    expect(first({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'hm' })).toStrictEqual(persistLater)
    expect(first(ev.toolArgs('w1', '1'))).toStrictEqual(persistLater)
    expect(first(ev.toolEnd('w1'))).toStrictEqual(persistNow)
    expect(first(ev.textEnd('a1'))).toStrictEqual(persistNow)
    expect(first({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'a1', delta: 'y' } as BaseEvent)).toStrictEqual(persistNow)
    expect(first({ type: 'FROM_THE_FUTURE' })).toStrictEqual(persistNow)
    // A malformed token is not taken in: it is no token.
    expect(first({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1' })).toStrictEqual(persistNow)
  })
})
