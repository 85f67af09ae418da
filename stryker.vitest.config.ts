import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The tests `npm run mutate` runs against each mutant: the core's and the store fuzz test, on source.
const src = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  resolve: {
    alias: {
      '@agent-state/core/testing': src('./packages/core/src/testing.ts'),
      '@agent-state/core': src('./packages/core/src/index.ts'),
    },
  },
  test: {
    include: ['packages/core/test/**/*.test.ts', 'test/fuzz/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['./stryker.vitest.setup.ts'],
    // The fuzz and differential tests at a tenth of their usual size: each mutant runs them again.
    env: { FUZZ_RUNS: '100' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
