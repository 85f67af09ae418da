import { describe, expect, it } from 'vitest'
import { createPartialJsonReader, selectArgument } from '../../src/partial-json'

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
