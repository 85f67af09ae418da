import { EventSchemas } from '@ag-ui/core/schemas'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkHotEvent } from '../src/snapshot/event-check'

// Values that hit every rule: right and wrong types, null, undefined, edge numbers, pointers.
const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0.5, Number.NaN, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 6 }),
  fc.constantFrom('', '/a', '/a~1b', '/a~2', 'a', '/~', '/0/-', '//'),
  fc.constant({}),
  fc.constant([]),
  fc.constant({ k: 1 }),
)
// Mostly valid, sometimes anything: so both acceptance and every kind of rejection are common.
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: anything, weight: 1 })
const maybe = <T>(valid: fc.Arbitrary<T>) => fc.option(mostly(valid), { nil: undefined, freq: 2 })
const text = fc.string({ maxLength: 6 })
const pointerText = fc.constantFrom('', '/a', '/a~1b', '/0', '/a/-')
const base = {
  timestamp: maybe(fc.integer()),
  rawEvent: maybe(fc.constantFrom({}, 'raw', 0)),
  metadata: maybe(fc.constant({ k: 1 })),
  subagentRunId: maybe(text),
}
const operation = mostly(
  fc.record(
    {
      op: mostly(fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test')),
      path: mostly(pointerText),
      from: mostly(pointerText),
      value: mostly(fc.jsonValue({ maxDepth: 1 })),
    },
    { requiredKeys: ['op', 'path'] },
  ),
)
const events = fc.oneof(
  fc.record({ type: fc.constant('TEXT_MESSAGE_CONTENT'), messageId: mostly(text), delta: mostly(text), ...base }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('TOOL_CALL_ARGS'), toolCallId: mostly(text), delta: mostly(text), ...base }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('STATE_DELTA'), delta: mostly(fc.array(operation, { maxLength: 3 })), ...base }, { requiredKeys: ['type'] }),
)

describe('the hand-written checks of the three hottest events', () => {
  it('accept exactly what @ag-ui/core schemas accept', () => {
    let accepted = 0
    fc.assert(
      fc.property(events, (event) => {
        const schema = EventSchemas.safeParse(event).success
        const ours = checkHotEvent(event.type, event as Record<string, unknown>) === undefined
        expect(ours).toBe(schema)
        if (schema) accepted++
      }),
      { numRuns: 3000 },
    )
    // Both outcomes were exercised, not only rejections.
    expect(accepted).toBeGreaterThan(300)
  })

  it('leave every other event type to the schemas', () => {
    expect(checkHotEvent('STATE_SNAPSHOT', { type: 'STATE_SNAPSHOT', snapshot: {} })).toBeNull()
  })
})
