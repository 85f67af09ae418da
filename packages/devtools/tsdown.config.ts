import { defineConfig } from 'tsdown'

export default defineConfig({
  // The panel is its own entry: an app importing the recorder gets no custom element. So is
  // testing: an app that records needs no @ag-ui/client.
  entry: ['src/index.ts', 'src/panel.ts', 'src/testing.ts'],
  format: 'esm',
  dts: true,
  platform: 'neutral',
  external: [/^@agent-state\//, /^@ag-ui\//, 'rxjs'],
})
