import { render } from '@testing-library/vue'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { expectQuickStartMirrored, expectQuickStartWorked, type ReadmeServer, startReadmeServer, useQuickStart } from '../../../test/readme-server'
import QuickStart from './QuickStart.vue'

let readme: ReadmeServer
beforeAll(async () => {
  readme = await startReadmeServer()
})
afterAll(() => readme.close())

describe('README', () => {
  it('has a quick start of at most ten lines, mirrored by QuickStart.vue', () => {
    expectQuickStartMirrored(import.meta.url, './QuickStart.vue', 'vue')
  })

  it('runs as written against the example server: write, reject, write, approve, with the buttons the store allows', async () => {
    const warnings = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')]
    const { container } = render(QuickStart)
    expectQuickStartWorked(await useQuickStart(container, readme.server))
    for (const warning of warnings) expect(warning).not.toHaveBeenCalled()
  })
})
