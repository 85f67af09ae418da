// tsc does not read .svelte files; the Svelte plugin compiles them in tests.
declare module '*.svelte' {
  import type { Component } from 'svelte'

  const component: Component<any>
  export default component
}
