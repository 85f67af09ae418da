// Any sequence of commands, events, answers and jumps: the export replays snapshot by snapshot,
// and ends where the live store is.
import { EventType } from '@ag-ui/core'
import { canAnswer, canRun, createAgentStore } from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { createRecorder, replayRecording } from '@agent-state/devtools'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { fixtures, initialStateOf, withIds } from './fixtures'

const fixture = fixtures.find((f) => f.name === 'core/04-predictive-args-only-confirm-changes.server-starter.json')!

type Step =
  | { kind: 'run' }
  | { kind: 'approve' | 'reject' | 'cancel' }
  | { kind: 'setState'; value: number }
  | { kind: 'apply'; value: number }
  | { kind: 'abort' | 'reset' }
  | { kind: 'jump'; at: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ kind: 'run' as const }),
  fc.constantFrom('approve' as const, 'reject' as const, 'cancel' as const).map((kind) => ({ kind })),
  fc.integer({ min: 0, max: 9 }).map((value) => ({ kind: 'setState' as const, value })),
  fc.integer({ min: 0, max: 9 }).map((value) => ({ kind: 'apply' as const, value })),
  fc.constantFrom('abort' as const, 'reset' as const).map((kind) => ({ kind })),
  fc.nat({ max: 1000 }).map((at) => ({ kind: 'jump' as const, at })),
)

it('replays any sequence exactly (fast-check)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      const agent = new ScriptedAgent({ runs: [fixture.events, ...fixture.nextRuns.map((run) => run.events)] })
      const store = createAgentStore({ agent, initialState: initialStateOf(fixture) })
      const recorder = createRecorder(store, { limit: 40 })
      for (const one of steps) {
        const snapshot = store.getState()
        if (one.kind === 'run' && canRun(snapshot)) await store.run({ messages: withIds(fixture.input.messages) })
        if ((one.kind === 'approve' || one.kind === 'reject' || one.kind === 'cancel') && canAnswer(snapshot)) await store[one.kind]()
        if (one.kind === 'setState') store.setState((previous) => ({ ...previous, edited: one.value }))
        if (one.kind === 'apply') store.apply({ type: EventType.STATE_DELTA, delta: [{ op: 'add', path: '/applied', value: one.value }] })
        if (one.kind === 'abort') store.abort()
        if (one.kind === 'reset') store.reset()
        if (one.kind === 'jump') {
          const { entries } = recorder.getState()
          if (entries.length > 0) recorder.jumpTo(entries[one.at % entries.length]!.index)
        }
      }
      const replay = replayRecording(recorder.exportRecording())
      const { entries, current } = recorder.getState()
      const kept = current === undefined ? entries : entries.filter((e) => e.index <= current)
      expect(replay.snapshots).toEqual(kept.map((e) => e.snapshot))
      expect(replay.store.getState()).toEqual(store.getState())
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
  )
})
