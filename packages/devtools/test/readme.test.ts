import { readFileSync } from 'node:fs'
import { CORE_VERSION, DEVTOOLS_VERSION } from '@agent-state/devtools'
import { describe, expect, it, vi } from 'vitest'
import { expectQuickStartMirrored } from '../../../test/readme-server'

const version = (path: string) => (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { version: string }).version

describe('README', () => {
  it('has a quick start mirrored by quick-start.ts, as Biome formats it: at most 30 lines of at most 100 characters', () => {
    expectQuickStartMirrored({ testFile: import.meta.url, mirror: './quick-start.ts', lang: 'ts' })
  })

  it('prints what its comments say', async () => {
    const lines: unknown[][] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args))
    await import('./quick-start')
    expect(lines).toEqual([[[{ op: 'replace', path: '/count', value: 1 }]], [{ count: 1 }]])
  })

  it('writes the package versions into recordings as package.json says', () => {
    expect(DEVTOOLS_VERSION).toBe(version('../package.json'))
    expect(CORE_VERSION).toBe(version('../../core/package.json'))
  })
})
