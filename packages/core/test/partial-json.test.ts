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
  return { reader, steps, values: steps.map((step) => step.value) }
}

const valueOf = (...chunks: string[]) => feed(chunks).reader.value

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
})

describe('done and errors', () => {
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
})

describe('structural sharing', () => {
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
})

describe('U+FEFF (which @streamparser/json alone drops at the start of a string)', () => {
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
