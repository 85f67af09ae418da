// The AG-UI endpoints of the scripted agents: POST a RunAgentInput to /agents/<name>, read the run
// back as text/event-stream framed by @ag-ui/encoder. Usable as a standalone server (startAgentServer)
// or as middleware in any Node HTTP stack (createAgentHandler; the Vite plugin mounts it in dev).
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { extname, join, resolve, sep } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { EventType, type RunAgentInput } from '@ag-ui/core'
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { EventEncoder } from '@ag-ui/encoder'
import { agents as scriptedAgents } from './agents'
import { type AgentStream, type ScriptedAgent, textOf } from './script'

export interface RecordedRequest {
  /** The agent's name, from the path. */
  agent: string
  /** The request body, exactly as the client sent it. */
  input: RunAgentInput
}

export interface AgentHandlerOptions {
  /** Milliseconds per streamed token (default 20). 0 streams as fast as the socket takes it. */
  delayMs?: number
  /** The agents by name (default: recipe, writer and planner). */
  agents?: Record<string, ScriptedAgent>
  /** Called with one line per run. */
  log?: (line: string) => void
}

export interface AgentHandler {
  /** Connect-style middleware: answers `/agents/<name>`, hands anything else to `next`. */
  handle(request: IncomingMessage, response: ServerResponse, next?: () => void): void
  /** Every accepted request, in order. */
  readonly requests: RecordedRequest[]
  /** Ends every stream still running. */
  close(): void
}

const maxBodyBytes = 5 * 1024 * 1024

export function createAgentHandler(options: AgentHandlerOptions = {}): AgentHandler {
  const { delayMs = 20, agents = scriptedAgents, log } = options
  const requests: RecordedRequest[] = []
  const running = new Set<AbortController>()
  const attempts = new Map<string, number>()

  /** How many runs answered this request's last message before, when it is the user's: a regenerated answer asks again. */
  function attemptOf(input: RunAgentInput): number {
    const last = input.messages[input.messages.length - 1]
    if (last?.role !== 'user') return 0
    const key = `${input.threadId}\n${last.id}`
    const attempt = attempts.get(key) ?? 0
    attempts.set(key, attempt + 1)
    return attempt
  }

  async function serve(name: string, agent: ScriptedAgent, request: IncomingMessage, response: ServerResponse) {
    let input: RunAgentInput
    try {
      input = JSON.parse(await readBody(request)) as RunAgentInput
    } catch (error) {
      return sendJson(response, 400, { error: `The body must be a RunAgentInput as JSON: ${messageOf(error)}` })
    }
    const checked = RunAgentInputSchema.safeParse(input)
    if (!checked.success) return sendJson(response, 422, { error: 'Not a valid RunAgentInput', issues: checked.error.issues })
    requests.push({ agent: name, input })

    const encoder = new EventEncoder({ accept: request.headers.accept })
    response.writeHead(200, { 'Content-Type': encoder.getContentType(), 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' })
    response.flushHeaders()
    const controller = new AbortController()
    const { signal } = controller
    running.add(controller)
    response.on('close', () => controller.abort())
    let events = 0
    const started = Date.now()
    const stream: AgentStream = {
      emit(event) {
        if (signal.aborted) return
        events++
        response.write(encoder.encodeBinary(event))
      },
      pause: (tokens = 1) => sleep(delayMs * tokens, undefined, { signal }),
    }
    try {
      await agent(input, stream, attemptOf(input))
    } catch (error) {
      // A client that went away is not an error; anything else ends the run as AG-UI says it should.
      if (!signal.aborted) stream.emit({ type: EventType.RUN_ERROR, message: messageOf(error), code: 'AGENT_ERROR' })
    } finally {
      running.delete(controller)
      const ending = signal.aborted ? 'stopped early' : `${events} events`
      log?.(`${name.padEnd(8)}${describe(input)} → ${ending}, ${((Date.now() - started) / 1000).toFixed(1)} s`)
      response.end()
    }
  }

  return {
    requests,
    handle(request, response, next) {
      const url = new URL(request.url ?? '/', 'http://localhost')
      const match = /^\/agents\/([\w-]+)\/?$/.exec(url.pathname)
      if (!match) {
        if (next) next()
        else sendJson(response, 404, { error: 'Not found' })
        return
      }
      const name = match[1]!
      const agent = Object.hasOwn(agents, name) ? agents[name] : undefined
      if (!agent) return sendJson(response, 404, { error: `No agent named "${name}"; there are: ${Object.keys(agents).join(', ')}` })
      if (!allowCors(request, response)) return sendJson(response, 403, { error: 'Cross-origin requests are allowed from local origins only' })
      if (request.method === 'OPTIONS') {
        response.writeHead(204)
        return response.end()
      }
      if (request.method !== 'POST') {
        response.setHeader('Allow', 'POST')
        return sendJson(response, 405, { error: 'AG-UI endpoints take a POST with a RunAgentInput' })
      }
      serve(name, agent, request, response).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { error: messageOf(error) })
        else response.end()
      })
    },
    close() {
      for (const controller of running) controller.abort()
    },
  }
}

export interface AgentServerOptions extends AgentHandlerOptions {
  /** Default 0: any free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Also serve the files in this directory (the built example apps). */
  staticDir?: string
}

export interface AgentServer {
  /** The server's origin, e.g. http://127.0.0.1:8000; the agents are at `${url}/agents/<name>`. */
  url: string
  readonly requests: RecordedRequest[]
  close(): Promise<void>
}

export async function startAgentServer(options: AgentServerOptions = {}): Promise<AgentServer> {
  const { port = 0, host = '127.0.0.1', staticDir } = options
  const handler = createAgentHandler(options)
  const root = staticDir === undefined ? undefined : resolve(staticDir)
  const server = createServer((request, response) => {
    handler.handle(request, response, () => {
      if (!root) return sendJson(response, 404, { error: 'Not found' })
      serveFile(root, request, response).catch((error: unknown) => sendJson(response, 500, { error: messageOf(error) }))
    })
  })
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(port, host, done)
  })
  const address = server.address() as AddressInfo
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${hostname}:${address.port}`,
    requests: handler.requests,
    close() {
      handler.close()
      return new Promise<void>((done) => {
        server.close(() => done())
        for (const socket of sockets) socket.destroy()
      })
    },
  }
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
}

async function serveFile(root: string, request: IncomingMessage, response: ServerResponse) {
  if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { error: 'Method not allowed' })
  const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
  let file = join(root, pathname)
  if (file !== root && !file.startsWith(root + sep)) return sendJson(response, 403, { error: 'Forbidden' })
  let info = await stat(file).catch(() => undefined)
  if (info?.isDirectory()) {
    // A page's relative links resolve against its folder: /vue-writer → /vue-writer/.
    if (!pathname.endsWith('/')) {
      response.writeHead(301, { Location: `${pathname}/` })
      return response.end()
    }
    file = join(file, 'index.html')
    info = await stat(file).catch(() => undefined)
  }
  if (!info?.isFile()) return sendJson(response, 404, { error: 'Not found' })
  response.writeHead(200, { 'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream', 'Content-Length': info.size })
  if (request.method === 'HEAD') return response.end()
  createReadStream(file).pipe(response)
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      body += chunk
      if (body.length > maxBodyBytes) {
        fail(new Error('the body is too large'))
        request.destroy()
      }
    })
    request.on('end', () => done(body))
    request.on('error', fail)
  })
}

// A page on another local port (a Vite app calling http://127.0.0.1:8000/agents/writer directly) is
// cross-origin: the browser sends a preflight first. Local origins only, since the agents trust their input.
const localOrigin = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/

/** Adds the CORS headers a local origin needs; false for a cross-origin request from anywhere else. */
function allowCors(request: IncomingMessage, response: ServerResponse): boolean {
  const origin = request.headers.origin
  // Browsers send Origin on same-origin POSTs too: those need nothing, whatever the host.
  if (origin === undefined || origin.replace(/^https?:\/\//, '') === request.headers.host) return true
  if (!localOrigin.test(origin)) return false
  response.setHeader('Access-Control-Allow-Origin', origin)
  response.setHeader('Vary', 'Origin')
  if (request.method === 'OPTIONS') {
    response.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS')
    response.setHeader('Access-Control-Allow-Headers', request.headers['access-control-request-headers'] ?? 'content-type, accept')
    response.setHeader('Access-Control-Max-Age', '600')
  }
  return true
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'Content-Type': 'application/json' })
  response.end(JSON.stringify(body))
}

/** One line about what a request asks: the last message, or the answers it carries. */
function describe(input: RunAgentInput): string {
  const quote = (text: string) => `"${text.length > 48 ? `${text.slice(0, 47)}…` : text}"`
  if (input.resume?.length) {
    return input.resume.map((entry) => `resume ${entry.status} ${JSON.stringify(entry.payload ?? {}).slice(0, 40)}`).join(', ')
  }
  const last = input.messages[input.messages.length - 1]
  if (!last) return '(no messages)'
  return `${last.role}: ${quote(textOf(last.content))}`
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
