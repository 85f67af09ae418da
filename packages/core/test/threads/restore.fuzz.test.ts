// Issue 13 on random conversations (the fuzz suite's generator: text, tool calls, reasoning,
// activities with deltas, subagents and their steps, MESSAGES_SNAPSHOTs, system and developer
// messages, several runs): a thread saved at any event is accepted by restore (no valid thread is
// refused as damaged) and, fed the rest, ends exactly as the store that was never saved.
import type { BaseEvent } from '@ag-ui/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore, restoreThread, serializeThread } from '../../src'
import { conversationArbitrary } from '../fuzz/conversation-streams'
import { type Doc, strictlyEqual, throughJson } from './support-threads'

// A case saves, restores and replays a whole conversation, a few of the other fuzzers' cases: FUZZ_RUNS counts for a quarter.
const NUM_RUNS = process.env.FUZZ_RUNS ? Math.max(1, Math.round(Number(process.env.FUZZ_RUNS) / 4)) : 150

describe('restore: random conversations', () => {
  it(
    'a thread saved after any event is restored, and goes on as the one never saved',
    () => {
      fc.assert(
        fc.property(conversationArbitrary, fc.nat(), (runs, at) => {
          const events: BaseEvent[] = runs.flat()
          const cut = at % (events.length + 1)
          const options = { initialState: {} as Doc, threadId: 'thread' }
          const reference = createAgentStore<Doc>(options)
          reference.apply(events.slice(0, cut))
          const errors: AgentStoreError[] = []
          const restored = createAgentStore<Doc>({
            ...options,
            onError: (error) => errors.push(error),
            restore: restoreThread(throughJson(serializeThread(reference))),
          })
          expect(errors.map((error) => `${error.code} ${error.reason}: ${error.message}`)).toStrictEqual([])
          if (!strictlyEqual(restored.getState(), reference.getState())) expect(restored.getState()).toStrictEqual(reference.getState())
          for (const event of events.slice(cut)) {
            reference.apply(event)
            restored.apply(event)
          }
          if (!strictlyEqual(restored.getState(), reference.getState()))
            expect({ cut, snapshot: restored.getState() }).toStrictEqual({ cut, snapshot: reference.getState() })
          expect(JSON.stringify(serializeThread(restored).model)).toBe(JSON.stringify(serializeThread(reference).model))
        }),
        { numRuns: NUM_RUNS, seed: 1313 },
      )
    },
    Math.max(30_000, NUM_RUNS * 20),
  )
})
