import { createAgentStore } from '@agent-state/core'
import { createRecorder, replayRecording } from '@agent-state/devtools'
import { describe, expect, it } from 'vitest'

/** A value `levels` objects deep. */
function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {}
  for (let i = 1; i < levels; i++) value = { a: value }
  return value
}

describe('a recording of a session that refused a deep value', () => {
  it('exports, and replays to the same snapshots with the same refusals', () => {
    const store = createAgentStore<Record<string, unknown>>({ initialState: { n: 0 }, onError: () => {} })
    const recorder = createRecorder(store)
    store.apply([
      { type: 'RUN_STARTED', threadId: 't1', runId: 'r1' },
      { type: 'RUN_FINISHED', threadId: 't1', runId: 'r1', result: deep(100_000) },
    ] as never)
    store.setState(deep(100_000))
    store.setState({ n: 1 })

    const text = recorder.exportRecording()
    const { entries } = recorder.getState()
    expect(entries.map((entry) => [entry.input.type, entry.snapshot.error?.code])).toEqual([
      ['event', undefined],
      ['event', 'LIMIT_EXCEEDED'],
      ['setState', 'LIMIT_EXCEEDED'],
      ['setState', 'LIMIT_EXCEEDED'],
    ])
    const replay = replayRecording(text)
    expect(replay.snapshots).toEqual(entries.map((entry) => entry.snapshot))
    expect(replay.store.getState().state).toEqual({ n: 1 })
  })
})
