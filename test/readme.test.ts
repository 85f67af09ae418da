import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')

describe('the root README', () => {
  it('has a quick start of at most ten lines, identical to test/readme-quick-start.tsx (which tsc compiles)', () => {
    const readme = read('../README.md')
    const start = readme.indexOf('```tsx\n', readme.indexOf('## Quick start')) + '```tsx\n'.length
    const block = readme.slice(start, readme.indexOf('```', start))
    expect(block).toBe(read('./readme-quick-start.tsx'))
    expect(block.trimEnd().split('\n').length).toBeLessThanOrEqual(10)
  })

  it("is the React package's quick start, which packages/react/test/readme.test.tsx runs against the example server, installed without @ag-ui/client", () => {
    expect(read('./readme-quick-start.tsx')).toBe(read('../packages/react/test/quick-start.tsx'))
    const readme = read('../README.md')
    // The install line ends at the tarballs: the store's own transport needs no @ag-ui/client.
    expect(readme).toContain('../agent-state/dist/agent-state-core-0.1.0.tgz ../agent-state/dist/agent-state-react-0.1.0.tgz\n')
    expect(readme).toContain('`npm install @agent-state/react`')
    expect(read('./readme-quick-start.tsx')).not.toContain('@ag-ui/client')
  })

  it('shows the two set-up commands', () => {
    const readme = read('../README.md')
    expect(readme).toContain('npm install && npm start')
    expect(readme).toContain('npm test')
  })
})
