// The recorder, diffs, recordings and Redux DevTools. The panel is `@agent-state/devtools/panel`.
export { inputRunId, inputThreadId, inputToolCallId, inputType } from './describe'
export { diffJson, type JsonPatchOperation } from './json-diff'
export {
  createRecorder,
  DEFAULT_LIMIT,
  diffSnapshots,
  type EntryDiff,
  type RecordedEntry,
  type Recorder,
  type RecorderOptions,
  type RecorderState,
} from './recorder'
export {
  CORE_VERSION,
  DEVTOOLS_VERSION,
  parseRecording,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedLine,
  type RecordedOptions,
  type Recording,
  type RecordingHeader,
  type Replay,
  type ReplayOptions,
  replayRecording,
} from './recording'
export { connectReduxDevtools, type ReduxDevtoolsConnection, type ReduxDevtoolsExtension, type ReduxDevtoolsMessage, type ReduxDevtoolsOptions } from './redux'
