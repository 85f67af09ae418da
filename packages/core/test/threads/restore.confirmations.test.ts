// Issue 13: a reload while the user must answer. Answering after the reload sends exactly the body
// the page would have sent without it; an interrupt already answered (its resume delivered) never
// comes back by a replay (a new live run that asks the same id again opens it: it is its own); a
// run saved mid-stream comes back as abort() leaves it; an answer saved before it reached the
// server is open again and answering again sends the same resume.
//
// Ids (runId, the tool messages of answers) come from a counter the test sets before each user
// action, so both pages make the same ids and bodies are compared whole.
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it, vi } from 'vitest'
import { type AgentStore, type AgentStoreOptions, createAgentStore, restoreThread, serializeThread } from '../../src'
import { ScriptedAgent, type ScriptedRun } from '../../src/testing'
import { type Doc, finishing, SteppedAgent, throughJson } from './support-threads'

const ids = vi.hoisted(() => ({ next: 0 }))
vi.mock('../../src/ids', () => ({ createId: () => `id-${ids.next++}` }))
const idsFor = (action: number) => {
  ids.next = action * 1_000
}

const THREAD = 'thread-reload'
const initialState: Doc = { document: 'The old document.', title: '' }
const predict = [{ stateKey: 'document', tool: 'write_document', toolArgument: 'document' }]
const NEW = 'A brand new document about the sea.'
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

const ev = (event: Record<string, unknown>) => event as unknown as BaseEvent
const started = (input: RunAgentInput) => ev({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId })
const writeCall = (id: string) => [
  ev({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'write_document', parentMessageId: `msg-${id}` }),
  ev({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{"document":"A brand new ' }),
  ev({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: 'document about the sea."}' }),
  ev({ type: 'TOOL_CALL_END', toolCallId: id }),
]

interface Scenario {
  name: string
  /** Whether the run drafts `document` for the confirmation to govern. */
  drafts: boolean
  /** The run that ends waiting for the user. */
  first: (input: RunAgentInput) => BaseEvent[]
}

const scenarios: Scenario[] = [
  {
    // CopilotKit's shape: a tool call the interrupt names, no responseSchema (the answer also goes as its tool message).
    name: 'an interrupt naming the drafting tool call',
    drafts: true,
    first: (input) => [
      started(input),
      ...writeCall('call-1'),
      ev({
        type: 'RUN_FINISHED',
        threadId: input.threadId,
        runId: input.runId,
        outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'call-1', message: 'Approve the new document?' }] },
      }),
    ],
  },
  {
    name: 'an interrupt with a responseSchema and an expiry',
    drafts: true,
    first: (input) => [
      started(input),
      ...writeCall('call-1'),
      ev({
        type: 'RUN_FINISHED',
        threadId: input.threadId,
        runId: input.runId,
        outcome: {
          type: 'interrupt',
          interrupts: [
            {
              id: 'int-1',
              reason: 'tool_call',
              toolCallId: 'call-1',
              message: 'Approve?',
              responseSchema: { type: 'object', properties: { approved: { type: 'boolean' }, note: { type: 'string' } }, required: ['approved'] },
              expiresAt: inAnHour(),
              metadata: { step: 'review' },
            },
          ],
        },
      }),
    ],
  },
  {
    // The server-starter shape: a confirm_changes tool call after the drafting one, and a plain RUN_FINISHED.
    name: 'a confirm_changes tool call',
    drafts: true,
    first: (input) => [
      started(input),
      ...writeCall('call-1'),
      ev({ type: 'TOOL_CALL_START', toolCallId: 'confirm-1', toolCallName: 'confirm_changes', parentMessageId: 'msg-call-1' }),
      ev({ type: 'TOOL_CALL_ARGS', toolCallId: 'confirm-1', delta: '{}' }),
      ev({ type: 'TOOL_CALL_END', toolCallId: 'confirm-1' }),
      ev({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId }),
    ],
  },
  {
    name: 'a confirm_changes tool call and the interrupt that stands for it',
    drafts: true,
    first: (input) => [
      started(input),
      ...writeCall('call-1'),
      ev({ type: 'TOOL_CALL_START', toolCallId: 'confirm-1', toolCallName: 'confirm_changes', parentMessageId: 'msg-call-1' }),
      ev({ type: 'TOOL_CALL_ARGS', toolCallId: 'confirm-1', delta: '{"function_call_id":"call-1"}' }),
      ev({ type: 'TOOL_CALL_END', toolCallId: 'confirm-1' }),
      ev({
        type: 'RUN_FINISHED',
        threadId: input.threadId,
        runId: input.runId,
        outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'confirm-1' }] },
      }),
    ],
  },
  {
    name: 'an input_required interrupt with no tool call',
    drafts: false,
    first: (input) => [
      started(input),
      ev({
        type: 'RUN_FINISHED',
        threadId: input.threadId,
        runId: input.runId,
        outcome: {
          type: 'interrupt',
          interrupts: [
            {
              id: 'int-1',
              reason: 'input_required',
              message: 'Which title?',
              responseSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
            },
          ],
        },
      }),
    ],
  },
]

type Answer = { name: string; give: (store: AgentStore<Doc>, id: string) => Promise<void> }

const answers: Answer[] = [
  { name: 'approve', give: (store, id) => store.approve({ id }) },
  {
    name: 'approve with edits and run options',
    give: (store, id) => store.approve({ id, edits: { document: 'Edited by me.' }, forwardedProps: { mode: 'edit' } }),
  },
  { name: 'reject', give: (store, id) => store.reject({ id, reason: 'Not this one' }) },
  { name: 'respond', give: (store, id) => store.respond({ id, payload: { approved: true, title: 'Sea', note: 'fine' } }) },
  { name: 'cancel', give: (store, id) => store.cancel({ id }) },
]

function page(first: ScriptedRun, runs: ScriptedRun[] = [finishing]) {
  const errors: string[] = []
  const agent = new ScriptedAgent({ runs: [first, ...runs] })
  const options: AgentStoreOptions<Doc> = { agent, initialState, predict, threadId: THREAD, onError: (error) => errors.push(error.code) }
  return { agent, errors, store: createAgentStore<Doc>(options), options }
}

/** The page after a reload: the saved thread through JSON, a new agent that answers with `runs`. */
function reloaded(saved: unknown, runs: ScriptedRun[] = [finishing]) {
  const errors: string[] = []
  const agent = new ScriptedAgent({ runs })
  const store = createAgentStore<Doc>({
    agent,
    initialState,
    predict,
    threadId: THREAD,
    onError: (error) => errors.push(error.code),
    restore: restoreThread(throughJson(saved) as never),
  })
  return { agent, errors, store }
}

const settled = (promise: Promise<void>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => `refused ${error.code}`,
  )

async function waiting(scenario: Scenario) {
  const before = page(scenario.first)
  idsFor(1)
  await before.store.run({ message: { id: 'user-1', role: 'user', content: 'Write about the sea' } })
  return before
}

describe('a reload while a confirmation is open', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: the reloaded page shows the same thread, answerable`, async () => {
      const before = await waiting(scenario)
      const shown = before.store.getState()
      expect(shown.status).toBe('interrupted')
      expect(shown.confirmations.length).toBe(1)
      const after = reloaded(serializeThread(before.store))
      expect(after.store.getState()).toStrictEqual(shown)
      expect(after.store.getInitialState()).toBe(after.store.getState())
      expect(after.errors).toStrictEqual([])
      if (scenario.drafts) {
        expect(after.store.getState().state).toStrictEqual({ ...initialState, document: NEW })
        expect(after.store.getState().committed).toStrictEqual(initialState)
        expect(after.store.getState().predictions.map((p) => [p.stateKey, p.value, p.complete])).toStrictEqual([['document', NEW, true]])
      }
    })

    for (const answer of answers) {
      it(`${scenario.name}: ${answer.name} after the reload sends exactly what it would have sent without it`, async () => {
        const without = await waiting(scenario)
        const withReload = await waiting(scenario)
        const after = reloaded(serializeThread(withReload.store))
        const id = without.store.getState().confirmations[0]!.id
        idsFor(2)
        const outcomes = [await settled(answer.give(without.store, id))]
        idsFor(2)
        outcomes.push(await settled(answer.give(after.store, id)))
        expect(outcomes[1]).toBe(outcomes[0])
        // The answers the protocol has for every kind of confirmation go through.
        if (answer.name !== 'respond') expect(outcomes[0]).toBe('ok')
        expect(after.agent.inputs).toStrictEqual(without.agent.inputs.slice(1))
        expect(after.store.getState()).toStrictEqual(without.store.getState())
        expect(after.errors).toStrictEqual(without.errors.slice(0))
        if (outcomes[0] === 'ok') {
          const body = after.agent.inputs[0]!
          expect(body.threadId).toBe(THREAD)
          expect(body.messages.some((message) => message.id === 'user-1')).toBe(true)
        }
      })
    }
  }

  it('two interrupts, one answered before the reload: the answer not yet sent goes with the last one', async () => {
    const two = (input: RunAgentInput) => [
      started(input),
      ev({
        type: 'RUN_FINISHED',
        threadId: input.threadId,
        runId: input.runId,
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: 'a', reason: 'tool_call', message: 'First?' },
            { id: 'b', reason: 'input_required', message: 'Second?' },
          ],
        },
      }),
    ]
    const without = page(two)
    const withReload = page(two)
    for (const one of [without, withReload]) {
      idsFor(1)
      await one.store.run({ message: { id: 'user-1', role: 'user', content: 'Go' }, tools: [{ name: 'pick', description: 'Pick', parameters: {} }] })
      idsFor(2)
      await one.store.approve({ id: 'a' })
    }
    expect(withReload.agent.inputs).toHaveLength(1)
    const after = reloaded(serializeThread(withReload.store))
    expect(after.store.getState()).toStrictEqual(without.store.getState())
    expect(after.store.getState().confirmations.map((c) => c.id)).toStrictEqual(['b'])
    idsFor(3)
    await without.store.respond({ id: 'b', payload: { name: 'Ada' } })
    idsFor(3)
    await after.store.respond({ id: 'b', payload: { name: 'Ada' } })
    expect(after.agent.inputs).toStrictEqual(without.agent.inputs.slice(1))
    expect(after.agent.inputs[0]!.resume).toStrictEqual([
      { interruptId: 'a', status: 'resolved', payload: { accepted: true } },
      { interruptId: 'b', status: 'resolved', payload: { name: 'Ada' } },
    ])
    // The run options of the run it resumes are sent again.
    expect(after.agent.inputs[0]!.tools.map((tool) => tool.name)).toStrictEqual(['pick'])
  })
})

describe('a reload while a confirmation is open, after it expired', () => {
  it('approve is refused (EXPIRED) and cancel sends the same body, with and without the reload', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(new Date('2030-01-01T10:00:00.000Z'))
      const scenario = scenarios[1]!
      const without = await waiting(scenario)
      const withReload = await waiting(scenario)
      expect(without.store.getState().confirmations[0]!.expiresAt).toBe('2030-01-01T11:00:00.000Z')
      const saved = serializeThread(withReload.store)
      // The page is reloaded two hours later.
      vi.setSystemTime(new Date('2030-01-01T12:00:00.000Z'))
      const after = reloaded(saved)
      expect(after.store.getState()).toStrictEqual(without.store.getState())
      idsFor(2)
      const refused = [await settled(without.store.approve({ id: 'int-1' }))]
      idsFor(2)
      refused.push(await settled(after.store.approve({ id: 'int-1' })))
      expect(refused).toStrictEqual(['refused EXPIRED', 'refused EXPIRED'])
      expect(after.store.getState().confirmations.map((c) => c.id)).toStrictEqual(['int-1'])
      idsFor(3)
      await without.store.cancel({ id: 'int-1' })
      idsFor(3)
      await after.store.cancel({ id: 'int-1' })
      expect(after.agent.inputs).toStrictEqual(without.agent.inputs.slice(1))
      expect(after.agent.inputs[0]!.resume).toStrictEqual([{ interruptId: 'int-1', status: 'cancelled' }])
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('an interrupt already answered never comes back by a replay', () => {
  const interruptOf = (input: RunAgentInput) => [
    started(input),
    ev({
      type: 'RUN_FINISHED',
      threadId: input.threadId,
      runId: input.runId,
      outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'input_required', message: 'Name?' }] },
    }),
  ]
  // The first run's events as recorded, replayed later (a server replaying the thread, a reconnect).
  const replayOf = (first: RunAgentInput) => interruptOf(first)

  async function answered() {
    const before = page(interruptOf, [finishing])
    idsFor(1)
    await before.store.run({ message: { id: 'user-1', role: 'user', content: 'Hello' } })
    idsFor(2)
    await before.store.respond({ id: 'int-1', payload: { name: 'Ada' } })
    expect(before.agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'int-1', status: 'resolved', payload: { name: 'Ada' } }])
    expect(before.store.getState()).toMatchObject({ status: 'idle', confirmations: [] })
    return before
  }

  it('the same RUN_FINISHED replayed after a restore opens nothing, as it opens nothing without the reload', async () => {
    const without = await answered()
    const withReload = await answered()
    const after = reloaded(serializeThread(withReload.store))
    expect(after.store.getState()).toStrictEqual(without.store.getState())
    const replay = replayOf(without.agent.inputs[0]!)
    without.store.apply(replay)
    after.store.apply(replay)
    expect(after.store.getState().confirmations).toStrictEqual([])
    expect(after.store.getState().status).not.toBe('interrupted')
    expect(after.store.getState()).toStrictEqual(without.store.getState())
    // And a second reload after the replay still knows it.
    const again = reloaded(serializeThread(after.store))
    again.store.apply(replay)
    expect(again.store.getState().confirmations).toStrictEqual([])
  })

  it('a new run after a restore that asks the same interrupt id again opens it: a live run’s interrupts are its own', async () => {
    const withReload = await answered()
    const after = reloaded(serializeThread(withReload.store), [(input) => interruptOf(input)])
    idsFor(3)
    await after.store.run({ message: { id: 'user-2', role: 'user', content: 'Again' } })
    expect(after.agent.inputs).toHaveLength(1)
    expect(after.store.getState().confirmations.map((c) => c.id)).toStrictEqual(['int-1'])
    expect(after.store.getState().status).toBe('interrupted')
  })

  it('saved mid-stream after the resume was delivered: restored idle, and the replayed interrupt stays answered', async () => {
    const agent = new SteppedAgent()
    const store = createAgentStore<Doc>({ agent, initialState, predict, threadId: THREAD })
    idsFor(1)
    void store.run({ message: { id: 'user-1', role: 'user', content: 'Hello' } })
    for (const event of interruptOf(agent.inputs[0]!)) agent.push(event)
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['int-1'])
    idsFor(2)
    void store.respond({ id: 'int-1', payload: { name: 'Ada' } })
    // The resumed run's first event: from here the server has the answer.
    agent.push(started(agent.inputs[1]!))
    agent.push(ev({ type: 'TEXT_MESSAGE_START', messageId: 'reply', role: 'assistant' }))
    agent.push(ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'reply', delta: 'Hello Ada' }))
    const after = reloaded(serializeThread(store))
    expect(after.store.getState().status).toBe('idle')
    expect(after.store.getState().confirmations).toStrictEqual([])
    after.store.apply(interruptOf(agent.inputs[0]!))
    expect(after.store.getState().confirmations).toStrictEqual([])
  })
})

describe('a reload while a run streams or an answer is on its way', () => {
  it('saved mid-stream: restored idle with its drafts discarded and the user edits kept, as abort() leaves it', async () => {
    const agent = new SteppedAgent()
    const errors: string[] = []
    const store = createAgentStore<Doc>({ agent, initialState, predict, threadId: THREAD, onError: (error) => errors.push(error.code) })
    idsFor(1)
    void store.run({ message: { id: 'user-1', role: 'user', content: 'Write' } })
    const input = agent.inputs[0]!
    const [start, args1] = writeCall('call-1')
    for (const event of [
      started(input),
      ev({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }),
      ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Writing' }),
      start!,
      args1!,
    ])
      agent.push(event)
    idsFor(2)
    store.setState((previous) => ({ ...previous, title: 'Mine' }))
    const streaming = store.getState()
    expect(streaming.status).toBe('running')
    expect(streaming.state).toStrictEqual({ document: 'A brand new ', title: 'Mine' })
    expect(streaming.predictions).toHaveLength(1)

    const after = reloaded(serializeThread(store))
    idsFor(3)
    store.abort()
    const aborted = store.getState()
    expect(after.store.getState()).toStrictEqual(aborted)
    expect(after.store.getState()).toMatchObject({
      status: 'idle',
      predictions: [],
      confirmations: [],
      state: { document: 'The old document.', title: 'Mine' },
    })
    expect(after.store.getState().committed).toStrictEqual(after.store.getState().state)
    expect(after.errors).toStrictEqual([])
    // The restored page runs again with the same body the aborted one sends.
    idsFor(4)
    const runs = [store.run({ message: { id: 'user-2', role: 'user', content: 'Again' } })]
    idsFor(4)
    runs.push(after.store.run({ message: { id: 'user-2', role: 'user', content: 'Again' } }))
    for (const event of finishing(agent.inputs[1]!)) agent.push(event)
    await Promise.all(runs)
    expect(after.agent.inputs).toStrictEqual([agent.inputs[1]])
    expect(after.store.getState()).toStrictEqual(store.getState())
  })

  it('saved while an answer was on its way: the confirmation is open again, and answering again sends the same resume', async () => {
    const agent = new SteppedAgent()
    const store = createAgentStore<Doc>({ agent, initialState, predict, threadId: THREAD })
    idsFor(1)
    void store.run({ message: { id: 'user-1', role: 'user', content: 'Write' } })
    for (const event of scenarios[1]!.first(agent.inputs[0]!)) agent.push(event)
    const waitingForAnswer = store.getState()
    expect(waitingForAnswer.status).toBe('interrupted')
    idsFor(2)
    void store.approve({ id: 'int-1', edits: { document: 'Edited.' } })
    expect(agent.inputs).toHaveLength(2)
    expect(agent.open).toBe(true)
    // Saved now: the request is open and the server has sent nothing yet.
    const saved = serializeThread(store)

    const next = new SteppedAgent()
    const after = createAgentStore<Doc>({ agent: next, initialState, predict, threadId: THREAD, restore: restoreThread(throughJson(saved)) })
    // As abort() leaves the page that never reloaded: the answer given back.
    idsFor(3)
    store.abort()
    expect(after.getState()).toStrictEqual(store.getState())
    // What the user sees and answers is as it was before answering.
    const { status, state, committed, predictions, confirmations, messages } = waitingForAnswer
    expect(after.getState()).toMatchObject({ status, state, committed, predictions, messages })
    expect(after.getState().confirmations).toStrictEqual(confirmations)
    expect(after.getState().confirmations.map((c) => c.id)).toStrictEqual(['int-1'])
    idsFor(2)
    void after.approve({ id: 'int-1', edits: { document: 'Edited.' } })
    expect(next.inputs).toStrictEqual([agent.inputs[1]])
    expect(next.inputs[0]!.resume).toStrictEqual([{ interruptId: 'int-1', status: 'resolved', payload: { approved: true, document: 'Edited.' } }])
  })
})
