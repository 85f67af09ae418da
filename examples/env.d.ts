/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Build-time override of every example's agent endpoint. */
  readonly VITE_AGENT_URL?: string
  /** Build-time: 'true' mounts the devtools panel in a production build too (the browser tests). */
  readonly VITE_DEVTOOLS?: string
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue'

  const component: DefineComponent
  export default component
}
