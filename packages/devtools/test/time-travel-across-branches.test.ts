// Time travel across the conversation tree: a jump to any entry around an edit and a switch shows
// the very snapshot recorded there (its branch, `branches` and state), a jump back to the last entry
// brings the live branch back with every other branch still reachable, a new input after a jump
// starts another history from that branch, a jump into a regenerate that had not begun its answer
// reloads as abort() leaves it, and a replay of the recording gives the same snapshots.
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { type AgentStoreError, createAgentStore, type PersistStorage, persistThread } from '@agent-state/core'
import { ScriptedAgent } from '@agent-state/core/testing'
import { createRecorder, replayRecording } from '@agent-state/devtools'
import { describe, expect, it } from 'vitest'

interface Notes {
  topic: string
  pinned?: string
}

/** Each run answers the last user message: the topic becomes it, and one text says "About <it>". */
const answer = (input: RunAgentInput): BaseEvent[] => {
  const asked = String(input.messages.findLast((message) => message.role === 'user')?.content ?? '')
  const id = `a-${input.runId}`
  return [
    { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId },
    { type: 'STATE_SNAPSHOT', snapshot: { ...(input.state as Notes), topic: asked } },
    { type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: `About ${asked}` },
    { type: 'TEXT_MESSAGE_END', messageId: id },
    { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId },
  ] as BaseEvent[]
}

function memoryStorage(): PersistStorage & { items: Map<string, string> } {
  const items = new Map<string, string>()
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value), removeItem: (key) => void items.delete(key) }
}

/** A jump writes the thread at once: it lands at the end of the task. */
const writesLanded = () => new Promise((resolve) => setTimeout(resolve, 0))

const texts = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${String(message.content)}`)

/**
 * A recorded, persisted conversation: "cats", the user's pin, "dogs" (pinned "late" after it), "dogs"
 * edited into "birds" (pinned "on birds"), then a switch back to "dogs". Keeps the entry index after each step.
 */
async function editedAndSwitched() {
  const storage = memoryStorage()
  const errors: AgentStoreError[] = []
  const options = {
    initialState: { topic: '' } as Notes,
    persist: persistThread({ storage, key: 'notes' }),
    onError: (error: AgentStoreError) => errors.push(error),
  }
  const store = createAgentStore<Notes>({ ...options, agent: new ScriptedAgent({ runs: [answer] }) })
  const recorder = createRecorder(store)
  const last = () => recorder.getState().entries.at(-1)!.index
  await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
  store.setState((notes) => ({ ...notes, pinned: 'mine' }))
  await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
  store.setState((notes) => ({ ...notes, pinned: 'late' }))
  const beforeEdit = last()
  const dogs = store.getState()
  await store.edit({ messageId: 'u2', content: 'birds' })
  store.setState((notes) => ({ ...notes, pinned: 'on birds' }))
  const afterEdit = last()
  const birds = store.getState()
  const edited = birds.messages[2]!.id
  await store.switchBranch({ messageId: edited, index: 0 })
  const afterSwitch = last()
  return { storage, options, errors, store, recorder, beforeEdit, afterEdit, afterSwitch, dogs, birds, edited }
}

describe('time travel across an edit and a switch', () => {
  it('a jump to each entry shows the very snapshot recorded there; back at the last, the live branch, with the other one reachable', async () => {
    const { store, recorder, beforeEdit, afterEdit, afterSwitch, dogs, birds, edited } = await editedAndSwitched()
    const live = store.getState()
    expect(live.messages).toStrictEqual(dogs.messages)
    expect(live.state).toStrictEqual({ topic: 'dogs', pinned: 'late' })
    const { entries } = recorder.getState()
    expect(entries.at(-1)!.index).toBe(afterSwitch)
    for (const entry of entries) {
      recorder.jumpTo(entry.index)
      expect(store.getState()).toBe(entry.snapshot)
    }
    recorder.jumpTo(beforeEdit)
    expect(store.getState()).toMatchObject({ messages: dogs.messages, branches: {}, state: { topic: 'dogs', pinned: 'late' } })
    recorder.jumpTo(afterEdit)
    expect(store.getState()).toMatchObject({
      messages: birds.messages,
      branches: { [edited]: { index: 1, count: 2 } },
      state: { topic: 'birds', pinned: 'on birds' },
    })
    recorder.jumpTo(afterSwitch)
    expect(store.getState()).toBe(live)
    // Nothing was cut from the history: every entry is there, each the same one.
    expect(recorder.getState()).toMatchObject({ current: afterSwitch })
    expect(recorder.getState().entries.every((entry, at) => entry === entries[at])).toBe(true)
    expect(recorder.getState().entries).toHaveLength(entries.length)
    await store.switchBranch({ messageId: 'u2', index: 1 })
    expect(store.getState().messages).toStrictEqual(birds.messages)
    expect(store.getState().state).toStrictEqual({ topic: 'birds', pinned: 'on birds' })
  })

  it('a new input after a jump to the edited branch starts another history from there: a switch brings "dogs" back as it was last shown', async () => {
    const { store, recorder, afterEdit, afterSwitch, dogs, edited } = await editedAndSwitched()
    recorder.jumpTo(afterEdit)
    await store.switchBranch({ messageId: edited, index: 0 })
    expect(store.getState().messages).toStrictEqual(dogs.messages)
    expect(store.getState()).toMatchObject({ branches: { u2: { index: 0, count: 2 } }, state: { topic: 'dogs', pinned: 'late' } })
    // The entries after the jump gave way to the new one.
    expect(recorder.getState().entries.at(-1)!.index).toBe(afterEdit + 1)
    expect(recorder.getState().entries.at(-1)!.index).toBe(afterSwitch)
  })

  it('leaving time travel writes the live branch: a reload shows it, and switches to the edit with its state', async () => {
    const { storage, options, errors, recorder, afterEdit, afterSwitch, dogs, edited } = await editedAndSwitched()
    const savedTexts = () => (JSON.parse(storage.items.get('notes')!).model.snapshot.messages as Message[]).map((message) => message.content)
    recorder.jumpTo(afterEdit)
    await writesLanded()
    expect(savedTexts()).toStrictEqual(['cats', 'About cats', 'birds', 'About birds'])
    recorder.jumpTo(afterSwitch)
    await writesLanded()
    expect(savedTexts()).toStrictEqual(['cats', 'About cats', 'dogs', 'About dogs'])
    const reloaded = createAgentStore<Notes>({ ...options, agent: new ScriptedAgent({ runs: [answer] }) })
    expect(reloaded.getState().messages).toStrictEqual(dogs.messages)
    expect(reloaded.getState()).toMatchObject({ branches: { u2: { index: 0, count: 2 } }, state: { topic: 'dogs', pinned: 'late' } })
    await reloaded.switchBranch({ messageId: 'u2', index: 1 })
    expect(texts(reloaded.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:birds', 'assistant:About birds'])
    expect(reloaded.getState().messages[2]!.id).toBe(edited)
    expect(reloaded.getState().state).toStrictEqual({ topic: 'birds', pinned: 'on birds' })
    expect(errors).toStrictEqual([])
  })

  it('a jump into a regenerate before its answer began writes a thread that a reload restores as abort() leaves it: the old answer given back', async () => {
    const { options, store, recorder, dogs } = await editedAndSwitched()
    await store.regenerate()
    const waiting = recorder.getState().entries.find((entry) => entry.model.tree?.pending !== undefined && entry.model.request !== undefined)!
    expect(texts(waiting.snapshot.messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:dogs'])
    recorder.jumpTo(waiting.index)
    await writesLanded()
    const reloaded = createAgentStore<Notes>({ ...options, agent: new ScriptedAgent({ runs: [answer] }) })
    store.abort()
    expect(store.getState().messages).toStrictEqual(dogs.messages)
    expect(reloaded.getState().messages).toStrictEqual(dogs.messages)
    expect(reloaded.getState()).toMatchObject({ status: 'idle', requesting: false, branches: { u2: { index: 0, count: 2 } } })
    expect(reloaded.getState().state).toStrictEqual(store.getState().state)
    expect(reloaded.getState().state).toStrictEqual({ topic: 'dogs', pinned: 'late' })
  })

  it('a replay of the recording gives the same snapshots, branches included, and ends on the live branch', async () => {
    const { store, recorder } = await editedAndSwitched()
    const replay = replayRecording<Notes>(recorder.exportRecording())
    expect(replay.snapshots).toStrictEqual(recorder.getState().entries.map((entry) => entry.snapshot))
    expect(replay.store.getState()).toStrictEqual(store.getState())
    await replay.store.switchBranch({ messageId: 'u2', index: 1 })
    expect(replay.store.getState().state).toStrictEqual({ topic: 'birds', pinned: 'on birds' })
  })
})
