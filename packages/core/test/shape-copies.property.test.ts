import type { AssistantMessage, Message, ToolCall } from '@ag-ui/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { blankSnapshot, copySnapshot, withArguments, withContent, withToolCalls } from '../src/snapshot/copy'
import type { AgentSnapshot } from '../src/types'

// The literal copies of the per-token shapes against the plain spread they replace: the same keys
// in the same order, the same values, and a new object, whatever fields a server added.

const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 200

/** Extra fields a server may send, in any order, before or after the usual ones. */
const extras = fc.dictionary(fc.constantFrom('name', 'metadata', 'subagentRunId', 'encryptedValue', 'extra'), fc.jsonValue(), { maxKeys: 3 })

/** An object of `fields`, with `extra` fields mixed in before or after them. */
function shaped(fields: Record<string, unknown>, extra: Record<string, unknown>, extraFirst: boolean): Record<string, unknown> {
  const rest = Object.fromEntries(Object.entries(extra).filter(([key]) => !Object.hasOwn(fields, key)))
  return extraFirst ? { ...rest, ...fields } : { ...fields, ...rest }
}

const fn = fc
  .record({ name: fc.string(), arguments: fc.string(), extra: extras, extraFirst: fc.boolean() })
  .map(({ name, arguments: args, extra, extraFirst }) => shaped({ name, arguments: args }, extra, extraFirst))
const toolCall = fc
  .record({ id: fc.string(), function: fn, extra: extras, extraFirst: fc.boolean() })
  .map(({ id, function: f, extra, extraFirst }) => shaped({ id, type: 'function', function: f }, extra, extraFirst) as unknown as ToolCall)
const message = fc
  .record({
    id: fc.string(),
    content: fc.option(fc.string(), { nil: undefined }),
    toolCalls: fc.option(fc.array(toolCall, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    extra: extras,
    extraFirst: fc.boolean(),
  })
  .map(({ id, content, toolCalls, extra, extraFirst }) => {
    const fields: Record<string, unknown> = { id, role: 'assistant' }
    if (content !== undefined) fields.content = content
    if (toolCalls !== undefined) fields.toolCalls = toolCalls
    return shaped(fields, extra, extraFirst) as unknown as AssistantMessage
  })

/** Equal to the oracle by value and by key order, and not the object it was copied from. */
function expectCopyOf(copy: object, oracle: object, source: object) {
  expect(copy).toStrictEqual(oracle)
  expect(Object.keys(copy)).toEqual(Object.keys(oracle))
  expect(copy).not.toBe(source)
}

describe('the per-token shape copies', () => {
  it('withContent gives what a spread with the new content gives', () => {
    fc.assert(
      fc.property(message, fc.string(), (original, content) => {
        expectCopyOf(withContent(original as Message, content), { ...original, content }, original)
      }),
      { numRuns: NUM_RUNS },
    )
  })

  it('withToolCalls gives what a spread with the new calls gives', () => {
    fc.assert(
      fc.property(message, fc.array(toolCall, { maxLength: 2 }), (original, toolCalls) => {
        expectCopyOf(withToolCalls(original, toolCalls), { ...original, toolCalls }, original)
      }),
      { numRuns: NUM_RUNS },
    )
  })

  it('withArguments gives what spreads of the call and its function give', () => {
    fc.assert(
      fc.property(toolCall, fc.string(), (original, args) => {
        const copy = withArguments(original, args)
        expectCopyOf(copy, { ...original, function: { ...original.function, arguments: args } }, original)
        expectCopyOf(copy.function, { ...original.function, arguments: args }, original.function)
      }),
      { numRuns: NUM_RUNS },
    )
  })

  it('copySnapshot gives what a spread of the snapshot gives', () => {
    const snapshot: AgentSnapshot<unknown> = { ...blankSnapshot('thread-1', { count: 1 }), runId: 'run-1', status: 'running', requesting: true }
    expectCopyOf(copySnapshot(snapshot), { ...snapshot }, snapshot)
  })
})
