// The example server run on its own (examples/server/main.ts) called from a page on another local
// origin: Chromium sends the CORS preflight, and the run streams back.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AgentServer, startAgentServer } from '../../examples/server/server'
import { type Browser, launchBrowser } from './harness'

let agents: AgentServer
let site: AgentServer
let browser: Browser
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-state-cors-'))
  await writeFile(join(dir, 'index.html'), '<!doctype html><link rel="icon" href="data:,"><title>another origin</title>')
  browser = await launchBrowser()
  agents = await startAgentServer({ delayMs: 0 })
  site = await startAgentServer({ delayMs: 0, staticDir: dir })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await agents?.close()
  await site?.close()
  await rm(dir, { recursive: true, force: true })
})

const input = {
  threadId: 't1',
  runId: 'r1',
  state: { document: '' },
  messages: [{ id: 'm1', role: 'user', content: 'Write a story' }],
  tools: [],
  context: [],
  forwardedProps: {},
}

describe('the example server on its own', () => {
  it('answers the preflight of a page on another local port, which then reads the whole run', async () => {
    expect(new URL(site.url).origin).not.toBe(new URL(agents.url).origin)
    const { page, errors } = await browser.newPage()
    await page.goto(`${site.url}/`)
    const body = await page.evaluate(
      async ({ url, input }) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
          body: JSON.stringify(input),
        })
        return { status: response.status, text: await response.text() }
      },
      { url: `${agents.url}/agents/writer`, input },
    )
    expect(body.status).toBe(200)
    expect(body.text).toContain('"type":"RUN_STARTED"')
    expect(body.text).toContain('"type":"RUN_FINISHED"')
    expect(agents.requests).toHaveLength(1)
    expect(errors).toEqual([])
    await page.close()
  })

  it('allows local origins only', async () => {
    const preflight = (origin: string) =>
      fetch(`${agents.url}/agents/writer`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      })
    const local = await preflight('http://localhost:5173')
    expect([local.status, local.headers.get('access-control-allow-origin'), local.headers.get('access-control-allow-headers')]).toEqual([
      204,
      'http://localhost:5173',
      'content-type',
    ])
    const remote = await preflight('https://example.com')
    expect([remote.status, remote.headers.get('access-control-allow-origin')]).toEqual([403, null])
  })
})
