import type { BaseEvent, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { AgentStoreError } from '../../src/errors'
import { defaultLimits } from '../../src/limits'
import { initialModel, type Model } from '../../src/machine/model'
import { dropRequest, type Effect, type Input, type MachineConfig, type Step, toError, transition } from '../../src/machine/transition'
import { blankSnapshot } from '../../src/snapshot/copy'
import { messagesForServer } from '../../src/snapshot/messages'
import { ev } from '../helpers'

// The transition itself, as the pure function it is: the effects it asks the shell for are its
// output, so they are pinned exactly here (the shell treats 'drain' and 'none' alike).

type S = Record<string, unknown>

function machine(over: Partial<MachineConfig<S>> = {}) {
  const config: MachineConfig<S> = {
    rules: { limits: { ...defaultLimits }, validate: undefined },
    confirmTools: new Set(['confirm_changes']),
    predict: [],
    merge: { arrayKeys: ['id', 'key'] },
    keepFailedRunChanges: false,
    hasAgent: true,
    timeoutMs: undefined,
    readers: new Map(),
    blank: (threadId, state) => initialModel(blankSnapshot(threadId, state)),
    messagesForServer,
    ...over,
  }
  let model: Model<S> = initialModel(blankSnapshot('th', { n: 0 } as S))
  let last: Step<S> | undefined
  const step = (input: Input<S>) => {
    last = transition(model, input, config)
    model = last.model
    return last
  }
  return {
    config,
    step,
    get model() {
      return model
    },
    set model(next: Model<S>) {
      model = next
    },
    /** Events through apply() (no request), or of request `requestId`. */
    events: (events: unknown[], requestId?: string) => events.map((event) => step({ type: 'event', event, ...(requestId ? { requestId } : {}) })),
    run: (runId = 'q1', options: Record<string, unknown> = {}, messages: Message[] = []) => step({ type: 'run', runId, messages, options }),
    get last() {
      return last!
    },
  }
}

const release = (requestId: string, how: 'drain' | 'cancel' | 'none'): Effect => ({ type: 'release', requestId, how })

describe('run', () => {
  it('asks for one start with the exact input, the config timeout by default, and is running at once', () => {
    const m = machine({ timeoutMs: 7 })
    const user: Message = { id: 'u1', role: 'user', content: 'hi' }
    const step = m.run('q1', {}, [user])
    expect(step.requestId).toBe('q1')
    expect(step.refused).toBeUndefined()
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

  it('is refused with nothing changed and no effect', () => {
    const m = machine({ hasAgent: false })
    const before = m.model
    const step = m.run()
    expect(step.model).toBe(before)
    expect(step.effects).toStrictEqual([])
    expect(step.refused?.code).toBe('NO_AGENT')
    expect(step.requestId).toBeUndefined()
  })
})

describe('events of a request', () => {
  it('the first one delivers, a terminal one releases the request to drain', () => {
    const m = machine()
    m.run('q1')
    const started = m.step({ type: 'event', event: ev.runStarted('q1'), requestId: 'q1' })
    expect(started.effects).toStrictEqual([])
    expect(started.accepted).toStrictEqual(ev.runStarted('q1'))
    expect(m.model.request?.delivered).toBe(true)
    // Delivered once: later events keep the request as it is.
    const request = m.model.request
    m.events([ev.textStart('a1'), ev.text('a1', 'x')], 'q1')
    expect(m.model.request).toBe(request)
    const finished = m.step({ type: 'event', event: ev.runFinished('q1'), requestId: 'q1' })
    expect(finished.effects).toStrictEqual([release('q1', 'drain')])
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
    expect(step.effects).toStrictEqual([{ type: 'report', error }, release('q1', 'drain')])
    expect(m.model.request).toBeUndefined()
    expect(m.model.snapshot.status).toBe('error')
  })

  it('RUN_ERROR through apply() reports and releases nothing', () => {
    const m = machine()
    m.events([ev.runStarted('r1')])
    const step = m.step({ type: 'event', event: ev.runError('boom') })
    expect(step.effects).toStrictEqual([{ type: 'report', error: m.model.snapshot.error }])
  })

  it('an event of another request, or with no request in flight, changes nothing', () => {
    const m = machine()
    const idle = m.model
    const stray = m.step({ type: 'event', event: ev.snapshot({ n: 9 }), requestId: 'zz' })
    expect(stray.model).toBe(idle)
    expect(stray.effects).toStrictEqual([])
    expect(stray.accepted).toBeUndefined()
    m.run('q1')
    const running = m.model
    const other = m.step({ type: 'event', event: ev.snapshot({ n: 9 }), requestId: 'q0' })
    expect(other.model).toBe(running)
    expect(other.accepted).toBeUndefined()
  })

  it('an event type the protocol does not know is accepted and changes nothing but delivery', () => {
    const m = machine()
    m.run('q1')
    const event = { type: 'SOMETHING_NEW', x: 1 }
    const step = m.step({ type: 'event', event, requestId: 'q1' })
    expect(step.accepted).toBe(event)
    expect(step.effects).toStrictEqual([])
    expect(step.model.snapshot.status).toBe('running')
    expect(step.model.request?.delivered).toBe(true)
  })
})

describe('malformed events', () => {
  it('a non-terminal one is reported and set as the error, nothing else', () => {
    const m = machine()
    m.events([ev.runStarted('r1')])
    const before = m.model
    const step = m.step({ type: 'event', event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm' } })
    const error = step.model.snapshot.error!
    expect(error.code).toBe('INVALID_EVENT')
    expect(step.effects).toStrictEqual([{ type: 'report', error }])
    expect(step.accepted).toBeUndefined()
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

describe('failed', () => {
  it('of another request changes nothing', () => {
    const m = machine()
    m.run('q1')
    const before = m.model
    const step = m.step({ type: 'failed', requestId: 'q0', error: new AgentStoreError('TRANSPORT', 'x', { reason: 'network' }) })
    expect(step.model).toBe(before)
    expect(step.effects).toStrictEqual([])
  })

  it('of the request ends the run as an error: the report, then a release with nothing left to drain', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('q1')], 'q1')
    const error = new AgentStoreError('TRANSPORT', 'gone', { reason: 'network' })
    const step = m.step({ type: 'failed', requestId: 'q1', error })
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

  it('abort with no request is nothing', () => {
    const m = machine()
    const before = m.model
    const step = m.step({ type: 'abort' })
    expect(step.model).toBe(before)
    expect(step.effects).toStrictEqual([])
  })

  it('reset cancels a request in flight, and takes the blank model of the config', () => {
    const m = machine()
    m.run('q1')
    const step = m.step({ type: 'reset', state: { n: 5 }, threadId: 'th2' })
    expect(step.effects).toStrictEqual([release('q1', 'cancel')])
    expect(step.model).toStrictEqual(initialModel(blankSnapshot('th2', { n: 5 })))
    expect(m.step({ type: 'reset', state: { n: 6 }, threadId: 'th3' }).effects).toStrictEqual([])
  })
})

describe('reconnect', () => {
  /** A run dropped after its first event: rejoinable. */
  function dropped(over: Partial<MachineConfig<S>> = {}) {
    const m = machine(over)
    m.run('q1', { tools: [{ name: 't', description: 'd', parameters: {} }], context: [{ description: 'c', value: 'v' }], forwardedProps: { f: 1 } })
    m.events([ev.runStarted('srv1'), ev.delta({ op: 'replace', path: '/n', value: 1 })], 'q1')
    m.step({ type: 'failed', requestId: 'q1', error: new AgentStoreError('TRANSPORT', 'network', { reason: 'network' }) })
    return m
  }

  it('connects with the input of the run it rejoins, under the run id the server gave it', () => {
    const m = dropped({ timeoutMs: 9 })
    expect(m.model.snapshot.state).toStrictEqual({ n: 0 })
    const rejoin = m.model.rejoin!
    expect(rejoin.runId).toBe('srv1')
    const before = m.model.snapshot
    const step = m.step({ type: 'reconnect', requestId: 'c1' })
    expect(step.requestId).toBe('c1')
    expect(step.refused).toBeUndefined()
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

  it('is refused while a request is active, with nothing dropped, and without an agent', () => {
    const active = machine()
    active.run('q1')
    expect(active.step({ type: 'reconnect', requestId: 'c1' }).refused).toMatchObject({ code: 'RUN_ACTIVE', message: 'A run is already active on this store' })
    expect(active.last.effects).toStrictEqual([])
    const idle = machine()
    const before = idle.model
    const step = idle.step({ type: 'reconnect', requestId: 'c1' })
    expect(step.refused).toMatchObject({ code: 'RECONNECT', reason: 'nothing-to-rejoin', message: 'No run to re-attach: none dropped' })
    expect(step.model).toBe(before)
    const m = dropped()
    const rejoinable = m.model
    const noAgent = transition(rejoinable, { type: 'reconnect', requestId: 'c1' }, { ...m.config, hasAgent: false })
    expect(noAgent.refused).toMatchObject({ code: 'NO_AGENT', message: 'reconnect() needs an agent' })
    expect(noAgent.model).toBe(rejoinable)
    expect(noAgent.effects).toStrictEqual([])
    expect(noAgent.requestId).toBeUndefined()
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
      const step = m.step({ type: 'failed', requestId: 'c1', error: cause })
      const report = step.effects[0] as Extract<Effect, { type: 'report' }>
      expect(step.effects).toStrictEqual([report, release('c1', 'none')])
      expect(report.error).toMatchObject({ code: 'RECONNECT', reason: expected, message: 'The run could not be re-attached: HTTP 404' })
      expect(report.error.cause).toBe(cause)
      expect(step.model.snapshot).toBe(thread)
      expect(step.model.request).toBeUndefined()
      expect(step.model.rejoin?.runId).toBe('srv1')
      expect(m.step({ type: 'reconnect', requestId: 'c2' }).refused).toBeUndefined()
    }
  })

  it('a second reconnect while the first is rejoining is refused', () => {
    const m = dropped()
    m.step({ type: 'reconnect', requestId: 'c1' })
    const rejoining = m.model
    const step = m.step({ type: 'reconnect', requestId: 'c2' })
    expect(step.refused?.code).toBe('RUN_ACTIVE')
    expect(step.model).toBe(rejoining)
    expect(step.effects).toStrictEqual([])
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

  it('the replay of earlier runs is passed over until the RUN_STARTED of the run it rejoins', () => {
    const m = dropped()
    m.step({ type: 'reconnect', requestId: 'c1' })
    // A first event that starts a run: a replay, passed over until the dropped run starts again.
    const first = m.step({ type: 'event', event: ev.runStarted('older'), requestId: 'c1' })
    expect(first.effects).toStrictEqual([])
    expect(first.accepted).toBeUndefined()
    expect(m.model.request?.replaying).toBe(true)
    const waiting = m.model
    for (const event of [ev.delta({ op: 'replace', path: '/n', value: 7 }), ev.runFinished('older'), { type: 'RUN_STARTED', threadId: 't1' }, null]) {
      const step = m.step({ type: 'event', event, requestId: 'c1' })
      expect(step.model).toBe(waiting)
      expect(step.effects).toStrictEqual([])
      expect(step.accepted).toBeUndefined()
    }
    m.events([ev.runStarted('srv1')], 'c1')
    expect(m.model.request).toMatchObject({ id: 'c1', delivered: true })
    expect(m.model.request?.rejoining).toBeUndefined()
    expect(m.model.rejoin).toBeUndefined()
    expect(m.model.snapshot.status).toBe('running')
    m.events([ev.delta({ op: 'replace', path: '/n', value: 1 })], 'c1')
    const end = m.step({ type: 'event', event: ev.runFinished('srv1'), requestId: 'c1' })
    expect(end.effects).toStrictEqual([release('c1', 'drain')])
    expect(m.model.snapshot).toMatchObject({ status: 'idle', state: { n: 1 }, committed: { n: 1 } })
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
  it('an orphan tool result is reported with its event type, and changes nothing', () => {
    const m = machine()
    // An answered confirmation naming call 'hidden', which no message shows.
    m.events([ev.runStarted('r1'), ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 'hidden' }] })])
    m.step({ type: 'answer', id: 'i1', answer: { kind: 'approve', edits: undefined }, options: undefined, now: 0, runId: 'q2', messageId: 'mm' })
    m.events([ev.runStarted('q2')], 'q2')
    const before = m.model
    const step = m.step({ type: 'event', event: ev.toolResult('res', 'hidden', 'x'), requestId: 'q2' })
    expect(step.model).toBe(before)
    expect(step.effects).toHaveLength(1)
    expect((step.effects[0] as Extract<Effect, { type: 'report' }>).error).toMatchObject({
      code: 'INVALID_EVENT',
      eventType: 'TOOL_CALL_RESULT',
      reason: 'orphan-result',
      message: 'TOOL_CALL_RESULT for tool call hidden, which the conversation never showed: dropped',
    })
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

describe('a dropped run rebuilt by the replay', () => {
  function droppedAt(state: S) {
    const m = machine()
    m.model = initialModel(blankSnapshot('th', state))
    m.run('q1')
    m.events([ev.runStarted('srv1'), ev.delta({ op: 'replace', path: '/n', value: 1 })], 'q1')
    m.step({ type: 'failed', requestId: 'q1', error: new AgentStoreError('TRANSPORT', 'network', { reason: 'network' }) })
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

describe('answers', () => {
  /** A run left interrupted by `interrupts`, through apply(). */
  function interrupted(interrupts: Record<string, unknown>[]) {
    const m = machine()
    m.events([ev.runStarted('r1'), ev.runFinished('r1', 't1', { type: 'interrupt', interrupts })])
    return m
  }
  const approve = (id: string, runId = 'q2'): Input<S> => ({
    type: 'answer',
    id,
    answer: { kind: 'approve', edits: undefined },
    options: undefined,
    now: 0,
    runId,
    messageId: `m-${runId}`,
  })

  it('are given back whole when the request fails before its first event, keeping the edit made meanwhile', () => {
    const m = interrupted([{ id: 'i1', reason: 'input_required' }])
    const before = m.model
    m.step(approve('i1'))
    expect(m.model.outbox).toBeDefined()
    m.step({ type: 'setState', update: { n: 4 } })
    expect(m.model.userEdits).toHaveLength(1)
    const error = new AgentStoreError('TRANSPORT', 'HTTP 503', { reason: 'http' })
    const step = m.step({ type: 'failed', requestId: 'q2', error })
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
    expect(step.requestId).toBe('q2')
  })
})

describe('a resumed run dropped after delivery', () => {
  it('rebuilt by the replay, delivers its answers again: the outbox goes, its interrupts are answered once, and its own end is live', () => {
    const m = machine()
    m.events([ev.runStarted('r1'), ev.runFinished('r1', 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] })])
    m.step({ type: 'answer', id: 'i1', answer: { kind: 'approve', edits: undefined }, options: undefined, now: 0, runId: 'q2', messageId: 'mq2' })
    m.events([ev.runStarted('q2')], 'q2')
    m.step({ type: 'failed', requestId: 'q2', error: new AgentStoreError('TRANSPORT', 'network', { reason: 'network' }) })
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
    m.step({ type: 'failed', requestId: 'q1', error: new AgentStoreError('TRANSPORT', 'refused', { reason: 'network' }) })
    expect(m.model.rejoin).toBeUndefined()
    expect(m.model.snapshot.status).toBe('error')
    expect(m.step({ type: 'reconnect', requestId: 'c1' }).refused?.reason).toBe('nothing-to-rejoin')
  })

  it('a run whose first event was not RUN_STARTED rejoins under the id of its request', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.textStart('a1')], 'q1')
    m.step({ type: 'failed', requestId: 'q1', error: new AgentStoreError('TRANSPORT', 'network', { reason: 'network' }) })
    expect(m.model.rejoin?.runId).toBe('q1')
  })

  it('a new run forgets the run that could be rejoined', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('q1')], 'q1')
    m.step({ type: 'failed', requestId: 'q1', error: new AgentStoreError('TRANSPORT', 'network', { reason: 'network' }) })
    expect(m.model.rejoin?.runId).toBe('q1')
    m.run('q2')
    expect(m.model.rejoin).toBeUndefined()
  })
})

describe('dropRequest without an error (a page reloaded mid-run)', () => {
  it('ends the run idle, rejoinable once it had begun', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('srv1'), ev.delta({ op: 'replace', path: '/n', value: 1 })], 'q1')
    const { model, effects } = dropRequest(m.model, undefined, m.config)
    expect(effects).toStrictEqual([])
    expect(model.snapshot).toMatchObject({ status: 'idle', error: undefined, state: { n: 0 } })
    expect(model.request).toBeUndefined()
    expect(model.rejoin?.runId).toBe('srv1')
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
    m.step({ type: 'failed', requestId: 'q1', error: new AgentStoreError('TRANSPORT', 'x', { reason: 'network' }) })
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

describe('details of the transition', () => {
  it('steps that change no effect hand back the one frozen empty list', () => {
    const m = machine()
    const lists = [
      m.step({ type: 'abort' }).effects,
      m.step({ type: 'event', event: ev.runStarted('r1') }).effects,
      m.step({ type: 'event', event: { type: 'NEWER_EVENT' } }).effects,
      m.step({ type: 'event', event: ev.snapshot({ n: 1 }), requestId: 'gone' }).effects,
      m.step({ type: 'failed', requestId: 'gone', error: new AgentStoreError('TRANSPORT', 'x', { reason: 'network' }) }).effects,
    ]
    for (const list of lists) {
      expect(list).toStrictEqual([])
      expect(Object.isFrozen(list)).toBe(true)
    }
  })

  it("a plain run's first event records no answered interrupt, and the run starts with no user edit", () => {
    const m = machine()
    m.run('q1')
    expect(m.model.userEdits).toStrictEqual([])
    expect(m.model.edit).toBeUndefined()
    m.events([ev.runStarted('q1')], 'q1')
    expect(m.model.answeredInterrupts).toStrictEqual([])
  })

  it('abort() before any event of a plain run ends it idle', () => {
    const m = machine()
    m.run('q1')
    const step = m.step({ type: 'abort' })
    expect(step.effects).toStrictEqual([release('q1', 'cancel')])
    expect(step.model.snapshot).toMatchObject({ status: 'idle', error: undefined })
    expect(step.model.request).toBeUndefined()
  })

  it('the reconnect input holds copies of the run settings', () => {
    const m = machine()
    m.run('q1', { tools: [{ name: 't', description: 'd', parameters: {} }], context: [{ description: 'c', value: 'v' }] })
    m.events([ev.runStarted('q1')], 'q1')
    m.step({ type: 'failed', requestId: 'q1', error: new AgentStoreError('TRANSPORT', 'x', { reason: 'network' }) })
    const settings = m.model.rejoin!.start.settings
    const { input } = m.step({ type: 'reconnect', requestId: 'c1' }).effects[0] as Extract<Effect, { type: 'connect' }>
    expect(input.tools).toStrictEqual(settings.tools)
    expect(input.tools).not.toBe(settings.tools)
    expect(input.context).toStrictEqual(settings.context)
    expect(input.context).not.toBe(settings.context)
  })

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

describe('dropRequest while a reconnect is rejoining (a thread saved during the replay, then restored)', () => {
  it('lets the request go without a run to end', () => {
    const m = machine()
    m.run('q1')
    m.events([ev.runStarted('q1'), ev.delta({ op: 'replace', path: '/n', value: 1 })], 'q1')
    m.step({ type: 'failed', requestId: 'q1', error: new AgentStoreError('TRANSPORT', 'network', { reason: 'network' }) })
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

describe('which steps were streamed tokens (what persistence writes at once depends on it)', () => {
  it('text, reasoning and tool-argument tokens are marked; every other event, chunks and an unknown type are not', () => {
    const m = machine()
    const marked = (event: Record<string, unknown>) => m.events([event])[0]!.streamed
    expect(marked({ type: 'RUN_STARTED', threadId: 'th', runId: 'r1' })).toBe(false)
    expect(marked({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' })).toBe(false)
    expect(marked({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi' })).toBe(true)
    expect(marked({ type: 'TEXT_MESSAGE_END', messageId: 'm1' })).toBe(false)
    expect(marked({ type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' })).toBe(false)
    expect(marked({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'hm' })).toBe(true)
    expect(marked({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'write' })).toBe(false)
    expect(marked({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"a":' })).toBe(true)
    expect(marked({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'chunked' })).toBe(false)
    expect(marked({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: 1 }] })).toBe(false)
    expect(marked({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' })).toBe(false)
    // Ignored, and not a token either.
    expect(marked({ type: 'FROM_THE_FUTURE' })).toBeUndefined()
  })
})
