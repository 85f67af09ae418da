// The built-in AG-UI HTTP transport: POST the RunAgentInput, read the server-sent events with the
// store's own framer (one JSON.parse per event), no @ag-ui/client, no rxjs. It reads the body
// through fetch where fetch can stream it, and through XMLHttpRequest progress events where it
// cannot (React Native, old WebViews). Both readers feed the same run guard, so every guarantee
// (framing, limits, truncation, timeouts, cancel, HTTP errors, drain) is one piece of code.
import type { RunAgentInput } from '@ag-ui/core'
import type { AgentStoreError } from '../errors'
import { defaultLimits } from '../limits'
import type { ConnectOptions, RunConnection, RunHandlers } from './run-contract'
import { connectNotSupported, createRunGuard, httpStatusError, networkError, type RunGuard } from './run-guard'
import { cancelQuietly, createSseFramer, ERROR_BODY_LIMIT, type FetchFn, readErrorBody } from './sse'
import { utf8Decoder, utf8Encoder } from './utf8'

export type HttpHeaders = Record<string, string>

export interface HttpEndpoint {
  /** Where runs are POSTed. */
  url: string
  /** Sent with every request; a function is called once per request (a token that expires), and may return a promise. */
  headers?: HttpHeaders | (() => HttpHeaders | Promise<HttpHeaders>)
  /** The fetch to use (credentials, `expo/fetch`); the global one by default. */
  fetch?: FetchFn
  /**
   * How the body is read: `fetch` streams it through `response.body.getReader()`, `xhr` through
   * XMLHttpRequest progress events. By default `fetch` where it can stream (or when one is
   * given), `xhr` where it cannot.
   */
  reader?: 'fetch' | 'xhr'
  /** Where `connect` requests go (a replay of the thread, then the live rest); without it, connect is not supported. */
  connectUrl?: string
}

/**
 * Streams one run from an AG-UI endpoint over HTTP, with the contract of `connectRun`: one call
 * is one run, nothing after its first RUN_FINISHED or RUN_ERROR is handed on, and the response is
 * then drained for `drainMs` (a completed request in the browser's network panel) before it is
 * cancelled. Events are handed on as parsed, their lifecycle order verified by the run guard both
 * transports share; chunks are not expanded, as the store expands them itself.
 */
export function connectHttpRun(endpoint: HttpEndpoint, input: RunAgentInput, handlers: RunHandlers, options: ConnectOptions = {}): RunConnection {
  const run = framedRun(handlers, options)
  const connection = { cancel: run.cancel }
  const connect = options.connect === true
  const url = connect ? endpoint.connectUrl : endpoint.url
  if (url === undefined) {
    // As connectRun reports an agent whose connect is AbstractAgent's own.
    run.fail(connectNotSupported())
    return connection
  }
  const cursor = connect ? options.lastEventId : undefined
  const read = chooseReader(endpoint) === 'xhr' ? readWithXhr : readWithFetch
  requestHeaders(endpoint.headers, cursor).then(
    (headers) => {
      if (run.open) read({ url, headers, body: JSON.stringify(withoutNullSubagents(input)), fetch: endpoint.fetch }, run)
    },
    (error: unknown) => run.fail(networkError(error)),
  )
  return connection
}

function chooseReader(endpoint: HttpEndpoint): 'fetch' | 'xhr' {
  if (endpoint.reader) return endpoint.reader
  if (endpoint.fetch) return 'fetch'
  return fetchCanStream() || typeof XMLHttpRequest === 'undefined' ? 'fetch' : 'xhr'
}

/** A fetch whose responses have a readable body stream: React Native's has neither ReadableStream nor `Response.body`. */
const fetchCanStream = () =>
  typeof fetch === 'function' && typeof ReadableStream === 'function' && typeof Response === 'function' && 'body' in Response.prototype

/** HttpAgent's headers, in its order: the endpoint's, then the two the protocol needs (and a resume cursor). */
async function requestHeaders(headers: HttpEndpoint['headers'], cursor: string | undefined): Promise<HttpHeaders> {
  const own = typeof headers === 'function' ? await headers() : headers
  return {
    ...own,
    'Content-Type': 'application/json',
    Accept: 'text/event-stream',
    ...(cursor === undefined ? {} : { 'Last-Event-ID': cursor }),
  }
}

/** As HttpAgent sends it: a null `subagentRunId` is not valid on the wire, absent is. */
function withoutNullSubagents(input: RunAgentInput): RunAgentInput {
  const messages = input.messages.map((message) => {
    if ((message as { subagentRunId?: unknown }).subagentRunId !== null) return message
    const { subagentRunId: _null, ...rest } = message as typeof message & { subagentRunId?: unknown }
    return rest as typeof message
  })
  // Only serialized: a copy holding the same messages reads as the input itself.
  return { ...input, messages }
}

interface Request {
  url: string
  headers: HttpHeaders
  body: string
  fetch: FetchFn | undefined
}

/** The run's rules with the framer in front: the readers hand it the body's bytes. */
interface FramedRun extends RunGuard {
  /** Body bytes, in any slicing (with their text when the reader has it). Garbage after the run's end is never the run's failure, but the reading stops. */
  bytes(chunk: Uint8Array, text?: string): void
}

function framedRun(handlers: RunHandlers, options: ConnectOptions): FramedRun {
  const run = createRunGuard(handlers, options)
  const framer = createSseFramer(options.maxEventBytes ?? defaultLimits.maxEventBytes, run.event, run.eventId)
  return Object.assign(run, {
    bytes(chunk: Uint8Array, text?: string) {
      run.touch()
      const error = framer.push(chunk, text)
      if (error) run.stop(error)
    },
  })
}

/** An HTTP error, as connectRun reports HttpAgent's: the status in the details, the body (capped) only in the cause. */
function httpError(status: number, contentType: string, text: string): AgentStoreError {
  let payload: unknown = text
  if (contentType.includes('application/json')) {
    try {
      payload = JSON.parse(text)
    } catch {
      // Kept as text.
    }
  }
  const cause = Object.assign(new Error(`HTTP ${status}: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}`), { status, payload })
  return httpStatusError(status, cause)
}

const isOk = (status: number) => status >= 200 && status < 300

async function readWithFetch(request: Request, run: FramedRun) {
  const controller = new AbortController()
  run.onCancel = () => controller.abort()
  const fetchFn = request.fetch ?? ((url: string, init: RequestInit) => fetch(url, init))
  try {
    const response = await fetchFn(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: controller.signal })
    if (!run.open) return
    run.touch()
    if (!isOk(response.status)) {
      const text = await errorText(response, run)
      return run.fail(httpError(response.status, response.headers.get('content-type') ?? '', text))
    }
    const reader = typeof response.body?.getReader === 'function' ? response.body.getReader() : undefined
    if (!reader) {
      // A fetch that cannot stream (an injected one): the body whole, through the same framer.
      const text = await response.text()
      if (!run.open) return
      run.bytes(utf8Encoder()(text), text)
      return run.complete()
    }
    run.onCancel = () => {
      controller.abort()
      cancelQuietly(reader)
    }
    for (;;) {
      const { done, value } = await reader.read()
      if (!run.open) return
      if (done) return run.complete()
      run.bytes(value)
    }
  } catch (error) {
    run.fail(networkError(error))
  }
}

/** At most ERROR_BODY_LIMIT bytes of an error body, as text; reading stops once the run is over. */
async function errorText(response: Response, run: FramedRun): Promise<string> {
  const { body } = response
  if (!body) return (await response.text()).slice(0, ERROR_BODY_LIMIT)
  const bytes = await readErrorBody(body, () => {
    run.touch()
    return run.open
  })
  return utf8Decoder()(bytes)
}

const HEADERS_RECEIVED = 2
const DONE = 4

/**
 * The body through XMLHttpRequest progress events, where fetch cannot stream. `responseText`
 * grows as bytes arrive; each new slice goes to the framer as UTF-8 again, so the event size
 * limit still counts the bytes the server sent.
 */
function readWithXhr(request: Request, run: FramedRun) {
  if (typeof XMLHttpRequest === 'undefined') return run.fail(networkError(new Error('XMLHttpRequest is not available')))
  const xhr = new XMLHttpRequest()
  const encode = utf8Encoder()
  let read = 0
  // The run's end (failed, complete or cancelled) closes the guard before it aborts the request:
  // the events that abort() fires find the run closed.
  run.onCancel = () => xhr.abort()
  const take = () => {
    // Status 0: the request failed, and `error` says so next (its responseText is already gone).
    if (!run.open || xhr.readyState < HEADERS_RECEIVED || xhr.status === 0) return
    run.touch()
    const text = xhr.responseText
    if (!isOk(xhr.status)) {
      if (text.length < ERROR_BODY_LIMIT && xhr.readyState !== DONE) return
      // Failing the run cancels the request.
      return run.fail(httpError(xhr.status, xhr.getResponseHeader('content-type') ?? '', text.slice(0, ERROR_BODY_LIMIT)))
    }
    if (text.length > read) {
      const slice = text.slice(read)
      read = text.length
      run.bytes(encode(slice), slice)
    }
    if (xhr.readyState === DONE) run.complete()
  }
  xhr.onreadystatechange = take
  xhr.onprogress = take
  xhr.onload = take
  xhr.onerror = () => run.fail(networkError(new TypeError('Network request failed')))
  try {
    xhr.open('POST', request.url)
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value)
    xhr.send(request.body)
  } catch (error) {
    run.fail(networkError(error))
  }
}
