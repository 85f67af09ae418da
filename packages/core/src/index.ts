export type { AgentStoreErrorCode, AgentStoreErrorDetails } from './errors'
export { AgentStoreError, isAgentStoreError } from './errors'
export type { PersistOptions, PersistStorage } from './persist'
export type {
  SavedDraft,
  SavedEdit,
  SavedModel,
  SavedOutbox,
  SavedRejoin,
  SavedRequest,
  SavedRunContext,
  SavedSettings,
  SavedThread,
  SavedView,
} from './saved-thread'
export { canAbort, canAnswer, canRun } from './selectors'
export { shallow } from './shallow'
export { createAgentStore } from './store'
export type { SerializedThread } from './thread'
export type { AgentThreads, AgentThreadsOptions, ThreadSummary, ThreadsSnapshot } from './threads'
export { createAgentThreads } from './threads'
export type {
  AgentSnapshot,
  AgentStore,
  AgentStoreLimits,
  AgentStoreOptions,
  AnswerRunOptions,
  Confirmation,
  ConfirmationSource,
  EqualityFn,
  Listener,
  Prediction,
  PredictionMapping,
  ReadableAgentStore,
  RunInfo,
  RunOptions,
  RunStatus,
  SnapshotOf,
  StandardSchemaV1,
  StateUpdate,
  StateValidator,
  Subagent,
  SubagentStatus,
  SubagentStep,
} from './types'
