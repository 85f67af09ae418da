export type {
  AgentStoreErrorCode,
  AgentStoreErrorConstructor,
  AgentStoreErrorDetails,
  AgentStoreErrorDetailsByCode,
  AgentStoreErrorOf,
  AgentStoreLimit,
  AnyAgentStoreError,
  NoDetails,
} from './errors'
export { AgentStoreError, isAgentStoreError } from './errors'
export { canAbort, canAnswer, canRun } from './selectors'
export { shallow } from './shallow'
export { persistThread } from './shell/persist-thread'
export { restoreThread, serializeThread } from './shell/restore-thread'
/**
 * Creates the store for one conversation with an AG-UI agent, from `initialState` and `url` or `agent`
 * (not both; neither for a store fed only through `apply()`).
 */
export { createAgentStore } from './shell/store'
export type { AgentThreads, AgentThreadsOptions, ThreadSummary, ThreadsSnapshot } from './shell/threads'
/** Creates a registry of conversations, one store per thread, read like a store: the active thread's snapshot and the list. */
export { createAgentThreads } from './shell/threads'
export type {
  AgentHeaders,
  AgentSnapshot,
  AgentStore,
  AgentStoreLimits,
  AgentStoreOptions,
  AgUiAgent,
  AgUiEventStream,
  AnswerRunOptions,
  ApproveOptions,
  Branching,
  BranchPosition,
  CancelOptions,
  Confirmation,
  ConfirmationSource,
  EditOptions,
  EqualityFn,
  Listener,
  PersistOptions,
  PersistStorage,
  Prediction,
  PredictionMapping,
  ReadableAgentStore,
  RegenerateOptions,
  RejectOptions,
  RespondOptions,
  RunInfo,
  RunOptions,
  RunStatus,
  SavedDraft,
  SavedEdit,
  SavedModel,
  SavedOutbox,
  SavedRejoin,
  SavedRequest,
  SavedRunContext,
  SavedSettings,
  SavedThread,
  SavedTree,
  SavedView,
  SerializedThread,
  SnapshotOf,
  StandardSchemaV1,
  StateUpdate,
  StateValidator,
  Subagent,
  SubagentStatus,
  SubagentStep,
  SwitchBranchOptions,
  ThreadPersistence,
  ThreadRestore,
} from './types'
