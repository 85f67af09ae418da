// Mutation testing of the core (`npm run mutate`; not part of `npm test`): Stryker 9.6.1, the last
// line that runs on Node 20, with vitest 4 and per-test coverage. Only the core's tests and the store
// fuzz test run (stryker.vitest.config.ts); reports go to test-results/, which git and Biome ignore.
// A report, not a gate: every mutant of the core's source runs (no file left out, no directive in the
// source), there is no score target, and survivors are checked against quality/mutation-baseline.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
  packageManager: 'npm',
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // Related mode finds no tests through the aliases; perTest coverage picks each mutant's tests anyway.
  vitest: { configFile: 'stryker.vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // Only the mutated sources get `// @ts-nocheck`: a test compares quick-start.ts with the README, byte for byte.
  disableTypeChecks: 'packages/core/src/**/*.ts',
  mutate: ['packages/core/src/**/*.ts'],
  // The machine has 2 cores shared by everyone.
  concurrency: 2,
  timeoutMS: 10_000,
  // Not needed by the core's tests (they do read examples/server and the READMEs): the bindings and the slow suites.
  // The thread tests read the real servers' recordings: without them every file that imports
  // test/threads/support-threads.ts failed to load, and only registry.test.ts ran.
  ignorePatterns: [
    'bench',
    'packages/react',
    'packages/vue',
    'packages/svelte',
    'packages/angular',
    'packages/solid',
    'test/browser',
    'test/real-servers/*',
    '!test/real-servers/recordings',
    'test/reliability',
    'test-results',
    'dist',
  ],
  tempDirName: 'node_modules/.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'test-results/mutation/index.html' },
  jsonReporter: { fileName: 'test-results/mutation/mutation.json' },
}
