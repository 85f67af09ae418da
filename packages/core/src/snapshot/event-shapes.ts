import type { EventType } from '@ag-ui/core'
import {
  boolean,
  context,
  defined,
  integer,
  jsonPatch,
  list,
  literal,
  message,
  notNull,
  object,
  oneOf,
  optional,
  record,
  resumeEntry,
  type Shape,
  string,
  textOrParts,
  tool,
  variants,
} from '../state/protocol-shapes'

// Every AG-UI 1.0 event, field by field in the order of @ag-ui/core's schemas (the first problem
// found is the one they report). test/event-shapes.property.test.ts compares both.

const maybeString = optional(string)
const base = { timestamp: optional(integer(-Number.MAX_SAFE_INTEGER)), rawEvent: optional(notNull), metadata: optional(record) }
// Run-scoped events and MESSAGES_SNAPSHOT carry no subagent attribution; the rest may.
const attributed = { ...base, subagentRunId: maybeString }
const ofSubagent = { ...base, subagentRunId: string }

const tokenCount = optional(integer(0))
const usage = optional(
  list(
    object({
      provider: maybeString,
      model: maybeString,
      inputTokens: tokenCount,
      outputTokens: tokenCount,
      totalTokens: tokenCount,
      reasoningTokens: tokenCount,
      cachedInputTokens: tokenCount,
      cacheWriteInputTokens: tokenCount,
    }),
  ),
)

const interrupt = object({
  subagentRunId: maybeString,
  id: string,
  reason: string,
  message: maybeString,
  toolCallId: maybeString,
  responseSchema: optional(record),
  expiresAt: maybeString,
  metadata: optional(record),
})

const runIds = { threadId: string, runId: string, protocolVersion: maybeString, parentRunId: maybeString }

const runInput = object({
  ...runIds,
  // The schema takes any state here, null included (it reads null as absent).
  messages: list(message),
  tools: optional(list(tool)),
  context: optional(list(context)),
  forwardedProps: optional(notNull),
  resume: optional(list(resumeEntry)),
})

const textRole = optional(oneOf('developer', 'system', 'assistant', 'user'))

/** An event that may carry a subagent attribution: the base fields first, as the schemas order them. */
const event = (fields: Record<string, Shape>) => object({ ...attributed, ...fields })

const streamedText = event({ messageId: string, delta: string })
const messageOnly = event({ messageId: string })
const stepOnly = event({ stepName: string })

/** The shape of each event type, keyed by it; the compiler checks that none is missing. */
export const eventShapes: Record<EventType, Shape> = {
  TEXT_MESSAGE_START: event({
    messageId: string,
    role: textRole,
    name: maybeString,
  }),
  TEXT_MESSAGE_CONTENT: streamedText,
  TEXT_MESSAGE_END: messageOnly,
  TEXT_MESSAGE_CHUNK: event({
    messageId: maybeString,
    role: textRole,
    delta: maybeString,
    name: maybeString,
  }),
  TOOL_CALL_START: event({ toolCallId: string, toolCallName: string, parentMessageId: maybeString }),
  TOOL_CALL_ARGS: event({ toolCallId: string, delta: string }),
  TOOL_CALL_END: event({ toolCallId: string }),
  TOOL_CALL_CHUNK: event({
    toolCallId: maybeString,
    toolCallName: maybeString,
    parentMessageId: maybeString,
    delta: maybeString,
  }),
  TOOL_CALL_RESULT: event({
    messageId: string,
    toolCallId: string,
    content: textOrParts,
    role: optional(literal('tool')),
  }),
  STATE_SNAPSHOT: event({ snapshot: defined }),
  STATE_DELTA: event({ delta: jsonPatch }),
  MESSAGES_SNAPSHOT: object({ ...base, messages: list(message) }),
  ACTIVITY_SNAPSHOT: event({
    messageId: string,
    activityType: string,
    content: record,
    replace: optional(boolean),
  }),
  ACTIVITY_DELTA: event({ messageId: string, activityType: string, patch: jsonPatch }),
  RAW: event({ event: defined, source: maybeString }),
  CUSTOM: event({ name: string, value: defined }),
  RUN_STARTED: object({ ...base, ...runIds, input: optional(runInput) }),
  RUN_FINISHED: object({
    ...base,
    threadId: string,
    runId: string,
    result: optional(notNull),
    outcome: optional(
      variants('type', {
        success: object({ pendingToolCallIds: optional(list(string)) }),
        interrupt: object({ interrupts: list(interrupt, 1) }),
        cancelled: object({}),
      }),
    ),
    usage,
  }),
  RUN_ERROR: object({ ...base, message: string, code: maybeString, usage }),
  STEP_STARTED: stepOnly,
  STEP_FINISHED: stepOnly,
  REASONING_START: messageOnly,
  REASONING_MESSAGE_START: event({ messageId: string, role: literal('reasoning') }),
  REASONING_MESSAGE_CONTENT: streamedText,
  REASONING_MESSAGE_END: messageOnly,
  REASONING_MESSAGE_CHUNK: event({ messageId: maybeString, delta: maybeString }),
  REASONING_END: messageOnly,
  REASONING_ENCRYPTED_VALUE: event({
    subtype: oneOf('tool-call', 'message'),
    entityId: string,
    encryptedValue: string,
  }),
  SUBAGENT_STARTED: object({
    ...ofSubagent,
    name: string,
    description: maybeString,
    parentSubagentRunId: maybeString,
    parentToolCallId: maybeString,
    parentMessageId: maybeString,
  }),
  SUBAGENT_FINISHED: object({
    ...ofSubagent,
    result: optional(notNull),
    outcome: optional(
      variants('type', {
        success: object({}),
        suspended: object({ interruptIds: optional(list(string)) }),
      }),
    ),
  }),
  SUBAGENT_ERROR: object({ ...ofSubagent, message: string, code: maybeString }),
}
