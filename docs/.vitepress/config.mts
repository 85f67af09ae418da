import { existsSync, readFileSync } from 'node:fs'
import { type DefaultTheme, defineConfig } from 'vitepress'

// Written by TypeDoc (typedoc-vitepress-theme) into the generated docs/api/: `npm run docs` and `docs:build` run TypeDoc first.
const apiSidebarFile = new URL('../api/typedoc-sidebar.json', import.meta.url)
const readApiSidebar = (): DefaultTheme.SidebarItem[] => {
  try {
    return JSON.parse(readFileSync(apiSidebarFile, 'utf8'))
  } catch (cause) {
    throw new Error('docs/api/ is missing: generate the API reference first (npm run docs:api)', { cause })
  }
}

const guides: DefaultTheme.SidebarItem[] = [
  {
    text: 'Guides',
    items: [
      { text: 'Getting started', link: '/guides/getting-started' },
      {
        text: 'Bindings',
        items: [
          { text: 'React', link: '/guides/react' },
          { text: 'Vue', link: '/guides/vue' },
          { text: 'Svelte', link: '/guides/svelte' },
          { text: 'Angular', link: '/guides/angular' },
          { text: 'Solid', link: '/guides/solid' },
        ],
      },
      { text: 'Drafts and confirmations', link: '/guides/drafts-and-confirmations' },
      { text: 'Editing state during runs', link: '/guides/editing-state' },
      { text: 'Threads and persistence', link: '/guides/threads-and-persistence' },
      { text: 'Reconnect', link: '/guides/reconnect' },
      { text: 'Edit, regenerate, branches', link: '/guides/branches' },
      { text: 'Connecting to servers', link: '/guides/servers' },
      { text: 'Server-side rendering', link: '/guides/ssr' },
      { text: 'Devtools and time travel', link: '/guides/devtools' },
      { text: 'Testing', link: '/guides/testing' },
    ],
  },
  {
    text: 'Concepts',
    items: [
      { text: 'Why agent-state', link: '/why' },
      { text: 'How it works', link: '/concepts/how-it-works' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'API reference', link: '/api/' },
      { text: 'Reliability', link: '/reference/reliability' },
      { text: 'Benchmarks', link: '/reference/benchmarks' },
      { text: 'Decisions', link: '/reference/decisions' },
      { text: 'Differences from @ag-ui/client', link: '/reference/ag-ui-client' },
    ],
  },
]

const nav: DefaultTheme.NavItem[] = [
  { text: 'Guides', link: '/guides/getting-started', activeMatch: '^/guides/' },
  { text: 'Concepts', link: '/concepts/how-it-works', activeMatch: '^/(concepts/|why)' },
  { text: 'Reference', link: '/reference/reliability', activeMatch: '^/reference/' },
  { text: 'API', link: '/api/', activeMatch: '^/api/' },
]

// VitePress checks the links inside pages, not those of the nav and sidebar: a page they name must exist.
const pageFile = (link: string) => new URL(`..${link.endsWith('/') ? `${link}index` : link.replace(/\.md$/, '')}.md`, import.meta.url)
const linksOf = (items: readonly (DefaultTheme.SidebarItem | DefaultTheme.NavItem)[]): string[] =>
  items.flatMap((item) => [...('link' in item && item.link ? [item.link] : []), ...('items' in item && item.items ? linksOf(item.items) : [])])
const apiSidebar = readApiSidebar()
const missing = linksOf([...nav, ...guides, ...apiSidebar]).filter((link) => !existsSync(pageFile(link)))
if (missing.length > 0) throw new Error(`The nav or sidebar links to pages that do not exist in docs/: ${missing.join(', ')}`)

export default defineConfig({
  title: 'agent-state',
  description: 'Client state for AG-UI agents: one framework-free store, with React, Vue, Svelte, Angular and Solid bindings.',
  base: '/',
  themeConfig: {
    nav,
    sidebar: {
      '/api/': [{ text: 'API reference', link: '/api/', items: apiSidebar }, ...guides],
      '/': guides,
    },
    socialLinks: [{ icon: 'github', link: 'https://github.com/agent-state/agent-state' }],
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
})
