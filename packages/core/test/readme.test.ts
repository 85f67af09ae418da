import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { storyFor } from '../../../examples/server/content'
import { expectQuickStartMirrored, type ReadmeServer, startReadmeServer } from '../../../test/readme-server'

let readme: ReadmeServer
beforeAll(async () => {
  readme = await startReadmeServer()
})
afterAll(() => readme.close())

describe('README', () => {
  it('has a quick start mirrored by quick-start.ts, as Biome formats it: at most 30 lines of at most 100 characters', () => {
    expectQuickStartMirrored({ testFile: import.meta.url, mirror: './quick-start.ts', lang: 'ts' })
  })

  it('runs as written against the example server, in node: the story drafted, approved and printed', async () => {
    const lines: unknown[][] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args))
    await import('./quick-start')
    const story = storyFor('Write a story about a dog')
    // How the resumed run starts (through 'idle' or not) is the store's detail; the ends of the story are not.
    expect(lines.slice(0, 2)).toEqual([
      ['running', 0],
      ['interrupted', story.length],
    ])
    expect(lines.slice(-3)).toEqual([['running', story.length], ['idle', story.length], [story]])
    expect(readme.server.requests.map(({ input }) => [input.state, input.resume?.[0]?.payload])).toEqual([
      [{ document: '' }, undefined],
      [{ document: story }, { accepted: true }],
    ])
  })
})
