import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const readme = read('README.md')
// The README's quick start is the React package's, which packages/react/test/readme.test.tsx runs against the example server.
const quickStartPath = 'packages/react/test/quick-start.tsx'
const quickStart = read(quickStartPath)

/** What biome's formatter makes of `text` as the file at `path` (the repository's biome.json applies). */
const biomeFormat = (text: string, path: string) =>
  execFileSync(join(root, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${path}`], { cwd: root, input: text, encoding: 'utf8' })

/** The guides, each linked from the README's documentation table. */
const guides = [
  'getting-started',
  'react',
  'vue',
  'svelte',
  'angular',
  'solid',
  'ssr',
  'devtools',
  'testing',
  'drafts-and-confirmations',
  'editing-state',
  'threads-and-persistence',
  'reconnect',
  'branches',
  'servers',
].map((page) => `docs/guides/${page}.md`)

describe('the root README', () => {
  it(`has a quick start identical to ${quickStartPath} (which tsc compiles), biome-formatted, no line over 100 characters`, () => {
    const start = readme.indexOf('```tsx\n', readme.indexOf('## Quick start')) + '```tsx\n'.length
    const block = readme.slice(start, readme.indexOf('```', start))
    expect(block).toBe(quickStart)
    expect(biomeFormat(block, quickStartPath)).toBe(block)
    expect(block.split('\n').filter((line) => line.length > 100)).toEqual([])
  })

  it('installs the quick start without @ag-ui/client', () => {
    // The install line ends at the tarballs: the store's own transport needs no @ag-ui/client.
    expect(readme).toContain('../agent-state/dist/agent-state-core-0.1.0.tgz ../agent-state/dist/agent-state-react-0.1.0.tgz\n')
    expect(readme).toContain('`npm install @agent-state/react`')
    expect(quickStart).not.toContain('@ag-ui/client')
  })

  it('shows the two set-up commands', () => {
    expect(readme).toContain('npm install && npm start')
    expect(readme).toContain('npm test')
  })

  it('is at most 15,000 bytes, with no line over 120 characters outside its tables', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15_000)
    expect(readme.split('\n').filter((line) => line.length > 120 && !line.startsWith('|'))).toEqual([])
  })

  it('shows a draft waiting for Approve in a picture under 150 kB (test/browser/capture-draft-approve.ts makes it)', () => {
    expect(readme).toContain('](docs/public/draft-approve.png)')
    expect(statSync(join(root, 'docs/public/draft-approve.png')).size).toBeLessThan(150_000)
  })

  it('links only to files of the repository that exist (or to the guide pages planned on other branches)', () => {
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^(https?:|mailto:|#)/.test(target))
    const paths = targets.map((target) => target.replace(/#.*$/, ''))
    expect(paths.length).toBeGreaterThan(20)
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([])
    // Every page of the docs the README's table names is linked.
    for (const page of ['docs/why.md', 'docs/concepts/how-it-works.md', 'docs/reference/ag-ui-client.md', ...guides]) expect(paths).toContain(page)
  })
})
