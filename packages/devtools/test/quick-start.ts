import { EventType } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { createRecorder, replayRecording } from '@agent-state/devtools'

const store = createAgentStore({ initialState: { count: 0 } })
const recorder = createRecorder(store)
store.apply({ type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/count', value: 1 }] })
console.log(recorder.diff(0).state) // [{ op: 'replace', path: '/count', value: 1 }]
const replay = replayRecording(recorder.exportRecording()) // a fresh store through every input
console.log(replay.snapshots[0]!.state) // { count: 1 }
