// The saved conversation tree writes a part it has written before (in the snapshot or earlier in the
// tree) as the path of that place. Over generated states whose versions share random parts, a save
// read back is equal to what was saved, the parts that were one object are one object again, and a
// reference to a place that is gone is damage, never a silent hole.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Model } from '../../src/machine/model'
import { decodeModel, encodeModel } from '../../src/persistence/model-codec'

const runs = Number(process.env.FUZZ_RUNS ?? 200)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, 1.5, 'text'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value

/** Every object and array in a value, depth first. */
function partsOf(value: unknown, into: object[] = []): object[] {
  if (typeof value !== 'object' || value === null) return into
  into.push(value)
  for (const item of Object.values(value)) partsOf(item, into)
  return into
}

/** A state that reuses some parts of `base` as they are (one object in both) and holds new ones elsewhere. */
const versionOf = (base: Json, picks: number[], fresh: Json[]) => {
  const parts = partsOf(base)
  return { reused: picks.map((pick) => (parts.length === 0 ? null : parts[pick % parts.length])), fresh }
}

/** A model-shaped value: the state in the snapshot, and a tree whose versions share parts with it and with each other. */
const saved = fc
  .record({
    state: json,
    versions: fc.array(fc.record({ picks: fc.array(fc.nat(), { maxLength: 4 }), fresh: fc.array(json, { maxLength: 2 }) }), { maxLength: 4 }),
  })
  .map(({ state, versions }) => {
    const shelved: Record<string, unknown> = {}
    versions.forEach(({ picks, fresh }, index) => {
      const version = versionOf(state, picks, fresh)
      // A later version may reuse what an earlier one holds, as branches of branches do.
      shelved[`v${index}`] = { state: version, earlier: index > 0 ? shelved[`v${index - 1}`] : null }
    })
    return { snapshot: { state, committed: state }, tree: { sent: {}, versions: {}, shelved } } as unknown as Model<unknown>
  })

const throughJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown

describe('the saved tree: parts written once', () => {
  it('reads back equal, and a part that was one object is one object again', () => {
    fc.assert(
      fc.property(saved, (model) => {
        const read = decodeModel(throughJson(encodeModel(model)))
        expect(read).toStrictEqual(model)
        const shelved = model.tree!.shelved as unknown as Record<string, { state: { reused: unknown[] } }>
        const readShelved = read.tree!.shelved as unknown as Record<string, { state: { reused: unknown[] } }>
        for (const [key, branch] of Object.entries(shelved)) {
          branch.state.reused.forEach((part, index) => {
            if (typeof part !== 'object' || part === null || Object.keys(part).length === 0) return
            // The same object in the snapshot and in the tree, after the read as before the save.
            const at = partsOf(model.snapshot.state).indexOf(part)
            if (at !== -1) expect(readShelved[key]!.state.reused[index]).toBe(partsOf(read.snapshot.state)[at])
          })
        }
      }),
      { numRuns: runs },
    )
  })

  it('writes a reused part once: the save is no longer than the snapshot and the new parts', () => {
    const state = { rows: Array.from({ length: 200 }, (_, id) => ({ id, text: `row ${id}` })) }
    const shelved = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`v${index}`, { state: { ...state, note: index } }]))
    const model = { snapshot: { state }, tree: { sent: {}, versions: {}, shelved } } as unknown as Model<unknown>
    const written = JSON.stringify(encodeModel(model)).length
    expect(written).toBeLessThan(2 * JSON.stringify(state).length)
    expect(decodeModel(throughJson(encodeModel(model)))).toStrictEqual(model)
  })

  it('a reference to a place that is not in the save is damage: decoding throws', () => {
    const part = { kept: 'once' }
    const model = { snapshot: { state: { part } }, tree: { sent: {}, versions: {}, shelved: { v0: { state: { part } } } } } as unknown as Model<unknown>
    const written = throughJson(encodeModel(model)) as { snapshot: { state: Record<string, unknown> } }
    delete written.snapshot.state.part
    expect(() => decodeModel(written)).toThrow(TypeError)
  })
})
