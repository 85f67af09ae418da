// The partial-JSON reader: what it shows of a document still arriving (strings at once, numbers and
// literals once complete), its errors and their positions, end(), the byte order mark, structural
// sharing, argument() and selectArgument, and the recorded prediction traces it reproduces.
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createPartialJsonReader, type PartialJsonReader, selectArgument } from '../src/json/partial-json'
import { recordings } from './recordings'

/** Feeds the chunks one by one; returns the value and push() result after each. */
function feed(chunks: readonly string[], reader: PartialJsonReader = createPartialJsonReader()) {
  const steps = chunks.map((chunk) => {
    const changed = reader.push(chunk)
    return { changed, value: reader.value }
  })
  return { reader, steps, values: steps.map((step) => step.value), changed: steps.map((step) => step.changed) }
}

const read = (...chunks: string[]) => feed(chunks)
const valueOf = (...chunks: string[]) => feed(chunks).reader.value
/** The error for the character at `at` of the whole input. */
const unexpected = (text: string, at: number) => `Unexpected ${JSON.stringify(text[at])} at position ${at} of the JSON input`
/** Each text, read in one chunk, fails at the character `at`. */
function expectFailsAt(cases: readonly (readonly [text: string, at: number])[]) {
  for (const [text, at] of cases) expect(read(text).reader.error?.message, text).toBe(unexpected(text, at))
}

describe('partial strings', () => {
  it('shows a string cut off mid-way as its prefix', () => {
    expect(valueOf('{"document": "Once upo')).toEqual({ document: 'Once upo' })
    expect(valueOf('{"steps":[{"description":"Bo')).toEqual({ steps: [{ description: 'Bo' }] })
    expect(valueOf('"top-le')).toBe('top-le')
  })

  it('grows the string chunk by chunk and reports each growth', () => {
    const { steps, reader } = feed(['{"document": "Once', ' upon', ' a time"', '}'])
    expect(steps).toEqual([
      { changed: true, value: { document: 'Once' } },
      { changed: true, value: { document: 'Once upon' } },
      { changed: true, value: { document: 'Once upon a time' } },
      { changed: false, value: { document: 'Once upon a time' } },
    ])
    expect(reader.done).toBe(true)
  })

  it('shows a string as soon as its opening quote arrives', () => {
    expect(feed(['{"a":', ' ', '"', 'x']).values).toEqual([{}, {}, { a: '' }, { a: 'x' }])
    expect(feed(['["', 'x', '", "', 'y']).values).toEqual([[''], ['x'], ['x', ''], ['x', 'y']])
  })

  it('an empty chunk inside a string changes nothing', () => {
    const reader = createPartialJsonReader()
    expect(reader.push('{"a":"x')).toBe(true)
    const before = reader.value
    expect(reader.push('')).toBe(false)
    expect(reader.value).toBe(before)
    expect(reader.argument('a')).toBe('x')
  })

  it('a control character alone in a chunk is an error, not text', () => {
    for (const control of ['\u0000', '\u0001', '\u001f']) {
      const reader = createPartialJsonReader()
      reader.push('{"a":"x')
      expect(reader.push(control)).toBe(false)
      expect(reader.error).toBeInstanceOf(SyntaxError)
      expect(reader.value).toStrictEqual({ a: 'x' })
    }
    const space = read('"x', ' ', '\u007f', '"').reader
    expect(space.value).toBe('x \u007f')
    expect(space.error).toBeUndefined()
  })

  it('closing quote of a top-level string reports no change when the text is already shown', () => {
    const { changed, reader } = read('"ab', '"', ' ')
    expect(changed).toStrictEqual([true, false, false])
    expect(reader.value).toBe('ab')
    expect(reader.done).toBe(true)
    const grown = read('"ab', 'cd', '"')
    expect(grown.changed).toStrictEqual([true, true, false])
    expect(grown.reader.value).toBe('abcd')
  })

  it('a high surrogate at either end of the range waits for its pair, alone in a chunk or not', () => {
    for (const [high, low] of [
      ['\uD800', '\uDC00'],
      ['\uDBFF', '\uDFFF'],
      ['\uD83D', '\uDE00'],
    ] as const) {
      const alone = createPartialJsonReader()
      alone.push('{"s":"a')
      expect(alone.push(high)).toBe(false)
      expect(alone.value).toStrictEqual({ s: 'a' })
      expect(alone.argument('s')).toBe('a')
      expect(alone.push(low)).toBe(true)
      expect(alone.value).toStrictEqual({ s: `a${high}${low}` })
      const mixed = read(`["a${high}`, `${low}b"]`).reader
      expect(mixed.value).toStrictEqual([`a${high}${low}b`])
      const whole = read(`["a${high}${low}`).reader
      expect(whole.value).toStrictEqual([`a${high}${low}`])
    }
  })

  it('a low surrogate or the character after the range shows at once', () => {
    for (const code of ['\uDC00', '\uDFFF', '\uE000', '\uD7FF']) {
      const reader = createPartialJsonReader()
      reader.push('["a')
      expect(reader.push(code)).toBe(true)
      expect(reader.value).toStrictEqual([`a${code}`])
    }
  })

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

  describe('plain text inside a string (shown at once, handed to the tokenizer later)', () => {
    const feed = (chunks: string[]) => {
      const reader = createPartialJsonReader()
      return chunks.map((chunk) => (reader.push(chunk), structuredClone(reader.value)))
    }

    it('grows the string chunk by chunk and ends equal to JSON.parse', () => {
      const values = feed(['{"d":"ab', 'cd', 'ef', '"}'])
      expect(values).toEqual([{ d: 'ab' }, { d: 'abcd' }, { d: 'abcdef' }, { d: 'abcdef' }])
    })

    it('waits for the pair of a high surrogate escape, and for a lone one, before plain text', () => {
      expect(feed(['{"d":"x\\ud83d', '\\ude00', 'y"}']).at(-1)).toEqual({ d: 'x😀y' })
      const lone = feed(['{"d":"\\ud800', '/', 'z"}'])
      expect(lone.at(-1)).toEqual(JSON.parse('{"d":"\\ud800/z"}'))
      for (const value of lone) expect(JSON.parse('"\\ud800/z"').startsWith((value as { d?: string }).d ?? '')).toBe(true)
    })
  })
})

describe('escapes', () => {
  // The string `a😀b<LF>"\/c` written with every kind of escape, as the units that make it up.
  const units: [raw: string, decoded: string][] = [
    ['a', 'a'],
    ['\\ud83d\\ude00', '\u{1F600}'],
    ['\\u00e9', 'é'],
    ['b', 'b'],
    ['\\n', '\n'],
    ['\\"', '"'],
    ['\\\\', '\\'],
    ['\\/', '/'],
    ['\\t', '\t'],
    ['c', 'c'],
  ]
  const raw = units.map(([r]) => r).join('')
  const decoded = units.map(([, d]) => d).join('')
  const head = '{"s":"'
  const doc = `${head}${raw}"}`

  // What a reader may show after `length` characters of the string's raw text: every unit that
  // is complete by then, so a surrogate pair shows only whole and an escape never half-decoded.
  function expectedAfter(length: number): string {
    let shown = ''
    let end = 0
    for (const [r, d] of units) {
      end += r.length
      if (end > length) break
      shown += d
    }
    return shown
  }

  it('decodes the whole string', () => {
    expect(JSON.parse(doc)).toEqual({ s: decoded })
    expect(valueOf(doc)).toEqual({ s: decoded })
  })

  it('holds back an escape cut at any position, in two chunks', () => {
    for (let cut = head.length; cut <= head.length + raw.length; cut++) {
      const { values, reader } = feed([doc.slice(0, cut), doc.slice(cut)])
      expect(values[0], `cut at ${cut}: ${doc.slice(0, cut)}`).toEqual({ s: expectedAfter(cut - head.length) })
      expect(values[1]).toEqual({ s: decoded })
      expect(reader.done).toBe(true)
    }
  })

  it('holds back escapes in one-character chunks', () => {
    const chunks = [...doc]
    const { values } = feed(chunks)
    values.forEach((value, i) => {
      const length = i + 1 - head.length
      if (length < 0) expect(value).toEqual({})
      else if (length <= raw.length) expect(value).toEqual({ s: expectedAfter(length) })
      else expect(value).toEqual({ s: decoded })
    })
  })

  it('counts backslash runs: an escaped backslash before a cut is complete', () => {
    expect(feed(['{"s":"x\\\\', '\\n"}']).values).toEqual([{ s: 'x\\' }, { s: 'x\\\n' }])
    expect(feed(['{"s":"x\\\\\\', 'n"}']).values).toEqual([{ s: 'x\\' }, { s: 'x\\\n' }])
    expect(feed(['{"s":"\\\\u12', '34"}']).values).toEqual([{ s: '\\u12' }, { s: '\\u1234' }])
    expect(feed(['{"s":"\\b', 'ad"}']).values).toEqual([{ s: '\b' }, { s: '\bad' }])
  })

  it('holds back a raw surrogate pair split between chunks', () => {
    const emoji = '\u{1F600}'
    expect(feed(['{"s":"a' + emoji[0], emoji[1] + 'b"}']).values).toEqual([{ s: 'a' }, { s: `a${emoji}b` }])
  })

  it('keeps a lone surrogate escape as JSON.parse does', () => {
    const text = '["\\ud800x", "\\udc00", "\\ud83d\\n"]'
    for (let cut = 1; cut < text.length; cut++) {
      expect(feed([text.slice(0, cut), text.slice(cut)]).reader.value).toEqual(JSON.parse(text))
    }
  })

  it('decodes escapes in keys', () => {
    const text = '{"a\\nb\\u00e9": 1}'
    for (let cut = 1; cut < text.length; cut++) {
      expect(feed([text.slice(0, cut), text.slice(cut)]).reader.value).toEqual({ 'a\nbé': 1 })
    }
  })

  it('decodes every simple escape and hex digits of either case', () => {
    const text = '["\\"\\\\\\/\\b\\f\\n\\r\\t\\u00E9\\u00e9\\uABCD\\u0009"]'
    expect(read(text).reader.value).toStrictEqual(JSON.parse(text))
    for (let cut = 1; cut < text.length; cut++) {
      expect(read(text.slice(0, cut), text.slice(cut)).reader.value, `cut ${cut}`).toStrictEqual(JSON.parse(text))
    }
    expect(read('"\\a"').reader.error?.message).toBe('Unexpected "\\\\" at position 1 of the JSON input')
    expect(read('"\\u00"').reader.error?.message).toBe('Unexpected "\\\\" at position 1 of the JSON input')
  })

  it('an escape cut off at the end of a chunk fails at once when it is already wrong', () => {
    for (const [bad, position] of [
      ['"\\uG', 1],
      ['"\\u1G', 1],
      ['"\\u12G', 1],
      ['"ab\\x', 3],
    ] as const) {
      const { reader } = read(bad)
      expect(reader.error?.message, bad).toBe(`Unexpected "\\\\" at position ${position} of the JSON input`)
    }
    for (const held of ['"\\', '"\\u', '"\\u1', '"\\u12', '"\\u12a', '"\\uAbC']) {
      const { reader } = read(held)
      expect(reader.error, held).toBeUndefined()
      expect(reader.value).toBe('')
    }
  })

  it('a high surrogate escape waits for a cut-off low one, and only then', () => {
    for (const tail of ['\\', '\\u', '\\ude', '\\uDE0']) {
      const reader = createPartialJsonReader()
      reader.push(`["a\\ud83d${tail}`)
      expect(reader.value, tail).toStrictEqual(['a'])
      reader.push(`\\ude00`.slice(tail.length))
      expect(reader.value).toStrictEqual(['a\u{1F600}'])
    }
    // Not an escape that could be the pair: the high one shows alone, as JSON.parse keeps it.
    for (const [tail, shown] of [
      ['\\n', '\n'],
      ['b', 'b'],
      ['\\u0041', 'A'],
    ]) {
      const reader = createPartialJsonReader()
      reader.push(`["a\\ud83d${tail}`)
      expect(reader.value, tail).toStrictEqual([`a\uD83D${shown}`])
    }
    const ended = read('["a\\ud83d\\ude00').reader
    expect(ended.value).toStrictEqual(['a\u{1F600}'])
  })
})

describe('what is held back', () => {
  it('shows a container as soon as it opens', () => {
    expect(feed(['{', '"a": [', '{', '}, [']).values).toEqual([{}, { a: [] }, { a: [{}] }, { a: [{}, []] }])
  })

  it('does not show a key until its value starts', () => {
    expect(feed(['{"docu', 'ment"', ':', ' ', '"']).values).toEqual([{}, {}, {}, {}, { document: '' }])
    expect(feed(['{"a": 1, "b', '"', ': ', 'true']).values).toEqual([{ a: 1 }, { a: 1 }, { a: 1 }, { a: 1, b: true }])
  })

  it.each([
    ['an integer that may continue', '12', '3', 123],
    ['a lone minus', '-', '4', -4],
    ['a number ending in a dot', '1.', '5', 1.5],
    ['a number ending in e', '1e', '3', 1000],
    ['a number ending in e+', '2E+', '2', 200],
    ['a negative fraction', '-0.2', '5', -0.25],
  ])('holds back %s until a delimiter arrives', (_, first, second, final) => {
    const { reader, values } = feed([`{"n": ${first}`, second])
    expect(values).toEqual([{}, {}])
    for (const delimiter of [',', '}', ' ', '\n']) {
      const copy = feed([`{"n": ${first}`, second, delimiter])
      expect(copy.reader.value).toEqual({ n: final })
      expect(copy.steps[2]!.changed).toBe(true)
    }
    expect(feed([`[${first}`, `${second}]`]).reader.value).toEqual([final])
    expect(reader.error).toBeUndefined()
  })

  it.each([
    ['true', true],
    ['false', false],
    ['null', null],
  ])('holds back an unfinished %s and shows it once spelled out', (literal, value) => {
    for (let cut = 1; cut < literal.length; cut++) {
      const { values } = feed([`{"a": [1, ${literal.slice(0, cut)}`, `${literal.slice(cut)}`])
      expect(values).toEqual([{ a: [1] }, { a: [1, value] }])
    }
  })

  it('completes a top-level number only at end()', () => {
    const reader = createPartialJsonReader()
    expect(reader.push('4')).toBe(false)
    expect(reader.push('2')).toBe(false)
    expect(reader.value).toBeUndefined()
    expect(reader.done).toBe(false)
    expect(reader.end()).toBe(true)
    expect(reader.value).toBe(42)
    expect(reader.done).toBe(true)
    expect(reader.error).toBeUndefined()
  })
})

describe('numbers and literals', () => {
  it('reads every digit in every part of a number', () => {
    for (const text of ['9', '19', '90', '-9', '0.9', '0.09', '9.9', '1e9', '1E9', '1e-9', '1.5E9', '0E9', '-0.0e+0', '123456789']) {
      const { reader } = read(`[${text},1]`)
      expect(reader.error, text).toBeUndefined()
      expect(reader.value, text).toStrictEqual([Number(text), 1])
    }
  })

  it('rejects what the number grammar does not take', () => {
    expectFailsAt([
      ['[-01]', 3],
      ['[00]', 2],
      ['[-a]', 2],
      ['[1e5e]', 4],
      ['[1e3.0]', 4],
      ['[1.2.3]', 4],
      ['[0.e1]', 3],
      ['[1e+-1]', 4],
      ['[-+1]', 2],
      ['[1.-1]', 3],
      ['[1.5+]', 4],
      ['[0+]', 2],
      ['[0-]', 2],
      ['[12-]', 3],
    ])
  })

  it('an unfinished number at end() is an error, a finished one a value', () => {
    for (const text of ['-', '1.', '1e', '1e-', '1E+']) {
      const reader = read(text).reader
      expect(reader.end(), text).toBe(false)
      expect(reader.value).toBeUndefined()
      expect(reader.error?.message).toBe('Unexpected end of JSON input')
    }
    for (const text of ['0', '-0', '3', '0.5', '1e2']) {
      const reader = read(text).reader
      expect(reader.end(), text).toBe(true)
      expect(reader.value).toBe(Number(text))
      expect(reader.done).toBe(true)
      expect(reader.error).toBeUndefined()
    }
  })

  it('a number ends at any delimiter, in the same chunk or the next', () => {
    expect(read('{"a":1}').reader.value).toStrictEqual({ a: 1 })
    expect(read('{"a":1', '}').reader.value).toStrictEqual({ a: 1 })
    expect(read('[1', ']').changed).toStrictEqual([true, true])
    expect(read('[1 ', ']').changed).toStrictEqual([true, false])
  })

  it('each literal has its own value and a wrong letter anywhere fails there', () => {
    expect(read('[true,false,null]').reader.value).toStrictEqual([true, false, null])
    expectFailsAt([
      ['[trUe]', 3],
      ['[fals]', 5],
      ['[nulll]', 5],
      ['[n]', 2],
      ['[x]', 1],
    ])
    // A literal cut short is not yet wrong.
    const { reader } = read('[t')
    expect(reader.error).toBeUndefined()
    expect(reader.value).toStrictEqual([])
  })

  it('literals show once complete', () => {
    const { reader, changed } = read('[tr', 'ue,fal', 'se,nu', 'll]')
    expect(changed).toStrictEqual([true, true, true, true])
    expect(reader.value).toStrictEqual([true, false, null])
  })

  it('accepts every number form JSON has', () => {
    for (const text of ['0', '-0', '7', '-12', '0.5', '-0.25', '1e3', '1E3', '2e-2', '2e+2', '0e1', '1.5e2', '10']) {
      const { reader } = read(`[${text}]`)
      reader.end()
      expect(reader.error, text).toBeUndefined()
      expect(reader.value).toStrictEqual([Number(text)])
      const top = read(text).reader
      top.end()
      expect(top.value).toBe(Number(text))
    }
  })
})

describe('structure', () => {
  it('a key in an array, a colon outside an object and closers out of place fail where they are', () => {
    expectFailsAt([
      ['["a":1]', 4],
      ['[1:', 2],
      ['{"a":1:', 6],
      ['{"a"}', 4],
      ['{"a":}', 5],
      ['{"a":1]', 6],
      ['[1}', 2],
      ['[}', 1],
      ['{]', 1],
      ['{"a",', 4],
      ['[1,,', 3],
      ['}', 0],
      [']', 0],
      ['1]', 1],
      [':', 0],
      [',', 0],
      ['{"a":1} ,', 8],
      ['{"a":1}}', 7],
      ['[]]', 2],
      ['"a"x', 3],
    ])
  })

  it('empty and nested containers close where they should', () => {
    for (const text of ['[]', '{}', '[[]]', '[{}]', '{"a":[]}', '{"a":{}}', '[[],[]]', '{"a":{},"b":[]}', '[1,[2,[3]],4]']) {
      const { reader } = read(text)
      expect(reader.error, text).toBeUndefined()
      expect(reader.done, text).toBe(true)
      expect(reader.value).toStrictEqual(JSON.parse(text))
    }
  })

  it('whitespace of every kind is skipped', () => {
    const { reader } = read(' \t\r\n[ 1 ,\t2\n]\r ')
    expect(reader.value).toStrictEqual([1, 2])
    expect(reader.error).toBeUndefined()
    expect(reader.done).toBe(true)
  })

  it('depth is the deepest nesting read, 0 for a top-level value', () => {
    expect(read('"x"').reader.depth).toBe(0)
    expect(read('[[], {"a": [[1]]}]').reader.depth).toBe(4)
    expect(read('{"a":{"b":').reader.depth).toBe(2)
  })
})

describe('errors and where they are', () => {
  it('an error names the character and its position in the whole input', () => {
    expect(read('{"a":', ' x}').reader.error?.message).toBe('Unexpected "x" at position 6 of the JSON input')
    expect(read('[1,', '2,', ']').reader.error?.message).toBe('Unexpected "]" at position 5 of the JSON input')
    expect(read('{"a":"b\\q"}').reader.error?.message).toBe('Unexpected "\\\\" at position 7 of the JSON input')
    expect(read('tru', 'e', 'x').reader.error?.message).toBe('Unexpected "x" at position 4 of the JSON input')
    expect(read('"a\nb"').reader.error?.message).toBe('Unexpected "\\n" at position 2 of the JSON input')
  })

  it('an unfinished document fails at end() with the message JSON.parse gives', () => {
    const { reader } = read('{"a":[1')
    expect(reader.end()).toBe(true)
    expect(reader.value).toStrictEqual({ a: [1] })
    expect(reader.error).toBeInstanceOf(SyntaxError)
    expect(reader.error?.message).toBe('Unexpected end of JSON input')
    expect(reader.end()).toBe(false)
    expect(reader.push('2]}')).toBe(false)
  })

  it('rejects what JSON rejects', () => {
    for (const text of ['01', '-', '1.', '1e', '1e+', '.5', '+1', '{"a" 1}', '{,}', '[,]', '{"a":1,}', 'nul', 'truth', '{1:2}', '"\\u12G4"', '[1 2]']) {
      const { reader } = read(text)
      reader.end()
      expect(reader.error, text).toBeInstanceOf(SyntaxError)
    }
  })

  it('a quote where a comma or colon belongs fails', () => {
    expectFailsAt([
      ['{"a" "b":1}', 5],
      ['{"a":1 "b":2}', 7],
      ['[1 "a"]', 3],
      ['["a" "b"]', 5],
    ])
  })

  it('positions count plain chunks appended to an open string', () => {
    expect(read('"ab', 'cd', '\u0001').reader.error?.message).toBe('Unexpected "\\u0001" at position 5 of the JSON input')
    expect(read('{"k":"ab', 'cd', 'ef', '"x').reader.error?.message).toBe('Unexpected "x" at position 13 of the JSON input')
  })

  it('positions count a held escape once, when it is read', () => {
    expect(read('"a\\', 'q').reader.error?.message).toBe('Unexpected "\\\\" at position 2 of the JSON input')
    expect(read('["a\\u00', 'e9", x').reader.error?.message).toBe('Unexpected "x" at position 12 of the JSON input')
  })

  it('positions count the byte order mark as one character of the input', () => {
    expect(read('\uFEFF[x').reader.error?.message).toBe('Unexpected "x" at position 2 of the JSON input')
    expect(read('\uFEFF', '[x').reader.error?.message).toBe('Unexpected "x" at position 2 of the JSON input')
  })

  it.each([
    ['a trailing comma', '{"a": "x"', ', ]'],
    ['a trailing comma in an object', '{"a": 1,', ' }'],
    ['a trailing comma in an array', '[1,', ']'],
    ['a comma before the first member', '[', ',1]'],
    ['a mismatched bracket', '{"a": [1', '}}'],
    ['a key that is not a string', '{', '1: 2}'],
    ['a missing colon', '{"a"', ' 1}'],
    ['a bad literal', '[tru', 'x]'],
    ['a number with garbage', '{"a": 12', 'x}'],
    ['a raw control character in a string', '{"a": "x', '\u0001"}'],
    ['a bad escape', '{"a": "x', '\\q"}'],
    ['a bad unicode escape', '{"a": "x', '\\u12G4"}'],
    ['a second top-level value', '{"a": "x"}', ' {}'],
    ['a leading zero', '[0', '1]'],
  ])('on %s: sets error, keeps the last good value, then stops changing', (_, good, bad) => {
    const reader = createPartialJsonReader()
    reader.push(good)
    const before = reader.value
    expect(reader.push(bad)).toBe(false)
    expect(reader.error).toBeInstanceOf(Error)
    expect(reader.value).toBe(before)
    expect(reader.push('"more"]}')).toBe(false)
    expect(reader.end()).toBe(false)
    expect(reader.value).toBe(before)
  })

  it('rejects the whole chunk that holds the error', () => {
    const { reader, steps } = feed(['{"a": "x"', ', "b": 1, "c": [2] ]'])
    expect(steps[1]).toEqual({ changed: false, value: { a: 'x' } })
    expect(reader.error).toBeInstanceOf(Error)
    expect(reader.done).toBe(false)
  })

  it('reports an unfinished document at end() and keeps its partial value', () => {
    const reader = createPartialJsonReader()
    reader.push('{"a": "xy')
    expect(reader.end()).toBe(false)
    expect(reader.error).toBeInstanceOf(Error)
    expect(reader.value).toEqual({ a: 'xy' })
    expect(reader.done).toBe(false)

    for (const text of ['', '{"a": "x\\', '[1', '-', '{"a"']) {
      const r = createPartialJsonReader()
      r.push(text)
      r.end()
      expect(r.error, JSON.stringify(text)).toBeInstanceOf(Error)
    }
  })
})

describe('done and end()', () => {
  it('is done once the top-level value closes, and only then', () => {
    const { reader, steps } = feed(['{"a": [1, {"b": "c"}', ']', '}', '  \n'])
    expect(steps.map((s) => s.changed)).toEqual([true, false, false, false])
    const again = feed(['{"a": [1, {"b": "c"}', ']'])
    expect(again.reader.done).toBe(false)
    expect(reader.done).toBe(true)
    expect(reader.error).toBeUndefined()
    expect(reader.end()).toBe(false)
    expect(reader.error).toBeUndefined()
  })

  it('is done for a top-level string or literal', () => {
    expect(feed(['"ab', 'c"']).reader.done).toBe(true)
    expect(feed(['nu', 'll']).reader).toMatchObject({ done: true, value: null })
  })

  it('done only once the outermost container closes', () => {
    const reader = createPartialJsonReader()
    reader.push('[[1]')
    expect(reader.done).toBe(false)
    reader.push(']')
    expect(reader.done).toBe(true)
    expect(reader.end()).toBe(false)
    expect(reader.error).toBeUndefined()
  })

  it('end() after a complete document changes nothing and fails nothing; a second end() is ignored', () => {
    const reader = read('[1]').reader
    expect(reader.end()).toBe(false)
    expect(reader.end()).toBe(false)
    expect(reader.error).toBeUndefined()
    expect(reader.push(' ')).toBe(false)
    const empty = createPartialJsonReader()
    expect(empty.end()).toBe(false)
    expect(empty.value).toBeUndefined()
    expect(empty.error?.message).toBe('Unexpected end of JSON input')
  })

  it('end() publishes a string that only the fast path had grown (that push already said it changed)', () => {
    const reader = createPartialJsonReader()
    reader.push('{"a":"x')
    expect(reader.push('yz')).toBe(true)
    expect(reader.end()).toBe(false)
    expect(reader.value).toStrictEqual({ a: 'xyz' })
    expect(reader.error?.message).toBe('Unexpected end of JSON input')
  })

  it('a new reader is not done, has no value, no error and depth 0', () => {
    const reader = createPartialJsonReader()
    expect(reader.done).toBe(false)
    expect(reader.value).toBeUndefined()
    expect(reader.error).toBeUndefined()
    expect(reader.depth).toBe(0)
    expect(reader.argument('a')).toBeUndefined()
  })

  it('plain text after an error inside a string changes nothing', () => {
    const reader = createPartialJsonReader()
    reader.push('{"a":"x')
    expect(reader.push('\u0001')).toBe(false)
    const error = reader.error
    expect(reader.push('more')).toBe(false)
    expect(reader.push('')).toBe(false)
    expect(reader.value).toStrictEqual({ a: 'x' })
    expect(reader.argument('a')).toBe('x')
    expect(reader.error).toBe(error)
    expect(reader.end()).toBe(false)
    expect(reader.error).toBe(error)
  })

  it('input after end() is ignored, even inside a string or where it would be an error', () => {
    const done = read('[1]').reader
    done.end()
    expect(done.push('x')).toBe(false)
    expect(done.error).toBeUndefined()
    expect(done.value).toStrictEqual([1])
    const open = createPartialJsonReader()
    open.push('{"a":"x')
    open.end()
    const error = open.error
    expect(open.push('yz')).toBe(false)
    expect(open.value).toStrictEqual({ a: 'x' })
    expect(open.argument('a')).toBe('x')
    expect(open.error).toBe(error)
  })
})

describe('the byte order mark (U+FEFF)', () => {
  it('is skipped before the document, even after an empty chunk', () => {
    const { reader, changed } = read('', '\uFEFF[1]')
    expect(changed).toStrictEqual([false, true])
    expect(reader.value).toStrictEqual([1])
    expect(reader.error).toBeUndefined()
  })

  it('is an error anywhere else outside a string, and text inside one', () => {
    expect(read(' ', '\uFEFF1').reader.error?.message).toBe('Unexpected "\uFEFF" at position 1 of the JSON input')
    const inString = read('"\uFEFFa"').reader
    expect(inString.value).toBe('\uFEFFa')
  })

  it('keeps it at the start of a key or a value, in any chunking', () => {
    for (const text of ['{"\uFEFFa":1}', '["\uFEFF"]', '{"d":"\uFEFFtext"}', '["a\\\\\uFEFF"]']) {
      for (const size of [1, 2, 100]) {
        const reader = createPartialJsonReader()
        for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size))
        reader.end()
        expect(reader.error).toBeUndefined()
        expect(reader.value).toEqual(JSON.parse(text))
      }
    }
  })

  it('skips one before the document, as @streamparser/json does by design (a byte order mark)', () => {
    const reader = createPartialJsonReader()
    reader.push('\uFEFF{"a":1}')
    reader.end()
    expect(reader.error).toBeUndefined()
    expect(reader.value).toEqual({ a: 1 })
  })
})

describe('values are safe and immutable', () => {
  it('keeps "__proto__" an own key and leaves Object.prototype alone', () => {
    const text = '{"__proto__": {"polluted": true}, "b": {"__proto__": [1, {"__proto__": "xy"}]}, "c": "grow'
    for (let cut = 1; cut < text.length; cut++) {
      const { reader } = feed([text.slice(0, cut), text.slice(cut), 'ing"}'])
      const value = reader.value as Record<string, unknown>
      expect(value).toEqual(JSON.parse(text + 'ing"}'))
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
      expect(Object.hasOwn(value, '__proto__')).toBe(true)
      expect(Object.keys(value)).toEqual(['__proto__', 'b', 'c'])
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it('keeps "__proto__" while a sibling grows (objects are copied, never assigned key by key)', () => {
    const { values } = feed(['{"__proto__": 1, "x": "ab', 'cd', 'ef"}'])
    for (const value of values) {
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
      expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe(1)
    }
    expect(values.map((v) => (v as { x: string }).x)).toEqual(['ab', 'abcd', 'abcdef'])
  })

  it('never changes a value it already returned', () => {
    const { values } = feed(['{"steps": [{"description": "Bu', 'ild"}, {"description": "Tr', 'ain"}], "n": 1}'])
    expect(values).toEqual([
      { steps: [{ description: 'Bu' }] },
      { steps: [{ description: 'Build' }, { description: 'Tr' }] },
      { steps: [{ description: 'Build' }, { description: 'Train' }], n: 1 },
    ])
  })

  it('reads a deeply nested document without recursion', () => {
    const depth = 100_000
    const reader = createPartialJsonReader()
    reader.push('['.repeat(depth))
    reader.push(']'.repeat(depth))
    expect(reader.done).toBe(true)
    let node = reader.value as unknown[]
    let levels = 1
    while (node.length > 0) {
      node = node[0] as unknown[]
      levels++
    }
    expect(levels).toBe(depth)
  })

  it('"__proto__" members are plain data properties', () => {
    for (const text of ['{"__proto__":1}', '{"__proto__":"abc"}', '{"__proto__":{"__proto__":[2]}}']) {
      const value = read(text).reader.value as object
      expect(Object.getOwnPropertyDescriptor(value, '__proto__'), text).toStrictEqual({
        value: Object.getOwnPropertyDescriptor(JSON.parse(text), '__proto__')?.value,
        writable: true,
        enumerable: true,
        configurable: true,
      })
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    }
    const grown = read('{"__proto__":"ab', 'cd"}').reader.value as object
    expect(Object.getOwnPropertyDescriptor(grown, '__proto__')).toStrictEqual({ value: 'abcd', writable: true, enumerable: true, configurable: true })
  })
})

describe('change reports and structural sharing', () => {
  it('push results say whether the value changed', () => {
    const { changed, reader } = read('{"a"', ':', ' ', '1', ',', '"b":"', 'x', '"}', ' ')
    expect(changed).toStrictEqual([true, false, false, false, true, true, true, false, false])
    expect(reader.value).toStrictEqual({ a: 1, b: 'x' })
    expect(reader.done).toBe(true)
  })

  it('keeps the identity of every sibling subtree when only the last string grows', () => {
    const { values } = feed([
      '{"meta": {"tags": ["a"]}, "steps": [{"description": "Build rocket", "status": "enabled"}, {"description": "Train crew"}, {"description": "La',
      'unch',
      ' now',
    ])
    const [first, second, third] = values as { meta: unknown; steps: { description: string }[] }[]
    for (const [prev, next] of [
      [first!, second!],
      [second!, third!],
    ] as const) {
      expect(next).not.toBe(prev)
      expect(next.steps).not.toBe(prev.steps)
      expect(next.meta).toBe(prev.meta)
      expect(next.steps[0]).toBe(prev.steps[0])
      expect(next.steps[1]).toBe(prev.steps[1])
      expect(next.steps[2]).not.toBe(prev.steps[2])
    }
    expect(third!.steps[2]!.description).toBe('Launch now')
  })

  it('keeps completed subtrees when new siblings arrive', () => {
    const { values } = feed(['[{"a": [1, 2]}, ', '{"b": {}}, ', '3, "x', '"]'])
    const arrays = values as unknown[][]
    expect(arrays[1]![0]).toBe(arrays[0]![0])
    expect(arrays[2]![0]).toBe(arrays[0]![0])
    expect(arrays[2]![1]).toBe(arrays[1]![1])
    expect(arrays[3]).toBe(arrays[2])
  })

  it('returns the same reference when a push changes nothing', () => {
    const reader = createPartialJsonReader()
    const unchanged = (chunks: string[]) => {
      const before = reader.value
      for (const chunk of chunks) {
        expect(reader.push(chunk), JSON.stringify(chunk)).toBe(false)
        expect(reader.value).toBe(before)
      }
    }
    reader.push('{"a": {"b": 1}, "c": "x')
    unchanged(['', '\\', 'u00'])
    expect(reader.push('e9')).toBe(true)
    unchanged(['"', ' ', ',', ' "d', '"', ':', ' 1', '2'])
    expect(reader.push('}')).toBe(true)
    expect(reader.value).toEqual({ a: { b: 1 }, c: 'xé', d: 12 })
  })

  it('reports no change when a repeated key restores the value it had', () => {
    const reader = createPartialJsonReader()
    reader.push('{"a": {"x": 1}, "b": 2,')
    const before = reader.value
    expect(reader.push(' "a": 3, "a": {"x": 1},')).toBe(false)
    expect(reader.value).toBe(before)
    expect(reader.push(' "a": 4}')).toBe(true)
    expect(reader.value).toEqual(JSON.parse('{"a": {"x": 1}, "b": 2, "a": 4}'))
  })

  it('reports one change for a chunk that completes many values', () => {
    const reader = createPartialJsonReader()
    expect(reader.push('{"a": 1, "b": [true, null, {"c": "d"}], "e": "f"}')).toBe(true)
    expect(reader.value).toEqual({ a: 1, b: [true, null, { c: 'd' }], e: 'f' })
    expect(reader.done).toBe(true)
  })

  it('a chunk that overwrites a key and then restores its value reports no change, for every kind of value', () => {
    for (const [first, chunk] of [
      ['{"a":1,', '"a":2,"a":1,'],
      ['{"a":true,', '"a":false,"a":true,'],
      ['{"a":null,', '"a":1,"a":null,'],
      ['{"a":"x",', '"a":"y","a":"x",'],
      ['{"a":"x"', ',"a":"x'],
      ['{"a":{},', '"a":{},'],
      ['{"a":[],', '"a":[],'],
      ['{"a":{"b":[1]},', '"a":{"b":[1]},'],
    ] as const) {
      const reader = createPartialJsonReader()
      expect(reader.push(first), first).toBe(true)
      const before = reader.value
      expect(reader.push(chunk), chunk).toBe(false)
      expect(reader.value).toBe(before)
      expect(reader.error).toBeUndefined()
    }
  })
})

describe('argument(): the value of one top-level key, without rebuilding the document', () => {
  it('agrees with selectArgument(value) after every chunk, read before the value is', () => {
    const text = JSON.stringify({ title: 'T', document: 'Line one.\n"Quoted" \\ and é\u00e9 — 😀 and more text here', n: 3 })
    for (const size of [1, 2, 3, 4, 7]) {
      const reader = createPartialJsonReader()
      for (let i = 0; i < text.length; i += size) {
        reader.push(text.slice(i, i + size))
        const fast = reader.argument('document')
        expect(fast).toEqual(selectArgument(reader.value, 'document'))
        expect(reader.argument('title')).toEqual(selectArgument(reader.value, 'title'))
      }
      reader.end()
      expect(reader.value).toEqual(JSON.parse(text))
    }
  })

  it('follows a growing top-level string without rebuilding, and everything else through the value', () => {
    const reader = createPartialJsonReader()
    reader.push('{"doc":"ab')
    reader.push('cd')
    expect(reader.argument('doc')).toBe('abcd')
    expect(reader.argument('other')).toBeUndefined()
    reader.push('ef')
    expect(reader.argument('*')).toStrictEqual({ doc: 'abcdef' })
    reader.push('gh')
    expect(reader.argument(undefined)).toStrictEqual({ doc: 'abcdefgh' })
    const nested = createPartialJsonReader()
    nested.push('{"o":{"doc":"ab')
    nested.push('cd')
    expect(nested.argument('doc')).toBeUndefined()
    expect(nested.argument('o')).toStrictEqual({ doc: 'abcd' })
    const list = createPartialJsonReader()
    list.push('["ab')
    list.push('cd')
    expect(list.argument('0')).toBeUndefined()
    expect(list.value).toStrictEqual(['abcd'])
  })

  it('a key growing in plain chunks is not a value', () => {
    const reader = createPartialJsonReader()
    reader.push('{"a":1,"b')
    expect(reader.push('cd')).toBe(false)
    expect(reader.argument('a')).toBe(1)
    expect(reader.argument('bcd')).toBeUndefined()
    expect(reader.value).toStrictEqual({ a: 1 })
    reader.push('":"v')
    expect(reader.argument('bcd')).toBe('v')
    expect(reader.value).toStrictEqual({ a: 1, bcd: 'v' })
  })

  it('after a grown string closes, other keys read their own values', () => {
    const reader = createPartialJsonReader()
    reader.push('{"a":"x')
    reader.push('yz')
    reader.push('","b":')
    expect(reader.argument('b')).toBeUndefined()
    expect(reader.argument('a')).toBe('xyz')
    reader.push('2')
    reader.push(',"c":"')
    expect(reader.argument('b')).toBe(2)
    expect(reader.argument('c')).toBe('')
    reader.push('pq')
    expect(reader.argument('c')).toBe('pq')
    expect(reader.argument('a')).toBe('xyz')
    reader.push('"}')
    expect(reader.argument('c')).toBe('pq')
    expect(reader.value).toStrictEqual({ a: 'xyz', b: 2, c: 'pq' })
  })

  it('plain chunks outside a string are read as structure', () => {
    const reader = createPartialJsonReader()
    reader.push('{"a":"x"')
    expect(reader.push(',')).toBe(false)
    expect(reader.push(' ')).toBe(false)
    reader.push('"b":1}')
    expect(reader.error).toBeUndefined()
    expect(reader.value).toStrictEqual({ a: 'x', b: 1 })
  })

  it('reads through the value while the string under a nested or array document grows', () => {
    const nested = createPartialJsonReader()
    nested.push('{"o":{"doc":"ab')
    nested.push('cd')
    expect(nested.argument('o')).toStrictEqual({ doc: 'abcd' })
    const deeper = createPartialJsonReader()
    deeper.push('{"o":["ab')
    deeper.push('cd')
    expect(deeper.argument('o')).toStrictEqual(['abcd'])
    const list = createPartialJsonReader()
    list.push('["ab')
    list.push('cd')
    expect(list.argument('')).toBeUndefined()
    expect(list.argument('*')).toStrictEqual(['abcd'])
  })
})

describe('selectArgument', () => {
  const args = { document: 'x', steps: [1] }

  it('returns the whole value for "*" or no argument', () => {
    expect(selectArgument(args, '*')).toBe(args)
    expect(selectArgument(args, undefined)).toBe(args)
    expect(selectArgument(undefined, undefined)).toBeUndefined()
  })

  it('returns one own key of an object, undefined otherwise', () => {
    expect(selectArgument(args, 'steps')).toBe(args.steps)
    expect(selectArgument(args, 'missing')).toBeUndefined()
    expect(selectArgument(args, 'toString')).toBeUndefined()
    expect(selectArgument(args, '__proto__')).toBeUndefined()
    expect(selectArgument(JSON.parse('{"__proto__": 5}'), '__proto__')).toBe(5)
    for (const value of [undefined, null, 'document', 3, ['x']]) expect(selectArgument(value, 'document')).toBeUndefined()
  })

  it('reads one own key of an object only: no array index, no string property', () => {
    expect(selectArgument({ a: 1 }, 'a')).toBe(1)
    expect(selectArgument({ a: 1 }, 'toString')).toBeUndefined()
    expect(selectArgument([1], '0')).toBeUndefined()
    expect(selectArgument(null, 'a')).toBeUndefined()
    expect(selectArgument('text', 'length')).toBeUndefined()
    const whole = { a: 1 }
    expect(selectArgument(whole, '*')).toBe(whole)
    expect(selectArgument(whole, undefined)).toBe(whole)
  })
})

// The recorded streams carry `expected.predictionTrace`: the value of the predicted state key after
// each event at which it changed. Its relation to the arguments, read off the data: after every
// TOOL_CALL_ARGS of a predicted tool, the selected argument counts when it is defined and differs
// (deep-equal) from the key's previous value, starting from the run's `input.state` (in 04 the
// first chunk `{"document":"` gives "", which equals the input state and is not in the trace).
describe('recorded prediction traces', () => {
  interface Prediction {
    state_key: string
    tool: string
    tool_argument?: string
  }
  type Event = { type: string; name?: string; value?: unknown; toolCallId?: string; toolCallName?: string; delta?: string }

  const traced = recordings.flatMap((recording) =>
    [recording, ...(recording.nextRuns ?? [])].flatMap((run, index) =>
      run.expected?.predictionTrace ? [{ name: `${recording.file} run ${index + 1}`, run, trace: run.expected.predictionTrace }] : [],
    ),
  )

  it('covers every recording with a trace', () => {
    expect(traced.map((t) => t.name)).toEqual([
      '02-predictive-document-approve.agent-framework.json run 1',
      '04-predictive-args-only-confirm-changes.server-starter.json run 1',
      '05-predictive-confirm-changes-approve.langgraph.json run 1',
      '12-langgraph-interrupt-outcome-resume.langgraph.json run 1',
      '20-predictive-greeting.client-test-literal.json run 1',
    ])
  })

  it.each(traced)('$name: the reader reproduces the trace exactly', ({ run, trace }) => {
    const predictions: Prediction[] = []
    const calls = new Map<string, { tool: string; reader: PartialJsonReader; text: string }>()
    const previous = new Map<string, unknown>()
    const state = (run.input.state ?? {}) as Record<string, unknown>
    const actual: { eventIndex: number; stateKey: string; value: unknown }[] = []
    let ended = 0

    ;(run.events as Event[]).forEach((event, eventIndex) => {
      if (event.type === 'CUSTOM' && event.name === 'PredictState') {
        for (const prediction of event.value as Prediction[]) {
          predictions.push(prediction)
          if (!previous.has(prediction.state_key)) previous.set(prediction.state_key, state[prediction.state_key])
        }
      } else if (event.type === 'TOOL_CALL_START' && predictions.some((p) => p.tool === event.toolCallName)) {
        calls.set(event.toolCallId!, { tool: event.toolCallName!, reader: createPartialJsonReader(), text: '' })
      } else if (event.type === 'TOOL_CALL_ARGS' && calls.has(event.toolCallId!)) {
        const call = calls.get(event.toolCallId!)!
        const before = call.reader.value
        const changed = call.reader.push(event.delta!)
        call.text += event.delta
        expect(changed).toBe(!isDeepStrictEqual(before, call.reader.value))
        expect(call.reader.error).toBeUndefined()
        for (const prediction of predictions.filter((p) => p.tool === call.tool)) {
          const value = selectArgument(call.reader.value, prediction.tool_argument)
          if (value === undefined || isDeepStrictEqual(value, previous.get(prediction.state_key))) continue
          previous.set(prediction.state_key, value)
          actual.push({ eventIndex, stateKey: prediction.state_key, value })
        }
      } else if (event.type === 'TOOL_CALL_END' && calls.has(event.toolCallId!)) {
        const call = calls.get(event.toolCallId!)!
        expect(call.reader.done).toBe(true)
        call.reader.end()
        expect(call.reader.error).toBeUndefined()
        expect(call.reader.value).toEqual(JSON.parse(call.text))
        ended++
      }
    })

    expect(ended).toBe(calls.size)
    expect(actual).toEqual(trace)
  })
})
