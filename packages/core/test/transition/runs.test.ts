import type { Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { initialModel, type Model } from '../../src/machine/model'
import type { Effect } from '../../src/machine/transition'
import { blankSnapshot } from '../../src/snapshot/copy'
import { ev } from '../helpers'
import { machine, networkError, release, type S, show, withoutShow } from './support-machine'

// A run through the transition: the start it asks for, its request's events, and every way it
// ends (finished, failed, aborted, reset, superseded). The effects are the transition's output,
// so they are pinned exactly (the shell treats 'drain' and 'none' alike).

describe('run', () => {
  it('asks for one start with the exact input, the config timeout by default, and is running at once', () => {
    const m = machine({ timeoutMs: 7 })
    const user: Message = { id: 'u1', role: 'user', content: 'hi' }
    const step = m.run('q1', {}, [user])
    expect(step.refusal).toBeUndefined()
    expect(step.effects).toStrictEqual([
      {
        type: 'start',
        requestId: 'q1',
        input: { threadId: 'th', runId: 'q1', state: { n: 0 }, messages: [user], tools: [], context: [], forwardedProps: {} },
        timeoutMs: 7,
      },
    ])
    expect(m.model.request).toMatchObject({ id: 'q1', delivered: false })
    expect(m.model.request?.start?.request).toBeUndefined()
    expect(m.model.request?.start?.snapshot).toBe(m.model.snapshot)
    expect(m.model.snapshot).toMatchObject({ status: 'running', runId: 'q1', run: { runId: 'q1' }, steps: [], subagentSteps: [] })
    expect(m.model.server).toBe(m.model.snapshot.committed)
    expect(m.model.settings).toStrictEqual({ tools: [], context: [], forwardedProps: {} })
  })

  it("takes the run's own timeout, tools, context and forwardedProps over the defaults, and keeps the messages when none is added", () => {
    const m = machine({ timeoutMs: 7 })
    m.events([ev.runStarted('r0'), ev.textStart('a1'), ev.text('a1', 'x'), ev.textEnd('a1'), ev.runFinished('r0')])
    const messages = m.model.snapshot.messages
    const tools = [{ name: 't', description: 'd', parameters: {} }]
    const context = [{ description: 'c', value: 'v' }]
    const step = m.run('q2', { timeoutMs: 3, tools, context, forwardedProps: { a: 1 } })
    const start = step.effects[0] as Extract<Effect, { type: 'start' }>
    expect(start.timeoutMs).toBe(3)
    expect(start.input).toMatchObject({ tools, context, forwardedProps: { a: 1 } })
    expect(start.input.tools).not.toBe(tools)
    expect(start.input.context).not.toBe(context)
    expect(m.model.snapshot.messages).toBe(messages)
    expect(m.model.settings).toStrictEqual({ tools, context, forwardedProps: { a: 1 } })
  })

  it("a plain run's first event records no answered interrupt, and the run starts with no user edit", () => {
    const m = machine()
    m.run('q1')
    expect(m.model.userEdits).toStrictEqual([])
    expect(m.model.edit).toBeUndefined()
    m.events([ev.runStarted('q1')], 'q1')
    expect(m.model.answeredInterrupts).toStrictEqual([])
  })
})

describe('events of a request', () => {
  it('the first one delivers, a terminal one releases the request to drain', () => {
    const m = machine()
    m.run('q1')
    const started = m.step({ type: 'event', event: ev.runStarted('q1'), requestId: 'q1' })
    expect(started.effects).toStrictEqual([show])
    expect(m.model.request?.delivered).toBe(true)
    // Delivered once: later events keep the request as it is.
    const request = m.model.request
    m.events([ev.textStart('a1'), ev.text('a1', 'x')], 'q1')
    expect(m.model.request).toBe(request)
    const finished = m.step({ type: 'event', event: ev.runFinished('q1'), requestId: 'q1' })
    expect(finished.effects).toStrictEqual([release('q1', 'drain'), show])
    expect(m.model.request).toBeUndefined()
    expect(m.model.snapshot.status).toBe('idle')
  })

  it('RUN_ERROR reports its error, then releases', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('q1')], 'q1')
    const step = m.step({ type: 'event', event: ev.runError('boom', 'E1'), requestId: 'q1' })
    const error = m.model.snapshot.error!
    expect(error).toMatchObject({ code: 'RUN_ERROR', message: 'boom' })
    expect(step.effects).toStrictEqual([{ type: 'report', error }, release('q1', 'drain'), show])
    expect(m.model.request).toBeUndefined()
    expect(m.model.snapshot.status).toBe('error')
  })

  it('RUN_ERROR through apply() reports and releases nothing', () => {
    const m = machine()
    m.events([ev.runStarted('r1')])
    const step = m.step({ type: 'event', event: ev.runError('boom') })
    expect(withoutShow(step)).toStrictEqual([{ type: 'report', error: m.model.snapshot.error }])
  })

  it('an event of another request, or with no request in flight, changes nothing and is not shown', () => {
    const m = machine()
    const idle = m.model
    const stray = m.step({ type: 'event', event: ev.snapshot({ n: 9 }), requestId: 'zz' })
    expect(stray.model).toBe(idle)
    expect(stray.effects).toStrictEqual([])
    m.run('q1')
    const running = m.model
    const other = m.step({ type: 'event', event: ev.snapshot({ n: 9 }), requestId: 'q0' })
    expect(other.model).toBe(running)
    expect(other.effects).toStrictEqual([])
  })

  it('an event type the protocol does not know is shown and changes nothing but delivery', () => {
    const m = machine()
    m.run('q1')
    const event = { type: 'SOMETHING_NEW', x: 1 }
    const step = m.step({ type: 'event', event, requestId: 'q1' })
    expect(step.effects).toStrictEqual([show])
    expect(step.model.snapshot.status).toBe('running')
    expect(step.model.request?.delivered).toBe(true)
  })
})

describe('failed', () => {
  it('of another request changes nothing', () => {
    const m = machine()
    m.run('q1')
    const before = m.model
    const step = m.failed('q0', networkError('x'))
    expect(step.model).toBe(before)
    expect(step.effects).toStrictEqual([])
  })

  it('of the request ends the run as an error: the report, then a release with nothing left to drain', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('q1')], 'q1')
    const error = networkError('gone')
    const step = m.failed('q1', error)
    expect(step.effects).toStrictEqual([{ type: 'report', error }, release('q1', 'none')])
    expect(step.model.snapshot).toMatchObject({ status: 'error', error })
    expect(step.model.request).toBeUndefined()
    expect(step.model.rejoin?.runId).toBe('q1')
  })
})

describe('abort and reset', () => {
  it('abort cancels the request and ends the run, steps closed', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('q1'), ev.stepStarted('s')], 'q1')
    const step = m.step({ type: 'abort' })
    expect(step.effects).toStrictEqual([release('q1', 'cancel')])
    expect(step.model.snapshot).toMatchObject({ status: 'idle', steps: [], error: undefined })
    expect(step.model.request).toBeUndefined()
  })

  it('abort() before any event of a plain run ends it idle', () => {
    const m = machine()
    m.run('q1')
    const step = m.step({ type: 'abort' })
    expect(step.effects).toStrictEqual([release('q1', 'cancel')])
    expect(step.model.snapshot).toMatchObject({ status: 'idle', error: undefined })
    expect(step.model.request).toBeUndefined()
  })

  it('abort with no request is nothing', () => {
    const m = machine()
    const before = m.model
    const step = m.step({ type: 'abort' })
    expect(step.model).toBe(before)
    expect(step.effects).toStrictEqual([])
  })

  it('reset cancels a request in flight, and takes a blank model with the state given', () => {
    const m = machine()
    m.run('q1')
    const step = m.step({ type: 'reset', state: { n: 5 }, threadId: 'th2' })
    expect(step.effects).toStrictEqual([release('q1', 'cancel')])
    expect(step.model).toStrictEqual(initialModel(blankSnapshot('th2', { n: 5 })))
    expect(m.step({ type: 'reset', state: { n: 6 }, threadId: 'th3' }).effects).toStrictEqual([])
  })

  it("reset to the initial state, in the config's thread, returns to the config's very blank snapshot", () => {
    const m = machine()
    m.events([ev.runStarted('r1'), ev.delta({ op: 'replace', path: '/n', value: 3 })])
    const step = m.step({ type: 'reset', state: m.config.initial.state, threadId: 'th' })
    expect(step.model.snapshot).toBe(m.config.initial)
    const elsewhere = m.step({ type: 'reset', state: m.config.initial.state, threadId: 'th9' })
    expect(elsewhere.model.snapshot).toStrictEqual(blankSnapshot('th9', { n: 0 }))
    expect(elsewhere.model.snapshot.state).toBe(m.config.initial.state)
  })
})

describe('every way a run fails drops the tool call it cut off mid-arguments', () => {
  /** Run q1 through a request, or r1 through apply(), with call w1 cut off in message a1. */
  function cut(through: 'request' | 'apply') {
    const m = machine()
    const requestId = through === 'request' ? 'q1' : undefined
    if (requestId) m.run(requestId)
    m.events([ev.runStarted(requestId ?? 'r1'), ev.toolStart('w1', 'other', 'a1'), ev.toolArgs('w1', '{"x":')], requestId)
    expect(m.model.snapshot.messages.map((message) => message.id)).toStrictEqual(['a1'])
    return m
  }
  const ids = (model: Model<S>) => model.snapshot.messages.map((message) => message.id)

  it('RUN_ERROR', () => {
    const m = cut('request')
    m.events([ev.runError('boom')], 'q1')
    expect(ids(m.model)).toStrictEqual([])
  })

  it('a malformed terminal event', () => {
    const m = cut('request')
    m.events([{ type: 'RUN_ERROR' }], 'q1')
    expect(ids(m.model)).toStrictEqual([])
  })

  it('a failed request', () => {
    const m = cut('request')
    m.failed('q1', networkError('x'))
    expect(ids(m.model)).toStrictEqual([])
  })

  it('abort()', () => {
    const m = cut('request')
    m.step({ type: 'abort' })
    expect(ids(m.model)).toStrictEqual([])
  })

  it('a run superseded through apply()', () => {
    const m = cut('apply')
    m.events([ev.runStarted('r2')])
    expect(ids(m.model)).toStrictEqual([])
    expect(m.model.snapshot).toMatchObject({ status: 'running', runId: 'r2', error: undefined })
  })

  it('run() after apply() left it open', () => {
    const m = cut('apply')
    m.run('q2')
    expect(ids(m.model)).toStrictEqual([])
    expect((m.last.effects[0] as Extract<Effect, { type: 'start' }>).input.messages).toStrictEqual([])
  })

  it('but a run the server cancelled keeps it, and rolls its state back', () => {
    const m = cut('apply')
    m.events([ev.delta({ op: 'replace', path: '/n', value: 3 }), ev.runFinished('r1', 't1', { type: 'cancelled' })])
    expect(ids(m.model)).toStrictEqual(['a1'])
    expect(m.model.snapshot).toMatchObject({ status: 'idle', error: undefined, state: { n: 0 }, committed: { n: 0 } })
  })

  it('and a finished run keeps it with its state', () => {
    const m = cut('apply')
    m.events([ev.delta({ op: 'replace', path: '/n', value: 3 }), ev.runFinished('r1')])
    expect(ids(m.model)).toStrictEqual(['a1'])
    expect(m.model.snapshot).toMatchObject({ status: 'idle', state: { n: 3 }, committed: { n: 3 } })
  })
})
