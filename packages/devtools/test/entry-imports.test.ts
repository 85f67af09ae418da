import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

// What each entry makes an app install: the recorder and the panel work without @ag-ui/client,
// only the testing entry (a ScriptedAgent is an @ag-ui/client agent) needs it.

async function packagesImportedBy(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../src/${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    logLevel: 'silent',
  })
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path))
  return [...new Set(imports)].sort()
}

describe('the packages each devtools entry imports', () => {
  it('the recorder (index) and the panel import only the core and its internals', async () => {
    expect(await packagesImportedBy('index.ts')).toStrictEqual(['@agent-state/core', '@agent-state/core/internals'])
    expect(await packagesImportedBy('panel.ts')).toStrictEqual(['@agent-state/core', '@agent-state/core/internals'])
  })

  it('the testing entry adds the core testing helpers, which bring @ag-ui/client', async () => {
    expect(await packagesImportedBy('testing.ts')).toStrictEqual(['@agent-state/core', '@agent-state/core/internals', '@agent-state/core/testing'])
  })
})
