// The store checks every event with its own shapes (src/snapshot/event-shapes.ts), written from
// @ag-ui/core's zod schemas. Here the schemas are the oracle: on generated events of every type,
// valid and invalid, both must give the same verdict and name the same first problem.
import type { EventType } from '@ag-ui/core'
import { EventSchemas } from '@ag-ui/core/schemas'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AgentStoreError } from '../src/errors'
import { eventShapes } from '../src/snapshot/event-shapes'
import { checkedType } from '../src/snapshot/reduce-event'
import { anything, eventOf, eventTypes } from './support/protocol-values'

const runs = Number(process.env.FUZZ_RUNS ?? 300)

/** What the schemas say of a value: accepted, or the path and wording of their first issue. */
function oracle(value: unknown) {
  const parsed = EventSchemas.safeParse(value)
  if (parsed.success) return 'accepted'
  const issue = parsed.error.issues[0]
  return { path: issue?.path.join('.'), message: issue?.message }
}

function ours(type: EventType, value: unknown) {
  const misfit = eventShapes[type](value)
  return misfit ? { path: misfit.path.join('.'), message: misfit.message } : 'accepted'
}

// The hot events keep their own shorter wording (pinned in events.test.ts): only the verdict counts there.
const handChecked = new Set(['TEXT_MESSAGE_CONTENT', 'REASONING_MESSAGE_CONTENT', 'TOOL_CALL_ARGS', 'STATE_DELTA'])

function refusal(value: unknown): string | undefined {
  try {
    checkedType(value)
    return undefined
  } catch (error) {
    if (!(error instanceof AgentStoreError) || error.code !== 'INVALID_EVENT') throw error
    return error.message
  }
}

describe.each(eventTypes)('%s', (type) => {
  it('is accepted or refused as the schemas do, at the same path and in the same words', () => {
    const outcomes = { accepted: 0, refused: 0 }
    fc.assert(
      fc.property(eventOf(type), (event) => {
        const expected = oracle(event)
        expect(ours(type, event)).toStrictEqual(expected)
        outcomes[expected === 'accepted' ? 'accepted' : 'refused']++
      }),
      { numRuns: runs },
    )
    // Both verdicts were exercised, not only one.
    expect(outcomes.accepted).toBeGreaterThan(runs / 20)
    expect(outcomes.refused).toBeGreaterThan(runs / 20)
  })

  it('reaches the store with the same verdict, and for a shape-checked type the same message', () => {
    fc.assert(
      fc.property(eventOf(type), (event) => {
        const expected = oracle(event)
        const message = refusal(event)
        if (expected === 'accepted') expect(message).toBeUndefined()
        else if (handChecked.has(type)) expect(message).toMatch(new RegExp(`^Malformed ${type} event`))
        else expect(message).toBe(`Malformed ${type} event${expected.path ? ` at ${expected.path}` : ''}: ${expected.message}`)
      }),
      { numRuns: runs },
    )
  })

  it('refuses what is not an object, as the schemas do', () => {
    fc.assert(
      fc.property(
        anything.filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)),
        (value) => {
          expect(EventSchemas.safeParse(value).success).toBe(false)
          expect(ours(type, value)).toMatchObject({ path: '', message: expect.stringMatching(/^Invalid input: expected object, received /) })
        },
      ),
      { numRuns: 20 },
    )
  })
})
