// Makes docs/public/draft-approve.png, the README's picture: the Vue writer of the demo with a
// story drafted by the example server's writer agent, waiting for Approve or Reject.
// Rerun: node --conditions=source --import tsx test/browser/capture-draft-approve.ts
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { createServer } from 'vite'
import { agentEndpoints } from '../../examples/server/vite-plugin'

const root = fileURLToPath(new URL('../..', import.meta.url))
const output = join(root, 'docs/public/draft-approve.png')

const server = await createServer({
  configFile: join(root, 'examples/vite.config.ts'),
  plugins: [agentEndpoints({ delayMs: 2 })],
  server: { port: 0, host: '127.0.0.1' },
  logLevel: 'error',
})
await server.listen()
const address = server.httpServer?.address()
if (!address || typeof address === 'string') throw new Error('The demo server has no port')

const profile = await mkdtemp(join(tmpdir(), 'agent-state-capture-'))
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  viewport: { width: 1100, height: 680 },
})
try {
  const page = await context.newPage()
  await page.goto(`http://127.0.0.1:${address.port}/vue-writer/`)
  const message = page.getByRole('textbox', { name: 'Message' })
  await message.fill('Write a story')
  await message.press('Enter')
  await page.getByRole('button', { name: 'Approve', exact: true }).waitFor({ timeout: 60_000 })
  await page.screenshot({ path: output, scale: 'css', type: 'png' })
  console.log(`${output}: ${(await stat(output)).size} bytes`)
} finally {
  await context.close()
  await server.close()
  await rm(profile, { recursive: true, force: true })
}
