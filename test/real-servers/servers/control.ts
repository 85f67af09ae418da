// Shared by the three server processes: the HTTP listener on 127.0.0.1, the test-only control routes,
// the log of what each run received and sent, and the scripted turns the models play.
import { AsyncLocalStorage } from 'node:async_hooks'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

/**
 * One scripted model turn: text, one tool call whose arguments stream in chunks, a thrown error, or
 * a text that says which conversation the model was given (`echoHistory`, see `historyText`).
 */
export type Turn =
  | { text: string }
  | { tool: string; args: Record<string, unknown>; id?: string; chunkSize?: number; text?: string; delayMs?: number }
  | { error: string }
  | { echoHistory: true }

/** A message of the model's prompt, reduced to what `historyText` shows. */
export interface PromptEntry {
  role: string
  text: string
}

/**
 * The user and assistant texts of the model's prompt, as `user: Hi | assistant: Hello | user: …`:
 * the answer of an `echoHistory` turn, so a test reads from the answer which history the server
 * gave its model (system prompts and tool-only messages left out).
 */
export function historyText(prompt: readonly PromptEntry[]): string {
  return prompt
    .filter((entry) => (entry.role === 'user' || entry.role === 'assistant') && entry.text !== '')
    .map((entry) => `${entry.role}: ${entry.text}`)
    .join(' | ')
}

/** A turn as the model plays it. */
export type PlayedTurn = Exclude<Turn, { echoHistory: true }>

/** A turn to play: an `echoHistory` turn becomes the text of the prompt it was given. */
export function playable(turn: Turn, prompt: () => readonly PromptEntry[]): PlayedTurn {
  return 'echoHistory' in turn ? { text: historyText(prompt()) } : turn
}

export interface LoggedRun {
  path: string
  /** The request body as received: a RunAgentInput for the AG-UI routes. */
  body: unknown
  /** Every event written to the response, in order. */
  events: unknown[]
}

const scripts = new Map<string, Turn[]>()
const log: LoggedRun[] = []

/** The thread of the request being served, for models that cannot see it (the AI SDK ones). */
export const requestThread = new AsyncLocalStorage<string>()

/**
 * The next scripted turn for a thread, else from the server-wide queue '*'. A store's branch thread
 * (`<threadId>~<runId>`, branching 'new-thread') plays its thread's script.
 */
export function nextTurn(threadId: string = requestThread.getStore() ?? '*'): Turn | undefined {
  const queue = scripts.get(threadId) ?? scripts.get(storeThreadOf(threadId)) ?? scripts.get('*')
  return queue?.shift()
}

/** Splits a tool call's JSON arguments into chunks, as a provider streams them. */
export function argumentChunks(args: Record<string, unknown>, chunkSize = 12): string[] {
  const json = JSON.stringify(args)
  const chunks: string[] = []
  for (let i = 0; i < json.length; i += chunkSize) chunks.push(json.slice(i, i + chunkSize))
  return chunks
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(value))
}

/** Starts logging one run; the returned entry collects the events the caller writes. */
export function logRun(path: string, body: unknown): LoggedRun {
  const entry: LoggedRun = { path, body, events: [] }
  log.push(entry)
  return entry
}

/** The store's thread a request's thread belongs to: itself, or the thread a branch thread (`<threadId>~<runId>`) was forked from. */
export const storeThreadOf = (threadId: string) => threadId.split('~')[0]!

/**
 * Handles the control routes: POST /__script {threadId, turns, replace?}, GET /__log?threadId=… (the
 * runs of that thread and of its branch threads; of a branch thread, its own), POST /__reset.
 * Returns false for any other request.
 */
export async function handleControl(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1')
  if (request.method === 'POST' && url.pathname === '/__script') {
    const { threadId = '*', turns, replace } = JSON.parse(await readBody(request)) as { threadId?: string; turns: Turn[]; replace?: boolean }
    scripts.set(threadId, [...(replace ? [] : (scripts.get(threadId) ?? [])), ...turns])
    sendJson(response, 200, { queued: scripts.get(threadId)!.length })
    return true
  }
  if (request.method === 'GET' && url.pathname === '/__log') {
    const threadId = url.searchParams.get('threadId')
    sendJson(response, 200, threadId ? log.filter((run) => ofThread(String(threadOf(run.body)), threadId)) : log)
    return true
  }
  if (request.method === 'POST' && url.pathname === '/__reset') {
    scripts.clear()
    log.length = 0
    sendJson(response, 200, {})
    return true
  }
  return false
}

/** A store's thread asks for its branch threads' runs too; a branch thread for its own only. */
const ofThread = (runThread: string, asked: string) => runThread === asked || storeThreadOf(runThread) === asked

function threadOf(body: unknown): unknown {
  return body && typeof body === 'object' ? (body as { threadId?: unknown }).threadId : undefined
}

/** Writes one AG-UI event as an SSE `data:` line and logs it. */
export function writeEvent(response: ServerResponse, run: LoggedRun, event: unknown): void {
  run.events.push(event)
  response.write(`data: ${JSON.stringify(event)}\n\n`)
}

/** Listens on 127.0.0.1, port 0 unless PORT is set, and prints the URL for the test's globalSetup. */
export function listen(handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>, name: string): Promise<string> {
  const server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      console.error(`[${name}]`, error)
      if (!response.headersSent) sendJson(response, 500, { error: String(error) })
      else response.end()
    })
  })
  return new Promise((resolve) => {
    server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
      const address = server.address()
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
      // The line globalSetup waits for.
      console.log(`REAL_SERVER_URL ${name} ${url}`)
      resolve(url)
    })
  })
}

/**
 * A logging front for a server that owns its HTTP handling (the CopilotKit listener): records each
 * request body and every SSE event of the answer, and passes both through unchanged.
 */
export function recordingProxy(target: string) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (await handleControl(request, response)) return
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request)
    let parsed: unknown = body
    try {
      parsed = body ? JSON.parse(body) : undefined
    } catch {
      // Not JSON: logged as text.
    }
    const run = logRun(request.url ?? '/', parsed)
    const headers = new Headers()
    for (const [key, value] of Object.entries(request.headers))
      if (key !== 'host' && key !== 'content-length' && typeof value === 'string') headers.set(key, value)
    const controller = new AbortController()
    response.on('close', () => controller.abort())
    const upstream = await fetch(new URL(request.url ?? '/', target), { method: request.method, headers, body, signal: controller.signal })
    response.writeHead(upstream.status, Object.fromEntries(upstream.headers))
    if (!upstream.body) return void response.end()
    const decoder = new TextDecoder()
    let pending = ''
    for await (const chunk of upstream.body) {
      response.write(chunk)
      pending += decoder.decode(chunk, { stream: true })
      let end = pending.indexOf('\n\n')
      while (end >= 0) {
        const block = pending.slice(0, end)
        pending = pending.slice(end + 2)
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n')
        if (data) run.events.push(JSON.parse(data))
        end = pending.indexOf('\n\n')
      }
    }
    response.end()
  }
}
