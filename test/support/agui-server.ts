import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { EventEncoder } from '@ag-ui/encoder'
import { listenOnLoopback } from './loopback'

/** What a scripted endpoint does with one request: events to stream, or full control of the response. */
export type Script = readonly BaseEvent[] | ((input: RunAgentInput, response: ServerResponse) => readonly BaseEvent[] | Promise<void> | void)

export interface TestServer {
  url: string
  /** Every request body received, parsed, in order. */
  requests: RunAgentInput[]
  close(): Promise<void>
}

/**
 * A real AG-UI endpoint on 127.0.0.1: POST a RunAgentInput, get `text/event-stream` framed by
 * @ag-ui/encoder. `scripts[n]` answers the n-th request (the last one repeats).
 */
export async function startAgUiServer(scripts: readonly Script[]): Promise<TestServer> {
  const requests: RunAgentInput[] = []
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request)
    const input = JSON.parse(body) as RunAgentInput
    const script = scripts[Math.min(requests.length, scripts.length - 1)]!
    requests.push(input)
    const events = typeof script === 'function' ? await script(input, response) : script
    if (!events) return
    const encoder = new EventEncoder({ accept: 'text/event-stream' })
    response.writeHead(200, { 'Content-Type': encoder.getContentType(), 'Cache-Control': 'no-cache' })
    for (const event of events) response.write(encoder.encode(event))
    response.end()
  })
  const loopback = await listenOnLoopback(server)
  return {
    url: loopback.url,
    requests,
    close: loopback.close,
  }
}

/** The whole request body as text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => resolve(body))
    request.on('error', reject)
  })
}
