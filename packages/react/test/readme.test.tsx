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
  it('has a quick start mirrored by quick-start.tsx, as Biome formats it: at most 30 lines of at most 100 characters', () => {
    expectQuickStartMirrored({ testFile: import.meta.url, mirror: './quick-start.tsx', lang: 'tsx' })
  })

  it('has a Branches snippet mirrored by quick-start-branches.tsx, as Biome formats it: at most 30 lines of at most 100 characters', () => {
    expectQuickStartMirrored({ testFile: import.meta.url, mirror: './quick-start-branches.tsx', lang: 'tsx', section: '## Branches' })
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
