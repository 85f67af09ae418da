import { verifyEvents } from '@ag-ui/client'
import type { BaseEvent } from '@ag-ui/core'
import fc from 'fast-check'
import { from } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { LifecycleVerifier } from '../src/transport/verify-lifecycle'

// The built-in transport's lifecycle check against @ag-ui/client's verifyEvents, the oracle: over
// generated streams, mostly well-formed and often not, both accept the same events and stop at
// the same one with the same message.

type Event = { type: string } & Record<string, unknown>

/** Drops the keys left undefined: an absent field, not one set to undefined. */
const present = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Event

// Few ids, so events meet the entities others opened.
const id = fc.constantFrom('a', 'b')
const optional = <T>(value: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: value, weight: 1 })
const tag = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 6 },
  { arbitrary: fc.constantFrom('s1', 's2'), weight: 2 },
  { arbitrary: fc.constant(null), weight: 1 },
)
const message = fc
  .record({
    id: fc.oneof(id, fc.constant(undefined)),
    role: fc.constantFrom('user', 'assistant', 'reasoning', 'activity'),
    subagentRunId: tag,
    toolCalls: optional(fc.array(fc.record({ id }), { maxLength: 2 })),
  })
  .map(present)
const messages = fc.array(message, { maxLength: 3 })

const simple = (type: string, key: string, owner: fc.Arbitrary<string | null | undefined> = tag) =>
  fc.record({ [key]: id, subagentRunId: owner }).map((fields) => present({ type, ...fields }))

const event: fc.Arbitrary<Event> = fc.oneof(
  {
    arbitrary: optional(messages).map((m) => present({ type: 'RUN_STARTED', threadId: 't', runId: 'r', input: m === undefined ? undefined : { messages: m } })),
    weight: 2,
  },
  {
    arbitrary: optional(fc.record({ id, subagentRunId: tag })).map((interrupt) =>
      present({ type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: interrupt && { type: 'interrupt', interrupts: [present(interrupt)] } }),
    ),
    weight: 2,
  },
  fc.constant({ type: 'RUN_ERROR', message: 'boom' }),
  ...['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END'].map((type) => simple(type, 'messageId')),
  fc.record({ toolCallId: id, parentMessageId: optional(id), subagentRunId: tag }).map((f) => present({ type: 'TOOL_CALL_START', toolCallName: 'w', ...f })),
  ...['TOOL_CALL_ARGS', 'TOOL_CALL_END'].map((type) => simple(type, 'toolCallId')),
  fc.record({ messageId: optional(id), toolCallId: id, subagentRunId: tag }).map((f) => present({ type: 'TOOL_CALL_RESULT', content: 'ok', ...f })),
  ...['STEP_STARTED', 'STEP_FINISHED'].map((type) => simple(type, 'stepName')),
  ...['REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_END'].map((type) =>
    simple(type, 'messageId'),
  ),
  fc
    .record({ subtype: fc.constantFrom('message', 'tool-call', 'other'), entityId: id, subagentRunId: tag })
    .map((f) => present({ type: 'REASONING_ENCRYPTED_VALUE', encryptedValue: 'x', ...f })),
  fc
    .record({ messageId: id, replace: optional(fc.boolean()), subagentRunId: tag })
    .map((f) => present({ type: 'ACTIVITY_SNAPSHOT', activityType: 'p', content: {}, ...f })),
  simple('ACTIVITY_DELTA', 'messageId'),
  fc
    .record({
      subagentRunId: fc.oneof(id, fc.constant(undefined)),
      name: fc.oneof({ arbitrary: fc.constant('n'), weight: 4 }, { arbitrary: fc.constant(undefined), weight: 1 }),
      parentSubagentRunId: optional(fc.oneof(id, fc.constant(null))),
      description: optional(fc.constant(null)),
    })
    .map((f) => present({ type: 'SUBAGENT_STARTED', ...f })),
  fc
    .record({
      type: fc.constantFrom('SUBAGENT_FINISHED', 'SUBAGENT_ERROR'),
      subagentRunId: fc.oneof(id, fc.constant(undefined)),
      message: optional(fc.constant('failed')),
      code: optional(fc.constant(null)),
      outcome: optional(
        fc.record({ type: fc.constantFrom('success', 'suspended', 'other'), interruptIds: optional(fc.constantFrom(null, ['i1'], [1])) }).map(present),
      ),
    })
    .map(present),
  messages.map((m) => ({ type: 'MESSAGES_SNAPSHOT', messages: m })),
  fc.constantFrom<Event>(
    { type: 'STATE_SNAPSHOT', snapshot: {} },
    { type: 'CUSTOM', name: 'x', value: 1 },
    { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a', delta: 'x' },
  ),
)

// Who owns what: fewer kinds, most of them tagged, so the rules about the subagent that opened an
// entity (and snapshots that re-own it) are reached often.
const owner = fc.constantFrom('s1', 's2', undefined)
const ownership: fc.Arbitrary<Event> = fc.oneof(
  messages.map((m) => ({ type: 'MESSAGES_SNAPSHOT', messages: m })),
  fc
    .record({ messageId: id, replace: optional(fc.boolean()), subagentRunId: owner })
    .map((f) => present({ type: 'ACTIVITY_SNAPSHOT', activityType: 'p', content: {}, ...f })),
  simple('ACTIVITY_DELTA', 'messageId', owner),
  fc
    .record({ subtype: fc.constantFrom('message', 'tool-call', 'other'), entityId: id, subagentRunId: owner })
    .map((f) => present({ type: 'REASONING_ENCRYPTED_VALUE', encryptedValue: 'x', ...f })),
  fc.record({ messageId: optional(id), toolCallId: id, subagentRunId: owner }).map((f) => present({ type: 'TOOL_CALL_RESULT', content: 'ok', ...f })),
  fc.record({ toolCallId: id, parentMessageId: optional(id), subagentRunId: owner }).map((f) => present({ type: 'TOOL_CALL_START', toolCallName: 'w', ...f })),
  ...['TOOL_CALL_END', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_END', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_END'].map((type) =>
    simple(type, type.startsWith('TOOL') ? 'toolCallId' : 'messageId', owner),
  ),
)
const ownershipStream = fc
  .tuple(optional(messages), fc.array(ownership, { maxLength: 20 }))
  .map(([m, rest]) => [present({ type: 'RUN_STARTED', threadId: 't', runId: 'r', input: m === undefined ? undefined : { messages: m } }), ...rest])

/** Most streams start as a run does, so the rules past the first event are reached. */
const stream = fc
  .tuple(fc.boolean(), fc.array(event, { maxLength: 30 }))
  .map(([start, rest]) => (start ? [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, ...rest] : rest))

interface Verdict {
  accepted: number
  error: string | undefined
}

function oracle(events: readonly Event[]): Verdict {
  const verdict: Verdict = { accepted: 0, error: undefined }
  from(events as BaseEvent[])
    .pipe(verifyEvents(false))
    .subscribe({
      next: () => verdict.accepted++,
      error: (error: Error) => {
        verdict.error = error.message
      },
    })
  return verdict
}

function ours(events: readonly Event[]): Verdict {
  const verifier = new LifecycleVerifier()
  let accepted = 0
  for (const one of events) {
    const error = verifier.check(one)
    if (error !== undefined) return { accepted, error }
    accepted++
  }
  return { accepted, error: undefined }
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 5000)

/**
 * Both verifiers give the same verdict on every stream. Both verdicts must be common (more than
 * one stream in 25), so neither side can pass by always saying the same.
 */
function expectSameVerdicts(streams: fc.Arbitrary<Event[]>) {
  const verdicts = { accepted: 0, refused: 0 }
  fc.assert(
    fc.property(streams, (events) => {
      const expected = oracle(events)
      expect(ours(events)).toEqual(expected)
      verdicts[expected.error === undefined ? 'accepted' : 'refused']++
    }),
    { numRuns: RUNS },
  )
  expect(verdicts.accepted).toBeGreaterThan(RUNS / 25)
  expect(verdicts.refused).toBeGreaterThan(RUNS / 25)
}

describe('lifecycle order, against @ag-ui/client verifyEvents', () => {
  it('accepts the same events and stops at the same one, with the same message', () => {
    expectSameVerdicts(stream)
  })

  it('agrees on who owns each message, tool call, reasoning message and activity', () => {
    expectSameVerdicts(ownershipStream)
  })

  it.each<[string, Event[]]>([
    [
      'a run with a message, a tool call, reasoning, a step and a subagent',
      [
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'STEP_STARTED', stepName: 'plan' },
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'w', parentMessageId: 'm' },
        { type: 'TOOL_CALL_END', toolCallId: 'c' },
        { type: 'REASONING_START', messageId: 'r' },
        { type: 'REASONING_END', messageId: 'r' },
        { type: 'SUBAGENT_STARTED', subagentRunId: 's', name: 'n' },
        { type: 'TEXT_MESSAGE_START', messageId: 'sm', role: 'assistant', subagentRunId: 's' },
        { type: 'TEXT_MESSAGE_END', messageId: 'sm', subagentRunId: 's' },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 's' },
        { type: 'STEP_FINISHED', stepName: 'plan' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
        { type: 'RUN_STARTED', threadId: 't', runId: 'r2' },
        { type: 'RUN_ERROR', message: 'x' },
      ],
    ],
    ['an event before RUN_STARTED', [{ type: 'STATE_DELTA', delta: [] }]],
    [
      "a tool call owned through its parent message's subagent",
      [
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant', subagentRunId: 's1' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'w', parentMessageId: 'm' },
        { type: 'TOOL_CALL_END', toolCallId: 'c', subagentRunId: 's1' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'w', parentMessageId: 'm' },
        { type: 'TOOL_CALL_END', toolCallId: 'c', subagentRunId: 's2' },
      ],
    ],
    [
      'RUN_FINISHED with a tool call open',
      [
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'w' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ],
    ],
    [
      'a message continued under another subagent',
      [
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant', subagentRunId: 's1' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x', subagentRunId: 's2' },
      ],
    ],
    [
      'a step finished by another owner',
      [
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'STEP_STARTED', stepName: 'x' },
        { type: 'STEP_FINISHED', stepName: 'x', subagentRunId: 's1' },
      ],
    ],
  ])('%s: the same verdict', (_name, events) => {
    expect(ours(events)).toEqual(oracle(events))
  })
})
