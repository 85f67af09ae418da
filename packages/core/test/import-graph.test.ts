import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The source's imports, read from the text: every `import … from`, `export … from`, bare `import '…'`
// and `import('…')`, type-only ones included (a type cycle is a cycle for the reader too).
// The arrows must point one way: shell -> machine -> snapshot reducers -> state rules -> JSON
// utilities; transport and persistence are used by the shell alone; the public types and errors
// sit under everything. No cycle, whatever the layers.

type Layer = 'entry' | 'shell' | 'persistence' | 'transport' | 'machine' | 'snapshot' | 'state' | 'json' | 'base'

/** What each layer may import besides itself. */
const mayImport: Record<Layer, readonly Layer[]> = {
  /** The package's entry points: what the package.json exports map names. */
  entry: ['shell', 'persistence', 'transport', 'machine', 'snapshot', 'state', 'json', 'base'],
  /** Holds the model, carries out effects: the store, the threads registry, their listeners. */
  shell: ['persistence', 'transport', 'machine', 'snapshot', 'state', 'json', 'base'],
  /** The saved-thread format and its writer: a view of the model, checked by the state rules. */
  persistence: ['machine', 'state', 'json', 'base'],
  /** HTTP + SSE: knows events as bytes, nothing of the model. */
  transport: ['json', 'base'],
  /** The pure transition: the model, the commands, the end of a run, drafts, confirmations. */
  machine: ['snapshot', 'state', 'json', 'base'],
  /** AG-UI event -> AgentSnapshot; knows nothing of the model. */
  snapshot: ['state', 'json', 'base'],
  /** The shared JSON document: limits, validation, the edit merge. */
  state: ['json', 'base'],
  /** Domain-free: JSON Patch, partial JSON, values, growing text. */
  json: ['base'],
  /** The public types, error codes, limits, ids and the selectors over a snapshot. */
  base: [],
}

/**
 * Where each file of packages/core/src belongs: each layer is a folder of the same name, and the
 * public types and entry points sit at the top. A key is a file, or a folder ending in '/'; the
 * longest match wins.
 */
const layers: Record<string, Layer> = {
  'index.ts': 'entry',
  'internals.ts': 'entry',
  'testing.ts': 'entry',

  'shell/': 'shell',
  'persistence/': 'persistence',
  'transport/': 'transport',
  'machine/': 'machine',
  'snapshot/': 'snapshot',
  'state/': 'state',
  'json/': 'json',

  'types.ts': 'base',
  'event-types.ts': 'base',
  'errors.ts': 'base',
  'ids.ts': 'base',
  'limits.ts': 'base',
  'selectors.ts': 'base',
  'shallow.ts': 'base',
}

const packagesDir = fileURLToPath(new URL('../..', import.meta.url))
interface Edge {
  from: string
  to: string
  typeOnly: boolean
}

interface Found {
  specifier: string
  typeOnly: boolean
}

/** The specifiers one file imports; the clause between the keyword and `from` holds only names and braces. */
function importsOf(text: string): Found[] {
  const found: Found[] = []
  for (const match of text.matchAll(/^[ \t]*(import|export)\s+([\w$\s{},*]*?)\s*from\s*['"]([^'"]+)['"]/gm)) {
    const clause = match[2] ?? ''
    // Only `import type {…}` is erased: `import { type A }` stays as an import of the module.
    const typeOnly = /^type\s/.test(clause)
    found.push({ specifier: match[3] ?? '', typeOnly })
  }
  for (const match of text.matchAll(/^[ \t]*import\s*['"]([^'"]+)['"]/gm)) found.push({ specifier: match[1] ?? '', typeOnly: false })
  for (const match of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]/g)) found.push({ specifier: match[1] ?? '', typeOnly: false })
  return found
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

const packageNames = readdirSync(packagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

interface Manifest {
  name: string
  exports?: Record<string, unknown>
}

const manifests = new Map(
  packageNames.map((name) => {
    const manifest = JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')) as Manifest
    return [manifest.name, { dir: name, manifest }] as const
  }),
)

/** A relative specifier as a file of the same tree: `./x` is x.ts or x/index.ts. */
function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const base = join(dirname(from), specifier)
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => files.has(candidate))
}

/** Every file of a package's src and its edges to other files of it; the problems on the way. */
function graphOf(packageDir: string) {
  const src = join(packagesDir, packageDir, 'src')
  const files = sourceFiles(src)
  const known = new Set(files)
  const edges: Edge[] = []
  const problems: string[] = []
  const ownName = JSON.parse(readFileSync(join(packagesDir, packageDir, 'package.json'), 'utf8')).name as string
  for (const file of files) {
    const name = relative(src, file)
    for (const { specifier, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier, known)
        if (target === undefined) problems.push(`${packageDir}/src/${name}: '${specifier}' is not a file of ${packageDir}/src`)
        else edges.push({ from: name, to: relative(src, target), typeOnly })
        continue
      }
      const workspace = [...manifests.keys()].find((pkg) => specifier === pkg || specifier.startsWith(`${pkg}/`))
      if (workspace === undefined) continue
      const entry = `.${specifier.slice(workspace.length)}`
      const exported = Object.keys(manifests.get(workspace)?.manifest.exports ?? {})
      if (workspace === ownName) problems.push(`${packageDir}/src/${name}: imports its own package '${specifier}'`)
      else if (!exported.includes(entry))
        problems.push(`${packageDir}/src/${name}: '${specifier}' is not an entry point of ${workspace} (${exported.join(', ')})`)
    }
  }
  return { files: files.map((file) => relative(src, file)), edges, problems }
}

function layerOf(file: string): Layer | undefined {
  let best: string | undefined
  for (const key of Object.keys(layers)) {
    const fits = key.endsWith('/') ? file.startsWith(key) : file === key
    if (fits && (best === undefined || key.length > best.length)) best = key
  }
  return best === undefined ? undefined : layers[best]
}

/** The strongly connected parts with more than one file (or a file importing itself): Tarjan's. */
function cyclicParts(files: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((file) => [file, []]))
  for (const edge of edges) next.get(edge.from)?.push(edge.to)
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const parts: string[][] = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file) ?? 0)
    stack.push(file)
    onStack.add(file)
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(file, Math.min(low.get(file) ?? 0, low.get(to) ?? 0))
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) ?? 0, index.get(to) ?? 0))
    }
    if (low.get(file) !== index.get(file)) return
    const part: string[] = []
    let top: string | undefined
    do {
      top = stack.pop()
      if (top === undefined) break
      onStack.delete(top)
      part.push(top)
    } while (top !== file)
    if (part.length > 1 || (next.get(file) ?? []).includes(file)) parts.push(part.sort())
  }
  for (const file of files) if (!index.has(file)) visit(file)
  return parts
}

/** The shortest cycle through `start` inside its part, as `a.ts -> b.ts (type) -> a.ts`. */
function shortestCycle(start: string, part: readonly string[], edges: readonly Edge[]): string {
  const inPart = new Set(part)
  const came = new Map<string, Edge>()
  const queue = [start]
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i] as string
    for (const edge of edges) {
      if (edge.from !== file || !inPart.has(edge.to) || came.has(edge.to)) continue
      came.set(edge.to, edge)
      if (edge.to === start) return describePath(start, came)
      queue.push(edge.to)
    }
  }
  return start
}

function describePath(start: string, came: ReadonlyMap<string, Edge>): string {
  const path: Edge[] = []
  let at = start
  do {
    const edge = came.get(at) as Edge
    path.unshift(edge)
    at = edge.from
  } while (at !== start)
  return [start, ...path.map((edge) => `${edge.to}${edge.typeOnly ? ' (type)' : ''}`)].join(' -> ')
}

function cyclesOf(graph: { files: readonly string[]; edges: readonly Edge[] }): string[] {
  return cyclicParts(graph.files, graph.edges).flatMap((part) => {
    const shown = new Set<string>()
    // One shortest cycle through each file, without repeats: enough to see every import to break.
    const cycles = part.map((file) => shortestCycle(file, part, graph.edges)).filter((cycle) => !shown.has(rotated(cycle)) && shown.add(rotated(cycle)))
    // The cycles left once type imports are erased: those also load modules in a circle.
    const runtime = cyclicParts(
      graph.files,
      graph.edges.filter((edge) => !edge.typeOnly),
    ).filter((runtimePart) => runtimePart.some((file) => part.includes(file)))
    return [
      `${part.length} files: ${part.join(', ')}`,
      ...runtime.map((runtimePart) => `  at run time, ${runtimePart.length} files: ${runtimePart.join(', ')}`),
      ...cycles.map((cycle) => `  ${cycle}`),
    ]
  })
}

/** The same cycle read from another file: the same string, whatever file it starts from. */
function rotated(cycle: string): string {
  const steps = cycle.split(' -> ').slice(1)
  const first = [...steps].sort()[0] as string
  const at = steps.indexOf(first)
  return [...steps.slice(at), ...steps.slice(0, at)].join(' -> ')
}

/** The imports from a layer to one it may not import, as `from (layer) -> to (layer)`. */
function againstDirection(edges: readonly Edge[]): string[] {
  return edges.flatMap((edge) => {
    const from = layerOf(edge.from)
    const to = layerOf(edge.to)
    if (from === undefined || to === undefined || from === to || mayImport[from].includes(to)) return []
    return [`${edge.from} (${from}) -> ${edge.to} (${to})${edge.typeOnly ? ' (type)' : ''}`]
  })
}

function report(title: string, lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${title}:\n${lines.join('\n')}`
}

describe('the import graph', () => {
  const core = graphOf('core')

  it('gives every file of the core a layer', () => {
    expect(core.files.filter((file) => layerOf(file) === undefined)).toEqual([])
    // And names no file that is gone: the table follows the tree.
    const stale = Object.keys(layers).filter((key) => !core.files.some((file) => (key.endsWith('/') ? file.startsWith(key) : file === key)))
    expect(stale).toEqual([])
  })

  it('has no import cycle in any package, type imports included', () => {
    const cycles = packageNames.flatMap((name) => cyclesOf(graphOf(name)).map((line) => (line.startsWith(' ') ? line : `${name}/src: ${line}`)))
    expect(report('import cycles', cycles)).toBe('')
  })

  it('imports only downward in the core: shell -> machine -> snapshot -> state -> json, transport and persistence from the shell', () => {
    const against = againstDirection(core.edges)
    expect(report('imports against the direction', against)).toBe('')
  })

  it('lets the other packages reach the core only through its entry points', () => {
    const problems = packageNames.flatMap((name) => graphOf(name).problems)
    expect(problems).toEqual([])
  })

  it('reads every form of import the source uses', () => {
    const text = [
      "import { a, type B } from './a'",
      "import type { C } from './c'",
      'import {',
      '  d,',
      '  type E,',
      "} from './d'",
      "export type { F } from './f'",
      "export * from './g'",
      "import './h'",
      "type I = import('./i').I",
      "import * as j from './j'",
      "import { type K } from './k'",
      '/** The data from the server, by its name */',
      "const s = 'import x from ./not-an-import'",
    ].join('\n')
    expect(importsOf(text)).toEqual([
      { specifier: './a', typeOnly: false },
      { specifier: './c', typeOnly: true },
      { specifier: './d', typeOnly: false },
      { specifier: './f', typeOnly: true },
      { specifier: './g', typeOnly: false },
      { specifier: './j', typeOnly: false },
      { specifier: './k', typeOnly: false },
      { specifier: './h', typeOnly: false },
      { specifier: './i', typeOnly: false },
    ])
  })

  it('finds a cycle and an upward import when there is one', () => {
    const graph = {
      files: ['shell/store.ts', 'machine/transition.ts', 'types.ts', 'persistence/serialize.ts'],
      edges: [
        { from: 'shell/store.ts', to: 'machine/transition.ts', typeOnly: false },
        { from: 'machine/transition.ts', to: 'types.ts', typeOnly: true },
        { from: 'types.ts', to: 'persistence/serialize.ts', typeOnly: true },
        { from: 'persistence/serialize.ts', to: 'types.ts', typeOnly: true },
      ],
    }
    expect(cyclesOf(graph)).toEqual([
      '2 files: persistence/serialize.ts, types.ts',
      '  persistence/serialize.ts -> types.ts (type) -> persistence/serialize.ts (type)',
    ])
    const loading = [
      ...graph.edges,
      { from: 'persistence/serialize.ts', to: 'shell/store.ts', typeOnly: false },
      { from: 'machine/transition.ts', to: 'persistence/serialize.ts', typeOnly: false },
    ]
    expect(cyclesOf({ files: graph.files, edges: loading })).toEqual([
      '4 files: machine/transition.ts, persistence/serialize.ts, shell/store.ts, types.ts',
      '  at run time, 3 files: machine/transition.ts, persistence/serialize.ts, shell/store.ts',
      '  machine/transition.ts -> persistence/serialize.ts -> shell/store.ts -> machine/transition.ts',
      '  persistence/serialize.ts -> types.ts (type) -> persistence/serialize.ts (type)',
    ])
    expect(againstDirection(graph.edges)).toEqual(['types.ts (base) -> persistence/serialize.ts (persistence) (type)'])
    expect(layerOf('snapshot/messages.ts')).toBe('snapshot')
    expect(layerOf('machine/commands.ts')).toBe('machine')
    expect(layerOf('shallow.ts')).toBe('base')
  })
})
