import type { EventType as ProtocolEventType } from '@ag-ui/core'

// @ag-ui/core's EventType and mergeMetadata, without loading its module at run time: importing
// anything from it bundles its zod schemas. Its types cost nothing and stay the source of truth;
// a test holds these equal to its own.

const names = [
  'TEXT_MESSAGE_START',
  'TEXT_MESSAGE_CONTENT',
  'TEXT_MESSAGE_END',
  'TEXT_MESSAGE_CHUNK',
  'TOOL_CALL_START',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_END',
  'TOOL_CALL_CHUNK',
  'TOOL_CALL_RESULT',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_END',
  'REASONING_MESSAGE_CHUNK',
  'REASONING_END',
  'REASONING_ENCRYPTED_VALUE',
  'STATE_SNAPSHOT',
  'STATE_DELTA',
  'MESSAGES_SNAPSHOT',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'RAW',
  'CUSTOM',
  'RUN_STARTED',
  'RUN_FINISHED',
  'RUN_ERROR',
  'STEP_STARTED',
  'STEP_FINISHED',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
] as const

/** AG-UI's event types: each name is its own value, as in @ag-ui/core's enum. */
export const EventType = Object.fromEntries(names.map((name) => [name, name])) as unknown as typeof ProtocolEventType
export type EventType = ProtocolEventType

/** An event's metadata over what was there, key by key, the incoming value winning. */
export function mergeMetadata(existing: Record<string, unknown> | undefined, incoming: Record<string, unknown> | undefined) {
  // Spreading an undefined `existing` adds nothing: the result is then a copy of `incoming`.
  return incoming === undefined ? existing : { ...existing, ...incoming }
}
