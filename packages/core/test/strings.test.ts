import { describe, expect, it } from 'vitest'
import { createPartialJsonReader } from '../src/json/partial-json'

describe('the partial-JSON reader on a long string in tiny pieces', () => {
  it('shows every prefix of a 20,000-character value streamed one character at a time, then the next key', () => {
    const document = Array.from({ length: 20_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('')
    const json = JSON.stringify({ document, title: 'done' })
    const reader = createPartialJsonReader()
    let shown = 0
    for (let i = 0; i < json.length; i++) {
      reader.push(json[i]!)
      const value = reader.argument('document')
      const expected = document.slice(0, Math.max(0, Math.min(document.length, i + 1 - '{"document":"'.length)))
      if (i >= '{"document":"'.length && i % 1_237 === 0) {
        expect(value).toBe(expected)
        shown++
      }
    }
    expect(shown).toBeGreaterThan(10)
    expect(reader.value).toStrictEqual({ document, title: 'done' })
  })
})
