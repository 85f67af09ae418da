// Issue 23's bundle size: what an app that streams AG-UI state ships, measured the way the issue
// measured the peers (esbuild `--bundle --minify --format=esm`, production, React external, then
// gzip -9) on small apps written against the packages' source (the `source` export condition):
// the writer on `createAgentStore({ url })` and the hook, the same with threads and persistence,
// what each optional part adds, what the writer bundles without using it (the agent adapter, the
// UTF-8 fallback), and today's path through @ag-ui/client's HttpAgent. The peers
// not installed here are quoted from the issue's measurement. Then what each binding adds on top
// of the core and its framework.

import { gzipSync } from 'node:zlib'
import { build, type Metafile, type Plugin } from 'esbuild'
import type { Row } from './harness'

const SCENARIO = '5. Bundle size (minified, gzip -9)'
const APP_LIMIT = 30_000
const THREADS_APP_LIMIT = 34_000
const BINDING_LIMIT = 1_000
const REACT = ['react', 'react/*', 'react-dom']
const ROOT = new URL('..', import.meta.url).pathname

interface Bundle {
  minified: number
  gzip: number
  metafile: Metafile
}

/**
 * A part of the core that every app bundles whether it uses it or not, with what takes its place
 * to measure the app without it: a stand-in with the same exports.
 */
interface Unused {
  /** The module's path under packages/core/src, without its extension. */
  module: string
  standIn: string
}

/** Puts each part's stand-in in place of its module, wherever the core imports it. */
const without = (parts: readonly Unused[]): Plugin => ({
  name: 'without',
  setup(build) {
    for (const { module, standIn } of parts) {
      const file = module.split('/').at(-1)!
      build.onResolve({ filter: new RegExp(`/${file}$`) }, (args) =>
        args.importer.includes('/packages/core/src/') ? { path: module, namespace: 'stand-in', pluginData: standIn } : undefined,
      )
    }
    build.onLoad({ filter: /.*/, namespace: 'stand-in' }, (args) => ({ contents: args.pluginData as string, loader: 'js' }))
  },
})

/** `createAgentStore({ agent })`'s adapter: which link a store gets is known only at run time, so an app on `url` bundles it too. */
const AGENT_ADAPTER: Unused = {
  module: 'transport/connect-run',
  standIn: "export const connectRun = () => { throw new Error('no adapter') }\nexport const canConnect = () => false",
}

/** The UTF-8 codec for platforms without TextDecoder (React Native before 0.85) or TextEncoder (before 0.74). */
const UTF8_FALLBACK: Unused = {
  module: 'transport/utf8',
  standIn: [
    "export const utf8Decoder = () => { const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); return (bytes) => decoder.decode(bytes) }",
    'export const utf8Encoder = () => { const encoder = new TextEncoder(); return (text) => encoder.encode(text) }',
  ].join('\n'),
}

async function bundle(contents: string, external: readonly string[], unused: readonly Unused[] = []): Promise<Bundle> {
  const result = await build({
    plugins: unused.length > 0 ? [without(unused)] : [],
    stdin: { contents, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    external: [...external],
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]!.contents
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length, metafile: result.metafile }
}

const imports = (...names: (string | undefined)[]) => `import { ${names.filter(Boolean).join(', ')} } from '@agent-state/react'`

const STORAGE = "{ storage: localStorage, key: 'writer' }"
const INITIAL = "initialState: { document: '' }"

interface WriterParts {
  /** How the store reaches the agent. */
  transport?: string
  /** More options of createAgentStore, each with a leading comma. */
  options?: string
  importLines?: string
  code?: string
}

/** The README's writer: a store on the built-in transport, the hook, the buttons' selectors and commands. */
const writerApp = ({ transport = "url: '/api/agent'", options = '', importLines = '', code = '' }: WriterParts = {}) => `
${imports('canAnswer', 'canRun', 'createAgentStore', 'useAgentStore')}
${importLines}
export const store = createAgentStore({ ${transport}, ${INITIAL}${options} })
export function Writer() {
  return [useAgentStore(store, (s) => s.state.document), useAgentStore(store, canRun), useAgentStore(store, canAnswer)]
}
export const write = () => store.run({ message: 'Write a story' })
export const approve = () => store.approve()
export const reject = () => store.reject()
${code}`

/** The same writer over many threads: the registry on the built-in transport, its list and the active thread. */
const threadsApp = ({ options = '', importLines = '' }: { options?: string; importLines?: string } = {}) => `
${imports('canAnswer', 'canRun', 'createAgentThreads', 'useAgentStore')}
${importLines}
export const threads = createAgentThreads({ url: '/api/agent', ${INITIAL}${options} })
export function Writer() {
  return [useAgentStore(threads, (s) => s.threads), useAgentStore(threads, (s) => s.state.document), useAgentStore(threads, canRun), useAgentStore(threads, canAnswer)]
}
export const open = (id) => threads.open(id)
export const write = () => threads.open().run({ message: 'Write a story' })
export const approve = (id) => threads.store(id)?.approve()
`

const HTTP_AGENT = "import { HttpAgent } from '@ag-ui/client'"

const apps = {
  writer: writerApp(),
  threads: threadsApp(),
  threadsPersisted: threadsApp({ options: `, persist: persistThread(${STORAGE})`, importLines: imports('persistThread') }),
  persisted: writerApp({ options: `, persist: persistThread(${STORAGE})`, importLines: imports('persistThread') }),
  httpAgent: writerApp({ transport: "agent: new HttpAgent({ url: '/api/agent' })", importLines: HTTP_AGENT }),
  recorder: writerApp({ importLines: "import { createRecorder } from '@agent-state/devtools'", code: 'export const recorder = createRecorder(store)' }),
  httpAgentAlone: `${HTTP_AGENT}\nexport const agent = new HttpAgent({ url: '/api/agent' })\n`,
}

/** The npm package an input of the bundle comes from, or undefined for the project's own files. */
function packageOf(input: string): string | undefined {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)
  return match?.[1]
}

/** Minified bytes per package bundled besides our own code, from the metafile, largest first. */
function bundledPackages(metafile: Metafile): { name: string; minified: number }[] {
  const bytes = new Map<string, number>()
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(input)
      if (name !== undefined && bytesInOutput > 0) bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput)
    }
  }
  return [...bytes].map(([name, minified]) => ({ name, minified })).sort((a, b) => b.minified - a.minified)
}

/**
 * Minified bytes of each of our own source files in a bundle, largest first. gzip compresses across
 * files, so a file's gzip size is not defined on its own: it is estimated as its share of the
 * minified bytes times the bundle's gzip size (the shares add up to the total).
 */
function perFile(app: Bundle): { file: string; minified: number; gzip: number }[] {
  const files: { file: string; minified: number; gzip: number }[] = []
  for (const output of Object.values(app.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0 || input.startsWith('<stdin>') || packageOf(input) !== undefined) continue
      const file = input.replace(/^packages\/core\/src\//, '')
      files.push({ file, minified: bytesInOutput, gzip: share(app, bytesInOutput) })
    }
  }
  return files.sort((a, b) => b.minified - a.minified)
}

/** The estimated gzip bytes of `minified` bytes of a bundle. */
const share = (app: Bundle, minified: number) => (minified / app.minified) * app.gzip

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const sizes = (b: Bundle) => `${b.gzip} B gzip, ${b.minified} B minified`
const added = (a: Bundle, b: Bundle) => `+${kB(a.gzip - b.gzip)}`
const addedNote = (a: Bundle, b: Bundle, base = 'the writer') =>
  `${a.gzip - b.gzip} B gzip, ${a.minified - b.minified} B minified over ${base} (${sizes(a)} in all)`

/** Peers not installed here, from issue 23's measurement with the same method. */
const QUOTED: readonly { name: string; value: string; note?: string }[] = [
  { name: 'CopilotKit 1.74 `/v2/headless` useAgent', value: '111–132 kB', note: 'its `/v2` root import: 3.4 MB' },
  { name: 'assistant-ui AG-UI runtime', value: '119 kB' },
  { name: 'AI SDK useChat', value: '56–87 kB' },
  { name: 'TanStack AI useChat (ignores AG-UI state events)', value: '44 kB' },
]

/** The packages the writer bundles besides ours, each with its share of the gzip size (estimated as in perFile). */
function dependencyRows(writer: Bundle): Row[] {
  const rows = bundledPackages(writer.metafile).map(({ name, minified }) => ({
    name: `of which ${name}`,
    value: kB(share(writer, minified)),
    note: `${minified} B minified; gzip estimated as its share of the minified bytes`,
  }))
  return rows.length > 0 ? rows : [{ name: 'of which other packages', value: 'none' }]
}

async function bindingRows(): Promise<Row[]> {
  const rows: Row[] = []
  for (const [name, framework] of [
    ['react', REACT],
    ['vue', ['vue', '@vue/*']],
    ['svelte', ['svelte', 'svelte/*']],
    ['angular', ['@angular/core']],
    ['solid', ['solid-js', 'solid-js/*']],
  ] as const) {
    const binding = await bundle(`export * from '@agent-state/${name}'`, [...framework, '@agent-state/core'])
    rows.push({
      name: `@agent-state/${name} (${framework[0]} and the core external)`,
      value: kB(binding.gzip),
      target: '< 1 kB',
      pass: binding.gzip < BINDING_LIMIT,
      note: sizes(binding),
    })
  }
  return rows
}

export async function benchBundleSize(): Promise<Row[]> {
  const built: Record<string, Bundle> = {}
  for (const [name, source] of Object.entries(apps)) built[name] = await bundle(source, REACT)
  const { writer, threads, threadsPersisted, persisted, httpAgent, recorder, httpAgentAlone } = built as Record<keyof typeof apps, Bundle>
  const withoutAdapter = await bundle(apps.writer, REACT, [AGENT_ADAPTER])
  const withoutUtf8 = await bundle(apps.writer, REACT, [UTF8_FALLBACK])
  const files = perFile(writer)
  const own = files.reduce((sum, file) => sum + file.minified, 0)
  console.log('  the writer app, our own code per file (minified, estimated gzip):')
  for (const { file, minified, gzip } of files) console.log(`    ${file.padEnd(36)} ${String(minified).padStart(6)} B  ${kB(gzip)}`)
  const perFileNote = files.map(({ file, minified, gzip }) => `${file} ${kB(gzip)} (${minified} B min)`).join(', ')
  const persistence = 'persistThread({...})'

  return [
    {
      name: "the writer: createAgentStore({ url }) + @agent-state/react's useAgentStore",
      value: kB(writer.gzip),
      target: '≤ 30 kB',
      pass: writer.gzip <= APP_LIMIT,
      note: `${sizes(writer)}; the README's quick start (the hook, canRun, canAnswer, run, approve, reject); esbuild --bundle --minify --format=esm, NODE_ENV=production, react external, then gzip -9: the method of issue 23's peers`,
    },
    {
      name: 'of which our own code',
      value: kB(share(writer, own)),
      note: `${own} B minified; gzip estimated as its share of the minified bytes, as for each file and package below. Per file: ${perFileNote}`,
    },
    ...dependencyRows(writer),
    {
      name: 'of which the agent adapter (`createAgentStore({ agent })`), bundled though the writer passes `url`',
      value: kB(writer.gzip - withoutAdapter.gzip),
      note: `${writer.gzip - withoutAdapter.gzip} B gzip, ${writer.minified - withoutAdapter.minified} B minified: the writer against the same app with transport/connect-run.ts stubbed out (its HttpAgent re-framing in sse.ts goes with it); which link a store gets is known only at run time`,
    },
    {
      name: 'of which the UTF-8 fallback (React Native before 0.85 has no TextDecoder)',
      value: kB(writer.gzip - withoutUtf8.gzip),
      note: `${writer.gzip - withoutUtf8.gzip} B gzip, ${writer.minified - withoutUtf8.minified} B minified: the writer against the same app with transport/utf8.ts reduced to the platform's TextDecoder and TextEncoder`,
    },
    {
      name: 'the writer on createAgentThreads({ url }) with persistence',
      value: kB(threadsPersisted.gzip),
      target: '≤ 34 kB',
      pass: threadsPersisted.gzip <= THREADS_APP_LIMIT,
      note: `${sizes(threadsPersisted)}; the registry's list, the active thread, persistThread({...}) on localStorage`,
    },
    { name: '+ threads (createAgentThreads instead of createAgentStore)', value: added(threads, writer), note: addedNote(threads, writer) },
    { name: `+ persistence on one store (${persistence})`, value: added(persisted, writer), note: addedNote(persisted, writer) },
    { name: '+ persistence on the threads', value: added(threadsPersisted, threads), note: addedNote(threadsPersisted, threads, 'the threads without it') },
    {
      name: '+ `agent: new HttpAgent(...)` instead of `url` (the adapter and @ag-ui/client)',
      value: added(httpAgent, writer),
      note: addedNote(httpAgent, writer),
    },
    { name: "+ @agent-state/devtools' createRecorder", value: added(recorder, writer), note: addedNote(recorder, writer) },
    {
      name: 'agent-state + HttpAgent (the path before the built-in transport)',
      value: kB(httpAgent.gzip),
      note: `${sizes(httpAgent)}; the writer with \`agent: new HttpAgent({ url })\`: 124 kB in issue 23's measurement`,
    },
    {
      name: "@ag-ui/client's HttpAgent alone",
      value: kB(httpAgentAlone.gzip),
      note: `${sizes(httpAgentAlone)}; \`new HttpAgent({ url })\` and nothing else: 100 kB in issue 23's measurement`,
    },
    ...QUOTED.map((peer) => ({
      name: `${peer.name} (quoted)`,
      value: peer.value,
      note: `quoted from issue 23's measurement with the same method, not measured in this run (not installed here)${peer.note ? `; ${peer.note}` : ''}`,
    })),
    ...(await bindingRows()),
  ].map((row) => ({ scenario: SCENARIO, ...row }))
}
