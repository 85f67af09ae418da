import { describe, expect, it } from 'vitest'
import { AgentStoreError } from '../../src/errors'
import { initialModel } from '../../src/machine/model'
import { dropRequest, type Effect } from '../../src/machine/transition'
import { blankSnapshot } from '../../src/snapshot/copy'
import { ev } from '../helpers'
import { approve, dropped, machine, networkError, release, type S, show } from './support-machine'

// A request that drops: what is left to rejoin, and reconnect() re-attaching the run, by a replay
// of the thread or from a cursor.

describe('reconnect', () => {
  it('connects with the input of the run it rejoins, under the run id the server gave it', () => {
    const m = dropped({ timeoutMs: 9 })
    expect(m.model.snapshot.state).toStrictEqual({ n: 0 })
    const rejoin = m.model.rejoin!
    expect(rejoin.runId).toBe('srv1')
    const before = m.model.snapshot
    const step = m.step({ type: 'reconnect', requestId: 'c1' })
    expect(step.refusal).toBeUndefined()
    expect(step.effects).toStrictEqual([
      {
        type: 'connect',
        requestId: 'c1',
        input: {
          threadId: 'th',
          runId: 'srv1',
          state: { n: 0 },
          messages: [],
          tools: [{ name: 't', description: 'd', parameters: {} }],
          context: [{ description: 'c', value: 'v' }],
          forwardedProps: { f: 1 },
        },
        timeoutMs: 9,
      },
    ])
    expect(m.model.snapshot).toStrictEqual({ ...before, requesting: true })
    expect(m.model.request).toStrictEqual({ id: 'c1', delivered: true, rejoining: rejoin, unchanged: { shown: m.model.snapshot, before } })
  })

  it('the reconnect input holds copies of the run settings', () => {
    const m = machine()
    m.run('q1', { tools: [{ name: 't', description: 'd', parameters: {} }], context: [{ description: 'c', value: 'v' }] })
    m.events([ev.runStarted('q1')], 'q1')
    m.failed('q1', networkError('x'))
    const settings = m.model.rejoin!.start.settings
    const { input } = m.step({ type: 'reconnect', requestId: 'c1' }).effects[0] as Extract<Effect, { type: 'connect' }>
    expect(input.tools).toStrictEqual(settings.tools)
    expect(input.tools).not.toBe(settings.tools)
    expect(input.context).toStrictEqual(settings.context)
    expect(input.context).not.toBe(settings.context)
  })

  it('a failed connect reports why, leaves the thread as it was and still rejoinable', () => {
    for (const [cause, expected] of [
      [new AgentStoreError('RECONNECT', 'HTTP 404', { reason: 'not-supported' }), 'not-supported'],
      [new AgentStoreError('TRANSPORT', 'HTTP 404', { reason: 'http', status: 404 }), 'not-found'],
      [new AgentStoreError('TRANSPORT', 'HTTP 404', { reason: 'network' }), 'not-found'],
    ] as const) {
      const m = dropped()
      const thread = m.model.snapshot
      m.step({ type: 'reconnect', requestId: 'c1' })
      const step = m.failed('c1', cause)
      const report = step.effects[0] as Extract<Effect, { type: 'report' }>
      expect(step.effects).toStrictEqual([report, release('c1', 'none')])
      expect(report.error).toMatchObject({ code: 'RECONNECT', reason: expected, message: 'The run could not be re-attached: HTTP 404' })
      expect(report.error.cause).toBe(cause)
      expect(step.model.snapshot).toBe(thread)
      expect(step.model.request).toBeUndefined()
      expect(step.model.rejoin?.runId).toBe('srv1')
      expect(m.step({ type: 'reconnect', requestId: 'c2' }).refusal).toBeUndefined()
    }
  })

  it('abort while rejoining cancels the connection and keeps the thread as it was', () => {
    const m = dropped()
    const thread = m.model.snapshot
    m.step({ type: 'reconnect', requestId: 'c1' })
    const step = m.step({ type: 'abort' })
    expect(step.effects).toStrictEqual([release('c1', 'cancel')])
    expect(step.model.snapshot).toBe(thread)
    expect(step.model.request).toBeUndefined()
  })

  it('the replay of earlier runs is passed over, unshown, until the RUN_STARTED of the run it rejoins', () => {
    const m = dropped()
    m.step({ type: 'reconnect', requestId: 'c1' })
    // A first event that starts a run: a replay, passed over until the dropped run starts again.
    const first = m.step({ type: 'event', event: ev.runStarted('older'), requestId: 'c1' })
    expect(first.effects).toStrictEqual([])
    expect(m.model.request?.replaying).toBe(true)
    const waiting = m.model
    for (const event of [ev.delta({ op: 'replace', path: '/n', value: 7 }), ev.runFinished('older'), { type: 'RUN_STARTED', threadId: 't1' }, null]) {
      const step = m.step({ type: 'event', event, requestId: 'c1' })
      expect(step.model).toBe(waiting)
      expect(step.effects).toStrictEqual([])
    }
    m.events([ev.runStarted('srv1')], 'c1')
    expect(m.model.request).toMatchObject({ id: 'c1', delivered: true })
    expect(m.model.request?.rejoining).toBeUndefined()
    expect(m.model.rejoin).toBeUndefined()
    expect(m.model.snapshot.status).toBe('running')
    m.events([ev.delta({ op: 'replace', path: '/n', value: 1 })], 'c1')
    const end = m.step({ type: 'event', event: ev.runFinished('srv1'), requestId: 'c1' })
    expect(end.effects).toStrictEqual([release('c1', 'drain'), show])
    expect(m.model.snapshot).toMatchObject({ status: 'idle', state: { n: 1 }, committed: { n: 1 } })
  })
})

describe('a dropped run rebuilt by the replay', () => {
  function droppedAt(state: S) {
    const m = machine()
    m.model = initialModel(blankSnapshot('th', state))
    m.run('q1')
    m.events([ev.runStarted('srv1'), ev.delta({ op: 'replace', path: '/n', value: 1 })], 'q1')
    m.failed('q1')
    return m
  }

  it("takes the user's changes made since the drop as edits of the rebuilt run: keys set and keys removed", () => {
    const m = droppedAt({ n: 0, keep: 'k', gone: 'g' })
    m.step({ type: 'setState', update: { n: 0, keep: 'k', added: 'a' } })
    expect(m.model.snapshot.committed).toStrictEqual({ n: 0, keep: 'k', added: 'a' })
    m.step({ type: 'reconnect', requestId: 'c1' })
    m.events([ev.runStarted('srv1')], 'c1')
    expect(m.model.snapshot.state).toStrictEqual({ n: 0, keep: 'k', added: 'a' })
    expect(Object.hasOwn(m.model.snapshot.state, 'gone')).toBe(false)
    m.events([ev.delta({ op: 'replace', path: '/n', value: 1 })], 'c1')
    m.events([ev.runFinished('srv1')], 'c1')
    expect(m.model.snapshot).toMatchObject({ status: 'idle' })
    expect(m.model.snapshot.committed).toStrictEqual({ n: 1, keep: 'k', added: 'a' })
  })

  it('with no change since the drop, starts again from the model the run began with', () => {
    const m = droppedAt({ n: 0 })
    const start = m.model.rejoin!.start
    m.step({ type: 'reconnect', requestId: 'c1' })
    m.events([ev.runStarted('srv1')], 'c1')
    expect(m.model.snapshot.state).toBe(start.snapshot.state)
    expect(m.model.edit).toBeUndefined()
    expect(m.model.userEdits).toStrictEqual([])
    expect(m.model.request).toStrictEqual({ id: 'c1', delivered: true, start })
  })
})

describe('a resumed run dropped after delivery', () => {
  it('rebuilt by the replay, delivers its answers again: the outbox goes, its interrupts are answered once, and its own end is live', () => {
    const m = machine()
    m.events([ev.runStarted('r1'), ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] })])
    m.step(approve('i1'))
    m.events([ev.runStarted('q2')], 'q2')
    m.failed('q2')
    expect(m.model.rejoin?.start.outbox).toBeDefined()
    m.step({ type: 'reconnect', requestId: 'c1' })
    m.events([ev.runStarted('q2')], 'c1')
    expect(m.model.outbox).toBeUndefined()
    expect(m.model.request).toMatchObject({ id: 'c1', delivered: true })
    expect(m.model.answeredInterrupts).toStrictEqual(['i1'])
    m.events([ev.runFinished('q2', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] })], 'c1')
    expect(m.model.snapshot.status).toBe('interrupted')
    expect(m.model.snapshot.confirmations.map((c) => c.id)).toStrictEqual(['i1'])
  })
})

describe('dropRequest', () => {
  it('a request that fails before any event leaves nothing to rejoin', () => {
    const m = machine()
    m.run('q1')
    m.failed('q1', networkError('refused'))
    expect(m.model.rejoin).toBeUndefined()
    expect(m.model.snapshot.status).toBe('error')
    expect(m.step({ type: 'reconnect', requestId: 'c1' }).refusal?.reason).toBe('nothing-to-rejoin')
  })

  it('a run whose first event was not RUN_STARTED rejoins under the id of its request', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.textStart('a1')], 'q1')
    m.failed('q1')
    expect(m.model.rejoin?.runId).toBe('q1')
  })

  it('a new run forgets the run that could be rejoined', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('q1')], 'q1')
    m.failed('q1')
    expect(m.model.rejoin?.runId).toBe('q1')
    m.run('q2')
    expect(m.model.rejoin).toBeUndefined()
  })

  it('without an error (a page reloaded mid-run), ends the run idle, rejoinable once it had begun', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('srv1'), ev.delta({ op: 'replace', path: '/n', value: 1 })], 'q1')
    const { model, effects } = dropRequest(m.model, undefined, m.config)
    expect(effects).toStrictEqual([])
    expect(model.snapshot).toMatchObject({ status: 'idle', error: undefined, state: { n: 0 } })
    expect(model.request).toBeUndefined()
    expect(model.rejoin?.runId).toBe('srv1')
  })

  it('while a reconnect is rejoining (a thread saved during the replay, then restored), lets the request go without a run to end', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('q1'), ev.delta({ op: 'replace', path: '/n', value: 1 })], 'q1')
    m.failed('q1')
    m.step({ type: 'reconnect', requestId: 'c1' })
    expect(m.model.run).toBeUndefined()
    const thread = m.model.snapshot
    const { model, effects } = dropRequest(m.model, undefined, m.config)
    expect(effects).toStrictEqual([])
    expect(model.request).toBeUndefined()
    expect(model.snapshot.state).toStrictEqual(thread.state)
    expect(model.snapshot.messages).toBe(thread.messages)
  })
})
