// A restored thread's messages, tools, context and resume entries are checked with the store's own
// shapes (src/state/protocol-shapes.ts). @ag-ui/core's zod schemas are the oracle: on generated
// parts, valid and invalid, both give the same verdict and name the same first problem.
import { ContextSchema, MessageSchema, ResumeEntrySchema, ToolSchema } from '@ag-ui/core/schemas'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { context, message, resumeEntry, type Shape, tool } from '../../src/state/protocol-shapes'
import { anything, context as contextValue, message as messageValue, resumeEntry as resumeValue, tool as toolValue } from '../support/protocol-values'

const runs = Number(process.env.FUZZ_RUNS ?? 1000)

interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }
}

const parts: [string, Shape, Schema, fc.Arbitrary<unknown>][] = [
  ['a message', message, MessageSchema, messageValue],
  ['a tool', tool, ToolSchema, toolValue],
  ['a context entry', context, ContextSchema, contextValue],
  ['a resume entry', resumeEntry, ResumeEntrySchema, resumeValue],
]

describe.each(parts)('%s', (_name, shape, schema, values) => {
  it('is accepted or refused as the schema does, at the same path and in the same words', () => {
    const outcomes = { accepted: 0, refused: 0 }
    fc.assert(
      fc.property(fc.oneof({ arbitrary: values, weight: 9 }, { arbitrary: anything, weight: 1 }), (value) => {
        const parsed = schema.safeParse(value)
        const expected = parsed.success ? 'accepted' : { path: parsed.error.issues[0]?.path.join('.'), message: parsed.error.issues[0]?.message }
        const misfit = shape(value)
        expect(misfit ? { path: misfit.path.join('.'), message: misfit.message } : 'accepted').toStrictEqual(expected)
        outcomes[parsed.success ? 'accepted' : 'refused']++
      }),
      { numRuns: runs },
    )
    expect(outcomes.accepted).toBeGreaterThan(runs / 10)
    expect(outcomes.refused).toBeGreaterThan(runs / 10)
  })
})
