import { fileURLToPath } from 'node:url'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import react from '@vitejs/plugin-react'
import vue from '@vitejs/plugin-vue'
import solid from 'vite-plugin-solid'
import { configDefaults, defineConfig } from 'vitest/config'

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// Tests run on source: every workspace package resolves to its src/ entry.
// Type tests (*.test-d.ts) are checked by `tsc` in `npm test`, before vitest runs.
const alias = {
  '@agent-state/core/testing': src('./packages/core/src/testing.ts'),
  '@agent-state/core/internals': src('./packages/core/src/internals.ts'),
  '@agent-state/core': src('./packages/core/src/index.ts'),
  '@agent-state/react': src('./packages/react/src/index.ts'),
  '@agent-state/vue': src('./packages/vue/src/index.ts'),
  '@agent-state/svelte': src('./packages/svelte/src/index.ts'),
  '@agent-state/angular': src('./packages/angular/src/index.ts'),
  '@agent-state/solid': src('./packages/solid/src/index.ts'),
  '@agent-state/devtools/testing': src('./packages/devtools/src/testing.ts'),
  '@agent-state/devtools/panel': src('./packages/devtools/src/panel.ts'),
  '@agent-state/devtools': src('./packages/devtools/src/index.ts'),
}

export default defineConfig({
  resolve: { alias },
  test: {
    // Bounded: no test may hang the suite.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        resolve: { alias },
        test: { name: 'core', root: './packages/core', environment: 'node', include: ['test/**/*.test.ts'] },
      },
      {
        extends: true,
        resolve: { alias },
        test: { name: 'devtools', root: './packages/devtools', environment: 'node', include: ['test/**/*.test.ts'] },
      },
      {
        extends: true,
        plugins: [react()],
        resolve: { alias },
        test: { name: 'react', root: './packages/react', environment: 'jsdom', include: ['test/**/*.test.{ts,tsx}'] },
      },
      {
        extends: true,
        plugins: [vue()],
        resolve: { alias },
        test: { name: 'vue', root: './packages/vue', environment: 'jsdom', include: ['test/**/*.test.ts'] },
      },
      {
        extends: true,
        plugins: [svelte({ configFile: false })],
        resolve: { alias, conditions: ['browser'] },
        test: { name: 'svelte', root: './packages/svelte', environment: 'jsdom', include: ['test/**/*.test.ts'] },
      },
      {
        extends: true,
        resolve: { alias },
        test: { name: 'angular', root: './packages/angular', environment: 'jsdom', include: ['test/**/*.test.ts'] },
      },
      {
        // Under node, solid-js resolves to its server build, where effects never run: the browser build, in development.
        extends: true,
        plugins: [solid({ ssr: true, include: /packages\/solid\// })],
        resolve: { alias, conditions: ['browser', 'development'] },
        test: {
          name: 'solid',
          root: './packages/solid',
          environment: 'jsdom',
          include: ['test/**/*.test.{ts,tsx}'],
          // Inlined, so that solid-js/web's own import of solid-js gets the same build (Node alone would pick the server's).
          server: { deps: { inline: [/solid-js/] } },
        },
      },
      {
        extends: true,
        plugins: [react(), vue(), svelte({ configFile: false }), solid({ include: /packages\/solid\// })],
        resolve: { alias, conditions: ['browser'] },
        test: {
          name: 'integration',
          root: './test',
          environment: 'node',
          include: ['**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, 'real-servers/**'],
          server: { deps: { inline: [/solid-js/] } },
        },
      },
      {
        // Real AG-UI servers (test/real-servers, its own package): the store and HttpAgent are the root
        // tree's; test/real-servers/node_modules holds other @ag-ui copies that must not be picked up.
        resolve: {
          alias: [
            ...Object.entries(alias).map(([find, replacement]) => ({ find: new RegExp(`^${find}$`), replacement })),
            { find: /^@ag-ui\/client$/, replacement: src('./node_modules/@ag-ui/client/dist/index.mjs') },
            { find: /^@ag-ui\/core$/, replacement: src('./node_modules/@ag-ui/core/dist/index.mjs') },
            { find: /^@ag-ui\/core\/schemas$/, replacement: src('./node_modules/@ag-ui/core/dist/schemas.mjs') },
          ],
        },
        test: {
          name: 'real-servers',
          root: './test/real-servers',
          environment: 'node',
          include: ['*.test.ts'],
          globalSetup: ['./global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
