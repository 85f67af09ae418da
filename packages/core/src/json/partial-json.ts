// Incremental partial JSON for tool arguments that stream as TOOL_CALL_ARGS deltas: immutable,
// structurally shared snapshots of "the value so far". Cost: linear in the input, plus a copy of
// the open containers a chunk touches (its depth and their widths), never a re-parse.
//
// The reader is our own rather than @streamparser/json (which stays the oracle of the property
// tests): the library was a large share of what the core added to an app, and it needed working
// around: no partial string while a chunk ends inside an escape, U+FEFF dropped at the start of
// every string, tokens reported before they are validated, a fixed cost per write whatever its
// length, and quadratic partial strings unless `stringBufferSize` is set. Bench scenario 4 times
// both on the same chunks (bench/results.md).

import { copyContainer, deepEqual, isPlainObject, setOwn } from './json-value'

export interface PartialJsonReader {
  /** Feed the next chunk. Returns true when the current partial value changed (by value) since the last call. */
  push(chunk: string): boolean
  /**
   * The input is over (TOOL_CALL_END). Completes a trailing top-level number; sets `error` if the
   * document is unfinished (the partial value stays). Returns true when the value changed.
   */
  end(): boolean
  /** The current best partial value of the whole document (undefined until something is known). */
  readonly value: unknown
  /** `selectArgument(value, argument)`, without rebuilding the value while only a top-level string grew. */
  argument(argument: string | undefined): unknown
  /** True once the top-level value is complete. */
  readonly done: boolean
  /** Set when the input is not valid JSON; the reader then stops changing. */
  readonly error: Error | undefined
  /** The deepest nesting of containers read so far (a string or number at the top: 0). */
  readonly depth: number
}

type JsonObject = Record<string, unknown>
type Container = JsonObject | unknown[]

// One open container, outermost first.
interface Frame {
  /** The container as built so far. Shared with the last published value unless owned. */
  container: Container
  /** The push that created or copied it: during that push it may be mutated in place. */
  ownedBy: number
  /** Where the container sits in its parent; undefined for the top-level value. */
  slot: string | number | undefined
  /** Objects only: the key just read, whose value comes next. */
  key: string
}

// The reader's states are small integers rather than string unions: every character outside a
// string compares them, and the names cost bytes in every app.

/** What may come next outside a string, number or literal. */
type Expect = number
const EXPECT_VALUE = 0
const EXPECT_FIRST_VALUE = 1 // after `[`: a value or `]`
const EXPECT_KEY = 2
const EXPECT_FIRST_KEY = 3 // after `{`: a key or `}`
const EXPECT_COLON = 4
const EXPECT_COMMA = 5 // after a member: `,` or the closing bracket
const EXPECT_END = 6 // after the top-level value: only whitespace

/** The token being read, which may continue in the next chunk. */
type Token = number
const NO_TOKEN = 0
const STRING_TOKEN = 1
const KEY_TOKEN = 2
const NUMBER_TOKEN = 3
const LITERAL_TOKEN = 4

/** Where a number is in JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
type NumberPhase = number
const NUMBER_START = 0
const NUMBER_MINUS = 1
const NUMBER_ZERO = 2
const NUMBER_INTEGER = 3
const NUMBER_POINT = 4
const NUMBER_FRACTION = 5
const NUMBER_EXPONENT_MARK = 6
const NUMBER_EXPONENT_SIGN = 7
const NUMBER_EXPONENT = 8

/**
 * A reader of one streamed JSON document (pydantic's `allow_partial='trailing-strings'`):
 * an unfinished string counts as its prefix, an unfinished number, literal or key is left out,
 * a container shows as soon as it opens. Unchanged subtrees keep their identity from push to push.
 */
export function createPartialJsonReader(): PartialJsonReader {
  const frames: Frame[] = []
  /** The value being built; becomes `published` at the end of a push that changed it. */
  let root: unknown
  let published: unknown
  let expect: Expect = EXPECT_VALUE
  let token: Token = NO_TOKEN
  /** Counts pushes, for `Frame.ownedBy`. */
  let generation = 0
  /** The input read so far (for error positions); `held` is not read yet. */
  let position = 0
  /** The end of the last chunk, inside a string, that waits for the next one (see readString). */
  let held = ''
  /** The decoded text of the string or key being read. */
  let text = ''
  /** Strings only: where the string goes in the innermost container, and how much of it shows. */
  let slot: string | number | undefined
  let shownLength = 0
  /** Numbers: the text so far and its phase. Literals: the word and how much of it has been read. */
  let numberText = ''
  let phase: NumberPhase = NUMBER_START
  let word = ''
  let matched = 0
  let finished = false
  let complete = false
  let dirty = false
  /** A repeated key overwrote a value this push, which may have restored an earlier value. */
  let repeated = false
  let ended = false
  /** The open string grew since `published` was built (see push). */
  let stale = false
  let failure: Error | undefined
  let deepest = 0

  function push(chunk: string): boolean {
    if (failure !== undefined || ended || chunk === '') return false
    // Most chunks of a long draft only extend the open string: they are appended, and the value
    // is rebuilt around the string when it is next read, not on every chunk.
    if (token === STRING_TOKEN && held === '' && isPlainStringText(chunk)) {
      text += chunk
      position += chunk.length
      stale = true
      return true
    }
    catchUp()
    let input = held + chunk
    held = ''
    // A byte order mark before the document is skipped, as a decoder would.
    if (position === 0 && input.charCodeAt(0) === 0xfeff) {
      input = input.slice(1)
      position = 1
    }
    read(input)
    position += input.length - held.length
    return commit()
  }

  /** Publishes the open string's newest version if a fast push (above) left the value behind it. */
  function catchUp(): void {
    if (!stale) return
    stale = false
    commit()
  }

  function end(): boolean {
    if (failure !== undefined || ended) return false
    ended = true
    catchUp()
    // A number has no closing character: the end of the input completes it.
    if (token === NUMBER_TOKEN) finishNumber()
    const changed = commit()
    if (failure === undefined && !complete) failure = new SyntaxError('Unexpected end of JSON input')
    return changed
  }

  // Publishes what this push built. A push that failed changes nothing: the last good value stays.
  function commit(): boolean {
    if (failure !== undefined) return false
    // The open string's newest version (only its length is compared: reading a long rope's
    // characters would flatten it).
    if (token === STRING_TOKEN && text.length !== shownLength) {
      shownLength = text.length
      place(slot, text, true)
    }
    generation++
    complete = finished
    if (!dirty) return false
    const same = repeated && deepEqual(published, root)
    dirty = false
    repeated = false
    if (same) return false
    published = root
    return true
  }

  function read(input: string): void {
    let i = 0
    while (i < input.length && failure === undefined) {
      if (token === STRING_TOKEN || token === KEY_TOKEN) i = readString(input, i)
      else if (token === NUMBER_TOKEN) i = readNumber(input, i)
      else if (token === LITERAL_TOKEN) i = readLiteral(input, i)
      else i = readStructure(input, i)
    }
  }

  /** Reads one character outside a token: whitespace, punctuation, or the start of a value. */
  function readStructure(input: string, i: number): number {
    const code = input.charCodeAt(i)
    if (code === SPACE || code === NEWLINE || code === RETURN || code === TAB) return i + 1
    const top = frames.at(-1)
    const inArray = top !== undefined && Array.isArray(top.container)
    if (expect === EXPECT_VALUE || (expect === EXPECT_FIRST_VALUE && code !== RIGHT_BRACKET)) return startValue(input, i)
    if ((expect === EXPECT_KEY || expect === EXPECT_FIRST_KEY) && code === QUOTE) {
      token = KEY_TOKEN
      text = ''
      return i + 1
    }
    if (expect === EXPECT_COLON && code === COLON) {
      expect = EXPECT_VALUE
      return i + 1
    }
    if (expect === EXPECT_COMMA && code === COMMA) {
      expect = inArray ? EXPECT_VALUE : EXPECT_KEY
      return i + 1
    }
    const closes = code === (inArray ? RIGHT_BRACKET : RIGHT_BRACE)
    if (closes && (expect === EXPECT_FIRST_VALUE || expect === EXPECT_FIRST_KEY || expect === EXPECT_COMMA)) {
      frames.pop()
      valueDone()
      return i + 1
    }
    return fail(input, i)
  }

  function startValue(input: string, i: number): number {
    const code = input.charCodeAt(i)
    if (code === LEFT_BRACE || code === LEFT_BRACKET) {
      const container: Container = code === LEFT_BRACE ? {} : []
      const at = nextSlot()
      place(at, container, false)
      frames.push({ container, ownedBy: generation, slot: at, key: '' })
      deepest = Math.max(deepest, frames.length)
      expect = code === LEFT_BRACE ? EXPECT_FIRST_KEY : EXPECT_FIRST_VALUE
      return i + 1
    }
    if (code === QUOTE) {
      // A string shows as soon as it opens.
      token = STRING_TOKEN
      text = ''
      slot = nextSlot()
      shownLength = 0
      place(slot, '', false)
      return i + 1
    }
    if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
      token = NUMBER_TOKEN
      numberText = ''
      phase = NUMBER_START
      return i
    }
    const literal = LITERALS.find((name) => name.charCodeAt(0) === code)
    if (literal === undefined) return fail(input, i)
    token = LITERAL_TOKEN
    word = literal
    matched = 0
    return i
  }

  function readString(input: string, i: number): number {
    stringText.lastIndex = i
    stringText.test(input)
    const end = stringText.lastIndex
    const code = input.charCodeAt(end)
    if (code === QUOTE) {
      text += decodeStringText(input.slice(i, end))
      finishString()
      return end + 1
    }
    // Past the text: the end of the chunk, an escape it cuts off (which waits for the rest), or an error.
    if (end < input.length && !(code === BACKSLASH && unfinishedEscape.test(input.slice(end + 1)))) return fail(input, end)
    let piece = decodeStringText(input.slice(i, end))
    let from = end
    // A high surrogate at the cut waits too (raw, or as its escape), so a character never shows in halves.
    if (isHighSurrogate(piece.charCodeAt(piece.length - 1))) {
      from = isHighSurrogate(input.charCodeAt(end - 1)) ? end - 1 : end - 6 // the escape `\uXXXX`
      piece = piece.slice(0, -1)
    }
    text += piece
    held = input.slice(from)
    return input.length
  }

  function finishString(): void {
    if (token === KEY_TOKEN) {
      frames.at(-1)!.key = text
      token = NO_TOKEN
      expect = EXPECT_COLON
      return
    }
    place(slot, text, true)
    valueDone()
  }

  function readNumber(input: string, i: number): number {
    const start = i
    for (; i < input.length; i++) {
      const next = nextNumberPhase(phase, input.charCodeAt(i))
      if (next === undefined) break
      phase = next
    }
    numberText += input.slice(start, i)
    // Any character the grammar does not take ends the number; whether it may follow a value is
    // for readStructure to say.
    if (i < input.length && !finishNumber()) return fail(input, i)
    return i
  }

  function finishNumber(): boolean {
    if (phase !== NUMBER_ZERO && phase !== NUMBER_INTEGER && phase !== NUMBER_FRACTION && phase !== NUMBER_EXPONENT) return false
    place(nextSlot(), Number(numberText), false)
    valueDone()
    return true
  }

  function readLiteral(input: string, i: number): number {
    while (i < input.length && matched < word.length) {
      if (input.charCodeAt(i) !== word.charCodeAt(matched)) return fail(input, i)
      i++
      matched++
    }
    if (matched === word.length) {
      place(nextSlot(), JSON.parse(word), false)
      valueDone()
    }
    return i
  }

  function valueDone(): void {
    token = NO_TOKEN
    finished = frames.length === 0
    expect = finished ? EXPECT_END : EXPECT_COMMA
  }

  function fail(input: string, i: number): number {
    failure = new SyntaxError(`Unexpected ${JSON.stringify(input[i])} at position ${position + i} of the JSON input`)
    return input.length
  }

  // Where the next value of the innermost container goes (undefined: it is the whole document).
  function nextSlot(): string | number | undefined {
    const top = frames.at(-1)
    if (!top) return undefined
    return Array.isArray(top.container) ? top.container.length : top.key
  }

  /** Puts a value at `at` in the innermost container, or makes it the document. `growth`: the open string's new version. */
  function place(at: string | number | undefined, value: unknown, growth: boolean): void {
    const depth = frames.length - 1
    if (depth < 0) {
      if (Object.is(root, value)) return
      root = value
      dirty = true
      return
    }
    const current = frames[depth]!.container
    const exists = Object.hasOwn(current, at!)
    if (exists && Object.is((current as JsonObject)[at!], value)) return
    // Besides the growing string (which only gets longer), only a repeated key overwrites a value.
    if (exists && !growth) repeated = true
    own(depth)
    setMember(frames[depth]!.container, at!, value)
    dirty = true
  }

  // Copy-on-write: makes frames[0..depth] safe to mutate, copying each published container once
  // per push. Owned frames always form a prefix of the stack, so the walk stops at the first one.
  function own(depth: number): void {
    let first = depth
    while (first >= 0 && frames[first]!.ownedBy !== generation) first--
    for (let i = first + 1; i <= depth; i++) {
      const frame = frames[i]!
      frame.container = copyContainer(frame.container)
      frame.ownedBy = generation
      if (i === 0) root = frame.container
      else setMember(frames[i - 1]!.container, frame.slot!, frame.container)
    }
  }

  return {
    push,
    end,
    get value() {
      catchUp()
      return published
    },
    argument(argument) {
      // While a draft streams, the string under one top-level key grows: read without rebuilding.
      const top = frames[0]
      if (stale && frames.length === 1 && top!.key === argument && !Array.isArray(top!.container)) return text
      catchUp()
      return selectArgument(published, argument)
    },
    get done() {
      return complete
    },
    get error() {
      return failure
    },
    get depth() {
      return deepest
    },
  }
}

/** The partial value of one top-level key of an object document ('*' or undefined = the whole document). */
export function selectArgument(value: unknown, argument: string | undefined): unknown {
  if (argument === undefined || argument === '*') return value
  return isPlainObject(value) && Object.hasOwn(value, argument) ? value[argument] : undefined
}

// A plain assignment to "__proto__" would swap the prototype instead of adding a key.
function setMember(container: Container, slot: string | number, value: unknown): void {
  if (slot === '__proto__') setOwn(container, slot, value)
  else (container as Record<string | number, unknown>)[slot] = value
}

const LITERALS = ['true', 'false', 'null']

const SPACE = 0x20
const NEWLINE = 0x0a
const RETURN = 0x0d
const TAB = 0x09
const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const MINUS = 0x2d
const PLUS = 0x2b
const POINT = 0x2e
const DIGIT_0 = 0x30
const DIGIT_9 = 0x39
const LEFT_BRACE = 0x7b
const RIGHT_BRACE = 0x7d
const LEFT_BRACKET = 0x5b
const RIGHT_BRACKET = 0x5d

/** The phase after `code`, or undefined if the number cannot take it (then it ends there, or is invalid). */
function nextNumberPhase(phase: NumberPhase, code: number): NumberPhase | undefined {
  const digit = code >= DIGIT_0 && code <= DIGIT_9
  const exponent = code === 0x65 || code === 0x45 // e, E
  switch (phase) {
    case NUMBER_START:
      return code === MINUS ? NUMBER_MINUS : code === DIGIT_0 ? NUMBER_ZERO : digit ? NUMBER_INTEGER : undefined
    case NUMBER_MINUS:
      return code === DIGIT_0 ? NUMBER_ZERO : digit ? NUMBER_INTEGER : undefined
    case NUMBER_ZERO:
      return code === POINT ? NUMBER_POINT : exponent ? NUMBER_EXPONENT_MARK : undefined
    case NUMBER_INTEGER:
      return digit ? NUMBER_INTEGER : code === POINT ? NUMBER_POINT : exponent ? NUMBER_EXPONENT_MARK : undefined
    case NUMBER_POINT:
      return digit ? NUMBER_FRACTION : undefined
    case NUMBER_FRACTION:
      return digit ? NUMBER_FRACTION : exponent ? NUMBER_EXPONENT_MARK : undefined
    case NUMBER_EXPONENT_MARK:
      return digit ? NUMBER_EXPONENT : code === PLUS || code === MINUS ? NUMBER_EXPONENT_SIGN : undefined
    case NUMBER_EXPONENT_SIGN:
    case NUMBER_EXPONENT:
      return digit ? NUMBER_EXPONENT : undefined
  }
}

/**
 * String text: characters from U+0020 up but the quote and the backslash, and escapes that are
 * valid. Stops before anything else: the closing quote, a control character, a wrong or cut escape.
 */
const stringText = /[\u0020\u0021\u0023-\u005b\u005d-\uffff]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[\u0020\u0021\u0023-\u005b\u005d-\uffff]*)*/y

/** Decodes text that stringText matched; JSON.parse reads its escapes (it accepts a lone surrogate, as the reader does). */
const decodeStringText = (piece: string): string => (piece.includes('\\') ? JSON.parse(`"${piece}"`) : piece)

/** Whether `chunk` can only extend an open string: no quote, backslash, control character or surrogate. */
function isPlainStringText(chunk: string): boolean {
  for (let i = 0; i < chunk.length; i++) {
    const code = chunk.charCodeAt(i)
    if (code === QUOTE || code === BACKSLASH || code < 0x20 || (code >= 0xd800 && code <= 0xdfff)) return false
  }
  return true
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
// What may follow the backslash of an escape cut off at the end of a chunk.
const unfinishedEscape = /^(?:u[0-9a-fA-F]{0,3})?$/
