// The panel in Chromium: a page with a store and the panel is built with esbuild and served here;
// the test drives the panel as a developer would and replays its exported file in node.
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { replayRecording } from '@agent-state/devtools'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Browser, launchBrowser, screenshotsDir } from '../../../../test/browser/harness'

let server: Server
let url: string
let browser: Browser

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./page.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  })
  const script = bundled.outputFiles[0]!.text
  const html =
    '<!doctype html><meta charset="utf-8"><title>devtools</title><link rel="icon" href="data:,"><h1>Writer</h1><pre id="document"></pre><script type="module" src="/page.js"></script>'
  server = createServer((request, response) => {
    if (request.url === '/page.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    else if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(html)
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => server?.close(resolve))
})

describe('<agent-state-devtools> in Chromium', () => {
  it('lists a run’s inputs, shows a diff, jumps back, and exports a file that replays in node', async () => {
    const { page, errors } = await browser.newPage()
    await page.goto(url)
    const panel = page.locator('agent-state-devtools')
    await panel.getByRole('button', { name: 'agent-state' }).click()
    await page.evaluate(() => (window as unknown as { run(): Promise<void> }).run())
    const rows = panel.getByRole('listbox', { name: 'Inputs' }).getByRole('option')
    // A normal end: RUN_FINISHED is the last input (the response closing after it is none).
    await expect.poll(async () => (await rows.last().textContent())?.split(' ')[1], { timeout: 5000 }).toBe('event/RUN_FINISHED')
    // An input that changed nothing (abort() with no run) is shown dimmed.
    await page.evaluate(() => (window as unknown as { store: { abort(): void } }).store.abort())
    await expect.poll(async () => (await rows.last().textContent())?.split(' ')[1], { timeout: 5000 }).toBe('abort')
    expect(await rows.count()).toBeGreaterThan(30)
    const types = await rows.evaluateAll((items) => items.map((item) => item.textContent?.split(' ')[1]))
    expect(types[0]).toBe('run')
    expect(types).toContain('event/TOOL_CALL_ARGS')
    expect(types).not.toContain('failed')
    expect(types.at(-2)).toBe('event/RUN_FINISHED')
    expect(await rows.last().getAttribute('class')).toBe('unchanged')
    expect(await rows.first().getAttribute('class')).toBeNull()

    // Only the tool call's inputs, then one argument chunk and its diff.
    await panel.getByRole('textbox', { name: 'Tool call id' }).fill(
      await page.evaluate(() => {
        const store = (window as unknown as { store: { getState(): { predictions: { toolCallId?: string }[] } } }).store
        return store.getState().predictions[0]!.toolCallId!
      }),
    )
    await panel.getByRole('combobox', { name: 'Type' }).selectOption('event/TOOL_CALL_ARGS')
    await expect.poll(async () => (await rows.allTextContents()).every((text) => text.includes('event/TOOL_CALL_ARGS')), { timeout: 5000 }).toBe(true)
    const argsRows = await rows.count()
    const pick = rows.nth(Math.floor(argsRows / 2))
    const picked = Number(await pick.getAttribute('data-index'))
    await pick.click()
    await expect.poll(() => panel.locator('h3').textContent(), { timeout: 5000 }).toBe(`#${picked} event/TOOL_CALL_ARGS`)
    const diffText = await panel.locator('pre[data-part=state]').textContent()
    expect(diffText).toMatch(/^state replace \/document "/)
    expect(await panel.locator('pre[data-part=committed]').count()).toBe(0)
    expect(await panel.locator('ul.drafts li').first().textContent()).toContain('document (streaming)')
    await page.screenshot({ path: join(screenshotsDir, 'devtools-panel.png') })

    // Jump: the page shows the document as it was at that chunk.
    const expected = await page.evaluate(
      (index) =>
        (window as unknown as { devtools: { recorder: { entry(i: number): { snapshot: { state: { document: string } } } } } }).devtools.recorder.entry(index)
          .snapshot.state.document,
      picked,
    )
    await panel.getByRole('button', { name: 'Jump' }).click()
    await expect.poll(() => page.locator('#document').textContent(), { timeout: 5000 }).toBe(expected)
    expect(expected.length).toBeGreaterThan(0)
    // The panel renders at most once per 16 ms, so its header may lag the page by a frame.
    await expect.poll(() => panel.locator('.count').textContent(), { timeout: 5000 }).toContain(`at #${picked}`)

    // Export, then replay the downloaded file in node: the same snapshots, ending where the page is.
    const downloading = page.waitForEvent('download')
    await panel.getByRole('button', { name: 'Export' }).click()
    const text = await readFile((await (await downloading).path())!, 'utf8')
    const replay = replayRecording(text)
    expect(replay.snapshots).toHaveLength(picked + 1)
    const pageState = await page.evaluate(() => (window as unknown as { store: { getState(): { state: unknown; messages: unknown } } }).store.getState())
    expect(replay.store.getState().state).toEqual(pageState.state)
    expect(replay.store.getState().messages).toEqual(pageState.messages)
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)
})
