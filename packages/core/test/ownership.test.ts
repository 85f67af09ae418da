// Values cross into the store by copy: what a caller hands over and mutates afterwards changes
// nothing in the store or on the wire, and snapshots already published are never mutated in place.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentSnapshot, createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'
import { type Doc, done, interrupt, interruptOnW1, predict, scripted, writerAgent } from './support/scenarios'

describe('values handed to the store', () => {
  it('an object passed to apply() is owned by the store: mutating it afterwards changes nothing', () => {
    const store = createAgentStore<Doc>({ initialState: {} })
    const value = { items: [{ id: 'a' }] }
    const message = { id: 'm1', role: 'assistant' as const, content: 'hi' }
    store.apply([ev.snapshot(value), { type: 'MESSAGES_SNAPSHOT', messages: [message] } as BaseEvent, ev.delta({ op: 'add', path: '/extra', value: { n: 1 } })])
    const json = JSON.stringify(store.getState().state)
    // A store that freezes what it owns (development builds) makes these throw instead: also fine.
    try {
      value.items.push({ id: 'b' })
      value.items[0]!.id = 'changed'
      message.content = 'changed'
    } catch {}
    expect(JSON.stringify(store.getState().state)).toBe(json)
    expect(store.getState().state).toStrictEqual({ items: [{ id: 'a' }], extra: { n: 1 } })
    expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'hi' }])
  })

  it('setState owns what it was given: mutating the argument afterwards changes nothing', () => {
    const store = createAgentStore<Doc>({ initialState: { list: [1] } })
    const given = { list: [1, 2], o: { x: 1 } }
    store.setState(given)
    given.list.push(3)
    given.o.x = 9
    expect(store.getState().state).toStrictEqual({ list: [1, 2], o: { x: 1 } })
  })

  it('respond() owns the payload: mutating it before the request is sent changes nothing sent', async () => {
    const agent = new ScriptedAgent({
      runs: [(input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'i1', reason: 'input_required' }])], done],
      delay: 1,
    })
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    await store.run()
    const payload = { list: [1] }
    const answered = store.respond({ id: 'i1', payload })
    payload.list.push(2)
    await answered
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { list: [1] } }])
  })

  it('values handed to setState, approve and respond are owned by the store: mutating them afterwards changes nothing', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
    const edited = { list: [1] }
    store.setState((s) => ({ ...s, edited }))
    try {
      edited.list.push(2)
    } catch {}
    expect(store.getState().state).toStrictEqual({ document: '', edited: { list: [1] } })
    await store.run()
    const edits = { document: { text: 'mine' } }
    const approving = store.approve({ edits })
    try {
      edits.document.text = 'changed'
    } catch {}
    await approving
    expect(agent.inputs[1]!.state).toStrictEqual({ document: { text: 'mine' }, edited: { list: [1] } })
    expect(store.getState().committed).toStrictEqual({ document: { text: 'mine' }, edited: { list: [1] } })

    const agent2 = scripted((runId) => [interrupt(runId, [{ id: 'q', reason: 'input_required' }])])
    const store2 = createAgentStore<Doc>({ agent: agent2, initialState: {} })
    await store2.run()
    const payload = { answer: ['yes'] }
    const responding = store2.respond({ id: 'q', payload })
    try {
      payload.answer.push('no')
    } catch {}
    await responding
    expect(agent2.inputs[1]!.resume).toStrictEqual([{ interruptId: 'q', status: 'resolved', payload: { answer: ['yes'] } }])
  })
})

describe('published snapshots', () => {
  it('are never mutated in place: their arrays and objects stay as they were published', () => {
    const store = createAgentStore<Doc>({ initialState: { list: [1] } })
    const kept: { snapshot: AgentSnapshot<Doc>; json: string }[] = []
    const json = (s: AgentSnapshot<Doc>) =>
      JSON.stringify([s.state, s.committed, s.status, s.steps, s.messages, s.predictions, s.confirmations.map(({ id, stateKeys }) => [id, stateKeys])])
    store.subscribe((snapshot) => kept.push({ snapshot, json: json(snapshot) }))
    store.apply([
      ev.runStarted('r1'),
      ev.stepStarted('one'),
      ev.textStart('a1'),
      ev.text('a1', 'Hel'),
      ev.text('a1', 'lo'),
      ev.textEnd('a1'),
      ev.delta({ op: 'add', path: '/list/-', value: 2 }),
      ev.stepStarted('two'),
      predict('document', 'write_document', 'document'),
      ev.toolStart('w1', 'write_document', 'a1'),
      ev.toolArgs('w1', '{"document":"a'),
      ev.toolArgs('w1', 'b"}'),
      ev.toolEnd('w1'),
      ev.stepFinished('one'),
      ev.toolStart('w2', 'other', 'a1'),
      ev.toolEnd('w2'),
      ev.delta({ op: 'add', path: '/list/0', value: 0 }),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
    ])
    store.approve().catch(() => {})
    store.setState((s) => ({ ...s, list: [...(s.list as number[]), 3] }))
    expect(kept.length).toBeGreaterThan(15)
    for (const { snapshot, json: then } of kept) expect(json(snapshot)).toBe(then)
  })
})
