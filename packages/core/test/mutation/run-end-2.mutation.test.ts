import type { BaseEvent, Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore } from '../../src'
import { ev } from '../helpers'

// What a failed run does to the tool calls it cut off, pinned through apply(): a call cut in the
// middle of its arguments goes (sent back it would break the next run); a call whose arguments are
// whole, that has a result, or that ended stays; so does a message with text, or one from before.

type S = Record<string, unknown>
const messagesSnapshot = (messages: Message[]) => ({ type: 'MESSAGES_SNAPSHOT', messages }) as BaseEvent

function store(initialState: S = {}) {
  const errors: AgentStoreError[] = []
  return { errors, store: createAgentStore<S>({ initialState, onError: (error) => errors.push(error) }) }
}

const callIds = (message: Message | undefined) => (message?.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : undefined)

describe('a failed run and the tool calls it cut off', () => {
  it('keeps the very messages array when no call was streaming', () => {
    const { store: s } = store()
    s.apply([ev.runStarted('r1'), ev.textStart('m1'), ev.text('m1', 'hi'), ev.textEnd('m1')])
    const before = s.getState().messages
    s.apply(ev.runError('boom'))
    expect(s.getState().status).toBe('error')
    expect(s.getState().messages).toBe(before)
  })

  it('drops only the cut call: whole arguments, a result, or an end keep a call', () => {
    const { store: s } = store()
    s.apply([
      ev.runStarted('r1'),
      // Streaming, arguments whole: stays.
      ev.toolStart('whole', 'search', 'm1'),
      ev.toolArgs('whole', '{"q":1}'),
      // Streaming, cut, no result: goes.
      ev.toolStart('cut', 'search', 'm1'),
      ev.toolArgs('cut', '{"q":'),
      // Streaming, cut, but answered: stays.
      ev.toolStart('answered', 'search', 'm1'),
      ev.toolArgs('answered', '{"q":'),
      ev.toolResult('r-answered', 'answered', 'found'),
      // Ended with arguments that are not JSON: it is no longer streaming, so it stays.
      ev.toolStart('ended', 'search', 'm1'),
      ev.toolArgs('ended', '{"q":'),
      ev.toolEnd('ended'),
    ])
    s.apply(ev.runError('boom'))
    const messages = s.getState().messages
    expect(messages.map((m) => m.id)).toStrictEqual(['m1', 'r-answered'])
    expect(callIds(messages[0])).toStrictEqual(['whole', 'answered', 'ended'])
    expect(messages[1]).toMatchObject({ role: 'tool', toolCallId: 'answered', content: 'found' })
  })

  it('keeps a message with text without its cut call, and drops one the run made for the cut call alone', () => {
    const { store: s } = store()
    s.apply([
      ev.runStarted('r1'),
      ev.textStart('m1'),
      ev.text('m1', 'Let me look'),
      ev.textEnd('m1'),
      ev.toolStart('cut-1', 'search', 'm1'),
      ev.toolArgs('cut-1', '{"q'),
      ev.toolStart('cut-2', 'search', 'm2'),
      ev.toolArgs('cut-2', '{"q'),
    ])
    s.apply(ev.runError('boom'))
    expect(s.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'Let me look' }])
  })

  it('keeps a message from before the run, emptied of the cut call it was given', () => {
    const { store: s } = store()
    s.apply(messagesSnapshot([{ id: 'm0', role: 'assistant' }]))
    s.apply([ev.runStarted('r2'), ev.toolStart('cut', 'search', 'm0'), ev.toolArgs('cut', '{"q')])
    expect(callIds(s.getState().messages[0])).toStrictEqual(['cut'])
    s.apply(ev.runError('boom'))
    expect(s.getState().messages).toStrictEqual([{ id: 'm0', role: 'assistant' }])
  })

  it('keeps what a cancelled run sent, cut calls included', () => {
    const { store: s } = store()
    s.apply([ev.runStarted('r1'), ev.toolStart('cut', 'search', 'm1'), ev.toolArgs('cut', '{"q')])
    s.apply(ev.runFinished('r1', 't1', { type: 'cancelled' }))
    expect(callIds(s.getState().messages[0])).toStrictEqual(['cut'])
  })
})

describe('runs after a run that ended', () => {
  it('a second failed run rolls back to the state the first one left, after a failure', () => {
    const { store: s, errors } = store({ title: 'a' })
    s.apply([ev.runStarted('r1'), ev.delta({ op: 'replace', path: '/title', value: 'b' }), ev.runError('first')])
    expect(s.getState().state).toStrictEqual({ title: 'a' })
    s.apply([ev.runStarted('r2'), ev.delta({ op: 'replace', path: '/title', value: 'c' }), ev.runError('second')])
    expect(s.getState().state).toStrictEqual({ title: 'a' })
    expect(s.getState().committed).toStrictEqual({ title: 'a' })
    expect(errors.map((e) => e.code)).toStrictEqual(['RUN_ERROR', 'RUN_ERROR'])
  })

  it('a failed run rolls back to the state a finished run committed', () => {
    const { store: s, errors } = store({ title: 'a' })
    s.apply([ev.runStarted('r1'), ev.delta({ op: 'replace', path: '/title', value: 'b' }), ev.runFinished('r1')])
    expect(s.getState().committed).toStrictEqual({ title: 'b' })
    s.apply([ev.runStarted('r2'), ev.delta({ op: 'replace', path: '/title', value: 'c' }), ev.runError('second')])
    expect(s.getState().state).toStrictEqual({ title: 'b' })
    expect(s.getState().committed).toStrictEqual({ title: 'b' })
    expect(errors.map((e) => e.code)).toStrictEqual(['RUN_ERROR'])
  })
})
