import { render } from '@testing-library/svelte'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  expectQuickStartMirrored,
  expectQuickStartWorked,
  expectSwitcherWorked,
  type ReadmeServer,
  startReadmeServer,
  storeWithTwoVersions,
  useQuickStart,
} from '../../../test/readme-server'
import QuickStart from './QuickStart.svelte'
import QuickStartBranches from './QuickStartBranches.svelte'

let readme: ReadmeServer
beforeAll(async () => {
  readme = await startReadmeServer()
})
afterAll(() => readme.close())

describe('README', () => {
  it('has a quick start of at most ten lines, mirrored by QuickStart.svelte', () => {
    expectQuickStartMirrored(import.meta.url, './QuickStart.svelte', 'svelte')
  })

  it('has a Branches snippet of at most ten lines, mirrored by QuickStartBranches.svelte', () => {
    expectQuickStartMirrored(import.meta.url, './QuickStartBranches.svelte', 'svelte', '../README.md', '## Branches')
  })

  it('has a Branches switcher that shows where the message stands and switches the store', async () => {
    const versions = await storeWithTwoVersions()
    const { container } = render(QuickStartBranches, { props: versions })
    await expectSwitcherWorked(container, versions)
  })

  it('runs as written against the example server: write, reject, write, approve, with the buttons the store allows', async () => {
    const warnings = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')]
    const { container } = render(QuickStart)
    expectQuickStartWorked(await useQuickStart(container, readme.server))
    for (const warning of warnings) expect(warning).not.toHaveBeenCalled()
  })
})
