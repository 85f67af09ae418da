/** @jsxImportSource solid-js */
// The server half of ssr.test.tsx, loaded through Vite's SSR module loader: solid-js resolves to its server build here.
import type { AgentStore } from '@agent-state/solid'
import { generateHydrationScript, renderToString } from 'solid-js/web'
import { type Doc, Thread } from './ssr-thread'

export const renderThread = (store: AgentStore<Doc>) => ({
  html: renderToString(() => <Thread store={store} />),
  hydrationScript: generateHydrationScript(),
})
