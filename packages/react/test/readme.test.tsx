import { render } from '@testing-library/react'
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
import { Writer } from './quick-start'
import { Versions } from './quick-start-branches'

let readme: ReadmeServer
const act = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
beforeAll(async () => {
  readme = await startReadmeServer()
  // Updates arrive from the network, as in a browser: no act() around them, and no warning asking for it.
  act.IS_REACT_ACT_ENVIRONMENT = false
})
afterAll(() => readme.close())

describe('README', () => {
  it('has a quick start of at most ten lines, mirrored by quick-start.tsx', () => {
    expectQuickStartMirrored(import.meta.url, './quick-start.tsx', 'tsx')
  })

  it('has a Branches snippet of at most ten lines, mirrored by quick-start-branches.tsx', () => {
    expectQuickStartMirrored(import.meta.url, './quick-start-branches.tsx', 'tsx', '../README.md', '## Branches')
  })

  it('has a Branches switcher that shows where the message stands and switches the store', async () => {
    const versions = await storeWithTwoVersions()
    const { container } = render(<Versions {...versions} />)
    await expectSwitcherWorked(container, versions)
  })

  it('runs as written against the example server: write, reject, write, approve, with the buttons the store allows', async () => {
    const errors = vi.spyOn(console, 'error')
    const { container } = render(<Writer />)
    expectQuickStartWorked(await useQuickStart(container, readme.server))
    expect(errors).not.toHaveBeenCalled()
  })
})
