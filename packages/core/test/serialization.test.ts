// The model as one JSON value (issue 10): for every recording and every cut point, the model
// taken after the first events, sent through JSON.stringify / JSON.parse and restored into a new
// store, must behave exactly as the store it came from: the same snapshot after each remaining
// event, and the same next RunAgentInput once its confirmations are answered.
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStore, type AgentStoreOptions, createAgentStore } from '../src'
import { restoreModel, snapshotModel } from '../src/shell/store-model'
import { ScriptedAgent } from '../src/testing'
import { type Recording, recordings } from './recordings'

type Doc = Record<string, unknown>

const throughJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

const finishing = (input: RunAgentInput): BaseEvent[] => [
  { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId } as BaseEvent,
  { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId } as BaseEvent,
]

function optionsFor(recording: Recording, agent?: ScriptedAgent): AgentStoreOptions<Doc> {
  return {
    initialState: (recording.input.state ?? {}) as Doc,
    threadId: recording.input.threadId,
    ...(agent ? { agent } : {}),
  }
}

/** The store after the first `cut` events, as it is and as restored from its model's JSON. */
function both(recording: Recording, cut: number, agents?: [ScriptedAgent, ScriptedAgent]) {
  const original = createAgentStore(optionsFor(recording, agents?.[0]))
  original.apply(recording.events.slice(0, cut))
  const model = snapshotModel(original)
  const json = JSON.stringify(model)
  const restored = restoreModel(optionsFor(recording, agents?.[1]), JSON.parse(json)) as AgentStore<Doc>
  return { original, restored, json }
}

/** runId and the ids the store generates for the messages an answer adds differ between stores. */
function normalise(input: RunAgentInput, known: readonly Message[]) {
  const ids = new Set(known.map((message) => message.id))
  return {
    ...input,
    runId: '<run>',
    messages: input.messages.map((message) => (ids.has(message.id) ? message : { ...message, id: '<generated>' })),
  }
}

async function answerAll(store: AgentStore<Doc>, how: 'approve' | 'reject') {
  // Bounded: one answer per open confirmation.
  for (const confirmation of [...store.getState().confirmations]) {
    await (how === 'approve' ? store.approve({ id: confirmation.id }) : store.reject({ id: confirmation.id }))
  }
}

describe('the model survives JSON at every cut point of every recording', () => {
  it('has recordings to cut', () => {
    expect(recordings.length).toBeGreaterThanOrEqual(10)
  })

  for (const recording of recordings) {
    const { events } = recording

    it(`${recording.file}: restored from JSON after any prefix, the store publishes the same snapshot after each remaining event`, () => {
      const reference = createAgentStore(optionsFor(recording))
      const expected = [reference.getState()]
      for (const event of events) {
        reference.apply(event)
        expected.push(reference.getState())
      }
      for (let cut = 0; cut <= events.length; cut++) {
        const { original, restored, json } = both(recording, cut)
        expect(JSON.stringify(throughJson(JSON.parse(json)))).toBe(json)
        expect({ cut, snapshot: restored.getState() }).toStrictEqual({ cut, snapshot: original.getState() })
        expect({ cut, snapshot: restored.getState() }).toStrictEqual({ cut, snapshot: expected[cut] })
        // Restoring is lossless: the restored store's model is the one it was made from.
        expect(JSON.stringify(snapshotModel(restored))).toBe(json)
        for (let next = cut; next < events.length; next++) {
          restored.apply(events[next]!)
          expect({ cut, next, snapshot: restored.getState() }).toStrictEqual({ cut, next, snapshot: expected[next + 1] })
        }
      }
    })

    // The recordings that end with something to answer (04 and 05 with a confirm_changes call left open).
    const answerable = recording.expected?.runOutcome === 'interrupt' || /^0[45]-/.test(recording.file)
    if (!answerable) continue

    for (const how of ['approve', 'reject'] as const) {
      it(`${recording.file}: restored from JSON after any prefix and fed the rest, ${how} sends the same next RunAgentInput`, async () => {
        for (let cut = 0; cut <= events.length; cut++) {
          const agents: [ScriptedAgent, ScriptedAgent] = [new ScriptedAgent({ runs: [finishing] }), new ScriptedAgent({ runs: [finishing] })]
          const { original, restored } = both(recording, cut, agents)
          original.apply(events.slice(cut))
          restored.apply(events.slice(cut))
          const known = original.getState().messages
          expect(original.getState().confirmations.length).toBeGreaterThan(0)
          expect({ cut, snapshot: restored.getState() }).toStrictEqual({ cut, snapshot: original.getState() })
          await answerAll(original, how)
          await answerAll(restored, how)
          expect(agents[0].inputs).toHaveLength(1)
          expect({ cut, input: normalise(agents[1].inputs[0]!, known) }).toStrictEqual({ cut, input: normalise(agents[0].inputs[0]!, known) })
          expect({ cut, snapshot: restored.getState().state }).toStrictEqual({ cut, snapshot: original.getState().state })
        }
      })
    }
  }

  it('answers given and not yet sent (the outbox) survive the round trip: the restored store sends them with the last one', async () => {
    const twoInterrupts = (input: RunAgentInput): BaseEvent[] => [
      { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId } as BaseEvent,
      {
        type: 'RUN_FINISHED',
        threadId: input.threadId,
        runId: input.runId,
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: 'a', reason: 'tool_call' },
            { id: 'b', reason: 'input_required' },
          ],
        },
      } as BaseEvent,
    ]
    const agents = [new ScriptedAgent({ runs: [twoInterrupts, finishing] }), new ScriptedAgent({ runs: [finishing] })] as const
    const options = (agent: ScriptedAgent): AgentStoreOptions<Doc> => ({ agent, initialState: { n: 1 }, threadId: 't-outbox' })
    const original = createAgentStore(options(agents[0]))
    await original.run({ tools: [{ name: 'pick', description: 'Pick', parameters: {} }], forwardedProps: { mode: 'fast' } })
    await original.approve({ id: 'a' })
    expect(original.getState().confirmations.map((c) => c.id)).toStrictEqual(['b'])
    const restored = restoreModel(options(agents[1]), throughJson(snapshotModel(original))) as AgentStore<Doc>
    expect(restored.getState()).toStrictEqual(original.getState())
    const known = original.getState().messages
    await original.respond({ id: 'b', payload: { name: 'Ada' } })
    await restored.respond({ id: 'b', payload: { name: 'Ada' } })
    expect(agents[1].inputs).toHaveLength(1)
    expect(agents[1].inputs[0]!.resume).toStrictEqual([
      { interruptId: 'a', status: 'resolved', payload: { accepted: true } },
      { interruptId: 'b', status: 'resolved', payload: { name: 'Ada' } },
    ])
    expect(normalise(agents[1].inputs[0]!, known)).toStrictEqual(normalise(agents[0].inputs[1]!, known))
  })

  it('a model taken while interrupted, restored, answers with the same input as the original', async () => {
    const recording = recordings.find((r) => r.file.startsWith('02'))!
    const agents: [ScriptedAgent, ScriptedAgent] = [new ScriptedAgent({ runs: [finishing] }), new ScriptedAgent({ runs: [finishing] })]
    const { original, restored } = both(recording, recording.events.length, agents)
    expect(restored.getState().status).toBe('interrupted')
    expect(restored.getState().confirmations).toStrictEqual(original.getState().confirmations)
    const known = original.getState().messages
    await original.approve({ edits: { document: 'edited' } })
    await restored.approve({ edits: { document: 'edited' } })
    expect(normalise(agents[1].inputs[0]!, known)).toStrictEqual(normalise(agents[0].inputs[0]!, known))
    expect(agents[1].inputs[0]!.state).toMatchObject({ document: 'edited' })
  })
})
