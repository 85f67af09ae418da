// The store checks events and restored threads with its own shapes: an app that bundles the core
// (with @ag-ui/client left out, as the optional transport adapter leaves it) ships no zod, and
// takes from @ag-ui/core only the EventType constants and mergeMetadata.
import { build } from 'esbuild'
import { expect, it } from 'vitest'

it('a bundle of createAgentStore holds no zod and no @ag-ui/core schemas', async () => {
  const result = await build({
    stdin: { contents: "export { createAgentStore } from './src/index.ts'", resolveDir: new URL('..', import.meta.url).pathname, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    external: ['@ag-ui/client', 'rxjs'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const packaged = Object.keys(result.metafile.inputs)
    .filter((input) => input.includes('node_modules/'))
    .map((input) => input.replace(/^.*node_modules\//, ''))
  const packages = new Set(
    packaged.map((input) =>
      input
        .split('/')
        .slice(0, input.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
  )
  expect([...packages]).toStrictEqual(['@ag-ui/core'])
  expect(packaged).toContain('@ag-ui/core/dist/index.mjs')
  expect(packaged.filter((input) => input.includes('schemas'))).toStrictEqual([])
})
