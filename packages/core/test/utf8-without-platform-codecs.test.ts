import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeUtf8, encodeUtf8 } from '../src/transport/utf8'

// The UTF-8 codec the transport falls back on where the platform has none (React Native before
// 0.85 has no TextDecoder), held equal to the platform's own on any input.

const platformDecode = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)

/** Bytes near the edges of UTF-8: leads, continuations, overlongs, surrogates, past U+10FFFF. */
const edgyByte = fc.constantFrom(0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff)

describe('UTF-8 without the platform codecs', () => {
  it('decodes any bytes as TextDecoder does, bad sequences replaced the same way', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.array(edgyByte, { maxLength: 24 }).map((list) => Uint8Array.from(list)),
    )
    fc.assert(
      fc.property(bytes, (input) => {
        expect(decodeUtf8(input)).toBe(platformDecode(input))
      }),
      { numRuns: 3000 },
    )
  })

  it('encodes any string as TextEncoder does, lone surrogates included', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\ud800', '\udc00'), maxLength: 20 }),
    )
    fc.assert(
      fc.property(text, (input) => {
        expect(Array.from(encodeUtf8(input))).toEqual(Array.from(new TextEncoder().encode(input)))
      }),
      { numRuns: 3000 },
    )
  })

  it('round-trips text longer than one flush of code points, a BOM at the start kept', () => {
    const text = `\ufeff${'añ😀'.repeat(5000)}`
    expect(decodeUtf8(encodeUtf8(text))).toBe(text)
    expect(decodeUtf8(new Uint8Array([0xe2, 0x82]))).toBe('\ufffd')
    expect(decodeUtf8(new Uint8Array([0xf0, 0x9f, 0x98, 0x41]))).toBe('\ufffdA')
  })
})
