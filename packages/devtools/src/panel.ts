import { createAgentStore, type ReadableAgentStore } from '@agent-state/core'
import { storeInternals } from '@agent-state/core/internals'
import { inputBranch, inputRunId, inputThreadId, inputToolCallId, inputType } from './describe'
import type { JsonPatchOperation } from './json-diff'
import { createRecorder, type EntryDiff, type RecordedEntry, type Recorder, type RecorderState } from './recorder'

// <agent-state-devtools>: a floating, collapsible panel in plain DOM (a shadow root, no framework).
// The class is made on the first mount, not at import: this module loads in node and SSR too.

/** The panel's custom element, `<agent-state-devtools>`: defined on the first mount, not at import. */
export const ELEMENT_NAME = 'agent-state-devtools'

/** `mountDevtools`'s options. */
export interface MountDevtoolsOptions {
  /** A recorder already attached to the store; by default one is made (and disposed on unmount). Not used for a threads registry. */
  // Any state type: a recorder's is invariant (its inputs hold setState functions).
  recorder?: Recorder<any>
  /** The limit of the recorders made here. */
  limit?: number
  /** Start expanded (default: collapsed to its button). */
  open?: boolean
  /** Where the element goes (default: document.body). */
  parent?: Element
}

/** What `mountDevtools` returns: the panel's element, the recorder it shows, and its removal. */
export interface MountedDevtools {
  /** The `<agent-state-devtools>` element, appended to `parent`. */
  readonly element: HTMLElement
  /** The recorder shown: with a threads registry, the active thread's. */
  readonly recorder: Recorder<any>
  /** Removes the panel and disposes the recorders it made; a recorder given in the options is left attached. */
  unmount(): void
}

/** What the panel needs of `createAgentThreads(...)`: the active thread and its store. */
interface ThreadsLike {
  getState(): { activeThreadId: string | undefined }
  subscribe(listener: () => void): () => void
  store(threadId: string): ReadableAgentStore | undefined
}

/** The recorder to show, which changes when a threads registry shows another thread. */
interface RecorderSource {
  current(): Recorder<any>
  onSwitch(listener: () => void): () => void
  dispose(): void
}

/** Rows the list shows at most: the newest matching ones. */
const MAX_ROWS = 300
const MAX_TEXT = 240

/**
 * Mounts the panel for a store, or for a threads registry (`createAgentThreads`), where it shows
 * the active thread: `if (import.meta.env.DEV) mountDevtools(store)`.
 */
export function mountDevtools(target: object, options: MountDevtoolsOptions = {}): MountedDevtools {
  defineElement()
  const source = isStore(target) ? storeSource(target as ReadableAgentStore, options) : threadsSource(target as ThreadsLike, options)
  const element = document.createElement(ELEMENT_NAME) as DevtoolsElement
  ;(options.parent ?? document.body).append(element)
  const detach = element.attach(source, options.open ?? false)
  return {
    element,
    get recorder() {
      return source.current()
    },
    unmount() {
      detach()
      element.remove()
      source.dispose()
    },
  }
}

function isStore(target: object): boolean {
  try {
    storeInternals(target)
    return true
  } catch {
    if (typeof (target as Partial<ThreadsLike>).store !== 'function') throw new TypeError('mountDevtools needs an agent store or a threads registry')
    return false
  }
}

const limitOf = (options: MountDevtoolsOptions) => (options.limit === undefined ? {} : { limit: options.limit })

function storeSource(store: ReadableAgentStore, options: MountDevtoolsOptions): RecorderSource {
  const recorder = options.recorder ?? createRecorder(store, limitOf(options))
  return {
    current: () => recorder,
    onSwitch: () => () => {},
    dispose: () => {
      if (!options.recorder) recorder.dispose()
    },
  }
}

/** One recorder per thread store, from the moment the thread is first shown; kept while the panel is mounted. */
function threadsSource(threads: ThreadsLike, options: MountDevtoolsOptions): RecorderSource {
  const recorders = new Map<object, Recorder<any>>()
  // Shown while no thread is active.
  const idle = createRecorder(createAgentStore({ initialState: {} }))
  const current = () => {
    const id = threads.getState().activeThreadId
    const store = id === undefined ? undefined : threads.store(id)
    if (!store) return idle
    let recorder = recorders.get(store)
    if (!recorder) recorders.set(store, (recorder = createRecorder(store, limitOf(options))))
    return recorder
  }
  current()
  return {
    current,
    onSwitch: (listener) => threads.subscribe(listener),
    dispose() {
      for (const recorder of recorders.values()) recorder.dispose()
      recorders.clear()
      idle.dispose()
    },
  }
}

interface DevtoolsElement extends HTMLElement {
  attach(source: RecorderSource, open: boolean): () => void
}

function defineElement() {
  if (customElements.get(ELEMENT_NAME)) return
  customElements.define(
    ELEMENT_NAME,
    class extends HTMLElement implements DevtoolsElement {
      attach(source: RecorderSource, open: boolean) {
        return renderPanel(this.attachShadow({ mode: 'open' }), source, open)
      }
    },
  )
}

type Filters = { type: string; run: string; toolCall: string; thread: string }

function renderPanel(root: ShadowRoot, source: RecorderSource, open: boolean): () => void {
  let recorder = source.current()
  root.innerHTML = `<style>${styles}</style>`
  const toggle = h('button', { class: 'toggle', 'aria-expanded': String(open) }, 'agent-state')
  const count = h('span', { class: 'count' })
  const exportButton = h('button', {}, 'Export')
  const jumpButton = h('button', {}, 'Jump')
  const filters: Filters = { type: '', run: '', toolCall: '', thread: '' }
  const typeSelect = h('select', { 'aria-label': 'Type' }) as HTMLSelectElement
  const textFilter = (key: Exclude<keyof Filters, 'type'>, label: string) => {
    const input = h('input', { 'aria-label': label, placeholder: label }) as HTMLInputElement
    input.addEventListener('input', () => {
      filters[key] = input.value.trim()
      schedule()
    })
    return input
  }
  const list = h('ol', { class: 'entries', role: 'listbox', 'aria-label': 'Inputs' })
  const detail = h('div', { class: 'detail' })
  const panel = h(
    'section',
    { class: 'panel', 'aria-label': 'agent-state devtools' },
    h('header', {}, h('strong', {}, 'agent-state'), count, exportButton, jumpButton),
    h('div', { class: 'filters' }, typeSelect, textFilter('run', 'Run id'), textFilter('toolCall', 'Tool call id'), textFilter('thread', 'Thread id')),
    h('div', { class: 'body' }, list, detail),
  )
  panel.hidden = !open
  root.append(toggle, panel)

  // The selected entry; undefined follows the newest one.
  let selected: number | undefined
  let frame: ReturnType<typeof setTimeout> | undefined
  let shownDetail: unknown
  const unchanged = new WeakMap<RecordedEntry, boolean>()

  toggle.addEventListener('click', () => {
    panel.hidden = !panel.hidden
    toggle.setAttribute('aria-expanded', String(!panel.hidden))
    schedule()
  })
  typeSelect.addEventListener('change', () => {
    filters.type = typeSelect.value
    schedule()
  })
  list.addEventListener('click', (event) => {
    const row = (event.target as Element).closest('[data-index]')
    if (!row) return
    selected = Number(row.getAttribute('data-index'))
    schedule()
  })
  exportButton.addEventListener('click', () => download(recorder))
  jumpButton.addEventListener('click', () => {
    const entry = selectedEntry(recorder.getState())
    if (entry) recorder.jumpTo(entry.index)
  })

  // At most one render per frame, and none while collapsed: the panel never slows a stream down.
  function schedule() {
    if (frame !== undefined) return
    frame = setTimeout(() => {
      frame = undefined
      if (!panel.hidden) render(recorder.getState())
    }, 16)
  }

  /** The clicked entry; else the newest that changed something (the stream's end after RUN_FINISHED changes nothing). */
  function selectedEntry(state: RecorderState) {
    const clicked = selected === undefined ? undefined : recorder.entry(selected)
    if (clicked) return clicked
    const { entries } = state
    for (let i = entries.length - 1; i >= Math.max(0, entries.length - 20); i--) if (!changedNothing(state, entries[i]!)) return entries[i]
    return entries.at(-1)
  }

  /**
   * Whether an entry changed nothing the panel shows: the model is the same, or its snapshot's diff is
   * empty (a STATE_DELTA writing what a draft already shows changes the model, not the snapshot). Diffed
   * once per entry.
   */
  function changedNothing(state: RecorderState, entry: RecordedEntry): boolean {
    let known = unchanged.get(entry)
    if (known === undefined) {
      known = entry.model === modelBefore(state, entry.index) || Object.values(recorder.diff(entry.index)).every((ops) => ops.length === 0)
      unchanged.set(entry, known)
    }
    return known
  }

  function render(state: RecorderState) {
    const thread = (state.entries.at(-1)?.snapshot ?? state.start.snapshot).threadId
    count.textContent = `thread ${thread.slice(0, 8)}: ${state.entries.length} inputs${state.dropped > 0 ? ` (${state.dropped} dropped)` : ''}${state.current === undefined ? '' : `, at #${state.current}`}`
    renderTypes(state.entries)
    const matching = state.entries.filter((entry) => matches(entry, filters))
    const shown = matching.slice(-MAX_ROWS)
    const current = selectedEntry(state)
    const branches = branchesOf(state)
    const rows = shown.map((entry) =>
      h(
        'li',
        {
          role: 'option',
          'data-index': String(entry.index),
          'aria-selected': String(entry === current),
          class: [entry.index === state.current ? 'current' : '', changedNothing(state, entry) ? 'unchanged' : ''].join(' ').trim(),
          title: changedNothing(state, entry) ? 'changed nothing' : '',
        },
        h('span', { class: 'index' }, `#${entry.index}`),
        ` ${inputType(entry.input)} `,
        ...(branches.has(entry) ? [h('span', { class: 'branch' }, branches.get(entry)!), ' '] : []),
        h('span', { class: 'time' }, `+${((entry.time - (state.entries[0]?.time ?? entry.time)) / 1000).toFixed(2)}s`),
      ),
    )
    if (matching.length > shown.length) rows.unshift(h('li', { class: 'more' }, `… ${matching.length - shown.length} earlier`))
    list.replaceChildren(...rows)
    // Following the newest: keep the end of the list in view.
    if (selected === undefined) list.scrollTop = list.scrollHeight
    jumpButton.toggleAttribute('disabled', current === undefined)
    if (current !== shownDetail) {
      shownDetail = current
      detail.replaceChildren(...(current ? renderDetail(current, recorder.diff(current.index), branches.get(current)) : [h('p', {}, 'No inputs yet.')]))
    }
  }

  /**
   * The rows that show where the tree branched: each edit, regenerate and switch, and the events of a
   * run an edit or a regenerate started, marked with the message the branch starts from.
   */
  function branchesOf(state: RecorderState): Map<RecordedEntry, string> {
    const marked = new Map<RecordedEntry, string>()
    const runs = new Map<string, string>()
    for (const entry of state.entries) {
      const branch = inputBranch(entry.input, modelBefore(state, entry.index), entry.model)
      const runId = inputRunId(entry.input, entry.model)
      if (branch && entry.input.type !== 'switchBranch' && runId) runs.set(runId, branch)
      const mark = branch ?? (entry.input.type === 'event' && runId ? runs.get(runId) : undefined)
      if (mark) marked.set(entry, mark)
    }
    return marked
  }

  function modelBefore(state: RecorderState, index: number) {
    return recorder.entry(index - 1)?.model ?? state.start
  }

  function renderTypes(entries: readonly RecordedEntry[]) {
    const types = [...new Set(entries.map((entry) => inputType(entry.input)))].sort()
    const wanted = ['', ...types].join('\n')
    if (typeSelect.dataset.types === wanted) return
    typeSelect.dataset.types = wanted
    typeSelect.replaceChildren(h('option', { value: '' }, 'all types'), ...types.map((type) => h('option', { value: type }, type)))
    typeSelect.value = filters.type
  }

  render(recorder.getState())
  let unsubscribe = recorder.subscribe(schedule)
  // Another thread shown: its own history, nothing selected.
  const unswitch = source.onSwitch(() => {
    const next = source.current()
    if (next === recorder) return
    unsubscribe()
    recorder = next
    selected = undefined
    shownDetail = undefined
    unsubscribe = recorder.subscribe(schedule)
    schedule()
  })
  return () => {
    unswitch()
    unsubscribe()
    if (frame !== undefined) clearTimeout(frame)
  }
}

function matches(entry: RecordedEntry, filters: Filters): boolean {
  if (filters.type && inputType(entry.input) !== filters.type) return false
  if (filters.run && inputRunId(entry.input, entry.model) !== filters.run) return false
  if (filters.toolCall && inputToolCallId(entry.input) !== filters.toolCall) return false
  if (filters.thread && inputThreadId(entry.input, entry.model) !== filters.thread) return false
  return true
}

function renderDetail(entry: RecordedEntry, diff: EntryDiff, branch: string | undefined): Node[] {
  const parts = (Object.keys(diff) as (keyof EntryDiff)[]).filter((part) => diff[part].length > 0)
  const { model } = entry
  const drafts = model.drafts
  const confirmations = entry.snapshot.confirmations
  return [
    h('h3', {}, `#${entry.index} ${inputType(entry.input)}${branch ? `: ${branch}` : ''}`),
    h('h4', {}, 'Diff'),
    parts.length === 0
      ? h('p', { class: 'empty' }, 'No change.')
      : h('div', { class: 'diff' }, ...parts.map((part) => h('pre', { 'data-part': part }, diff[part].map((op) => `${part} ${formatOp(op)}`).join('\n')))),
    h('h4', {}, 'State'),
    tree('state', entry.snapshot.state, 0),
    h('h4', {}, `Confirmations (${confirmations.length})`),
    h(
      'ul',
      { class: 'confirmations' },
      ...confirmations.map((c) => h('li', {}, `${c.id} (${c.source})${c.stateKeys.length > 0 ? ` drafts ${c.stateKeys.join(', ')}` : ''}`)),
    ),
    h('h4', {}, `Drafts (${drafts.length})`),
    h(
      'ul',
      { class: 'drafts' },
      ...drafts.map((d) =>
        h(
          'li',
          {},
          `${d.stateKey}${d.complete ? '' : ' (streaming)'}${d.toolCallId ? ` from ${d.toolCallId}` : ''}: baseline ${short(JSON.stringify(d.baseline) ?? 'absent')}`,
        ),
      ),
    ),
    h('h4', {}, 'Input'),
    h('pre', { class: 'input' }, short(JSON.stringify(entry.input, null, 1) ?? '', 4000)),
  ]
}

const formatOp = (op: JsonPatchOperation) => `${op.op} ${op.path || '/'}${'value' in op ? ` ${short(JSON.stringify(op.value) ?? 'undefined')}` : ''}`

const short = (text: string, max = MAX_TEXT) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text)

/** The state as nested <details>, big containers cut at 100 children. */
function tree(key: string, value: unknown, depth: number): Node {
  if (typeof value !== 'object' || value === null) return h('div', { class: 'leaf' }, `${key}: ${short(JSON.stringify(value) ?? 'undefined')}`)
  const children = Object.entries(value)
  const open: Record<string, string> = depth < 2 ? { open: '' } : {}
  const label = Array.isArray(value) ? `[${children.length}]` : `{${children.length}}`
  return h(
    'details',
    open,
    h('summary', {}, `${key} ${label}`),
    ...children.slice(0, 100).map(([childKey, child]) => tree(childKey, child, depth + 1)),
    ...(children.length > 100 ? [h('div', { class: 'more' }, `… ${children.length - 100} more`)] : []),
  )
}

function download(recorder: Recorder) {
  const text = recorder.exportRecording()
  const url = URL.createObjectURL(new Blob([text], { type: 'application/jsonl' }))
  const link = h('a', { href: url, download: `agent-state-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl` }) as HTMLAnchorElement
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

function h(tag: string, attributes: Record<string, string>, ...children: (Node | string)[]): HTMLElement {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) if (value !== '' || name === 'open' || name === 'value') element.setAttribute(name, value)
  element.append(...children)
  return element
}

// Collapsed, the panel is a narrow tab on the right edge, no wider than the margin pages keep there:
// a corner button would sit over the controls apps put at the bottom right (a chat's Send).
const styles = `
:host { position: fixed; right: 0; bottom: 16px; z-index: 2147483000; display: flex; align-items: flex-end; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; color: #e5e7eb; }
button, select, input { font: inherit; color: inherit; background: #1f2937; border: 1px solid #4b5563; border-radius: 4px; padding: 2px 6px; }
button { cursor: pointer; }
button[disabled] { opacity: .5; cursor: default; }
.toggle { writing-mode: vertical-rl; font-size: 11px; line-height: 1.2; padding: 8px 2px; background: #111827; border-right: 0; border-radius: 4px 0 0 4px; }
.panel { order: -1; margin-right: 4px; width: min(860px, calc(100vw - 30px)); height: min(460px, calc(100vh - 32px)); display: flex; flex-direction: column; background: #111827; border: 1px solid #4b5563; border-radius: 6px; box-shadow: 0 6px 24px #0008; resize: both; overflow: hidden; }
.panel[hidden] { display: none; }
header, .filters { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 6px 8px; border-bottom: 1px solid #374151; }
header .count { flex: 1 1 12em; min-width: 0; color: #9ca3af; }
.filters select, .filters input { flex: 1 1 8em; min-width: 0; }
.body { flex: 1; display: flex; min-height: 0; }
.entries { margin: 0; padding: 0; list-style: none; width: 38%; overflow: auto; border-right: 1px solid #374151; }
.entries li { padding: 1px 8px; cursor: pointer; white-space: nowrap; }
.entries li[aria-selected=true] { background: #1d4ed8; }
.entries li.current { outline: 1px dashed #fbbf24; }
.entries li.unchanged { opacity: .55; }
.entries .index, .entries .time, .more, .empty { color: #9ca3af; }
.entries .branch { color: #fbbf24; }
.detail { flex: 1; overflow: auto; padding: 0 8px 8px; }
@media (max-width: 600px) {
  .body { flex-direction: column; }
  .entries { width: auto; flex: 0 0 40%; border-right: 0; border-bottom: 1px solid #374151; }
}
h3, h4 { margin: 8px 0 4px; font-size: 12px; }
h4 { color: #93c5fd; }
pre { margin: 0 0 4px; white-space: pre-wrap; word-break: break-all; }
.diff pre { color: #86efac; }
ul { margin: 0; padding-left: 16px; }
details { padding-left: 12px; }
summary { cursor: pointer; margin-left: -12px; }
.leaf { word-break: break-all; }
`
