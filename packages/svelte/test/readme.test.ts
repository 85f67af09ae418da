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
  it('has a quick start mirrored by QuickStart.svelte: at most 30 lines of at most 100 characters', () => {
    expectQuickStartMirrored({ testFile: import.meta.url, mirror: './QuickStart.svelte', lang: 'svelte' })
  })

  it('has a Branches snippet mirrored by QuickStartBranches.svelte: at most 30 lines of at most 100 characters', () => {
    expectQuickStartMirrored({ testFile: import.meta.url, mirror: './QuickStartBranches.svelte', lang: 'svelte', section: '## Branches' })
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
