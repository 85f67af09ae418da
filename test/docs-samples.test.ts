// Type-checks every ```ts and ```tsx block of the docs pages (docs/**/*.md but the generated docs/api/ and
// docs/.vitepress/), each compiled as its own module against the packages' source, under the root tsconfig
// plus `exactOptionalPropertyTypes` and Vite's client types. A Solid block (one importing solid-js or
// @agent-state/solid) gets Solid's JSX. Blocks in ```vue, ```svelte, ```html and the rest are not checked.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { checkSamples, docsPages, type Sample, type SampleError, samplesOf } from './docs-samples/samples'

const root = fileURLToPath(new URL('..', import.meta.url))
const pages = docsPages(root).map((page) => ({ page, samples: samplesOf(page, readFileSync(`${root}/${page}`, 'utf8')) }))
const checked = pages.filter(({ samples }) => samples.length > 0)

// Pages made up for the check itself: it must find blocks whatever their fence meta, and fail on a wrong name.
const madeUp = 'docs/made-up.md'
const madeUpPage = [
  '# A page',
  '```ts [store.ts]',
  "import { createAgentStore } from '@agent-state/core'",
  "export const store = createAgentStore({ url: '/api/agent', initialState: { document: '' } })",
  '```',
  '````md',
  '```ts',
  'not checked: quoted inside a markdown block',
  '```',
  '````',
  '```vue',
  '<script setup lang="ts">const notChecked: number = "text"</script>',
  '```',
  '```ts twoslash',
  "import { createAgentStorre } from '@agent-state/core'",
  'createAgentStorre',
  '```',
  '```tsx{2}',
  "import { useAgentStore } from '@agent-state/react'",
  'export const View = () => <p>{String(useAgentStore)}</p>',
  '```',
].join('\n')

let errors: SampleError[] = []
beforeAll(() => {
  const samples: Sample[] = [...checked.flatMap(({ samples }) => samples), ...samplesOf(madeUp, madeUpPage)]
  errors = checkSamples(root, samples)
}, 180_000)

describe('the code blocks of the docs', () => {
  it('are found whatever their fence meta, and a wrong API name fails with the line on the page', () => {
    expect(samplesOf(madeUp, madeUpPage).map(({ line, language }) => [line, language])).toEqual([
      [3, 'ts'],
      [15, 'ts'],
      [19, 'tsx'],
    ])
    const found = errors.filter(({ page }) => page === madeUp).map(({ message }) => message)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(/^docs\/made-up\.md:15:10 TS2724: .*'createAgentStorre'/)
  })

  it('are found in the pages under docs/', () => {
    expect(checked.map(({ page }) => page)).toContain('docs/guides/getting-started.md')
    expect(checked.flatMap(({ samples }) => samples).length).toBeGreaterThanOrEqual(20)
  })

  it.each(checked.map(({ page }) => page))('%s', (page) => {
    expect(errors.filter((error) => error.page === page).map(({ message }) => message)).toEqual([])
  })
})
