// @vitest-environment jsdom
// The panel dims an input that changed nothing, as its README says: also a STATE_DELTA that makes the
// store a new model while the snapshot stays the same (a value written again, or what a draft already shows).
import { EventType } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { mountDevtools } from '@agent-state/devtools/panel'
import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => {
  document.body.replaceChildren()
  vi.useRealTimers()
})

/** A run whose STATE_DELTAs #1 and #4 change nothing the snapshot shows, and #5 changes the title. */
function mountedOverRun() {
  vi.useFakeTimers()
  const store = createAgentStore({
    initialState: { document: '', title: 'Old' },
    threadId: 'thread-1',
    predict: [{ stateKey: 'document', tool: 'write', toolArgument: 'document' }],
  })
  const mounted = mountDevtools(store, { open: true })
  store.apply([
    { type: EventType.RUN_STARTED, threadId: 'thread-1', runId: 'run-1' },
    { type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/title', value: 'Old' }] },
    { type: EventType.TOOL_CALL_START, toolCallId: 'call-1', toolCallName: 'write', parentMessageId: 'm1' },
    { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-1', delta: '{"document":"Draft' },
    { type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/document', value: 'Draft' }] },
    { type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/title', value: 'New' }] },
  ])
  const root = mounted.element.shadowRoot!
  const flush = async () => {
    await Promise.resolve()
    vi.advanceTimersByTime(20)
  }
  const dimmed = () => [...root.querySelectorAll('[role=option].unchanged')].map((row) => `${row.getAttribute('data-index')} ${row.getAttribute('title')}`)
  return { store, mounted, root, flush, dimmed }
}

describe('<agent-state-devtools> dims what changed nothing', () => {
  it('dims a STATE_DELTA that leaves the snapshot as it was, though the model is new', async () => {
    const { mounted, flush, dimmed } = mountedOverRun()
    await flush()
    const { entries, start } = mounted.recorder.getState()
    // New models all along: identity alone cannot tell these rows apart.
    expect(entries.map((entry, i) => entry.model === (entries[i - 1]?.model ?? start))).toEqual([false, false, false, false, false, false])
    expect(dimmed()).toEqual(['1 changed nothing', '4 changed nothing'])
  })

  it('shows "No change." for such a row, and follows the newest row that changed something', async () => {
    const { store, root, flush } = mountedOverRun()
    store.apply({ type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/title', value: 'New' }] })
    await flush()
    expect(root.querySelector('h3')!.textContent).toBe('#5 event/STATE_DELTA')
    ;(root.querySelector('[data-index="4"]') as HTMLElement).click()
    await flush()
    expect(root.querySelector('h3')!.textContent).toBe('#4 event/STATE_DELTA')
    expect(root.querySelector('.empty')!.textContent).toBe('No change.')
  })
})
