// tsc does not read .vue files; the Vue plugin compiles them in tests.
declare module '*.vue' {
  import type { DefineComponent } from 'vue'

  const component: DefineComponent
  export default component
}
