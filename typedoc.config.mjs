// The API reference, generated into docs/api/ (gitignored) by `npm run docs:build`, from the TSDoc of every public entry point.
import { apiEntryPoints, packageNames } from './docs/.vitepress/api-entry-points.mjs'

/** @type {Partial<import('typedoc').TypeDocOptions & import('typedoc-plugin-markdown').PluginOptions>} */
export default {
  name: 'API reference',
  entryPoints: apiEntryPoints.map(({ file }) => file),
  sortEntryPoints: false,
  tsconfig: 'tsconfig.json',
  // `tsc` type-checks in `npm test`; TypeDoc only reads the types.
  skipErrorChecking: true,
  out: 'docs/api',
  plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme', './docs/.vitepress/api-entry-points.mjs'],
  docsRoot: 'docs',
  readme: 'docs/.vitepress/api-readme.md',
  mergeReadme: true,
  // The bindings re-export the core: document each export once, where it is defined.
  excludeReferences: true,
  entryFileName: 'index',
  excludeScopesInPaths: true,
  outputFileStrategy: 'modules',
  excludeInternal: true,
  excludePrivate: true,
  disableSources: true,
  // A public export without TSDoc, or a {@link} that resolves to nothing, fails the build.
  treatWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  packagesRequiringDocumentation: packageNames,
  // Every export, function and method; properties are documented where their name does not say enough.
  requiredToBeDocumented: ['Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias', 'Method', 'Accessor'],
  // Named by public types but not exported by the core: a reader sees the name without a page. TypeDoc fails on
  // a name listed here once exported.
  intentionallyNotExported: [
    // The devtools' recorded entries carry the core's internal model and inputs (`@agent-state/core/internals`)
    // on purpose; `RecordedEntry` says so.
    'core/src/machine/model.ts:Model',
    'core/src/machine/transition.ts:Input',
    // Helpers inside the error types, whose own comments say what they make: the details argument the code
    // requires, and the other codes' fields read as undefined.
    'core/src/errors.ts:DetailsArgument',
    'core/src/errors.ts:AnyDetailKey',
  ],
  // The pattern `SnapshotOf` matches, which its own comment explains: the page never shows this member.
  intentionallyNotDocumented: ['@agent-state/core.SnapshotOf.__type.getState'],
}
