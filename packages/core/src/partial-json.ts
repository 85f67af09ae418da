// Incremental partial JSON for tool arguments that stream as TOOL_CALL_ARGS deltas.
// @streamparser/json tokenizes and validates; this file turns its tokens into immutable,
// structurally shared snapshots of "the value so far". Cost: linear in the input, plus a copy of
// the open containers a chunk touches (its depth and their widths), never a re-parse.
// Its Tokenizer and TokenParser are wired by hand rather than through JSONParser, whose onToken
// hook runs before the token is validated: here a token reaches the value only once it is valid.
import { type ParsedTokenInfo, Tokenizer, TokenParser, TokenType } from '@streamparser/json'
import { deepEqual } from './json-value'
import { appendText } from './strings'

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
  /** `selectArgument(value, argument)`, without building the whole value when only a top-level string grew. */
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
  /** The container as built so far. Shared with the last published value until `owned`. */
  container: Container
  /** Created or copied during the current push, so it may be mutated in place. */
  owned: boolean
  /** Where the container sits in its parent; undefined for the top-level value. */
  slot: string | number | undefined
  /** Objects only: the key just read, whose value comes next. */
  key: string | undefined
}

// Above 4, the tokenizer gathers a string in a byte buffer and decodes it once per chunk. The
// project found emitPartialTokens quadratic on long strings without it; 0.0.26 measures linear
// either way, so this is a guard, at 4 KB per reader.
const STRING_BUFFER_SIZE = 4096

/**
 * A reader of one streamed JSON document (pydantic's `allow_partial='trailing-strings'`):
 * an unfinished string counts as its prefix, an unfinished number, literal or key is left out,
 * a container shows as soon as it opens. Unchanged subtrees keep their identity from push to push.
 */
export function createPartialJsonReader(): PartialJsonReader {
  return new Reader()
}

/** The partial value of one top-level key of an object document ('*' or undefined = the whole document). */
export function selectArgument(value: unknown, argument: string | undefined): unknown {
  if (argument === undefined || argument === '*') return value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  return Object.hasOwn(value, argument) ? (value as JsonObject)[argument] : undefined
}

class Reader implements PartialJsonReader {
  private readonly tokenizer = new Tokenizer({ emitPartialTokens: true, stringBufferSize: STRING_BUFFER_SIZE })
  // Used only to check the token order; `paths: []` emits nothing. (`keepStack: false` would save
  // its copy of the containers but costs O(depth) per value, quadratic on deep nesting.)
  private readonly grammar = new TokenParser({ paths: [] })
  private readonly frames: Frame[] = []
  /** The value being built; becomes `published` at the end of a push that changed it. */
  private root: unknown = undefined
  private published: unknown = undefined
  private finished = false
  private complete = false
  /** The innermost slot holds an unfinished string, to be replaced by its next version. */
  private growing = false
  private dirty = false
  /** A repeated key overwrote a value this push, which may have restored an earlier value. */
  private repeated = false
  private ended = false
  /** The start of an escape sequence cut off at the end of the last chunk. */
  private held = ''
  /** The string being grown, as last shown. */
  private lastString = ''
  /** Where the text shown already but not yet given to the tokenizer starts in `lastString` (see push); -1: none. */
  private deferredFrom = -1
  /** `lastString` is newer than the string in the value: the value is rebuilt when it is read. */
  private behind = false
  /** False while the tokenizer holds back a surrogate half waiting for its pair: then it must see every chunk. */
  private canDefer = true
  private failure: Error | undefined = undefined
  private deepest = 0

  constructor() {
    keepByteOrderMarks(this.tokenizer)
    // Validate each token before it touches the value, so the builder below only sees valid JSON.
    this.tokenizer.onToken = (token) => {
      this.grammar.write(token)
      if (this.failure === undefined) this.apply(token)
    }
    this.tokenizer.onError = (error) => {
      this.failure ??= error
    }
    this.tokenizer.onEnd = () => {
      if (!this.grammar.isEnded) this.grammar.end()
    }
    // Stops the tokenizer too, so nothing after the first error is read.
    this.grammar.onError = (error) => this.tokenizer.error(error)
    this.grammar.onValue = () => {}
  }

  get value(): unknown {
    this.catchUp()
    return this.published
  }

  argument(argument: string | undefined): unknown {
    // The common case while a draft streams: the string under one top-level key grew. Its newest
    // version is `lastString`; rebuilding the document around it waits until someone reads `value`.
    const top = this.frames[0]
    if (this.behind && argument !== undefined && this.frames.length === 1 && top!.key === argument && !Array.isArray(top!.container)) {
      return this.lastString
    }
    return selectArgument(this.value, argument)
  }

  /** Writes the newest version of the growing string into the value (see push's fast path). */
  private catchUp(): void {
    if (!this.behind) return
    this.behind = false
    this.set(this.lastString, true)
    this.commit()
  }

  get done(): boolean {
    return this.complete
  }

  get error(): Error | undefined {
    return this.failure
  }

  get depth(): number {
    return this.deepest
  }

  push(chunk: string): boolean {
    if (this.failure !== undefined || chunk === '') return false
    // Inside a string, a chunk that neither ends it nor holds anything unusual can only extend it.
    // @streamparser/json costs about 0.6 µs a write whatever its length (it UTF-8-encodes every
    // chunk, and re-emits the partial string), more than the rest of the store per token: such
    // chunks are decoded here, shown at once, and handed to it in one later write, which still
    // validates them.
    if (this.growing && this.canDefer) {
      const text = this.held === '' ? chunk : this.held + chunk
      const cut = unfinishedEscapeStart(text)
      const decoded = decodeStringText(text, cut)
      if (decoded !== undefined) {
        this.held = cut === text.length ? '' : text.slice(cut)
        if (decoded === '') return false
        if (this.deferredFrom === -1) this.deferredFrom = this.lastString.length
        this.lastString = appendText(this.lastString, decoded)
        this.behind = true
        return true
      }
    }
    this.catchUp()
    this.flushDeferred()
    // The tokenizer shows no partial string while it sits inside an escape (`\`, `\u00`), which
    // would hide the text before it in the same chunk: write up to the escape, keep the rest.
    const text = this.held + chunk
    const cut = unfinishedEscapeStart(text)
    this.held = text.slice(cut)
    if (cut > 0) {
      const written = cut === text.length ? text : text.slice(0, cut)
      this.tokenizer.write(written)
      this.canDefer = !endsWithHighSurrogate(written)
    }
    return this.commit()
  }

  end(): boolean {
    if (this.failure !== undefined || this.ended) return false
    this.ended = true
    this.catchUp()
    this.flushDeferred()
    if (this.held !== '') this.tokenizer.write(this.held)
    this.held = ''
    if (this.failure === undefined) this.tokenizer.end()
    const changed = this.commit()
    if (this.failure === undefined && !this.complete) this.failure = new Error('Unexpected end of JSON input')
    return changed
  }

  private flushDeferred(): void {
    if (this.deferredFrom === -1) return
    // Any JSON text of the same characters will do: the deferred chunks were checked as they came
    // (no quote, control character, surrogate half or invalid escape), and re-encoding them once
    // costs less than keeping every raw chunk.
    const text = JSON.stringify(this.lastString.slice(this.deferredFrom)).slice(1, -1)
    this.deferredFrom = -1
    this.tokenizer.write(text)
  }

  // Publishes what this push built. A push that failed changes nothing: the last good value stays.
  private commit(): boolean {
    for (const frame of this.frames) frame.owned = false
    if (this.failure !== undefined) return false
    this.complete = this.finished
    if (!this.dirty) return false
    const same = this.repeated && deepEqual(this.published, this.root)
    this.dirty = false
    this.repeated = false
    if (same) return false
    this.published = this.root
    return true
  }

  private apply({ token, value, partial = false }: ParsedTokenInfo): void {
    switch (token) {
      case TokenType.LEFT_BRACE:
        return this.open({})
      case TokenType.LEFT_BRACKET:
        return this.open([])
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        this.frames.pop()
        if (this.frames.length === 0) this.finished = true
        return
      case TokenType.STRING: {
        const top = this.frames.at(-1)
        if (top && !Array.isArray(top.container) && top.key === undefined) {
          // A key: shown only with its value, so an unfinished one is simply skipped.
          if (!partial) top.key = value as string
          return
        }
        return this.set(value, partial)
      }
      case TokenType.NUMBER:
      case TokenType.TRUE:
      case TokenType.FALSE:
      case TokenType.NULL:
        // A partial number may still grow (`12` → `123`), a partial literal is not a value yet.
        if (!partial) this.set(value, false)
        return
      default:
        // Colons, commas: the grammar has checked them, the structure needs nothing from them.
        return
    }
  }

  private open(container: Container): void {
    const parent = this.frames.at(-1)
    let slot: string | number | undefined
    if (parent) {
      slot = this.nextSlot(parent)
      this.write(this.frames.length - 1, slot, container)
      parent.key = undefined
    } else {
      this.root = container
      this.dirty = true
    }
    this.frames.push({ container, owned: true, slot, key: undefined })
    if (this.frames.length > this.deepest) this.deepest = this.frames.length
  }

  private set(value: unknown, partial: boolean): void {
    const top = this.frames.at(-1)
    if (!top) {
      if (!Object.is(this.root, value)) {
        this.root = value
        this.dirty = true
      }
      if (!partial) this.finished = true
    } else {
      this.write(this.frames.length - 1, this.nextSlot(top), value)
      if (!partial) top.key = undefined
    }
    this.growing = partial
    if (partial) this.lastString = value as string
  }

  // Where the next value of the innermost container goes.
  private nextSlot(frame: Frame): string | number {
    if (!Array.isArray(frame.container)) return frame.key ?? ''
    return this.growing ? frame.container.length - 1 : frame.container.length
  }

  private write(depth: number, slot: string | number, value: unknown): void {
    const current = this.frames[depth]!.container
    const exists = Object.hasOwn(current, slot)
    if (exists && Object.is((current as JsonObject)[slot], value)) return
    // Besides the growing string (which only gets longer), only a repeated key overwrites a value.
    if (exists && !this.growing) this.repeated = true
    this.own(depth)
    setMember(this.frames[depth]!.container, slot, value)
    this.dirty = true
  }

  // Copy-on-write: makes frames[0..depth] safe to mutate, copying each published container once
  // per push. Owned frames always form a prefix of the stack, so the walk stops at the first one.
  private own(depth: number): void {
    let first = depth
    while (first >= 0 && !this.frames[first]!.owned) first--
    for (let i = first + 1; i <= depth; i++) {
      const frame = this.frames[i]!
      frame.container = Array.isArray(frame.container) ? frame.container.slice() : { ...frame.container }
      frame.owned = true
      if (i === 0) this.root = frame.container
      else setMember(this.frames[i - 1]!.container, frame.slot!, frame.container)
    }
  }
}

// A plain assignment to "__proto__" would swap the prototype instead of adding a key.
function setMember(container: Container, slot: string | number, value: unknown): void {
  if (slot === '__proto__') {
    Object.defineProperty(container, slot, { value, writable: true, enumerable: true, configurable: true })
  } else {
    ;(container as Record<string | number, unknown>)[slot] = value
  }
}

const simpleEscapes: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }
const hex4 = /^[0-9a-fA-F]{4}$/

/**
 * The text of `text.slice(0, end)` inside a JSON string, decoded; undefined when it could end the
 * string or needs the tokenizer: a quote, a control character, a surrogate half (raw or escaped),
 * an invalid escape. `end` never cuts an escape (the caller holds an unfinished one back).
 */
function decodeStringText(text: string, end: number): string | undefined {
  let decoded = ''
  let from = 0
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x5c) {
      const next = text[i + 1]!
      let replacement: string | undefined
      if (next === 'u') {
        const digits = text.slice(i + 2, i + 6)
        const unit = Number.parseInt(digits, 16)
        if (!hex4.test(digits) || (unit >= 0xd800 && unit <= 0xdfff)) return undefined
        replacement = String.fromCharCode(unit)
      } else replacement = simpleEscapes[next]
      if (replacement === undefined) return undefined
      decoded += text.slice(from, i) + replacement
      i += next === 'u' ? 5 : 1
      from = i + 1
    } else if (code < 0x20 || code === 0x22 || (code >= 0xd800 && code <= 0xdfff)) return undefined
  }
  return from === 0 ? text.slice(0, end) : decoded + text.slice(from, end)
}

/**
 * @streamparser/json 0.0.26 decodes strings with a TextDecoder that drops a U+FEFF at the start of
 * every decode (it takes it for a byte order mark), so `["\uFEFF"]` reads as `[""]`. Its string
 * accumulator keeps the decoder in a field: one that keeps the mark takes its place. If a later
 * release moves it, the U+FEFF tests in partial-json.test.ts say so.
 */
function keepByteOrderMarks(tokenizer: Tokenizer): void {
  const strings = (tokenizer as unknown as { bufferedString?: { decoder?: unknown } }).bufferedString
  if (strings && strings.decoder instanceof TextDecoder) strings.decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
}

const highSurrogateEscape = /\\u[dD][89abAB][0-9a-fA-F]{2}$/

/** Whether text ends with a high surrogate, raw or escaped (`\ud83d`), whose pair may come next. */
function endsWithHighSurrogate(text: string): boolean {
  const last = text.charCodeAt(text.length - 1)
  if (last >= 0xd800 && last <= 0xdbff) return true
  if (!highSurrogateEscape.test(text.slice(-7))) return false
  let run = 0
  while (text.charCodeAt(text.length - 7 - run) === BACKSLASH) run++
  return run % 2 === 0
}

const BACKSLASH = 0x5c
const isHexDigit = (code: number) => (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66)

/**
 * Where an escape sequence cut off at the end of `text` starts (`\`, `\u`, `\u0`…`\u123`), or
 * `text.length` if there is none. `text` never starts inside an escape (the previous cut made
 * sure of that), so a backslash begins an escape iff it ends an odd run of backslashes.
 * A backslash outside a string is invalid JSON anyway; holding it back only delays the error.
 */
function unfinishedEscapeStart(text: string): number {
  let i = text.length
  let digits = 0
  while (digits < 3 && i > 0 && isHexDigit(text.charCodeAt(i - 1))) {
    i--
    digits++
  }
  let start: number
  if (i > 0 && text.charCodeAt(i - 1) === 0x75 /* u */) start = i - 1
  else if (digits === 0) start = text.length
  else return text.length
  let run = 0
  while (start - run > 0 && text.charCodeAt(start - run - 1) === BACKSLASH) run++
  return run % 2 === 1 ? start - 1 : text.length
}
