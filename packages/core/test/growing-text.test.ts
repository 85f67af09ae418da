import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { appendText, GrowingText } from '../src/json/growing-text'

const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 100

// Pieces of one to four characters, the size of a model's tokens, any code unit included.
const piece = fc.string({ minLength: 1, maxLength: 4, unit: 'binary' })

describe('appendText', () => {
  it('is previous + piece, across the lengths where it flattens', () => {
    let text = 'x'.repeat(4090)
    let naive = text
    for (let i = 0; i < 5_000; i++) {
      const next = String(i % 10)
      text = appendText(text, next)
      naive += next
      if (text.length === 4096 || text.length === 8192) expect(text).toBe(naive)
    }
    expect(text).toBe(naive)
  })
})

describe('GrowingText', () => {
  it('returns exactly what was appended since the last reset, whatever the pieces', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 300, arbitrary: piece }, { weight: 1, arbitrary: fc.constant(null) }), { minLength: 260, maxLength: 1_500 }),
        (steps) => {
          const growing = new GrowingText()
          let naive = ''
          for (const step of steps) {
            if (step === null) {
              growing.reset()
              naive = ''
              continue
            }
            naive += step
            expect(growing.append(step)).toBe(naive)
          }
        },
      ),
      { numRuns: NUM_RUNS },
    )
  })

  it('keeps its text through many tails and doublings (100,000 pieces, 400,000 characters)', () => {
    const growing = new GrowingText()
    let naive = ''
    let text = ''
    for (let i = 0; i < 100_000; i++) {
      const next = `${i % 7}a${i % 3}b`
      naive += next
      text = growing.append(next)
      if (i % 9_973 === 0) expect(text).toBe(naive)
    }
    expect(text.length).toBe(400_000)
    expect(text).toBe(naive)
  })

  it('starts again from nothing, whatever it held', () => {
    const growing = new GrowingText()
    for (let i = 0; i < 300; i++) growing.append('ab')
    growing.reset()
    expect(growing.append('x')).toBe('x')
    expect(growing.append('yz')).toBe('xyz')
  })
})
