import { createAgentStore } from '@agent-state/core'
import { createRecorder, type EntryDiff, type JsonPatchOperation, replayRecording } from '@agent-state/devtools'
import { type MountedDevtools, mountDevtools } from '@agent-state/devtools/panel'
import { expectTypeOf, test } from 'vitest'

test('the recorder takes its state type from the store', () => {
  const store = createAgentStore({ initialState: { document: '' } })
  const recorder = createRecorder(store)
  expectTypeOf(recorder.getState().entries[0]!.snapshot.state).toEqualTypeOf<{ document: string }>()
  expectTypeOf(recorder.getState().start.drafts[0]!.baseline).toBeUnknown()
  expectTypeOf(recorder.diff(0)).toEqualTypeOf<EntryDiff>()
  expectTypeOf(recorder.diff(0).state).toEqualTypeOf<JsonPatchOperation[]>()
  expectTypeOf(recorder.exportRecording()).toBeString()
  // @ts-expect-error: not a store
  createRecorder({})
})

test('a replay is typed by its caller; the panel takes any store', () => {
  const replay = replayRecording<{ document: string }>('')
  expectTypeOf(replay.snapshots[0]!.state.document).toBeString()
  expectTypeOf(mountDevtools).returns.toEqualTypeOf<MountedDevtools>()
})
