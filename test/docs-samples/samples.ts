// Finds the ```ts / ```tsx blocks of the docs pages and type-checks each one as its own module, in memory,
// with the root tsconfig's options plus the consumers' `exactOptionalPropertyTypes`.
import { type Dirent, readdirSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

export interface Sample {
  /** The page, relative to the repository root (`docs/guides/react.md`). */
  page: string
  /** The 1-based line of the page where the block's code starts (the line after the fence). */
  line: number
  language: 'ts' | 'tsx'
  code: string
}

export interface SampleError {
  page: string
  /** `docs/guides/react.md:42:7 TS2305: Module … has no exported member …` */
  message: string
}

// A fence opens with three or more backticks or tildes, the language, then optional meta that VitePress
// reads: `ts [label]`, `ts twoslash`, `ts{2,4}`, `ts:line-numbers`.
const fenceOpening = /^(\s*)(`{3,}|~{3,})(ts|tsx|typescript)(?=$|[\s{:[])/

export function samplesOf(page: string, markdown: string): Sample[] {
  const samples: Sample[] = []
  const lines = markdown.split('\n')
  let open: { fence: string; language: Sample['language']; start: number } | undefined
  let otherFence: string | undefined
  for (const [index, line] of lines.entries()) {
    if (open) {
      if (line.trim().startsWith(open.fence) && line.trim().replaceAll(open.fence[0]!, '') === '') {
        samples.push({ page, line: open.start + 1, language: open.language, code: lines.slice(open.start, index).join('\n') })
        open = undefined
      }
      continue
    }
    if (otherFence) {
      if (line.trim().startsWith(otherFence) && line.trim().replaceAll(otherFence[0]!, '') === '') otherFence = undefined
      continue
    }
    const opening = fenceOpening.exec(line)
    if (opening) {
      open = { fence: opening[2]!, language: opening[3] === 'tsx' ? 'tsx' : 'ts', start: index + 1 }
      continue
    }
    // Any other fenced block (```vue, ```sh, a four-backtick block quoting a ```ts one) is skipped whole.
    const other = /^\s*(`{3,}|~{3,})/.exec(line)
    if (other) otherFence = other[1]
  }
  return samples
}

/** Every page under docs/ but the generated API reference, the site's config and installed packages. */
export function docsPages(root: string): string[] {
  const skipped = new Set(['docs/api', 'docs/.vitepress', 'node_modules'])
  const pages: string[] = []
  const visit = (directory: string) => {
    let entries: Dirent[]
    try {
      entries = readdirSync(join(root, directory), { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = `${directory}/${entry.name}`
      if (entry.isDirectory() && !skipped.has(path) && entry.name !== 'node_modules') visit(path)
      else if (entry.isFile() && entry.name.endsWith('.md')) pages.push(path)
    }
  }
  visit('docs')
  return pages.sort()
}

function compilerOptions(root: string): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json')
  const config = ts.readConfigFile(configPath, ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath)
  // As the consumers' own check does (test/consumer-types); every block is a module even without imports.
  // The pages write for a Vite app, so `import.meta.env` has Vite's types.
  return {
    ...options,
    exactOptionalPropertyTypes: true,
    moduleDetection: ts.ModuleDetectionKind.Force,
    noEmit: true,
    types: [...(options.types ?? []), 'vite/client'],
  }
}

// Solid's JSX is not React's: the root tsconfig compiles React's, so a Solid block gets the pragma its tests use.
const solidPragma = '/** @jsxImportSource solid-js */ '
const usesSolid = (code: string) => /from '(@agent-state\/solid|solid-js[^']*)'/.test(code)

/**
 * Type-checks the samples together in one program (each block its own file, inside the repository so that
 * `@agent-state/*` and the frameworks resolve through the root node_modules) and returns one message per
 * diagnostic, located on the page.
 */
export function checkSamples(root: string, samples: Sample[]): SampleError[] {
  const options = compilerOptions(root)
  const files = new Map<string, Sample & { text: string }>()
  for (const [index, sample] of samples.entries()) {
    const name = join(root, 'docs', '.samples', `${sample.page.replace(/[/.]/g, '_')}-${index}.${sample.language}`)
    const text = sample.language === 'tsx' && usesSolid(sample.code) ? solidPragma + sample.code : sample.code
    files.set(name, { ...sample, text })
  }
  const host = ts.createCompilerHost(options, true)
  const { fileExists, readFile, getSourceFile } = host
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name)
  host.readFile = (name) => files.get(name)?.text ?? readFile.call(host, name)
  host.getSourceFile = (name, languageVersion, ...rest) => {
    const file = files.get(name)
    return file ? ts.createSourceFile(name, file.text, languageVersion, true) : getSourceFile.call(host, name, languageVersion, ...rest)
  }
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host })
  const errors: SampleError[] = []
  for (const [name, sample] of files) {
    const source = program.getSourceFile(name)!
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    for (const diagnostic of diagnostics) {
      const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
      const column = line === 0 ? character + 1 - (sample.text.length - sample.code.length) : character + 1
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
      errors.push({ page: sample.page, message: `${sample.page}:${sample.line + line}:${column} TS${diagnostic.code}: ${text}` })
    }
  }
  return errors
}
