// The demo's Vue writer against the real LangGraph server (the `npm run start:langgraph` set-up:
// /agents/writer proxied by the examples' Vite plugin), driven in Debian's Chromium: draft → approve.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RunAgentInput } from '@ag-ui/core'
import { type PreviewServer, preview } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentEndpoints } from '../../examples/server/vite-plugin'
import { type Browser, buildExamples, launchBrowser, recorded, recordInPage, screenshotsDir } from '../browser/harness'
import { type LoggedRun, servers } from './support'

const root = fileURLToPath(new URL('../..', import.meta.url))

let browser: Browser
let server: PreviewServer

beforeAll(async () => {
  // Its own build directory: the integration project's browser test builds into another one at the same time.
  const building = buildExamples('real-servers-examples-build')
  building.catch(() => undefined)
  browser = await launchBrowser()
  const outDir = await building
  server = await preview({
    configFile: join(root, 'examples/vite.config.ts'),
    build: { outDir },
    plugins: [agentEndpoints({ agentUrl: `${servers.langgraph}/{agent}` })],
    preview: { port: 0, host: '127.0.0.1' },
    logLevel: 'error',
  })
}, 150_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('vue-writer on the real LangGraph server', () => {
  it('streams the draft, shows it while the approval waits, and keeps it on Approve', async () => {
    const { page, errors } = await browser.newPage()
    await page.goto(`${server.resolvedUrls!.local[0]}vue-writer/`)
    const input = page.getByRole('textbox', { name: 'Message' })
    await input.waitFor()
    await recordInPage(page, 'shown', () => document.querySelector('[data-testid=document]')?.textContent ?? '')
    const request = `Write a story about a lighthouse keeper ${Date.now()}`
    await input.fill(request)
    await input.press('Enter')

    const approval = page.getByTestId('approval')
    await approval.waitFor({ timeout: 20_000 })
    // While the approval waits, the page shows the draft the model wrote, not the empty document.
    const documentText = await page.getByTestId('document').textContent()
    expect(documentText).toContain('written by a scripted model on a real LangGraph server')
    expect(await page.getByText('Draft · not approved').count()).toBe(1)
    await page.screenshot({ path: join(screenshotsDir, 'real-langgraph-writer-draft.png') })

    await page.getByRole('button', { name: 'Approve', exact: true }).click()
    await page.getByText('Saved. Anything else?').waitFor({ timeout: 20_000 })
    await approval.waitFor({ state: 'detached' })
    expect(await page.getByText('Draft · not approved').count()).toBe(0)
    expect(await page.getByTestId('document').textContent()).toContain('written by a scripted model on a real LangGraph server')
    await page.screenshot({ path: join(screenshotsDir, 'real-langgraph-writer.png') })

    // The document grew while it streamed (the default turn is paced): distinct renders, each a prefix of the last.
    const shown = await recorded<string>(page, 'shown')
    const final = shown[shown.length - 1]!
    const partial = shown.filter((text) => text.length > 0 && text !== final && final.startsWith(text))
    // At least one render between empty and final: on a loaded machine the server's SSE writes can arrive
    // batched, so how many more is not pinned here (examples.test.ts pins the growth against the example server).
    expect(partial.length).toBeGreaterThanOrEqual(1)
    for (let i = 1; i < partial.length; i++) expect(partial[i]!.length).toBeGreaterThan(partial[i - 1]!.length)

    // What the page sent: the request, then the structured resume with the draft as state.
    const log = (await (await fetch(`${servers.langgraph}/__log`)).json()) as LoggedRun[]
    const first = log.find((run) => JSON.stringify((run.body as RunAgentInput).messages).includes(request))!
    const threadId = (first.body as RunAgentInput).threadId
    const runs = log.filter((run) => (run.body as RunAgentInput).threadId === threadId).map((run) => run.body as RunAgentInput)
    expect(runs).toHaveLength(2)
    expect(runs[0]!.state).toEqual({ document: '' })
    expect(runs[1]!.resume).toEqual([{ interruptId: expect.any(String), status: 'resolved', payload: { accepted: true } }])
    expect((runs[1]!.state as { document: string }).document).toContain('written by a scripted model on a real LangGraph server')
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)
})
