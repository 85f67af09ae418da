// The HTML Standard's event-stream grammar over bytes, for both transports. The built-in one
// (http-transport.ts) takes the parsed events straight from the framer. For an HttpAgent, the
// body between its fetch and @ag-ui/client's SSE parser is re-framed: that parser (1.0.0) splits
// events on "\n\n" only, so CRLF (sse-starlette's default) and CR streams never parse, and it
// dispatches an event cut off by the end of the stream; it gets one canonical `data:` frame per
// checked event instead, which it cannot misread.
import { AgentStoreError } from '../errors'
import { utf8Decoder, utf8Encoder } from './utf8'

/** HttpAgent reads bodies of this type with its protobuf parser: they pass through untouched. */
const PROTO_MEDIA_TYPE = 'application/vnd.ag-ui.event+proto'
/** An error body is only read for its status: a hostile one cannot make the client read forever. */
export const ERROR_BODY_LIMIT = 64 * 1024

const LF = 0x0a
const CR = 0x0d
const COLON = 0x3a
const SPACE = 0x20
const DATA = [0x64, 0x61, 0x74, 0x61] // "data"
const ID = [0x69, 0x64] // "id"
/** Room for the field name of a line still arriving (`data: `), before its bytes count against the event's size. */
const FIELD_ROOM = 6

export type FetchFn = (url: string, init: RequestInit) => Promise<Response>

export interface SseOptions {
  /** Largest event, counted as the UTF-8 bytes of its data (the JSON text). */
  maxEventBytes: number
  /** Called whenever bytes arrive, so an idle timeout can tell a slow stream from a dead one. */
  onActivity?: () => void
  /**
   * Why the body stopped early: an event over the limit, data that is not an event, or the
   * network. The body itself then just ends: @ag-ui/client cancels an errored body in a way that
   * rethrows the error as an unhandled rejection, so errors travel this way instead.
   */
  onError(error: unknown): void
  /** The SSE last event ID whenever it changes (the `id:` fields, as the standard keeps them): where a resume starts. */
  onEventId?: (id: string) => void
}

/** A fetch whose successful responses carry a body framed by `frameSse`, and whose error bodies are capped (read before the response is handed on). */
export function wrapFetch(fetch: FetchFn, options: SseOptions): FetchFn {
  return async (url, init) => {
    const response = await fetch(url, init)
    options.onActivity?.()
    const { body } = response
    if (!body) return response
    let wrapped: BodyInit
    if (!response.ok) {
      const bytes = await readErrorBody(body, () => {
        options.onActivity?.()
        return true
      })
      wrapped = bytes as Uint8Array<ArrayBuffer>
    } else if (response.headers.get('content-type') === PROTO_MEDIA_TYPE) wrapped = tap(body, options.onActivity)
    else wrapped = frameSse(body, options)
    return new Response(wrapped, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}

/**
 * Re-frames an SSE body: any line ending (LF, CRLF, CR, even split across chunks), comments,
 * `id:`/`event:`/`retry:` fields and a leading BOM are read as the standard says; each complete
 * event comes out as `data: …\n\n`. An event over `maxEventBytes` (reported as soon as it is
 * known to be, without reading the rest: LIMIT_EXCEEDED), data that is not a JSON object with a
 * string `type` (INVALID_EVENT) and network errors stop the body: `onError` hears why, and the
 * events before the bad one are still delivered. An event cut off by the end of the stream is dropped.
 */
export function frameSse(source: ReadableStream<Uint8Array>, options: SseOptions): ReadableStream<Uint8Array> {
  const reader = source.getReader()
  const encode = utf8Encoder()
  // The text each event was parsed from, a `data:` line per line of it: the parser joins them with "\n" again.
  let frames = ''
  const framer = createSseFramer(
    options.maxEventBytes,
    (_event, text) => {
      frames += `data: ${text.replaceAll('\n', '\ndata: ')}\n\n`
    },
    options.onEventId,
  )
  let stopped = false
  let cancelled = false
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Read until there is a whole event to hand on: a chunk may hold only part of one.
        for (;;) {
          if (stopped) return controller.close()
          let result: ReadableStreamReadResult<Uint8Array>
          try {
            result = await reader.read()
          } catch (error) {
            if (cancelled) return
            options.onError(error)
            return controller.close()
          }
          if (cancelled) return
          if (result.done) return controller.close()
          options.onActivity?.()
          const error = framer.push(result.value)
          if (error) {
            // Stop downloading now; the events before it go out first, the end of the body after them.
            options.onError(error)
            stopped = true
            cancelQuietly(reader)
          }
          if (frames) {
            controller.enqueue(encode(frames))
            frames = ''
            return
          }
        }
      },
      cancel(reason) {
        cancelled = true
        return cancelQuietly(reader, reason)
      },
    },
    { highWaterMark: 0 },
  )
}

/** An event as the stream carried it, parsed once and checked to be an object with a non-empty string `type`. */
export type ParsedEvent = { type: string } & Record<string, unknown>

/** What `push` returns: the error that stopped the stream, if any. */
export interface SseFramer {
  /**
   * Hands on the events `chunk` completes; returns the error that stopped it, if any. `text` is
   * the chunk as text when the caller has it already (a reader of text), so it is not decoded again.
   */
  push(chunk: Uint8Array, text?: string): AgentStoreError | undefined
}

/**
 * Incremental event-stream parser over bytes. CR and LF never occur inside a UTF-8 sequence, so
 * lines split safely before decoding. Each complete event is parsed once and handed to `onEvent`
 * as it completes, with the text it was parsed from.
 */
export function createSseFramer(maxEventBytes: number, onEvent: (event: ParsedEvent, text: string) => void, onEventId?: (id: string) => void): SseFramer {
  const decode = utf8Decoder()
  /** The line still arriving, in pieces. */
  let pieces: Uint8Array[] = []
  let pieceBytes = 0
  /** The data lines of the event being read, as text, and its size so far (the bytes of the values plus the LFs joining them). */
  let data: string[] = []
  let dataBytes = -1
  /** The last chunk ended with CR: a LF opening the next one belongs to the same line ending. */
  let afterCR = false
  let firstLine = true
  /** The standard's last event ID buffer: an `id:` field sets it, and it carries over to later events. */
  let eventId = ''
  let reportedId = ''
  /**
   * The chunk being scanned, and its text when every byte of it decodes to one character (ASCII,
   * in practice): a line of it is then a slice of that text, with no decoder call per line. The
   * text is made at the first line the chunk completes (a chunk inside a long line never needs it):
   * undefined until then, false when the chunk is not all one-byte characters.
   */
  let chunk: Uint8Array = new Uint8Array(0)
  let chunkGiven: string | undefined
  let chunkText: string | false | undefined

  /** Bytes `start` to `end` of `source` as text: sliced from the chunk's text where it can be, decoded otherwise (same result). */
  function textOf(source: Uint8Array, start: number, end: number): string {
    if (source === chunk) {
      if (chunkText === undefined) {
        const text = chunkGiven ?? decode(chunk)
        chunkText = text.length === chunk.length ? text : false
      }
      if (chunkText !== false) return chunkText.slice(start, end)
    }
    return decode(source.subarray(start, end))
  }

  const tooLarge = (): never => {
    throw new AgentStoreError('LIMIT_EXCEEDED', `An event from the agent is larger than maxEventBytes (${maxEventBytes} bytes)`, {
      limit: 'maxEventBytes',
    })
  }

  function scan(next: Uint8Array, known: string | undefined) {
    chunk = next
    chunkGiven = known
    chunkText = undefined
    let start = 0
    if (afterCR && chunk.length > 0) {
      afterCR = false
      if (chunk[0] === LF) start = 1
    }
    // Next CR and LF, each searched again only once passed: a chunk without CR is not rescanned per line.
    let cr = -2
    let lf = -2
    while (start < chunk.length) {
      if (cr !== -1 && cr < start) cr = chunk.indexOf(CR, start)
      if (lf !== -1 && lf < start) lf = chunk.indexOf(LF, start)
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf)
      if (end === -1) {
        pieces.push(chunk.subarray(start))
        pieceBytes += chunk.length - start
        // Not a whole line yet; even read as data it would already be too large.
        if (Math.max(0, dataBytes) + pieceBytes - FIELD_ROOM > maxEventBytes) tooLarge()
        return
      }
      if (pieces.length > 0) {
        pieces.push(chunk.subarray(start, end))
        const line = concat(pieces, pieceBytes + end - start)
        pieces = []
        pieceBytes = 0
        endLine(line, 0, line.length)
      } else endLine(chunk, start, end)
      if (chunk[end] === CR && end + 1 === chunk.length) {
        afterCR = true
        return
      }
      start = chunk[end] === CR && chunk[end + 1] === LF ? end + 2 : end + 1
    }
  }

  /** The line of `source` from `start` to `end` (its line ending left out), read by index: no copy of it is made. */
  function endLine(source: Uint8Array, from: number, end: number) {
    let start = from
    if (firstLine) {
      firstLine = false
      if (source[start] === 0xef && source[start + 1] === 0xbb && source[start + 2] === 0xbf) start += 3
    }
    if (start === end) return dispatch()
    if (source[start] === COLON) return // a comment, such as a keep-alive
    const found = source.indexOf(COLON, start)
    const nameEnd = found === -1 || found >= end ? end : found
    let value = nameEnd === end ? end : nameEnd + 1
    if (value < end && source[value] === SPACE) value++
    if (spells(source, start, nameEnd, ID)) {
      // An id with a NULL in it is ignored, as the standard says.
      const nul = source.indexOf(0, value)
      if (nul === -1 || nul >= end) eventId = textOf(source, value, end)
      return
    }
    if (!spells(source, start, nameEnd, DATA)) return // event, retry and unknown fields
    dataBytes += end - value + 1
    if (dataBytes > maxEventBytes) tooLarge()
    data.push(textOf(source, value, end))
  }

  function dispatch() {
    // The standard sets the last event ID at every dispatch, even of an event without data.
    if (eventId !== reportedId) {
      reportedId = eventId
      onEventId?.(eventId)
    }
    const lines = data
    data = []
    dataBytes = -1
    // No data, or one empty data line: the standard dispatches nothing.
    if (lines.length === 0 || (lines.length === 1 && lines[0] === '')) return
    const text = lines.length === 1 ? lines[0]! : lines.join('\n')
    let event: unknown
    try {
      event = JSON.parse(text)
    } catch {
      throw new AgentStoreError('INVALID_EVENT', 'The agent sent an event whose data is not JSON')
    }
    // Of what JSON.parse makes, only an object can have a `type`.
    const type = (event as { type?: unknown } | null)?.type
    if (typeof type !== 'string' || type === '') {
      throw new AgentStoreError('INVALID_EVENT', 'The agent sent JSON that is not an AG-UI event (an object with a string "type")')
    }
    onEvent(event as ParsedEvent, text)
  }

  return {
    push(chunk, text) {
      try {
        scan(chunk, text)
      } catch (thrown) {
        if (!(thrown instanceof AgentStoreError)) throw thrown
        return thrown
      }
    },
  }
}

/** Whether bytes `start` to `end` of `source` are those of `field`. */
const spells = (source: Uint8Array, start: number, end: number, field: number[]) =>
  end - start === field.length && field.every((byte, i) => source[start + i] === byte)

/** The parts as one array of `length` bytes (the first part itself when it is the only one). */
export function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const joined = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    joined.set(part, offset)
    offset += part.length
  }
  return joined
}

/** Cancels the reader, never failing: @ag-ui/client rethrows a failed cancel() outside any promise chain. */
export const cancelQuietly = (reader: ReadableStreamDefaultReader<Uint8Array>, reason?: unknown) => reader.cancel(reason).catch(() => {})

/**
 * At most ERROR_BODY_LIMIT bytes of an error body, however its reading ends (what arrived is
 * enough: the status is what the error reports); the body is cancelled after. `onChunk` hears
 * each chunk arrive, and stops the reading by returning false.
 */
export async function readErrorBody(body: ReadableStream<Uint8Array>, onChunk: () => boolean): Promise<Uint8Array> {
  const reader = body.getReader()
  const parts: Uint8Array[] = []
  let seen = 0
  try {
    while (seen < ERROR_BODY_LIMIT) {
      const { done, value } = await reader.read()
      if (done || !onChunk()) break
      const part = value.subarray(0, ERROR_BODY_LIMIT - seen)
      seen += part.length
      parts.push(part)
    }
  } catch {
    // What arrived is enough.
  }
  cancelQuietly(reader)
  return concat(parts, seen)
}

/** Passes the body through, reporting activity. */
function tap(source: ReadableStream<Uint8Array>, onActivity: (() => void) | undefined): ReadableStream<Uint8Array> {
  if (!onActivity) return source
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onActivity()
        controller.enqueue(chunk)
      },
    }),
  )
}
