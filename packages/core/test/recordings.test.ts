import type { Message, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStore, createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { type Recording, recordings } from './recordings'

const statusOf = { success: 'idle', interrupt: 'interrupted', error: 'error' } as const
const byNumber = (n: string) => recordings.find((r) => r.file.startsWith(n))!
const withIds = (messages: Message[]) => messages.map((m, i) => ({ ...m, id: m.id ?? `m${i}` }) as Message)

/** Replays run 1 of a recording through run() and a scripted agent that also holds the later runs. */
async function replay(recording: Recording) {
  const agent = new ScriptedAgent({ runs: [recording.events, ...(recording.nextRuns ?? []).map((r) => r.events)] })
  const initialState = (recording.input.state ?? {}) as Record<string, unknown>
  const store = createAgentStore({ agent, initialState, threadId: recording.input.threadId })
  await store.run({ messages: withIds(recording.input.messages) })
  return { agent, store, initialState }
}

/** Tool messages get fresh ids; their JSON content is what the server reads. */
const normalise = (messages: readonly Message[]) =>
  messages.map((m) =>
    m.role === 'tool' && /^\{"accepted/.test(m.content as string) ? { role: 'tool', toolCallId: m.toolCallId, content: JSON.parse(m.content as string) } : m,
  )
/** A confirmation tool call left unanswered makes the run 'interrupted' here, where plain @ag-ui/client says 'success'. */
const leavesConfirmTool = new Set(['04', '05'])

describe('recorded real-server streams', () => {
  it('has every recording', () => {
    expect(recordings.map((r) => r.file.slice(0, 2))).toEqual(['01', '02', '04', '05', '07', '10', '11', '12', '14', '20'])
  })

  for (const recording of recordings) {
    it(`${recording.file}: apply() shows the expected state, drafts included, and the run's outcome`, () => {
      const store = createAgentStore({ initialState: recording.input.state ?? {} })
      store.apply(recording.events)
      const snapshot = store.getState()
      expect(snapshot.error).toBeUndefined()
      expect(snapshot.state).toEqual(recording.expected!.state)
      const status = leavesConfirmTool.has(recording.file.slice(0, 2)) ? 'interrupted' : statusOf[recording.expected!.runOutcome!]
      if (recording.events.some((e) => e.type === 'RUN_STARTED')) expect(snapshot.status).toBe(status)
      const interrupts = snapshot.confirmations.filter((c) => c.source === 'interrupt')
      expect(interrupts.map(({ id, reason, toolCallId }) => ({ id, reason, ...(toolCallId ? { toolCallId } : {}) }))).toEqual(
        recording.expected!.pendingInterrupts,
      )
      expect(snapshot.steps).toEqual([])
    })

    const trace = recording.expected?.predictionTrace
    if (trace) {
      it(`${recording.file}: the draft after each argument chunk is the recorded partial value`, () => {
        const store = createAgentStore({ initialState: recording.input.state ?? {} })
        const seen: { eventIndex: number; stateKey: string; value: unknown }[] = []
        recording.events.forEach((event, eventIndex) => {
          const before = store.getState().state as Record<string, unknown>
          store.apply(event)
          const after = store.getState()
          if (event.type !== 'TOOL_CALL_ARGS') return
          // The trace lists each change of a predicted key's value, after the chunk that made it.
          for (const prediction of after.predictions) {
            if (prediction.value === before[prediction.stateKey]) continue
            seen.push({ eventIndex, stateKey: prediction.stateKey, value: prediction.value })
            expect((after.state as Record<string, unknown>)[prediction.stateKey]).toBe(prediction.value)
            expect((after.committed as Record<string, unknown>)[prediction.stateKey]).toEqual(
              (recording.input.state as Record<string, unknown>)[prediction.stateKey],
            )
          }
        })
        expect(seen).toEqual(trace)
      })
    }
  }
})

describe('confirmations from recorded streams, and the exact next input', () => {
  type Case = {
    answer: (store: AgentStore<Record<string, unknown>>, recording: Recording) => Promise<void>
    /** The recorded follow-up, where this store's rules agree with the recorded client. */
    expect: (sent: RunAgentInput, recording: Recording) => void
    drafts: string[]
  }
  const followUp = (recording: Recording) => recording.followUp!.input
  const sameResume = (sent: RunAgentInput, r: Recording) => expect(sent.resume).toEqual(followUp(r).resume)
  const sameState = (sent: RunAgentInput, r: Recording) => expect(sent.state).toEqual(followUp(r).state)
  const sameMessages = (sent: RunAgentInput, r: Recording) => expect(normalise(sent.messages)).toEqual(normalise(followUp(r).messages))

  const cases: Record<string, Case> = {
    '02': { drafts: ['document'], answer: (s) => s.approve(), expect: (sent, r) => (sameResume(sent, r), sameState(sent, r), sameMessages(sent, r)) },
    '04': {
      drafts: ['document'],
      answer: (s) => s.approve(),
      expect: (sent, r) => (expect(sent.resume).toBeUndefined(), sameState(sent, r), sameMessages(sent, r)),
    },
    '05': {
      drafts: ['document'],
      answer: (s) => s.approve(),
      expect: (sent, r) => (expect(sent.resume).toBeUndefined(), sameState(sent, r), sameMessages(sent, r)),
    },
    '07': { drafts: [], answer: (s) => s.approve(), expect: (sent, r) => (sameResume(sent, r), sameState(sent, r), sameMessages(sent, r)) },
    // The recorded .NET client echoed the tool call in its payload; this store sends what the schema asks for.
    '10': {
      drafts: [],
      answer: (s) => s.approve(),
      expect: (sent) => expect(sent.resume).toEqual([{ interruptId: 'ficc_Id_1', status: 'resolved', payload: { approved: true } }]),
    },
    '11': { drafts: [], answer: (s) => s.respond({ payload: { response: 'johndoe42' } }), expect: sameResume },
    '12': {
      drafts: ['steps'],
      answer: (s, r) => s.respond({ payload: followUp(r).resume![0]!.payload }),
      expect: (sent, r) => (sameResume(sent, r), sameState(sent, r)),
    },
  }

  for (const [number, scenario] of Object.entries(cases)) {
    const recording = byNumber(number)
    it(`${recording.file}: holds the drafts, then sends the recorded follow-up`, async () => {
      const { agent, store, initialState } = await replay(recording)
      const before = store.getState()
      expect(before.status).toBe('interrupted')
      expect(before.confirmations).toHaveLength(1)
      expect(before.confirmations[0]!.stateKeys).toEqual(scenario.drafts)
      expect(before.predictions.map((p) => p.stateKey)).toEqual(scenario.drafts)
      for (const key of scenario.drafts) {
        expect(before.committed[key]).toEqual(initialState[key])
        expect(before.state[key]).toEqual((recording.expected!.state as Record<string, unknown>)[key])
      }
      await expect(store.run({ message: 'next' })).rejects.toMatchObject({ code: 'PENDING_CONFIRMATION' })

      await scenario.answer(store, recording)
      expect(agent.inputs).toHaveLength(2)
      const sent = agent.inputs[1]!
      expect(sent.threadId).toBe(recording.input.threadId)
      expect(sent.state).toEqual(before.state)
      scenario.expect(sent, recording)

      const after = store.getState()
      expect(after.confirmations).toEqual([])
      expect(after.predictions).toEqual([])
      expect(after.status).toBe('idle')
      expect(after.error).toBeUndefined()
      expect(after.committed).toBe(after.state)
      const next = recording.nextRuns![0]!.expected!
      if (next.state !== undefined && number !== '10' && number !== '11') expect(after.state).toEqual(next.state)
    })
  }

  // The boolean each recorded interrupt's responseSchema asks for: agent-framework `accepted`, .NET `approved`.
  const decision: Record<string, string> = { '02': 'accepted', '07': 'accepted', '10': 'approved', '12': 'accepted' }
  for (const number of ['02', '04', '05', '07', '10', '12']) {
    const recording = byNumber(number)
    it(`${recording.file}: reject restores the state from before the run and sends that`, async () => {
      const { agent, store, initialState } = await replay(recording)
      const before = store.getState()
      const confirmation = before.confirmations[0]!
      const resumed = store.reject({ id: confirmation.id, reason: 'not now' })
      // Before the resumed run streams anything (the recorded server then re-sends its own state):
      for (const key of confirmation.stateKeys) expect(store.getState().state[key]).toEqual(initialState[key])
      await resumed
      const sent = agent.inputs[1]!
      expect(sent.state).toEqual(before.committed)
      for (const key of confirmation.stateKeys) expect(sent.state[key]).toEqual(initialState[key])
      if (confirmation.source === 'interrupt') {
        expect(sent.resume).toEqual([{ interruptId: confirmation.id, status: 'resolved', payload: { [decision[number]!]: false } }])
      } else {
        expect(sent.resume).toBeUndefined()
        const answer = sent.messages.at(-1)!
        expect(answer).toMatchObject({ role: 'tool', toolCallId: confirmation.id })
        expect(answer.content).toBe('{"accepted":false}')
      }
      expect(store.getState()).toMatchObject({ confirmations: [], predictions: [] })
    })
  }
})
