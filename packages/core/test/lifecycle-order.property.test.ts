import { verifyEvents } from '@ag-ui/client'
import type { BaseEvent } from '@ag-ui/core'
import fc from 'fast-check'
import { from } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { lifecycleVerifier } from '../src/transport/verify-lifecycle'

// The built-in transport's lifecycle check against @ag-ui/client's verifyEvents, the oracle: over
// generated streams, mostly well-formed and often not, both accept the same events and stop at
// the same one. The messages are the store's own: each names the type of the event it refuses.

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
    toolCalls: optional(fc.oneof({ arbitrary: fc.array(fc.record({ id }), { maxLength: 2 }), weight: 6 }, fc.constantFrom<unknown>('x', 1, {}, [null], null))),
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
    .record({ messageId: id, replace: fc.constantFrom(undefined, true, false), subagentRunId: tag })
    .map((f) => present({ type: 'ACTIVITY_SNAPSHOT', activityType: 'p', content: {}, ...f })),
  simple('ACTIVITY_DELTA', 'messageId'),
  fc
    .record({
      subagentRunId: fc.oneof(id, fc.constant(undefined)),
      name: fc.oneof({ arbitrary: fc.constant('n'), weight: 4 }, { arbitrary: fc.constant(undefined), weight: 1 }),
      parentSubagentRunId: optional(fc.oneof(id, fc.constant(null))),
      description: optional(fc.constant(null)),
      parentToolCallId: optional(fc.constant(null)),
      parentMessageId: optional(fc.constant(null)),
    })
    .map((f) => present({ type: 'SUBAGENT_STARTED', ...f })),
  fc
    .record({
      type: fc.constantFrom('SUBAGENT_FINISHED', 'SUBAGENT_ERROR'),
      subagentRunId: fc.oneof(id, fc.constant(undefined)),
      message: optional(fc.constant('failed')),
      code: optional(fc.constant(null)),
      outcome: optional(
        fc.oneof(
          {
            arbitrary: fc
              .record({ type: fc.constantFrom('success', 'suspended', 'other'), interruptIds: fc.constantFrom(undefined, null, ['i1'], [1]) })
              .map(present),
            weight: 4,
          },
          fc.constant(null),
        ),
      ),
    })
    .map(present),
  messages.map((m) => ({ type: 'MESSAGES_SNAPSHOT', messages: m })),
  fc.constantFrom<Event>(
    { type: 'STATE_SNAPSHOT', snapshot: {} },
    { type: 'CUSTOM', name: 'x', value: 1 },
    { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a', delta: 'x' },
    // Types that are also the names of Object.prototype's members.
    { type: 'constructor' },
    { type: 'toString' },
  ),
)

// Who owns what: fewer kinds, most of them tagged, so the rules about the subagent that opened an
// entity (and snapshots that re-own it) are reached often.
const owner = fc.constantFrom('s1', 's2', undefined)
const ownership: fc.Arbitrary<Event> = fc.oneof(
  messages.map((m) => ({ type: 'MESSAGES_SNAPSHOT', messages: m })),
  fc
    .record({ messageId: id, replace: fc.constantFrom(undefined, true, false), subagentRunId: owner })
    .map((f) => present({ type: 'ACTIVITY_SNAPSHOT', activityType: 'p', content: {}, ...f })),
  simple('ACTIVITY_DELTA', 'messageId', owner),
  fc
    .record({ subtype: fc.constantFrom('message', 'tool-call', 'other'), entityId: id, subagentRunId: owner })
    .map((f) => present({ type: 'REASONING_ENCRYPTED_VALUE', encryptedValue: 'x', ...f })),
  fc.record({ messageId: optional(id), toolCallId: id, subagentRunId: owner }).map((f) => present({ type: 'TOOL_CALL_RESULT', content: 'ok', ...f })),
  fc
    .record({ toolCallId: id, parentMessageId: fc.constantFrom(undefined, 'a', 'b'), subagentRunId: owner })
    .map((f) => present({ type: 'TOOL_CALL_START', toolCallName: 'w', ...f })),
  ...['TOOL_CALL_END', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_END', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_END'].map((type) =>
    simple(type, type.startsWith('TOOL') ? 'toolCallId' : 'messageId', owner),
  ),
)
const ownershipStream = fc
  .tuple(optional(messages), fc.array(ownership, { maxLength: 20 }))
  .map(([m, rest]) => [present({ type: 'RUN_STARTED', threadId: 't', runId: 'r', input: m === undefined ? undefined : { messages: m } }), ...rest])

// Subagents: two ids, so they start, end, nest and come back; the outcomes they end with, the
// fields they must carry, and steps under each of them and under the parent agent.
const subagentEvent: fc.Arbitrary<Event> = fc.oneof(
  fc
    .record({
      subagentRunId: id,
      name: fc.constantFrom<unknown>('n', 'n', 'n', undefined, 1),
      parentSubagentRunId: fc.constantFrom(undefined, undefined, 'a', 'b'),
    })
    .map((f) => present({ type: 'SUBAGENT_STARTED', ...f })),
  fc
    .record({
      type: fc.constantFrom('SUBAGENT_FINISHED', 'SUBAGENT_ERROR'),
      subagentRunId: id,
      message: fc.constantFrom<unknown>('failed', 'failed', undefined, 1),
      outcome: fc.constantFrom<unknown>(
        undefined,
        { type: 'success' },
        { type: 'suspended', interruptIds: ['i1'] },
        { type: 'success', interruptIds: null },
        { type: 'suspended', interruptIds: [1] },
      ),
    })
    .map(present),
  ...['STEP_STARTED', 'STEP_FINISHED'].map((type) => simple(type, 'stepName', fc.constantFrom('a', 'b', undefined))),
  fc.constantFrom<Event>(
    { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
    { type: 'RUN_ERROR', message: 'x' },
  ),
)
const subagentStream = fc.array(subagentEvent, { maxLength: 20 }).map((rest) => [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, ...rest])

/** Most streams start as a run does, so the rules past the first event are reached. */
const stream = fc
  .tuple(fc.boolean(), fc.array(event, { maxLength: 30 }))
  .map(([start, rest]) => (start ? [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }, ...rest] : rest))

/** How a verifier ends a stream: the number of events it accepts, and whether it refuses the next. */
interface Verdict {
  accepted: number
  refused: boolean
}

function oracle(events: readonly Event[]): Verdict {
  const verdict: Verdict = { accepted: 0, refused: false }
  from(events as BaseEvent[])
    .pipe(verifyEvents(false))
    .subscribe({
      next: () => verdict.accepted++,
      error: () => {
        verdict.refused = true
      },
    })
  return verdict
}

/** Our verdict, with the message of the refusal. */
function ours(events: readonly Event[]): Verdict & { message: string | undefined } {
  const check = lifecycleVerifier()
  let accepted = 0
  for (const one of events) {
    const message = check(one)
    if (message !== undefined) return { accepted, refused: true, message }
    accepted++
  }
  return { accepted, refused: false, message: undefined }
}

/** Both verdicts are the same, and a refusal's message begins with the type of the event it refuses. */
function expectSameVerdict(events: readonly Event[]): Verdict & { message: string | undefined } {
  const expected = oracle(events)
  const actual = ours(events)
  expect({ accepted: actual.accepted, refused: actual.refused }).toEqual(expected)
  if (actual.refused) expect(actual.message).toMatch(new RegExp(`^${events[actual.accepted]!.type} `))
  return actual
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
      verdicts[expectSameVerdict(events).refused ? 'refused' : 'accepted']++
    }),
    { numRuns: RUNS },
  )
  expect(verdicts.accepted).toBeGreaterThan(RUNS / 25)
  expect(verdicts.refused).toBeGreaterThan(RUNS / 25)
}

const started = { type: 'RUN_STARTED', threadId: 't', runId: 'r' }

describe('lifecycle order, against @ag-ui/client verifyEvents', () => {
  it('accepts the same events and stops at the same one, naming the type of the event it refuses', () => {
    expectSameVerdicts(stream)
  })

  it('agrees on who owns each message, tool call, reasoning message and activity', () => {
    expectSameVerdicts(ownershipStream)
  })

  it('agrees on subagents: the fields and outcomes they carry, their nesting, and the steps under each', () => {
    expectSameVerdicts(subagentStream)
  })

  it.each<[string, Event[], string | undefined]>([
    [
      'a run with a message, a tool call, reasoning, a step and a subagent',
      [
        started,
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
        { type: 'RUN_STARTED', threadId: 't', runId: 'r3' },
      ],
      undefined,
    ],
    ['an event before RUN_STARTED', [{ type: 'STATE_DELTA', delta: [] }], 'STATE_DELTA before RUN_STARTED'],
    ['RUN_STARTED inside a run', [started, started], 'RUN_STARTED while a run is active'],
    [
      'an event after RUN_FINISHED',
      [started, { type: 'RUN_FINISHED', threadId: 't', runId: 'r' }, { type: 'STATE_DELTA', delta: [] }],
      'STATE_DELTA after RUN_FINISHED, before a new RUN_STARTED',
    ],
    [
      'an event after RUN_ERROR',
      [started, { type: 'RUN_ERROR', message: 'x' }, { type: 'RUN_ERROR', message: 'y' }],
      'RUN_ERROR after RUN_ERROR, before a new RUN_STARTED',
    ],
    [
      "a tool call owned through its parent message's subagent",
      [
        started,
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant', subagentRunId: 's1' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'w', parentMessageId: 'm' },
        { type: 'TOOL_CALL_END', toolCallId: 'c', subagentRunId: 's1' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'w', parentMessageId: 'm' },
        { type: 'TOOL_CALL_END', toolCallId: 'c', subagentRunId: 's2' },
      ],
      'TOOL_CALL_END for tool call "c", which belongs to subagent "s1", not subagent "s2"',
    ],
    [
      'a tool call tagged with another subagent than its parent message',
      [
        started,
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'w', parentMessageId: 'm', subagentRunId: 's1' },
      ],
      'TOOL_CALL_START for tool call "c", which belongs to subagent "s1", but its parent message "m" to the parent agent',
    ],
    [
      'RUN_FINISHED with a step, a tool call and a subagent open',
      [
        started,
        { type: 'STEP_STARTED', stepName: 'plan', subagentRunId: 's' },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'w' },
        { type: 'SUBAGENT_STARTED', subagentRunId: 's', name: 'n' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ],
      'RUN_FINISHED with step "plan" of subagent "s", tool call "c", subagent "s" still open',
    ],
    [
      'text content before its message starts',
      [started, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' }],
      'TEXT_MESSAGE_CONTENT for text message "m", which is not open',
    ],
    [
      'a reasoning message started twice',
      [started, { type: 'REASONING_MESSAGE_START', messageId: 'r' }, { type: 'REASONING_MESSAGE_START', messageId: 'r' }],
      'REASONING_MESSAGE_START for reasoning message "r", which is already open',
    ],
    [
      'a message continued under another subagent',
      [
        started,
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant', subagentRunId: 's1' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x', subagentRunId: 's2' },
      ],
      'TEXT_MESSAGE_CONTENT for message "m", which belongs to subagent "s1", not subagent "s2"',
    ],
    [
      'a step finished by another owner',
      [started, { type: 'STEP_STARTED', stepName: 'x' }, { type: 'STEP_FINISHED', stepName: 'x', subagentRunId: 's1' }],
      'STEP_FINISHED for step "x", which is open under the parent agent, not subagent "s1"',
    ],
    ['a step finished that never started', [started, { type: 'STEP_FINISHED', stepName: 'x' }], 'STEP_FINISHED for step "x", which is not open'],
    [
      'a subagent id used twice in a run',
      [
        started,
        { type: 'SUBAGENT_STARTED', subagentRunId: 's', name: 'n' },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 's' },
        { type: 'SUBAGENT_STARTED', subagentRunId: 's', name: 'n' },
      ],
      'SUBAGENT_STARTED for subagent "s", which has already ended in this run',
    ],
    [
      'a subagent under a parent that never started',
      [started, { type: 'SUBAGENT_STARTED', subagentRunId: 's', name: 'n', parentSubagentRunId: 'p' }],
      'SUBAGENT_STARTED for parent subagent "p", which has not started in this run',
    ],
    ['SUBAGENT_ERROR without a message', [started, { type: 'SUBAGENT_ERROR', subagentRunId: 's' }], 'SUBAGENT_ERROR without a message'],
    [
      'a subagent outcome of another type',
      [started, { type: 'SUBAGENT_STARTED', subagentRunId: 's', name: 'n' }, { type: 'SUBAGENT_FINISHED', subagentRunId: 's', outcome: { type: 'done' } }],
      'SUBAGENT_FINISHED with an outcome other than { type: "success" | "suspended", interruptIds?: string[] }',
    ],
    [
      'a null subagentRunId',
      [started, { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant', subagentRunId: null }],
      'TEXT_MESSAGE_START with subagentRunId: null (leave it out instead)',
    ],
    [
      'a null subagentRunId in a messages snapshot',
      [started, { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'm', role: 'user', subagentRunId: null }] }],
      'MESSAGES_SNAPSHOT with subagentRunId: null on message "m" (leave it out instead)',
    ],
    [
      'a null subagentRunId on an interrupt',
      [started, { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'interrupt', interrupts: [{ id: 'i', subagentRunId: null }] } }],
      'RUN_FINISHED with subagentRunId: null on interrupt "i" (leave it out instead)',
    ],
    [
      'an encrypted value for a tool call of another subagent',
      [
        { ...started, input: { messages: [{ id: 'm', role: 'assistant', subagentRunId: 's1', toolCalls: [{ id: 'c' }] }] } },
        { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: 'c', encryptedValue: 'x', subagentRunId: 's2' },
      ],
      'REASONING_ENCRYPTED_VALUE for tool call "c", which belongs to subagent "s1", not subagent "s2"',
    ],
  ])('%s: the same verdict', (_name, events, message) => {
    expect(expectSameVerdict(events).message).toBe(message)
  })
})
