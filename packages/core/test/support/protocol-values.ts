// Generated AG-UI values for the property tests that hold the store's own shapes against
// @ag-ui/core's zod schemas: mostly valid, so acceptance is common, and otherwise wrong in every
// way a producer can be wrong (a missing field, a wrong type, a wrong enum value, an extra key, a
// nested part of the wrong shape, a non-object).
import { EventType } from '@ag-ui/core'
import fc from 'fast-check'

/** Values of every kind the rules tell apart, edge numbers and odd objects included. */
export const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, true, false, '', 'x', 'tool', 'user', 'function', 'success', '/a', 'a'),
  fc.integer(),
  fc.constantFrom(-0, 0.5, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER),
  fc.constantFrom({}, [], { k: 1 }, [1], { type: 'text' }, { role: 'user' }, { op: 'add' }),
  fc.constant(new Date(0)),
  fc.constant(new Map()),
  fc.constant(Object.create(null)),
  fc.constant(new (class {})()),
  fc.constant(() => 0),
)

const wrong = 1
/** A valid value most of the time, otherwise anything. */
export const mostly = <T>(valid: fc.Arbitrary<T>, right = 10) =>
  fc.oneof({ arbitrary: valid as fc.Arbitrary<unknown>, weight: right }, { arbitrary: anything, weight: wrong })
/** Absent half the time; when present, mostly valid. */
export const maybe = <T>(valid: fc.Arbitrary<T>) => fc.option(mostly(valid), { nil: undefined, freq: 2 })

export const text = fc.string({ maxLength: 4 })
const json = fc.jsonValue({ maxDepth: 2 })
const object = fc.dictionary(text, json, { maxKeys: 2 })

type Fields = Record<string, fc.Arbitrary<unknown>>

/**
 * An object with these fields (the `required` ones mostly there, the rest half the time), now and
 * then one more key of any name and value, now and then one key taken away.
 */
export function shape(fields: Fields, required: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const entries: Fields = {}
  for (const [key, arbitrary] of Object.entries(fields)) entries[key] = required.includes(key) ? mostly(arbitrary) : maybe(arbitrary)
  return fc
    .tuple(
      fc.record(entries, { requiredKeys: required }),
      fc.option(fc.tuple(fc.constantFrom('extra', 'type', 'id', 'role', 'op', '__proto__x'), anything), { freq: 6 }),
      fc.option(fc.nat(), { freq: 6 }),
    )
    .map(([value, extra, drop]) => {
      const result: Record<string, unknown> = { ...value }
      if (extra) result[extra[0]] = extra[1]
      const keys = Object.keys(result)
      if (drop !== null && keys.length > 0) delete result[keys[drop % keys.length] as string]
      return result
    })
}

/** One of these variants, told apart by `key` (mostly a known name, sometimes anything). */
function tagged(key: string, byName: Record<string, [Fields, string[]?]>): fc.Arbitrary<unknown> {
  const names = Object.keys(byName)
  return fc.oneof(
    ...names.map((name) => {
      const [fields, required = []] = byName[name] as [Fields, string[]?]
      return shape({ [key]: fc.constant(name), ...fields }, [key, ...required])
    }),
  )
}

const pointer = fc.constantFrom('', '/a', '/a~1b', '/0', '/a/-', '/~01')
const operation = tagged('op', {
  add: [{ path: pointer, value: json }, ['path', 'value']],
  remove: [{ path: pointer }, ['path']],
  replace: [{ path: pointer, value: json }, ['path', 'value']],
  move: [{ from: pointer, path: pointer }, ['from', 'path']],
  copy: [{ from: pointer, path: pointer }, ['from', 'path']],
  test: [{ path: pointer, value: json }, ['path', 'value']],
})
const patch = fc.array(mostly(operation), { maxLength: 3 })

const source = tagged('type', {
  data: [{ value: text, mimeType: text }, ['value', 'mimeType']],
  url: [{ value: text, mimeType: text }, ['value']],
  file: [{ value: text, provider: text, mimeType: text }, ['value']],
})
const media = (): [Fields, string[]] => [{ id: text, source: mostly(source), metadata: json }, ['source']]
const part = tagged('type', {
  text: [{ id: text, text, metadata: json }, ['text']],
  image: media(),
  audio: media(),
  video: media(),
  document: media(),
})
const textOrParts = fc.oneof(text, fc.array(mostly(part), { maxLength: 2 }))

const toolCall = shape(
  {
    id: text,
    type: fc.constant('function'),
    function: shape({ name: text, arguments: text }, ['name', 'arguments']),
    encryptedValue: text,
    metadata: object,
  },
  ['id', 'type', 'function'],
)
const named: Fields = { subagentRunId: text, id: text, name: text, encryptedValue: text, metadata: object }
export const message = tagged('role', {
  developer: [{ ...named, content: text }, ['id', 'content']],
  system: [{ ...named, content: text }, ['id', 'content']],
  assistant: [{ ...named, content: text, toolCalls: fc.array(mostly(toolCall), { maxLength: 2 }) }, ['id']],
  user: [{ ...named, content: textOrParts }, ['id', 'content']],
  tool: [
    { subagentRunId: text, id: text, content: textOrParts, toolCallId: text, error: text, encryptedValue: text, metadata: object },
    ['id', 'content', 'toolCallId'],
  ],
  activity: [{ subagentRunId: text, id: text, activityType: text, content: object, metadata: object }, ['id', 'activityType', 'content']],
  reasoning: [{ subagentRunId: text, id: text, content: text, encryptedValue: text, metadata: object }, ['id', 'content']],
})
export const tool = shape({ name: text, description: text, parameters: json, metadata: object }, ['name', 'description'])
export const context = shape({ description: text, value: text }, ['description', 'value'])
export const resumeEntry = shape({ interruptId: text, status: fc.constantFrom('resolved', 'cancelled'), payload: json, metadata: object }, [
  'interruptId',
  'status',
])

const messages = fc.array(mostly(message), { maxLength: 2 })
// Counts below zero are wrong but common enough to be tried.
const tokens = fc.integer({ min: -2, max: 99 })
const usage = fc.array(
  mostly(
    shape({
      provider: text,
      model: text,
      inputTokens: tokens,
      outputTokens: tokens,
      totalTokens: tokens,
      reasoningTokens: tokens,
      cachedInputTokens: tokens,
      cacheWriteInputTokens: tokens,
    }),
  ),
  { maxLength: 2 },
)
const interrupt = shape(
  {
    subagentRunId: text,
    id: text,
    reason: text,
    message: text,
    toolCallId: text,
    responseSchema: object,
    expiresAt: text,
    metadata: object,
  },
  ['id', 'reason'],
)
const runInput = shape(
  {
    threadId: text,
    runId: text,
    protocolVersion: text,
    parentRunId: text,
    state: json,
    messages,
    tools: fc.array(mostly(tool), { maxLength: 2 }),
    context: fc.array(mostly(context), { maxLength: 2 }),
    forwardedProps: json,
    resume: fc.array(mostly(resumeEntry), { maxLength: 2 }),
  },
  ['threadId', 'runId', 'messages'],
)

const base: Fields = { timestamp: fc.integer(), rawEvent: json, metadata: object }
const attributed: Fields = { ...base, subagentRunId: text }
const textRoles = fc.constantFrom('developer', 'system', 'assistant', 'user')

/** The fields of each event type, and which of them are required. */
const events: Record<EventType, [Fields, string[]]> = {
  TEXT_MESSAGE_START: [{ ...attributed, messageId: text, role: textRoles, name: text }, ['messageId']],
  TEXT_MESSAGE_CONTENT: [{ ...attributed, messageId: text, delta: text }, ['messageId', 'delta']],
  TEXT_MESSAGE_END: [{ ...attributed, messageId: text }, ['messageId']],
  TEXT_MESSAGE_CHUNK: [{ ...attributed, messageId: text, role: textRoles, delta: text, name: text }, []],
  TOOL_CALL_START: [{ ...attributed, toolCallId: text, toolCallName: text, parentMessageId: text }, ['toolCallId', 'toolCallName']],
  TOOL_CALL_ARGS: [{ ...attributed, toolCallId: text, delta: text }, ['toolCallId', 'delta']],
  TOOL_CALL_END: [{ ...attributed, toolCallId: text }, ['toolCallId']],
  TOOL_CALL_CHUNK: [{ ...attributed, toolCallId: text, toolCallName: text, parentMessageId: text, delta: text }, []],
  TOOL_CALL_RESULT: [
    { ...attributed, messageId: text, toolCallId: text, content: textOrParts, role: fc.constant('tool') },
    ['messageId', 'toolCallId', 'content'],
  ],
  STATE_SNAPSHOT: [{ ...attributed, snapshot: json }, ['snapshot']],
  STATE_DELTA: [{ ...attributed, delta: patch }, ['delta']],
  MESSAGES_SNAPSHOT: [{ ...base, messages }, ['messages']],
  ACTIVITY_SNAPSHOT: [{ ...attributed, messageId: text, activityType: text, content: object, replace: fc.boolean() }, ['messageId', 'activityType', 'content']],
  ACTIVITY_DELTA: [{ ...attributed, messageId: text, activityType: text, patch }, ['messageId', 'activityType', 'patch']],
  RAW: [{ ...attributed, event: json, source: text }, ['event']],
  CUSTOM: [{ ...attributed, name: text, value: json }, ['name', 'value']],
  RUN_STARTED: [{ ...base, threadId: text, runId: text, protocolVersion: text, parentRunId: text, input: runInput }, ['threadId', 'runId']],
  RUN_FINISHED: [
    {
      ...base,
      threadId: text,
      runId: text,
      result: json,
      outcome: tagged('type', {
        success: [{ pendingToolCallIds: fc.array(mostly(text), { maxLength: 2 }) }],
        interrupt: [{ interrupts: fc.array(mostly(interrupt), { maxLength: 2 }) }, ['interrupts']],
        cancelled: [{}],
      }),
      usage,
    },
    ['threadId', 'runId'],
  ],
  RUN_ERROR: [{ ...base, message: text, code: text, usage }, ['message']],
  STEP_STARTED: [{ ...attributed, stepName: text }, ['stepName']],
  STEP_FINISHED: [{ ...attributed, stepName: text }, ['stepName']],
  REASONING_START: [{ ...attributed, messageId: text }, ['messageId']],
  REASONING_MESSAGE_START: [{ ...attributed, messageId: text, role: fc.constant('reasoning') }, ['messageId', 'role']],
  REASONING_MESSAGE_CONTENT: [{ ...attributed, messageId: text, delta: text }, ['messageId', 'delta']],
  REASONING_MESSAGE_END: [{ ...attributed, messageId: text }, ['messageId']],
  REASONING_MESSAGE_CHUNK: [{ ...attributed, messageId: text, delta: text }, []],
  REASONING_END: [{ ...attributed, messageId: text }, ['messageId']],
  REASONING_ENCRYPTED_VALUE: [
    { ...attributed, subtype: fc.constantFrom('tool-call', 'message'), entityId: text, encryptedValue: text },
    ['subtype', 'entityId', 'encryptedValue'],
  ],
  SUBAGENT_STARTED: [
    {
      ...base,
      subagentRunId: text,
      name: text,
      description: text,
      parentSubagentRunId: text,
      parentToolCallId: text,
      parentMessageId: text,
    },
    ['subagentRunId', 'name'],
  ],
  SUBAGENT_FINISHED: [
    {
      ...base,
      subagentRunId: text,
      result: json,
      outcome: tagged('type', { success: [{}], suspended: [{ interruptIds: fc.array(mostly(text), { maxLength: 2 }) }] }),
    },
    ['subagentRunId'],
  ],
  SUBAGENT_ERROR: [{ ...base, subagentRunId: text, message: text, code: text }, ['subagentRunId', 'message']],
}

/** An event of this type: the `type` always right, the rest mostly valid. */
export const eventOf = (type: EventType) => {
  const [fields, required] = events[type]
  return shape(fields, required).map((event) => ({ ...event, type }))
}

export const eventTypes = Object.values(EventType)
