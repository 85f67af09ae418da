// @vitest-environment jsdom
// Where the conversation tree branched, in the panel: an edit or a regenerate and the events of the run
// it started are marked "branch from <message id>", a switch is its own row, and a refused command has no row.
import { type BaseEvent, EventType, type RunAgentInput } from '@ag-ui/core'
import { type AgentStoreError, createAgentStore } from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { createRecorder } from '@agent-state/devtools'
import { mountDevtools } from '@agent-state/devtools/panel'
import { afterEach, describe, expect, it } from 'vitest'
import { inputBranch } from '../src/describe'

afterEach(() => {
  document.body.replaceChildren()
})

/** Each run answers with one text message named after the run. */
const answer = (input: RunAgentInput): BaseEvent[] => [
  { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId },
  { type: EventType.TEXT_MESSAGE_START, messageId: `a-${input.runId}`, role: 'assistant' },
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: `a-${input.runId}`, delta: 'ok' },
  { type: EventType.TEXT_MESSAGE_END, messageId: `a-${input.runId}` },
  { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId },
]

const runEvents = ['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_FINISHED']

/** The rows as shown, without their time: "#7 edit branch from u1". */
const rowsOf = (root: ShadowRoot) =>
  [...root.querySelectorAll('[role=listbox] [role=option]')].map((row) =>
    [...row.childNodes]
      .filter((node) => !(node instanceof Element && node.classList.contains('time')))
      .map((node) => node.textContent!.trim())
      .filter(Boolean)
      .join(' '),
  )

/** A question edited once, its answer regenerated, then two switches and a refused one, with the panel open. */
async function branchedConversation() {
  const agent = new ScriptedAgent({ runs: [answer] })
  const store = createAgentStore({ agent, initialState: {}, onError: () => {} })
  const mounted = mountDevtools(store, { open: true })
  await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
  await store.edit({ messageId: 'u1', content: 'dogs' })
  const edited = store.getState().messages[0]!.id
  await store.regenerate()
  const [, editRun, regenerateRun] = agent.inputs.map((input) => input.runId)
  await store.switchBranch({ messageId: `a-${regenerateRun}`, index: 0 })
  await store.switchBranch({ messageId: edited, index: 0 })
  const refusal = await store.switchBranch({ messageId: 'u1', index: 5 }).catch((error: AgentStoreError) => error.code)
  // The panel renders at most once per frame.
  await new Promise((resolve) => setTimeout(resolve, 40))
  return { store, rows: rowsOf(mounted.element.shadowRoot!), edited, editRun, regenerateRun, refusal }
}

describe('the panel shows where a branch started', () => {
  it('marks an edit, a regenerate and the events of their runs, and lists each switch as its own row', async () => {
    const { rows, edited, editRun, regenerateRun, refusal, store } = await branchedConversation()
    expect(refusal).toBe('BRANCH')
    expect(store.getState().messages.map((message) => message.content)).toStrictEqual(['cats', 'ok'])
    const events = (mark: string) => runEvents.map((type) => `event/${type}${mark}`)
    expect(rows.map((row) => row.replace(/^#\d+ /, ''))).toStrictEqual([
      'run',
      ...events(''),
      'edit branch from u1',
      ...events(' branch from u1'),
      `regenerate branch from a-${editRun}`,
      ...events(` branch from a-${editRun}`),
      `switchBranch switch to version 1 of a-${regenerateRun}`,
      `switchBranch switch to version 1 of ${edited}`,
    ])
    expect(rows[0]).toBe('#0 run')
  })

  it('names the branch in the detail of a selected row', async () => {
    const agent = new ScriptedAgent({ runs: [answer] })
    const store = createAgentStore({ agent, initialState: {} })
    const mounted = mountDevtools(store, { open: true })
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.edit({ messageId: 'u1', content: 'dogs' })
    await new Promise((resolve) => setTimeout(resolve, 40))
    const root = mounted.element.shadowRoot!
    ;(root.querySelector('[data-index="6"]') as HTMLElement).click()
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(root.querySelector('.detail h3')!.textContent).toBe('#6 edit: branch from u1')
  })
})

describe('inputBranch', () => {
  it('names the message a started edit or regenerate branches from (the last answer by default), and nothing for a refused one', async () => {
    const agent = new ScriptedAgent({ runs: [answer] })
    const store = createAgentStore({ agent, initialState: {}, onError: () => {} })
    const recorder = createRecorder(store)
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.regenerate()
    const { entries, start } = recorder.getState()
    const labels = entries.flatMap((entry) =>
      entry.input.type === 'event' ? [] : [[entry.input.type, inputBranch(entry.input, recorder.entry(entry.index - 1)?.model ?? start, entry.model)]],
    )
    expect(labels).toStrictEqual([
      ['run', undefined],
      ['regenerate', `branch from a-${agent.inputs[0]!.runId}`],
    ])
    // Refused, a command leaves the model as it was: no run started, nothing branched.
    const model = entries.at(-1)!.model
    const edit = { type: 'edit', messageId: 'u1', content: 'x', newMessageId: 'u9', runId: 'r9', options: {} } as const
    expect(inputBranch(edit, model, model)).toBeUndefined()
    expect(inputBranch({ type: 'switchBranch', messageId: 'u1', index: 0 }, model, model)).toBeUndefined()
    recorder.dispose()
  })
})
