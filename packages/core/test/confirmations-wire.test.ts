// LangGraph's on_interrupt answers on the wire. `@ag-ui/langgraph` passes
// `forwardedProps.command` to LangGraph as its Command; `Command.resume` is one value for one
// interrupt, or a map of interrupt id -> value for several. The interrupt id travels in the
// on_interrupt event's `rawEvent` (the LangGraph interrupt itself, `{ id, value, … }`).
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'

type Doc = Record<string, unknown>

const DOC_ID = '0b6e4d62c3a1f0e94d7c28a5b31e6f07'
const TITLE_ID = 'c9f2a7185e43b06d1a8f3c2e7d95b440'

/** An on_interrupt as `@ag-ui/langgraph` sends it: the value as JSON text, the interrupt as `rawEvent`. */
const onInterrupt = (value: Record<string, unknown>, id?: string) =>
  ({ type: 'CUSTOM', name: 'on_interrupt', value: JSON.stringify(value), ...(id ? { rawEvent: { id, value } } : {}) }) as BaseEvent

const askDocument = { message: 'Approve the new document?', toolCallId: 'w1' }
const askTitle = { message: 'Use the new title?', title: 'The sea' }

/** Run 1 drafts `document` through w1 and asks the on_interrupts given; the resumed run finishes. */
function legacyAgent(asks: BaseEvent[]) {
  return new ScriptedAgent({
    runs: [
      (input: RunAgentInput) => [
        ev.runStarted(input.runId),
        ev.custom('PredictState', [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }]),
        ev.toolStart('w1', 'write_document', 'm1'),
        ev.toolArgs('w1', '{"document":"draft text"}'),
        ev.toolEnd('w1'),
        ...asks,
        ev.runFinished(input.runId),
      ],
      (input: RunAgentInput) => [ev.runStarted(input.runId), ev.runFinished(input.runId)],
    ],
  })
}

async function asked(asks: BaseEvent[]) {
  const agent = legacyAgent(asks)
  const store = createAgentStore<Doc>({ agent, initialState: { document: 'before', title: '' }, threadId: 't1' })
  await store.run({ message: { id: 'u1', role: 'user', content: 'write' } })
  return { agent, store, first: store.getState() }
}

describe('on_interrupt answers in forwardedProps.command.resume', () => {
  it('two answers go together as LangGraph’s resume map, keyed by the interrupt ids the events carried', async () => {
    const { agent, store, first } = await asked([onInterrupt(askDocument, DOC_ID), onInterrupt(askTitle, TITLE_ID)])
    expect(first.confirmations.map((c) => [c.id, c.source, c.toolCallId, c.stateKeys])).toStrictEqual([
      [DOC_ID, 'on_interrupt', 'w1', ['document']],
      [TITLE_ID, 'on_interrupt', undefined, []],
    ])
    await store.approve({ id: DOC_ID })
    expect(agent.inputs).toHaveLength(1)
    await store.reject({ id: TITLE_ID })
    const body = agent.inputs[1]!
    expect(body).toStrictEqual({
      threadId: 't1',
      runId: body.runId,
      state: { document: 'draft text', title: '' },
      messages: first.messages,
      tools: [],
      context: [],
      forwardedProps: { command: { resume: { [DOC_ID]: { accepted: true }, [TITLE_ID]: { accepted: false } } } },
    })
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], committed: { document: 'draft text', title: '' } })
  })

  it('answered in the other order, with edits and a payload: each value under its own id', async () => {
    const { agent, store } = await asked([onInterrupt(askDocument, DOC_ID), onInterrupt(askTitle, TITLE_ID)])
    await store.respond({ id: TITLE_ID, payload: 'Another title' })
    await store.approve({ id: DOC_ID, edits: { document: 'edited' } })
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({
      command: { resume: { [TITLE_ID]: 'Another title', [DOC_ID]: { document: 'edited', accepted: true } } },
    })
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'edited', title: '' })
  })

  it('one answer goes as the value itself, as LangGraph resumes a single interrupt', async () => {
    const { agent, store, first } = await asked([onInterrupt(askDocument, DOC_ID)])
    expect(first.confirmations.map((c) => c.id)).toStrictEqual([DOC_ID])
    await store.approve()
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ command: { resume: { accepted: true } } })
    expect(agent.inputs[1]!.resume).toBeUndefined()
  })

  it('events without the interrupt id: the map is keyed by the store’s ids, so no answer is dropped', async () => {
    const { agent, store, first } = await asked([onInterrupt(askDocument), onInterrupt(askTitle)])
    const [documentId, titleId] = first.confirmations.map((c) => c.id)
    expect([documentId, titleId]).toStrictEqual([`${first.runId}:on_interrupt:0`, `${first.runId}:on_interrupt:1`])
    await store.approve({ id: documentId })
    await store.cancel({ id: titleId })
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({
      command: { resume: { [documentId!]: { accepted: true }, [titleId!]: { accepted: false } } },
    })
  })

  it('the same interrupt id twice in one run: the second gets an id of its own, and both answers are sent', async () => {
    const { agent, store, first } = await asked([onInterrupt(askDocument, DOC_ID), onInterrupt(askTitle, DOC_ID)])
    const ids = first.confirmations.map((c) => c.id)
    expect(ids).toStrictEqual([DOC_ID, `${first.runId}:on_interrupt:1`])
    await store.approve({ id: ids[0] })
    await store.approve({ id: ids[1] })
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ command: { resume: { [DOC_ID]: { accepted: true }, [ids[1]!]: { accepted: true } } } })
  })
})
