/** @jsxImportSource solid-js */
import { readFileSync } from 'node:fs'
import { render } from 'solid-js/web'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { expectQuickStartWorked, type ReadmeServer, startReadmeServer, useQuickStart } from '../../../test/readme-server'
import { Writer } from './quick-start'

let readme: ReadmeServer
beforeAll(async () => {
  readme = await startReadmeServer()
})
afterAll(() => readme.close())

// This repository compiles JSX for React unless a file says otherwise: the mirror's first line does, an app's tsconfig would.
const pragma = '/** @jsxImportSource solid-js */\n'

describe('README', () => {
  it('has a quick start of at most ten lines, mirrored by quick-start.tsx (after its JSX pragma)', () => {
    const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')
    const text = read('../README.md')
    const start = text.indexOf('```tsx\n', text.indexOf('## Quick start')) + '```tsx\n'.length
    const code = text.slice(start, text.indexOf('```', start))
    const mirror = read('./quick-start.tsx')
    expect(mirror.startsWith(pragma)).toBe(true)
    expect(code).toBe(mirror.slice(pragma.length))
    expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(10)
  })

  it('runs as written against the example server: write, reject, write, approve, with the buttons the store allows', async () => {
    const warnings = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')]
    const container = document.body.appendChild(document.createElement('div'))
    const dispose = render(() => <Writer />, container)
    expectQuickStartWorked(await useQuickStart(container, readme.server))
    dispose()
    for (const warning of warnings) expect(warning).not.toHaveBeenCalled()
  })
})
