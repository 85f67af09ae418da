import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'

const predict = (stateKey: string, tool: string, toolArgument?: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, ...(toolArgument ? { tool_argument: toolArgument } : {}) }])
const interrupt = (runId: string, interrupts: Record<string, unknown>[]) => ev.runFinished(runId, 't1', { type: 'interrupt', interrupts })
const schema = (field: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { [field]: { type: 'boolean' }, ...extra },
  required: [field],
})
const done = (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId), ev.runFinished(input.runId)]

/** Run 1 writes a document draft and ends with the given confirmation events; later runs just finish. */
function writerAgent(ending: (input: RunAgentInput) => BaseEvent[]) {
  return new ScriptedAgent({
    runs: [
      (input) => [
        ev.runStarted(input.runId),
        predict('document', 'write_document', 'document'),
        ev.toolStart('w1', 'write_document', 'm1'),
        ev.toolArgs('w1', '{"document":"draft text"}'),
        ev.toolEnd('w1'),
        ...ending(input),
      ],
      done,
    ],
  })
}

describe('answering an AG-UI interrupt', () => {
  const ending =
    (extra: Record<string, unknown> = {}) =>
    (input: RunAgentInput) => [
      interrupt(input.runId, [
        { id: 'i1', reason: 'tool_call', toolCallId: 'w1', responseSchema: schema('accepted', { document: { type: 'string' } }), ...extra },
      ]),
    ]

  it('approve with edits: the edit lands in the mapped key and in the payload', async () => {
    const agent = writerAgent(ending())
    const store = createAgentStore({ agent, initialState: { document: '' } })
    await store.run({ message: 'write' })
    expect(store.getState().confirmations[0]).toMatchObject({ id: 'i1', source: 'interrupt', toolCallId: 'w1', stateKeys: ['document'] })
    await store.approve({ edits: { document: 'edited text' } })
    expect(agent.inputs[1]!.resume).toEqual([{ interruptId: 'i1', status: 'resolved', payload: { document: 'edited text', accepted: true } }])
    expect(agent.inputs[1]!.state).toEqual({ document: 'edited text' })
    expect(store.getState()).toMatchObject({ state: { document: 'edited text' }, committed: { document: 'edited text' }, status: 'idle' })
  })

  it('reject: the draft is discarded; a reason goes in only where the schema has a property for it', async () => {
    for (const withReason of [false, true]) {
      const extra = withReason ? { responseSchema: schema('approved', { reason: { type: 'string' } }) } : {}
      const agent = writerAgent(ending(extra))
      const store = createAgentStore({ agent, initialState: { document: 'before' } })
      await store.run()
      await store.reject({ id: 'i1', reason: 'too long' })
      const payload = withReason ? { approved: false, reason: 'too long' } : { accepted: false }
      expect(agent.inputs[1]!.resume).toEqual([{ interruptId: 'i1', status: 'resolved', payload }])
      expect(agent.inputs[1]!.state).toEqual({ document: 'before' })
      expect(store.getState().state).toEqual({ document: 'before' })
    }
  })

  it('cancel sends status cancelled and discards; a resumed run that errors leaves a usable store', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          predict('document', 'write_document', 'document'),
          ev.toolStart('w1', 'write_document'),
          ev.toolArgs('w1', '{"document":"x"}'),
          ev.toolEnd('w1'),
          ...ending()(input),
        ],
        (input) => [ev.runStarted(input.runId), ev.runError('The approval was cancelled', 'APPROVAL_RESUME_CANCELLED')],
        done,
      ],
    })
    const store = createAgentStore({ agent, initialState: { document: 'kept' } })
    await store.run()
    await store.cancel()
    expect(agent.inputs[1]!.resume).toEqual([{ interruptId: 'i1', status: 'cancelled' }])
    expect(store.getState()).toMatchObject({
      status: 'error',
      state: { document: 'kept' },
      committed: { document: 'kept' },
      error: { code: 'RUN_ERROR', serverCode: 'APPROVAL_RESUME_CANCELLED' },
    })
    await store.run({ message: 'again' })
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
  })

  it('an expired interrupt cannot be approved, rejected or answered, but can be cancelled', async () => {
    const agent = writerAgent(ending({ expiresAt: '2000-01-01T00:00:00Z' }))
    const store = createAgentStore({ agent, initialState: { document: '' } })
    await store.run()
    await expect(store.approve()).rejects.toMatchObject({ code: 'EXPIRED' })
    await expect(store.reject()).rejects.toMatchObject({ code: 'EXPIRED' })
    await expect(store.respond({ id: 'i1', payload: 'x' })).rejects.toMatchObject({ code: 'EXPIRED' })
    expect(agent.inputs).toHaveLength(1)
    expect(store.getState().status).toBe('interrupted')
    await store.cancel({ id: 'i1' })
    expect(agent.inputs[1]!.resume).toEqual([{ interruptId: 'i1', status: 'cancelled' }])
  })

  it('the resumed run starts once the last of several is answered, with every answer in one input', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          interrupt(input.runId, [
            { id: 'a', reason: 'tool_call', responseSchema: schema('approved') },
            { id: 'b', reason: 'input_required', responseSchema: { type: 'object', properties: { response: { type: 'string' } } } },
          ]),
        ],
        done,
      ],
    })
    const store = createAgentStore({ agent, initialState: {} })
    await store.run()
    await expect(store.approve()).rejects.toMatchObject({ code: 'NO_CONFIRMATION' })
    await expect(store.approve({ id: 'zzz' })).rejects.toMatchObject({ code: 'NO_CONFIRMATION' })
    await store.approve({ id: 'a' })
    expect(agent.inputs).toHaveLength(1)
    expect(store.getState().status).toBe('interrupted')
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['b'])
    await store.respond({ payload: { response: 'johndoe42' } })
    expect(agent.inputs[1]!.resume).toEqual([
      { interruptId: 'a', status: 'resolved', payload: { approved: true } },
      { interruptId: 'b', status: 'resolved', payload: { response: 'johndoe42' } },
    ])
  })

  it('opens the interrupts of a run that apply() never saw start', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply(interrupt('r', [{ id: 'lonely', reason: 'input_required' }]))
    expect(store.getState().status).toBe('interrupted')
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['lonely'])
  })

  it('refuses an approve whose edits the validator refuses, changing nothing and sending nothing', async () => {
    const agent = writerAgent((input) => [interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])])
    const validate = (value: unknown) => {
      if ((value as { document: string }).document === 'bad') throw new Error('not that')
      return value as { document: string }
    }
    const store = createAgentStore({ agent, initialState: { document: '' }, validate })
    await store.run()
    const before = store.getState()
    await expect(store.approve({ edits: { document: 'bad' } })).rejects.toMatchObject({ code: 'VALIDATION' })
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
    await store.approve()
    expect(agent.inputs[1]!.state).toEqual({ document: 'draft text' })
  })

  it('keeps every field of the interrupt', () => {
    const store = createAgentStore({ initialState: {} })
    const full = {
      id: 'i',
      reason: 'tool_call',
      message: 'OK?',
      toolCallId: 'c',
      responseSchema: schema('accepted'),
      expiresAt: '2999-01-01T00:00:00Z',
      metadata: { k: 1 },
    }
    store.apply([ev.runStarted('r'), interrupt('r', [full])])
    expect(store.getState().confirmations).toEqual([{ ...full, source: 'interrupt', runId: 'r', stateKeys: [] }])
  })
})

describe('confirmation tool calls and on_interrupt', () => {
  it('a confirm_changes call naming function_call_id governs that call; the answer is a tool message', async () => {
    const agent = writerAgent((input) => [
      ev.toolStart('cc1', 'confirm_changes', 'm1'),
      ev.toolArgs('cc1', JSON.stringify({ function_name: 'write_document', function_call_id: 'w1' })),
      ev.toolEnd('cc1'),
      ev.runFinished(input.runId),
    ])
    const store = createAgentStore({ agent, initialState: { document: 'old' } })
    await store.run()
    expect(store.getState().confirmations).toMatchObject([{ id: 'cc1', source: 'tool', toolCallId: 'w1', stateKeys: ['document'] }])
    await store.approve()
    const sent = agent.inputs[1]!
    expect(sent.messages.at(-1)).toEqual({ id: expect.any(String), role: 'tool', toolCallId: 'cc1', content: '{"accepted":true}' })
    expect(sent.state).toEqual({ document: 'draft text' })
  })

  it('an answered confirmation tool call opens nothing; custom confirmTools are honoured', async () => {
    const store = createAgentStore({ initialState: {}, confirmTools: ['ask_user'] })
    store.apply([
      ev.runStarted('r1'),
      ev.toolStart('x', 'ask_user'),
      ev.toolEnd('x'),
      ev.toolStart('y', 'confirm_changes'),
      ev.toolEnd('y'),
      ev.runFinished('r1'),
    ])
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['x'])
    store.apply([ev.runStarted('r2'), ev.toolResult('t', 'x', '{"accepted":true}'), ev.runFinished('r2')])
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['x'])
  })

  it('on_interrupt is answered through forwardedProps.command.resume, and governs all drafts of its run', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          predict('steps', 'plan', 'steps'),
          ev.toolStart('p1', 'plan'),
          ev.toolArgs('p1', '{"steps":["a","b"]}'),
          ev.toolEnd('p1'),
          ev.custom('on_interrupt', JSON.stringify({ question: 'Which steps?' })),
          ev.runFinished(input.runId),
        ],
        done,
      ],
    })
    const store = createAgentStore({ agent, initialState: { steps: [] as string[] } })
    await store.run()
    expect(store.getState().confirmations).toMatchObject([{ source: 'on_interrupt', value: { question: 'Which steps?' }, stateKeys: ['steps'] }])
    await store.approve({ edits: { steps: ['a'] } })
    expect(agent.inputs[1]!.forwardedProps).toEqual({ command: { resume: { steps: ['a'], accepted: true } } })
    expect(agent.inputs[1]!.state).toEqual({ steps: ['a'] })
  })

  it('interrupts stand for the confirm tool call and on_interrupt of the same run', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply([
      ev.runStarted('r'),
      ev.toolStart('cc', 'confirm_changes'),
      ev.toolEnd('cc'),
      ev.custom('on_interrupt', '"x"'),
      interrupt('r', [{ id: 'only', reason: 'tool_call' }]),
    ])
    expect(store.getState().confirmations.map((c) => c.id)).toEqual(['only'])
  })

  it('confirmations belong to the store: a new subscriber sees them, and reset clears them', () => {
    const store = createAgentStore({ initialState: {} })
    store.apply([ev.runStarted('r'), interrupt('r', [{ id: 'i', reason: 'tool_call' }])])
    let seen: readonly { id: string }[] = []
    store.subscribe((s) => (seen = s.confirmations))
    expect(store.getState().confirmations).toHaveLength(1)
    store.reset()
    expect(seen).toEqual([])
  })
})
