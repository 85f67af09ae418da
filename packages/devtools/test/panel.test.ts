// @vitest-environment jsdom
// The panel's DOM in jsdom: what it lists for each filter, what it shows of an entry, and unmounting.
// (Chromium drives it as a developer would in browser/panel.test.ts.)
import { EventType } from '@ag-ui/core'
import { createAgentStore, createAgentThreads } from '@agent-state/core'
import { createRecorder } from '@agent-state/devtools'
import { ELEMENT_NAME, mountDevtools } from '@agent-state/devtools/panel'
import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => {
  document.body.replaceChildren()
  vi.useRealTimers()
})

function setUp() {
  vi.useFakeTimers()
  const store = createAgentStore({
    initialState: { document: '', title: 'Old' },
    threadId: 'thread-1',
    predict: [{ stateKey: 'document', tool: 'write', toolArgument: 'document' }],
  })
  const mounted = mountDevtools(store, { open: true })
  store.apply([
    { type: EventType.RUN_STARTED, threadId: 'thread-1', runId: 'run-1' },
    { type: EventType.TOOL_CALL_START, toolCallId: 'call-1', toolCallName: 'write', parentMessageId: 'm1' },
    { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-1', delta: '{"document":"Draft' },
    { type: EventType.TOOL_CALL_START, toolCallId: 'call-2', toolCallName: 'other', parentMessageId: 'm1' },
    { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-2', delta: '{}' },
    { type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/title', value: 'New' }] },
  ])
  store.setState((previous) => ({ ...previous, title: 'Mine' }))
  const root = mounted.element.shadowRoot!
  const flush = async () => {
    await Promise.resolve()
    vi.advanceTimersByTime(20)
  }
  const rows = () => [...root.querySelectorAll('[role=listbox] [role=option]')].map((row) => row.textContent!.split(' ').slice(0, 2).join(' '))
  const filter = async (label: string, value: string) => {
    const input = root.querySelector(`[aria-label="${label}"]`) as HTMLInputElement | HTMLSelectElement
    input.value = value
    input.dispatchEvent(new Event(input instanceof HTMLSelectElement ? 'change' : 'input'))
    await flush()
  }
  return { store, mounted, root, flush, rows, filter }
}

describe('<agent-state-devtools>', () => {
  it('is one element in a shadow root, listing every input', async () => {
    const { mounted, root, flush, rows } = setUp()
    await flush()
    expect(document.querySelectorAll(ELEMENT_NAME)).toHaveLength(1)
    expect(mounted.element.tagName.toLowerCase()).toBe(ELEMENT_NAME)
    expect(rows()).toEqual([
      '#0 event/RUN_STARTED',
      '#1 event/TOOL_CALL_START',
      '#2 event/TOOL_CALL_ARGS',
      '#3 event/TOOL_CALL_START',
      '#4 event/TOOL_CALL_ARGS',
      '#5 event/STATE_DELTA',
      '#6 setState',
    ])
    expect(root.querySelector('.count')!.textContent).toBe('thread thread-1: 7 inputs')
    expect([...root.querySelectorAll('[aria-label=Type] option')].map((o) => o.textContent)).toEqual([
      'all types',
      'event/RUN_STARTED',
      'event/STATE_DELTA',
      'event/TOOL_CALL_ARGS',
      'event/TOOL_CALL_START',
      'setState',
    ])
  })

  it('filters by type, tool call, run and thread', async () => {
    const { flush, rows, filter } = setUp()
    await flush()
    await filter('Type', 'event/TOOL_CALL_ARGS')
    expect(rows()).toEqual(['#2 event/TOOL_CALL_ARGS', '#4 event/TOOL_CALL_ARGS'])
    await filter('Tool call id', 'call-1')
    expect(rows()).toEqual(['#2 event/TOOL_CALL_ARGS'])
    await filter('Type', '')
    expect(rows()).toEqual(['#1 event/TOOL_CALL_START', '#2 event/TOOL_CALL_ARGS'])
    await filter('Tool call id', '')
    await filter('Run id', 'run-2')
    expect(rows()).toEqual([])
    await filter('Run id', 'run-1')
    expect(rows()).toHaveLength(7)
    await filter('Thread id', 'elsewhere')
    expect(rows()).toEqual([])
    await filter('Thread id', 'thread-1')
    expect(rows()).toHaveLength(7)
  })

  it('shows the selected entry: its diff, the state as a tree, the drafts with their baselines', async () => {
    const { root, flush } = setUp()
    await flush()
    // The newest is selected until another is clicked.
    expect(root.querySelector('h3')!.textContent).toBe('#6 setState')
    expect(root.querySelector('pre[data-part=state]')!.textContent).toBe('state replace /title "Mine"')
    ;(root.querySelector('[data-index="2"]') as HTMLElement).click()
    await flush()
    expect(root.querySelector('h3')!.textContent).toBe('#2 event/TOOL_CALL_ARGS')
    expect([...root.querySelectorAll('.diff pre')].map((pre) => pre.textContent)).toEqual([
      'state replace /document "Draft"',
      'messages replace /0/toolCalls/0/function/arguments "{\\"document\\":\\"Draft"',
      'predictions add /0 {"toolCallId":"call-1","tool":"write","stateKey":"document","value":"Draft","complete":false}',
    ])
    expect([...root.querySelectorAll('details > .leaf')].map((leaf) => leaf.textContent)).toEqual(['document: "Draft"', 'title: "Old"'])
    expect([...root.querySelectorAll('ul.drafts li')].map((li) => li.textContent)).toEqual(['document (streaming) from call-1: baseline ""'])
    expect(root.querySelector('[data-index="2"]')!.getAttribute('aria-selected')).toBe('true')
  })

  it('following the newest, shows the newest input that changed something, dimming the others', async () => {
    const { store, root, flush, rows } = setUp()
    store.abort()
    store.abort()
    await flush()
    expect(rows().slice(-3)).toEqual(['#6 setState', '#7 abort', '#8 abort'])
    expect(root.querySelector('h3')!.textContent).toBe('#6 setState')
    expect([...root.querySelectorAll('.unchanged')].map((row) => row.getAttribute('data-index'))).toEqual(['7', '8'])
  })

  it('jumps to the selected entry', async () => {
    const { store, mounted, root, flush } = setUp()
    await flush()
    ;(root.querySelector('[data-index="2"]') as HTMLElement).click()
    await flush()
    ;([...root.querySelectorAll('button')].find((b) => b.textContent === 'Jump') as HTMLElement).click()
    await flush()
    expect(store.getState()).toBe(mounted.recorder.entry(2)!.snapshot)
    expect(root.querySelector('.count')!.textContent).toBe('thread thread-1: 7 inputs, at #2')
    expect(root.querySelector('.current')!.getAttribute('data-index')).toBe('2')
  })

  it('collapses to its button and renders nothing while collapsed', async () => {
    const { store, root, flush, rows } = setUp()
    await flush()
    const toggle = root.querySelector('.toggle') as HTMLElement
    toggle.click()
    expect((root.querySelector('.panel') as HTMLElement).hidden).toBe(true)
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    store.setState((previous) => ({ ...previous, title: 'Again' }))
    await flush()
    expect(rows()).toHaveLength(7)
    toggle.click()
    await flush()
    expect(rows()).toHaveLength(8)
  })

  it('unmounts: the element is gone, and the recorder it made stops recording', async () => {
    const { store, mounted, flush } = setUp()
    await flush()
    mounted.unmount()
    expect(document.querySelector(ELEMENT_NAME)).toBeNull()
    store.setState((previous) => ({ ...previous, title: 'After' }))
    expect(mounted.recorder.getState().entries).toHaveLength(7)
  })

  it('uses a recorder it is given and leaves it recording on unmount', () => {
    const store = createAgentStore({ initialState: { n: 0 } })
    const recorder = createRecorder(store)
    const mounted = mountDevtools(store, { recorder })
    expect(mounted.recorder).toBe(recorder)
    expect((mounted.element.shadowRoot!.querySelector('.panel') as HTMLElement).hidden).toBe(true)
    mounted.unmount()
    store.setState({ n: 1 })
    expect(recorder.getState().entries).toHaveLength(1)
  })

  it('with a threads registry, shows the active thread and switches with it', async () => {
    vi.useFakeTimers()
    const threads = createAgentThreads({ initialState: { n: 0 } })
    const a = threads.open('thread-a')
    const mounted = mountDevtools(threads, { open: true })
    a.setState({ n: 1 })
    const root = mounted.element.shadowRoot!
    const flush = async () => {
      await Promise.resolve()
      vi.advanceTimersByTime(20)
    }
    await flush()
    expect(root.querySelector('.count')!.textContent).toBe('thread thread-a: 1 inputs')
    const recorderOfA = mounted.recorder
    const b = threads.open('thread-b')
    b.setState({ n: 2 })
    b.setState({ n: 3 })
    // A thread in the background goes on being recorded once it has been shown.
    a.setState({ n: 4 })
    await flush()
    expect(root.querySelector('.count')!.textContent).toBe('thread thread-b: 2 inputs')
    expect(mounted.recorder).not.toBe(recorderOfA)
    threads.open('thread-a')
    await flush()
    expect(mounted.recorder).toBe(recorderOfA)
    expect(root.querySelector('.count')!.textContent).toBe('thread thread-a: 2 inputs')
    mounted.unmount()
    a.setState({ n: 5 })
    expect(recorderOfA.getState().entries).toHaveLength(2)
  })

  it('refuses what is neither a store nor a threads registry', () => {
    expect(() => mountDevtools({})).toThrow(TypeError)
  })
})
