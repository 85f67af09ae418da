/** @jsxImportSource solid-js */
import { render } from 'solid-js/web'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { expectQuickStartMirrored, expectQuickStartWorked, type ReadmeServer, startReadmeServer, useQuickStart } from '../../../test/readme-server'
import { Writer } from './quick-start'

let readme: ReadmeServer
beforeAll(async () => {
  readme = await startReadmeServer()
})
afterAll(() => readme.close())

// This repository compiles JSX for React unless a file says otherwise: the mirror's first line does, an app's tsconfig would.
const pragma = '/** @jsxImportSource solid-js */\n'

describe('README', () => {
  it('has a quick start mirrored by quick-start.tsx (after its JSX pragma), as Biome formats it: at most 30 lines of at most 100 characters', () => {
    expectQuickStartMirrored({ testFile: import.meta.url, mirror: './quick-start.tsx', lang: 'tsx', pragma })
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
