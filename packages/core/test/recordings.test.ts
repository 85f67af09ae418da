import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { recordings } from './recordings'

const statusOf = { success: 'idle', interrupt: 'interrupted', error: 'error' } as const

describe('recorded real-server streams, replayed through apply()', () => {
  it('has every recording', () => {
    expect(recordings.map((r) => r.file.slice(0, 2))).toEqual(['01', '02', '04', '05', '07', '10', '11', '12', '14', '20'])
  })

  for (const recording of recordings) {
    it(recording.file, () => {
      const store = createAgentStore({ initialState: recording.input.state ?? {} })
      store.apply(recording.events)
      const snapshot = store.getState()
      expect(snapshot.error).toBeUndefined()
      // Without drafts the store holds exactly what the server sent.
      expect(snapshot.committed).toEqual(recording.expected?.stateWithoutPredictState ?? recording.expected?.state)
      const hasLifecycle = recording.events.some((e) => e.type === 'RUN_STARTED')
      if (hasLifecycle) expect(snapshot.status).toBe(statusOf[recording.expected!.runOutcome!])
      expect(snapshot.steps).toEqual([])
      const started = new Set(recording.events.flatMap((e) => ('messageId' in e && e.type === 'TEXT_MESSAGE_START' ? [e.messageId as string] : [])))
      for (const id of started) expect(snapshot.messages.some((m) => m.id === id)).toBe(true)
    })
  }
})

describe('recorded streams through run() and a scripted agent', () => {
  for (const recording of recordings.filter((r) => r.events[0]?.type === 'RUN_STARTED')) {
    it(recording.file, async () => {
      const agent = new ScriptedAgent({ runs: [recording.events, ...(recording.nextRuns ?? []).map((r) => r.events)] })
      const store = createAgentStore({ agent, initialState: recording.input.state ?? {}, threadId: recording.input.threadId })
      await store.run({ messages: recording.input.messages.map((m, i) => ({ id: `m${i}`, ...m })) })
      expect(store.getState().error).toBeUndefined()
      expect(store.getState().committed).toEqual(recording.expected?.stateWithoutPredictState ?? recording.expected?.state)
      expect(agent.inputs[0]!.state).toEqual(recording.input.state ?? {})
      expect(agent.inputs[0]!.threadId).toBe(recording.input.threadId)
    })
  }
})
