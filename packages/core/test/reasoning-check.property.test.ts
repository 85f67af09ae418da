// REASONING_MESSAGE_CONTENT streams by the token like text, so checkedType checks it by hand with
// TEXT_MESSAGE_CONTENT's rules: it must accept exactly what @ag-ui/core's schema accepts.
import { EventSchemas } from '@ag-ui/core/schemas'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { checkedType } from '../src/snapshot/reduce-event'

const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0.5, Number.NaN, 2 ** 53, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 6 }),
  fc.constant({}),
  fc.constant([]),
  fc.constant({ k: 1 }),
)
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: anything, weight: 1 })
const maybe = <T>(valid: fc.Arbitrary<T>) => fc.option(mostly(valid), { nil: undefined, freq: 2 })
const text = fc.string({ maxLength: 6 })
const event = fc.record(
  {
    type: fc.constant('REASONING_MESSAGE_CONTENT'),
    messageId: mostly(text),
    delta: mostly(text),
    timestamp: maybe(fc.integer()),
    rawEvent: maybe(fc.constantFrom({}, 'raw', 0)),
    metadata: maybe(fc.constant({ k: 1 })),
    subagentRunId: maybe(text),
  },
  { requiredKeys: ['type'] },
)

const accepts = (value: unknown) => {
  try {
    return checkedType(value) !== undefined
  } catch {
    return false
  }
}

it('checkedType accepts exactly the REASONING_MESSAGE_CONTENT events the schema accepts', () => {
  let accepted = 0
  fc.assert(
    fc.property(event, (value) => {
      const schema = EventSchemas.safeParse(value).success
      expect(accepts(value)).toBe(schema)
      if (schema) accepted++
    }),
    { numRuns: 3000 },
  )
  expect(accepted).toBeGreaterThan(300)
})
