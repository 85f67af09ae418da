import { defineConfig } from 'tsdown'

export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts', 'src/internals.ts'],
  format: 'esm',
  dts: true,
  platform: 'neutral',
  unbundle: true,
  external: [/^@ag-ui\//, 'rxjs', 'zod', 'fast-json-patch'],
})
