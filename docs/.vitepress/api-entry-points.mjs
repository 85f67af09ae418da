// The public entry points of every package, read from each package.json's `exports` (`source` condition),
// so that the API reference cannot miss one. Also a TypeDoc plugin that names each module by its import path.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Converter, ReflectionKind } from 'typedoc'

const root = resolve(import.meta.dirname, '../..')
const readJson = (path) => JSON.parse(readFileSync(resolve(root, path), 'utf8'))

// Shared with the project's own packages, documented as not public.
const notPublic = new Set(['@agent-state/core/internals'])

// The core first, then the bindings, the devtools last.
const order = (name) => (name === '@agent-state/core' ? 0 : name === '@agent-state/devtools' ? 2 : 1)
const manifests = readJson('package.json')
  .workspaces.map((dir) => ({ dir, manifest: readJson(`${dir}/package.json`) }))
  .sort((a, b) => order(a.manifest.name) - order(b.manifest.name))

export const packageNames = manifests.map(({ manifest }) => manifest.name)

/** `[{ importPath: '@agent-state/core/testing', file: 'packages/core/src/testing.ts' }, …]`, core first. */
export const apiEntryPoints = manifests.flatMap(({ dir, manifest }) =>
  Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target.source)
    .map(([subpath, target]) => ({ importPath: manifest.name + subpath.slice(1), file: `${dir}/${target.source.slice(2)}` }))
    .filter(({ importPath }) => !notPublic.has(importPath)),
)

/** TypeDoc plugin: `@agent-state/core/testing` instead of the path TypeDoc derives (`core/src/testing`). */
export function load(app) {
  const importPathByFile = new Map(apiEntryPoints.map(({ importPath, file }) => [resolve(root, file), importPath]))
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName
    const importPath = file && importPathByFile.get(resolve(file))
    if (!importPath) throw new Error(`API reference: no import path for the module ${reflection.name} (${file})`)
    reflection.name = importPath
  })
  // TypeDoc reports a public type that names an unexported one only within the project's own package, the
  // root's (which has no source): make it the core's.
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    context.project.packageName = '@agent-state/core'
  })
}
