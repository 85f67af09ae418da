// One production build of the benchmark page. agent-state comes from the repository's own sources,
// the other contenders from this folder's node_modules (its own package-lock.json).
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const repo = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: {
      '@agent-state/core': repo('packages/core/src/index.ts'),
      '@agent-state/react': repo('packages/react/src/index.ts'),
    },
    // One React for everyone. @ag-ui/* are not deduped: CopilotKit 1.74 bundles against its own 0.0.59.
    dedupe: ['react', 'react-dom'],
  },
  build: { outDir: 'dist', emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 10_000 },
  logLevel: 'warn',
})
