import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { RunAgentInput } from '@ag-ui/core'
import { readBody } from '../support/agui-server'
import { listenOnLoopback } from '../support/loopback'

/** One request to the hostile server, with raw control of the bytes that answer it. */
export interface Exchange {
  /** 0 for the first request the server received, 1 for the second, … */
  readonly index: number
  readonly input: RunAgentInput
  readonly request: IncomingMessage
  readonly response: ServerResponse
  /** Resolves once the connection is gone or the response has ended, whichever first. */
  readonly closed: Promise<void>
  /** True if the client went away before the response ended. */
  abandoned(): boolean
  /** Status 200 and `text/event-stream` headers, sent at once. */
  start(headers?: Record<string, string>): void
  /**
   * Writes raw bytes and waits until they are flushed and one more macrotask has passed, so
   * consecutive writes usually reach the client as separate reads. Resolves false if the client has gone.
   */
  write(chunk: string | Uint8Array): Promise<boolean>
  end(chunk?: string | Uint8Array): void
  /** Drops the TCP connection without ending the response (a truncated chunked body). */
  destroy(): void
}

export type Handler = (exchange: Exchange) => unknown

export interface HostileServer {
  readonly url: string
  /** Every request body, parsed, in order. */
  readonly requests: RunAgentInput[]
  readonly exchanges: Exchange[]
  /** TCP connections currently open (keep-alive ones included). */
  connections(): number
  /** Responses started and not yet closed. */
  activeResponses(): number
  /** From now on, answers the n-th request with handlers[n] (the last one repeats). */
  handle(...handlers: Handler[]): void
  close(): Promise<void>
}

/**
 * An AG-UI endpoint on 127.0.0.1 that says exactly what a test tells it to, byte by byte:
 * any line ending, any split, garbage, truncation, stalls, HTTP errors.
 */
export async function startHostileServer(...initial: Handler[]): Promise<HostileServer> {
  let handlers = initial
  let base = 0
  const requests: RunAgentInput[] = []
  const exchanges: Exchange[] = []
  let active = 0

  const server = createServer(async (request, response) => {
    const body = await readBody(request)
    const input = JSON.parse(body) as RunAgentInput
    const index = requests.length
    requests.push(input)
    active++
    let finished = false
    let gone = false
    const closed = new Promise<void>((resolve) => {
      response.on('close', () => {
        active--
        gone = !finished
        resolve()
      })
      response.on('finish', () => {
        finished = true
      })
    })
    const exchange: Exchange = {
      index,
      input,
      request,
      response,
      closed,
      abandoned: () => gone,
      start(headers = {}) {
        response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', ...headers })
        response.flushHeaders()
      },
      write(chunk) {
        if (response.destroyed || response.writableEnded) return Promise.resolve(false)
        return new Promise<boolean>((resolve) => {
          response.write(chunk, (error) => {
            if (error) return resolve(false)
            setImmediate(() => resolve(!response.destroyed))
          })
        })
      },
      end(chunk) {
        if (!response.destroyed && !response.writableEnded) response.end(chunk)
      },
      destroy() {
        response.socket?.destroy()
      },
    }
    exchanges.push(exchange)
    const handler = handlers[Math.min(index - base, handlers.length - 1)]
    try {
      await handler?.(exchange)
    } catch {
      response.socket?.destroy()
    }
  })
  const loopback = await listenOnLoopback(server)
  return {
    url: loopback.url,
    requests,
    exchanges,
    connections: loopback.connections,
    activeResponses: () => active,
    handle(...next) {
      handlers = next
      base = requests.length
    },
    close: loopback.close,
  }
}

/** SSE frames for `events`, each `data: <json>` and a blank line, with the given line ending. */
export function sse(events: readonly unknown[], eol = '\n'): string {
  let text = ''
  for (const event of events) text += `data: ${typeof event === 'string' ? event : JSON.stringify(event)}${eol}${eol}`
  return text
}

/** Writes the SSE headers, then `events` in one write, then ends the response. */
export function reply(events: readonly unknown[] | ((input: RunAgentInput) => readonly unknown[]), eol = '\n'): Handler {
  return (exchange) => {
    exchange.start()
    exchange.end(sse(typeof events === 'function' ? events(exchange.input) : events, eol))
  }
}

/** Answers with an HTTP error. */
export function httpError(status: number, contentType: string, body: string): Handler {
  return ({ response }) => {
    response.writeHead(status, { 'Content-Type': contentType })
    response.end(body)
  }
}

/** AG-UI events as plain objects, echoing the request's thread and run ids where the protocol wants them. */
export const ev = {
  started: (input: RunAgentInput) => ({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }),
  finished: (input: RunAgentInput, outcome?: unknown) => ({
    type: 'RUN_FINISHED',
    threadId: input.threadId,
    runId: input.runId,
    ...(outcome === undefined ? {} : { outcome }),
  }),
  error: (message: string, code?: string) => ({ type: 'RUN_ERROR', message, ...(code === undefined ? {} : { code }) }),
  snapshot: (snapshot: unknown) => ({ type: 'STATE_SNAPSHOT', snapshot }),
  delta: (...delta: unknown[]) => ({ type: 'STATE_DELTA', delta }),
  textStart: (messageId: string) => ({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' }),
  text: (messageId: string, delta: string) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta }),
  textEnd: (messageId: string) => ({ type: 'TEXT_MESSAGE_END', messageId }),
  toolStart: (toolCallId: string, toolCallName: string, parentMessageId?: string) => ({
    type: 'TOOL_CALL_START',
    toolCallId,
    toolCallName,
    ...(parentMessageId === undefined ? {} : { parentMessageId }),
  }),
  toolArgs: (toolCallId: string, delta: string) => ({ type: 'TOOL_CALL_ARGS', toolCallId, delta }),
  toolEnd: (toolCallId: string) => ({ type: 'TOOL_CALL_END', toolCallId }),
  custom: (name: string, value: unknown) => ({ type: 'CUSTOM', name, value }),
  predict: (stateKey: string, tool: string, toolArgument?: string) => ({
    type: 'CUSTOM',
    name: 'PredictState',
    value: [{ state_key: stateKey, tool, ...(toolArgument === undefined ? {} : { tool_argument: toolArgument }) }],
  }),
}

/** Polls `condition` every few milliseconds; throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** A promise the test opens by hand. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}
