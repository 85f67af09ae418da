// The core loads no package at run time: it checks events and restored threads with its own
// shapes, frames SSE itself, and reads an @ag-ui/client agent through the Observable the agent
// returns. An app that passes `url` ships neither @ag-ui/client nor @ag-ui/core, zod or rxjs; one
// that passes an agent has them already.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { expect, it } from 'vitest'

const src = fileURLToPath(new URL('../src', import.meta.url))

/**
 * The specifiers a source file loads when it runs. `import type` and `export type` are erased;
 * `import { type A } from` is not (verbatimModuleSyntax keeps it as an import of the module).
 */
function runTimeImports(text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(/^[ \t]*(?:import|export)\s+([\w$\s{},*]*?)\s*from\s*['"]([^'"]+)['"]/gm)) {
    if (!/^type\s/.test(match[1] ?? '')) found.push(match[2] ?? '')
  }
  for (const match of text.matchAll(/^[ \t]*import\s*['"]([^'"]+)['"]/gm)) found.push(match[1] ?? '')
  for (const match of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]/g)) found.push(match[1] ?? '')
  return found
}

/** Every specifier a source file names, type imports included: what its declaration file will import. */
function allImports(text: string): string[] {
  return [...text.matchAll(/^[ \t]*(?:import|export)\s+[\w$\s{},*]*?\s*from\s*['"]([^'"]+)['"]/gm)].map((match) => match[1] ?? '')
}

/** The source files reachable from `entry` through run-time imports, and the packages they load (`file: package`). */
function runTimeGraph(entry: string, importsOf = runTimeImports) {
  const files = new Set<string>()
  const packages: string[] = []
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) packages.push(`${relative(src, file)}: ${specifier}`)
      else visit([`${join(dirname(file), specifier)}.ts`, join(dirname(file), specifier, 'index.ts')].find((path) => existsSync(path)) ?? specifier)
    }
  }
  visit(join(src, entry))
  return { files: [...files].map((file) => relative(src, file)), packages }
}

it('the source reachable from src/index.ts loads nothing from @ag-ui/client, @ag-ui/core, rxjs or any other package', () => {
  const { files, packages } = runTimeGraph('index.ts')
  expect(files).toContain('transport/connect-run.ts')
  expect(files).toContain('transport/http-transport.ts')
  expect(packages).toStrictEqual([])
})

it('the walk sees what a run-time import loads: the testing entry loads @ag-ui/client and rxjs', () => {
  expect(runTimeGraph('testing.ts').packages).toStrictEqual(['testing.ts: @ag-ui/client', 'testing.ts: rxjs'])
})

it('the types of the main entry name no package but @ag-ui/core: an app without @ag-ui/client type-checks', () => {
  const packages = new Set(runTimeGraph('index.ts', allImports).packages.map((entry) => entry.split(': ')[1]))
  expect([...packages]).toStrictEqual(['@ag-ui/core'])
})

it('a bundle of createAgentStore holds no package: no zod, no @ag-ui/core, no rxjs', async () => {
  const result = await build({
    stdin: { contents: "export { createAgentStore } from './src/index.ts'", resolveDir: new URL('..', import.meta.url).pathname, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const inputs = Object.keys(result.metafile.inputs)
  expect(inputs.filter((input) => input.includes('node_modules/'))).toStrictEqual([])
  expect(inputs.filter((input) => input.endsWith('src/transport/connect-run.ts'))).toHaveLength(1)
})
