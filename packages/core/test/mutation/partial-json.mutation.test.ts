import { describe, expect, it } from 'vitest'
import { createPartialJsonReader, selectArgument } from '../../src/json/partial-json'

// The partial-JSON reader pinned at its edges: exact error messages and positions, the byte
// order mark, end(), depth, and the fast path of argument() while one top-level string grows.

const read = (...chunks: string[]) => {
  const reader = createPartialJsonReader()
  const changed = chunks.map((chunk) => reader.push(chunk))
  return { reader, changed }
}

describe('errors', () => {
  it('name the character and its position in the whole input', () => {
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

describe('the byte order mark', () => {
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
})

describe('push results', () => {
  it('say whether the value changed', () => {
    const { changed, reader } = read('{"a"', ':', ' ', '1', ',', '"b":"', 'x', '"}', ' ')
    expect(changed).toStrictEqual([true, false, false, false, true, true, true, false, false])
    expect(reader.value).toStrictEqual({ a: 1, b: 'x' })
    expect(reader.done).toBe(true)
  })

  it('whitespace of every kind is skipped', () => {
    const { reader } = read(' \t\r\n[ 1 ,\t2\n]\r ')
    expect(reader.value).toStrictEqual([1, 2])
    expect(reader.error).toBeUndefined()
    expect(reader.done).toBe(true)
  })

  it('literals show once complete', () => {
    const { reader, changed } = read('[tr', 'ue,fal', 'se,nu', 'll]')
    expect(changed).toStrictEqual([true, true, true, true])
    expect(reader.value).toStrictEqual([true, false, null])
  })
})

describe('depth', () => {
  it('is the deepest nesting read, 0 for a top-level value', () => {
    expect(read('"x"').reader.depth).toBe(0)
    expect(read('[[], {"a": [[1]]}]').reader.depth).toBe(4)
    expect(read('{"a":{"b":').reader.depth).toBe(2)
  })
})

describe('argument()', () => {
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

  it('selectArgument reads one own key of an object only', () => {
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

describe('positions after the fast path, a held tail and the byte order mark', () => {
  it('count plain chunks appended to an open string', () => {
    expect(read('"ab', 'cd', '\u0001').reader.error?.message).toBe('Unexpected "\\u0001" at position 5 of the JSON input')
    expect(read('{"k":"ab', 'cd', 'ef', '"x').reader.error?.message).toBe('Unexpected "x" at position 13 of the JSON input')
  })

  it('count a held escape once, when it is read', () => {
    expect(read('"a\\', 'q').reader.error?.message).toBe('Unexpected "\\\\" at position 2 of the JSON input')
    expect(read('["a\\u00', 'e9", x').reader.error?.message).toBe('Unexpected "x" at position 12 of the JSON input')
  })

  it('count the byte order mark as one character of the input', () => {
    expect(read('\uFEFF[x').reader.error?.message).toBe('Unexpected "x" at position 2 of the JSON input')
    expect(read('\uFEFF', '[x').reader.error?.message).toBe('Unexpected "x" at position 2 of the JSON input')
  })
})

describe('open strings', () => {
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

describe('numbers', () => {
  it('reads every digit in every part of a number', () => {
    for (const text of ['9', '19', '90', '-9', '0.9', '0.09', '9.9', '1e9', '1E9', '1e-9', '1.5E9', '0E9', '-0.0e+0', '123456789']) {
      const { reader } = read(`[${text},1]`)
      expect(reader.error, text).toBeUndefined()
      expect(reader.value, text).toStrictEqual([Number(text), 1])
    }
  })

  it('rejects what the grammar does not take', () => {
    for (const [text, at] of [
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
    ] as const) {
      const { reader } = read(text)
      expect(reader.error?.message, text).toBe(`Unexpected ${JSON.stringify(text[at])} at position ${at} of the JSON input`)
    }
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
})

describe('literals', () => {
  it('each has its own value and a wrong letter anywhere fails there', () => {
    expect(read('[true,false,null]').reader.value).toStrictEqual([true, false, null])
    for (const [text, at] of [
      ['[trUe]', 3],
      ['[fals]', 5],
      ['[nulll]', 5],
      ['[n]', 2],
      ['[x]', 1],
      ['[t', 2],
    ] as const) {
      const { reader } = read(text)
      if (text === '[t') {
        expect(reader.error).toBeUndefined()
        expect(reader.value).toStrictEqual([])
      } else expect(reader.error?.message, text).toBe(`Unexpected ${JSON.stringify(text[at])} at position ${at} of the JSON input`)
    }
  })
})

describe('structure', () => {
  it('a key in an array, a colon outside an object and closers out of place fail where they are', () => {
    for (const [text, at] of [
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
    ] as const) {
      const { reader } = read(text)
      expect(reader.error?.message, text).toBe(`Unexpected ${JSON.stringify(text[at])} at position ${at} of the JSON input`)
    }
  })

  it('empty and nested containers close where they should', () => {
    for (const text of ['[]', '{}', '[[]]', '[{}]', '{"a":[]}', '{"a":{}}', '[[],[]]', '{"a":{},"b":[]}', '[1,[2,[3]],4]']) {
      const { reader } = read(text)
      expect(reader.error, text).toBeUndefined()
      expect(reader.done, text).toBe(true)
      expect(reader.value).toStrictEqual(JSON.parse(text))
    }
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
})

describe('argument() and the fast path around keys and closed strings', () => {
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

  it('a quote where a comma or colon belongs fails', () => {
    for (const [text, at] of [
      ['{"a" "b":1}', 5],
      ['{"a":1 "b":2}', 7],
      ['[1 "a"]', 3],
      ['["a" "b"]', 5],
    ] as const) {
      expect(read(text).reader.error?.message, text).toBe(`Unexpected ${JSON.stringify(text[at])} at position ${at} of the JSON input`)
    }
  })
})

describe('after an error or end()', () => {
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

describe('repeated keys', () => {
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

describe('argument() while the string under a nested or array document grows', () => {
  it('reads through the value', () => {
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

describe('"__proto__" members', () => {
  it('are plain data properties', () => {
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
