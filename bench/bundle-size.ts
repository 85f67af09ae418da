// Issue 11's bundle size: what @agent-state/core adds to an app that already has @ag-ui/client
// (which brings rxjs, zod and fast-json-patch along), and what each binding adds on top of the
// core and its framework. esbuild `--bundle --minify --format=esm` of the packages' source (the
// `source` export condition), then gzip -9.

import { gzipSync } from 'node:zlib'
import { build, type Metafile } from 'esbuild'
import type { Row } from './harness'

const SCENARIO = '5. Bundle size (minified, gzip -9)'
const CORE_LIMIT = 15_000
const BINDING_LIMIT = 1_000
// What an app on @ag-ui/client has already.
const AG_UI_CLIENT = ['@ag-ui/*', 'rxjs', 'zod', 'fast-json-patch']

interface Bundle {
  minified: number
  gzip: number
  metafile: Metafile
}

async function bundle(specifier: string, external: readonly string[], names = '*'): Promise<Bundle> {
  const result = await build({
    stdin: { contents: `export ${names} from '${specifier}'`, resolveDir: new URL('..', import.meta.url).pathname, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['source'],
    external: [...external],
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]!.contents
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length, metafile: result.metafile }
}

/** The npm package an input of the bundle comes from, or undefined for the project's own files. */
function packageOf(input: string): string | undefined {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)
  return match?.[1]
}

/** The packages bundled besides our own code, from the metafile. */
function bundledPackages(metafile: Metafile): string[] {
  const names = new Set<string>()
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(input)
      if (name !== undefined && bytesInOutput > 0) names.add(name)
    }
  }
  return [...names].sort()
}

/**
 * Minified bytes per source file, largest first. gzip compresses across files, so a file's gzip
 * size is not defined on its own: it is estimated as its share of the minified bytes times the
 * bundle's gzip size (the shares add up to the total).
 */
function perFile(own: Bundle): { file: string; minified: number; gzip: number }[] {
  const files: { file: string; minified: number; gzip: number }[] = []
  for (const output of Object.values(own.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0 || input.startsWith('<stdin>')) continue
      const file = input.replace(/^packages\/core\/src\//, '')
      files.push({ file, minified: bytesInOutput, gzip: (bytesInOutput / own.minified) * own.gzip })
    }
  }
  return files.sort((a, b) => b.minified - a.minified)
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`

export async function benchBundleSize(): Promise<Row[]> {
  const withDependencies = await bundle('@agent-state/core', AG_UI_CLIENT)
  // What tree-shaking leaves to an app that imports the store and nothing else.
  const storeOnly = await bundle('@agent-state/core', AG_UI_CLIENT, '{ createAgentStore }')
  const dependencies = bundledPackages(withDependencies.metafile)
  const own = await bundle('@agent-state/core', [...AG_UI_CLIENT, ...dependencies])
  // A dependency's cost is what the bundle loses without it (each one external in turn).
  const dependencyRows: Row[] = []
  for (const name of dependencies) {
    const without = await bundle('@agent-state/core', [...AG_UI_CLIENT, name])
    dependencyRows.push({
      name: `of which ${name}`,
      value: kB(withDependencies.gzip - without.gzip),
      note: `${kB(withDependencies.minified - without.minified)} minified`,
    })
  }
  const files = perFile(own)
  console.log('  @agent-state/core, own code per file (minified, estimated gzip):')
  for (const { file, minified, gzip } of files) console.log(`    ${file.padEnd(28)} ${String(minified).padStart(6)} B  ${kB(gzip)}`)

  const bindings: Row[] = []
  for (const [name, framework] of [
    ['react', ['react', 'react/*', 'react-dom']],
    ['vue', ['vue', '@vue/*']],
    ['svelte', ['svelte', 'svelte/*']],
  ] as const) {
    const binding = await bundle(`@agent-state/${name}`, [...framework, '@agent-state/core'])
    bindings.push({
      name: `@agent-state/${name} (${framework[0]} and the core external)`,
      value: kB(binding.gzip),
      target: '< 1 kB',
      pass: binding.gzip < BINDING_LIMIT,
      note: `${binding.gzip} B gzip, ${binding.minified} B minified`,
    })
  }

  const perFileNote = files.map(({ file, minified, gzip }) => `${file} ${kB(gzip)} (${minified} B min)`).join(', ')
  return [
    {
      name: '@agent-state/core in an app that has @ag-ui/client',
      value: kB(withDependencies.gzip),
      target: '≤ 15 kB',
      pass: withDependencies.gzip <= CORE_LIMIT,
      note: `${withDependencies.gzip} B gzip, ${withDependencies.minified} B minified; esbuild --bundle --minify --format=esm of the source with ${AG_UI_CLIENT.join(', ')} external, then gzip -9`,
    },
    {
      name: 'of which our own code',
      value: kB(own.gzip),
      note: `${own.gzip} B gzip, ${own.minified} B minified. Per file (gzip estimated as the file's share of the minified bytes): ${perFileNote}`,
    },
    ...(dependencyRows.length > 0 ? dependencyRows : [{ name: 'of which other dependencies', value: 'none' }]),
    {
      name: 'an app that imports createAgentStore alone',
      value: kB(storeOnly.gzip),
      note: `${storeOnly.gzip} B gzip, ${storeOnly.minified} B minified: the store needs its machine, reducers, patcher, partial-JSON reader and transport whatever the app uses; saved threads come only with persistThread / restoreThread / serializeThread`,
    },
    ...bindings,
  ].map((row) => ({ scenario: SCENARIO, ...row }))
}
