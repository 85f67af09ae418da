export type { AgentStoreErrorCode, AgentStoreErrorDetails } from './errors'
export { AgentStoreError, isAgentStoreError } from './errors'
export { canAnswer, canRun } from './selectors'
export { shallow } from './shallow'
export { createAgentStore } from './store'
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
  RunOptions,
  RunStatus,
  StandardSchemaV1,
  StateUpdate,
  StateValidator,
} from './types'
