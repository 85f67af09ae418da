// A run that ends normally is recorded as it happened: its inputs end with RUN_FINISHED (or
// RUN_ERROR). The response closing after it is no input at all, so an exported recording of a
// healthy session lists no `failed` input; a stream that really stops early still is one.
import { HttpAgent } from '@ag-ui/client'
import { type BaseEvent, EventType, type RunAgentInput } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { createRecorder, parseRecording } from '@agent-state/devtools'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgUiServer, type TestServer } from '../../../test/support/agui-server'

const started = (input: RunAgentInput) => ({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId }) as BaseEvent
const text = (id: string, delta: string): BaseEvent[] => [
  { type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant' } as BaseEvent,
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta } as BaseEvent,
  { type: EventType.TEXT_MESSAGE_END, messageId: id } as BaseEvent,
]
const finished = (input: RunAgentInput) => ({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId }) as BaseEvent
const failedRun = { type: EventType.RUN_ERROR, message: 'the model is down', code: 'DOWN' } as BaseEvent

let server: TestServer
beforeAll(async () => {
  server = await startAgUiServer([
    (input) => [started(input), ...text('a1', 'Hello'), finished(input)],
    (input) => [started(input), ...text('a2', 'Oops'), failedRun],
    // Cut short: no terminal event before the response ends.
    (input) => [started(input), ...text('a3', 'Half')],
  ])
})
afterAll(() => server.close())

/** The input types of an exported recording, in order. */
const inputTypes = (recording: string) =>
  parseRecording(recording).entries.map(({ input }) => (input.type === 'event' ? `event/${(input.event as BaseEvent).type}` : input.type))

describe('a recording of a normal run', () => {
  it('over HTTP: ends with RUN_FINISHED, and a run ending in RUN_ERROR with RUN_ERROR; only a stream cut short adds a failed input', async () => {
    const errors: unknown[] = []
    const store = createAgentStore({ agent: new HttpAgent({ url: server.url }), initialState: {}, onError: (error) => errors.push(error) })
    const recorder = createRecorder(store)

    await store.run({ message: 'hi' })
    // The response is drained after RUN_FINISHED: give it time to close.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(inputTypes(recorder.exportRecording())).toEqual([
      'run',
      'event/RUN_STARTED',
      'event/TEXT_MESSAGE_START',
      'event/TEXT_MESSAGE_CONTENT',
      'event/TEXT_MESSAGE_END',
      'event/RUN_FINISHED',
    ])

    await store.run({ message: 'again' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(inputTypes(recorder.exportRecording()).slice(6)).toEqual([
      'run',
      'event/RUN_STARTED',
      'event/TEXT_MESSAGE_START',
      'event/TEXT_MESSAGE_CONTENT',
      'event/TEXT_MESSAGE_END',
      'event/RUN_ERROR',
    ])
    expect(errors).toHaveLength(1)

    await store.run({ message: 'once more' })
    const types = inputTypes(recorder.exportRecording()).slice(12)
    expect(types).toEqual(['run', 'event/RUN_STARTED', 'event/TEXT_MESSAGE_START', 'event/TEXT_MESSAGE_CONTENT', 'event/TEXT_MESSAGE_END', 'failed'])
    const last = recorder.getState().entries.at(-1)!.input
    expect(last).toMatchObject({ type: 'failed', error: { code: 'TRANSPORT', message: 'The stream ended before RUN_FINISHED or RUN_ERROR' } })
    expect(store.getState().status).toBe('error')
  })

  it('through a scripted agent: no failed input after the runs of an answered confirmation', async () => {
    const interrupted: BaseEvent[] = [
      { type: EventType.RUN_STARTED, threadId: 't', runId: 'r1' } as BaseEvent,
      {
        type: EventType.RUN_FINISHED,
        threadId: 't',
        runId: 'r1',
        outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] },
      } as BaseEvent,
    ]
    const resumed: BaseEvent[] = [
      { type: EventType.RUN_STARTED, threadId: 't', runId: 'r2' } as BaseEvent,
      { type: EventType.RUN_FINISHED, threadId: 't', runId: 'r2' } as BaseEvent,
    ]
    const store = createAgentStore({ agent: new ScriptedAgent({ runs: [interrupted, resumed] }), initialState: {} })
    const recorder = createRecorder(store)
    await store.run({ message: 'ask me' })
    await store.respond({ payload: { answer: 42 } })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(inputTypes(recorder.exportRecording())).toEqual([
      'run',
      'event/RUN_STARTED',
      'event/RUN_FINISHED',
      'answer',
      'event/RUN_STARTED',
      'event/RUN_FINISHED',
    ])
    expect(store.getState().status).toBe('idle')
  })
})
