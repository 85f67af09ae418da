// An HTTP proxy on 127.0.0.1 in front of a real server that breaks a response for real: after the
// k-th SSE event it writes, it closes the client's socket mid-body (no final chunk), and stops
// reading upstream, as a dropped network does. It records every request body and the events it
// passed on, so a test can compare the RunAgentInput a store sent with another's.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

export interface ProxiedEvent {
  type: string
  [key: string]: unknown
}

export interface ProxiedRequest {
  /** The request path, e.g. `/api/agent/writer/run`. */
  path: string
  /** The request body, parsed when JSON. */
  body: unknown
  /** The SSE events passed on to the client, in order. */
  events: ProxiedEvent[]
  /** True when the proxy broke this response. */
  cut: boolean
}

export interface DropProxy {
  /** The proxy's origin; paths are forwarded as they are. */
  readonly url: string
  readonly requests: readonly ProxiedRequest[]
  /** Breaks the next response of `threadId` to a path ending in `/<route>` once `afterEvents` events have been passed on. */
  drop(threadId: string, route: 'run' | 'connect', afterEvents: number): void
  /** The requests of one thread, optionally of one route, in order. */
  requestsOf(threadId: string, route?: 'run' | 'connect'): ProxiedRequest[]
  close(): Promise<void>
}

const threadOf = (body: unknown) => (body && typeof body === 'object' ? (body as { threadId?: unknown }).threadId : undefined)
const routeOf = (path: string) => path.split('?')[0]!.split('/').pop()

/** The `data:` payload of one SSE block, or undefined for comments and keep-alives. */
function dataOf(block: string): string | undefined {
  const lines = block.split('\n').filter((line) => line.startsWith('data:'))
  return lines.length ? lines.map((line) => line.slice(5).trimStart()).join('\n') : undefined
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startDropProxy(target: string): Promise<DropProxy> {
  const requests: ProxiedRequest[] = []
  const drops = new Map<string, number>()
  const key = (threadId: unknown, route: unknown) => `${String(threadId)}\u0000${String(route)}`

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? '/'
    const text = request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request)
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      // Not JSON: recorded as text.
    }
    const entry: ProxiedRequest = { path, body, events: [], cut: false }
    requests.push(entry)
    const dropKey = key(threadOf(body), routeOf(path))
    const cutAfter = drops.get(dropKey)
    drops.delete(dropKey)

    const headers = new Headers()
    for (const [name, value] of Object.entries(request.headers))
      if (name !== 'host' && name !== 'content-length' && name !== 'connection' && typeof value === 'string') headers.set(name, value)
    const upstreamAbort = new AbortController()
    response.on('close', () => upstreamAbort.abort())
    const upstream = await fetch(new URL(path, target), { method: request.method, headers, body: text, signal: upstreamAbort.signal })
    const responseHeaders: Record<string, string> = {}
    upstream.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') responseHeaders[name] = value
    })
    response.writeHead(upstream.status, responseHeaders)
    if (!upstream.body) return void response.end()

    const decoder = new TextDecoder()
    let pending = ''
    try {
      for await (const chunk of upstream.body) {
        pending += decoder.decode(chunk as Uint8Array, { stream: true })
        // Passed on block by block, so a cut falls exactly after an event.
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const block = pending.slice(0, end + 2)
          pending = pending.slice(end + 2)
          const data = dataOf(block.slice(0, -2))
          if (data !== undefined) entry.events.push(JSON.parse(data) as ProxiedEvent)
          if (data !== undefined && cutAfter !== undefined && entry.events.length === cutAfter) {
            entry.cut = true
            // Written, then the socket closed under the open chunked body: the client sees a broken connection.
            await new Promise<void>((resolve) => response.write(block, () => resolve()))
            response.socket?.destroy()
            upstreamAbort.abort()
            return
          }
          response.write(block)
        }
      }
    } catch (error) {
      if (!upstreamAbort.signal.aborted) throw error
      return
    }
    if (pending) response.write(pending)
    response.end()
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ error: String(error) }))
      } else response.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

  return {
    url,
    requests,
    drop(threadId, route, afterEvents) {
      drops.set(key(threadId, route), afterEvents)
    },
    requestsOf(threadId, route) {
      return requests.filter((entry) => threadOf(entry.body) === threadId && (route === undefined || routeOf(entry.path) === route))
    },
    close() {
      server.closeAllConnections()
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}
