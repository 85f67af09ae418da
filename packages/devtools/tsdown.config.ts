import { defineConfig } from 'tsdown'

export default defineConfig({
  // The panel is its own entry: an app importing the recorder gets no custom element.
  entry: ['src/index.ts', 'src/panel.ts'],
  format: 'esm',
  dts: true,
  platform: 'neutral',
  external: [/^@agent-state\//, /^@ag-ui\//, 'rxjs'],
})
