import { EventType as ProtocolEventType, mergeMetadata as protocolMergeMetadata } from '@ag-ui/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EventType, mergeMetadata } from '../src/event-types'

// The store's own copies of @ag-ui/core's run-time values (so an app does not load its zod
// schemas), held equal to the originals.

describe('the event types and metadata merge the store carries itself', () => {
  it('names every AG-UI event type with the value @ag-ui/core gives it', () => {
    expect({ ...EventType }).toEqual({ ...ProtocolEventType })
    expect(Object.keys(EventType)).toHaveLength(31)
  })

  it('merges metadata as @ag-ui/core does, without touching either side', () => {
    const metadata = fc.option(fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.jsonValue()), { nil: undefined })
    fc.assert(
      fc.property(metadata, metadata, (existing, incoming) => {
        const before = structuredClone({ existing, incoming })
        const merged = mergeMetadata(existing, incoming)
        expect(merged).toEqual(protocolMergeMetadata(existing, incoming))
        expect({ existing, incoming }).toEqual(before)
        if (incoming === undefined) expect(merged).toBe(existing)
        else expect(merged).not.toBe(incoming)
      }),
      { numRuns: 300 },
    )
  })
})
