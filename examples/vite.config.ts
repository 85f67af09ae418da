// One Vite app with a page per example and the index linking to them. `npm start` (start.ts) serves it in
// dev mode with the agents mounted at /agents/<name>; the browser tests build it.
import { fileURLToPath } from 'node:url'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import react from '@vitejs/plugin-react'
import vue from '@vitejs/plugin-vue'
import { defaultClientConditions, defineConfig } from 'vite'
import solid from 'vite-plugin-solid'

const page = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const solidFiles = /\/examples\/solid-writer\//

export default defineConfig({
  root: page('.'),
  // The Solid example's .tsx is Solid's JSX: its plugin compiles those files alone, and React's leaves them be.
  plugins: [react({ exclude: [/\/node_modules\//, solidFiles] }), vue(), svelte({ configFile: false }), solid({ include: solidFiles })],
  // The workspace packages export their TypeScript sources under "source": no build step needed.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  build: {
    outDir: page('./dist'),
    emptyOutDir: true,
    rolldownOptions: {
      input: {
        index: page('./index.html'),
        recipe: page('./react-recipe/index.html'),
        writer: page('./vue-writer/index.html'),
        planner: page('./svelte-planner/index.html'),
        angularWriter: page('./angular-writer/index.html'),
        solidWriter: page('./solid-writer/index.html'),
      },
    },
  },
})
