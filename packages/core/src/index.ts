export { createAgentStore } from './store'
export { AgentStoreError, isAgentStoreError } from './errors'
export type { AgentStoreErrorCode, AgentStoreErrorDetails } from './errors'
export { shallow } from './shallow'
export type {
  AgentSnapshot,
  AgentStore,
  AgentStoreLimits,
  AgentStoreOptions,
  Confirmation,
  ConfirmationSource,
  EqualityFn,
  Prediction,
  PredictionMapping,
  Listener,
  ReadableAgentStore,
  RunOptions,
  RunStatus,
  StandardSchemaV1,
  StateUpdate,
  StateValidator,
} from './types'
