// The conversation tree: edit() a past user message, regenerate() an answer, switchBranch() between
// versions; each branch keeps its own messages and state, `branches` says where the view stands, the
// forked request sends the branch with the state it had, and the tree survives a reload.
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore, persistThread, restoreThread, type SavedThread, type SavedView, serializeThread } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev, ManualAgent } from './helpers'

interface Notes {
  topic: string
  runs: number
  pinned?: string
}

const lastUserText = (input: RunAgentInput) => String(input.messages.findLast((message) => message.role === 'user')?.content ?? '')

/** Each run answers the last user message and writes it into the state as the topic, counting runs. */
const answering = (input: RunAgentInput): BaseEvent[] => {
  const asked = lastUserText(input)
  const state = input.state as Notes
  const id = `a-${input.runId}`
  return [
    ev.runStarted(input.runId),
    ev.snapshot({ ...state, topic: asked, runs: state.runs + 1 }),
    ev.textStart(id),
    ev.text(id, `About ${asked}`),
    ev.textEnd(id),
    ev.runFinished(input.runId),
  ]
}

/** A store whose agent answers every run; `runs` overrides the first runs' scripts. */
function chat(runs: ((input: RunAgentInput) => BaseEvent[])[] = []) {
  const agent = new ScriptedAgent({ runs: [...runs, answering] })
  const errors: AgentStoreError[] = []
  const store = createAgentStore<Notes>({ agent, initialState: { topic: '', runs: 0 }, onError: (error) => errors.push(error) })
  return { agent, store, errors }
}

/** Two exchanges: "cats" then "dogs", with the user's own edit of the state in between. */
async function twoExchanges() {
  const session = chat()
  await session.store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
  session.store.setState((notes) => ({ ...notes, pinned: 'mine' }))
  await session.store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
  return session
}

const texts = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${String(message.content)}`)
const refusal = (promise: Promise<void>) =>
  promise.then(
    () => undefined,
    (error: AgentStoreError) => [error.code, error.reason],
  )

describe('edit()', () => {
  it('replaces the user message with a new version, restores the state it was sent with, and runs from there', async () => {
    const { store, agent } = await twoExchanges()
    const firstRun = agent.inputs[0]!.runId
    const before = store.getState()
    expect(before.state).toStrictEqual({ topic: 'dogs', runs: 2, pinned: 'mine' })

    await store.edit({ messageId: 'u2', content: 'birds' })

    const forked = agent.inputs[2]!
    expect(texts(forked.messages)).toStrictEqual(['user:cats', `assistant:About cats`, 'user:birds'])
    expect(forked.messages.slice(0, 2)).toStrictEqual(before.messages.slice(0, 2))
    expect(forked.state).toStrictEqual({ topic: 'cats', runs: 1, pinned: 'mine' })
    expect(forked.parentRunId).toBe(firstRun)
    const edited = forked.messages[2]!
    expect(edited.id).not.toBe('u2')
    const after = store.getState()
    expect(texts(after.messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:birds', 'assistant:About birds'])
    expect(after.messages[2]!.id).toBe(edited.id)
    expect(after.state).toStrictEqual({ topic: 'birds', runs: 2, pinned: 'mine' })
    expect(after.branches).toStrictEqual({ [edited.id]: { index: 1, count: 2 } })
    // The messages before the fork are the same objects on both branches.
    expect(after.messages[0]).toBe(before.messages[0])
  })

  it('sends the last run options again unless new ones are given', async () => {
    const { store, agent } = chat()
    const tools = [{ name: 'search', description: 'find', parameters: { type: 'object' } }]
    const context = [{ description: 'tone', value: 'calm' }]
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' }, tools, context, forwardedProps: { model: 'small' } })
    await store.edit({ messageId: 'u1', content: 'birds' })
    expect([agent.inputs[1]!.tools, agent.inputs[1]!.context, agent.inputs[1]!.forwardedProps]).toStrictEqual([tools, context, { model: 'small' }])
    await store.edit({ messageId: store.getState().messages[0]!.id, content: 'fish', context: [], forwardedProps: { model: 'large' } })
    expect([agent.inputs[2]!.tools, agent.inputs[2]!.context, agent.inputs[2]!.forwardedProps]).toStrictEqual([tools, [], { model: 'large' }])
  })

  it('at the first exchange sends no parentRunId and the initial state', async () => {
    const { store, agent } = await twoExchanges()
    await store.edit({ messageId: 'u1', content: 'owls' })
    const forked = agent.inputs[2]!
    expect(texts(forked.messages)).toStrictEqual(['user:owls'])
    expect(forked.state).toStrictEqual({ topic: '', runs: 0 })
    expect('parentRunId' in forked).toBe(false)
  })
})

describe('switchBranch()', () => {
  it('shows the other version as it was last shown, the user’s edits included, and back', async () => {
    const { store } = await twoExchanges()
    const original = store.getState()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const edited = store.getState()
    const editedId = edited.messages[2]!.id

    await store.switchBranch({ messageId: editedId, index: 0 })
    const back = store.getState()
    expect(back.messages).toBe(original.messages)
    expect(back.state).toBe(original.state)
    expect(back.committed).toBe(original.committed)
    expect(back.branches).toStrictEqual({ u2: { index: 0, count: 2 } })

    store.setState((notes) => ({ ...notes, pinned: 'changed on the first branch' }))
    await store.switchBranch({ messageId: 'u2', index: 1 })
    expect(store.getState().messages).toBe(edited.messages)
    expect(store.getState().state).toStrictEqual({ topic: 'birds', runs: 2, pinned: 'mine' })
    await store.switchBranch({ messageId: editedId, index: 0 })
    expect(store.getState().state).toStrictEqual({ topic: 'dogs', runs: 2, pinned: 'changed on the first branch' })
  })

  it('to the version already shown changes nothing', async () => {
    const { store } = await twoExchanges()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const shown = store.getState()
    await store.switchBranch({ messageId: shown.messages[2]!.id, index: 1 })
    expect(store.getState()).toBe(shown)
  })

  it('a run after switching continues the branch shown: its messages and its state go to the server', async () => {
    const { store, agent } = await twoExchanges()
    await store.edit({ messageId: 'u2', content: 'birds' })
    await store.switchBranch({ messageId: store.getState().messages[2]!.id, index: 0 })
    await store.run({ message: { id: 'u3', role: 'user', content: 'more' } })
    const input = agent.inputs[3]!
    expect(texts(input.messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:dogs', 'assistant:About dogs', 'user:more'])
    expect(input.state).toStrictEqual({ topic: 'dogs', runs: 2, pinned: 'mine' })
    expect(store.getState().branches).toStrictEqual({ u2: { index: 0, count: 2 } })
  })
})

describe('regenerate()', () => {
  it('produces a new version of the last answer from the state its run started with, the same question sent again', async () => {
    const { store, agent } = await twoExchanges()
    const firstRun = agent.inputs[0]!.runId
    const original = store.getState()
    await store.regenerate()
    const forked = agent.inputs[2]!
    expect(texts(forked.messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:dogs'])
    expect(forked.messages[2]!.id).toBe('u2')
    expect(forked.state).toStrictEqual({ topic: 'cats', runs: 1, pinned: 'mine' })
    expect(forked.parentRunId).toBe(firstRun)
    const now = store.getState()
    const answer = now.messages[3]!
    expect(answer.id).toBe(`a-${forked.runId}`)
    expect(now.branches).toStrictEqual({ [answer.id]: { index: 1, count: 2 } })
    await store.switchBranch({ messageId: answer.id, index: 0 })
    expect(store.getState().messages).toBe(original.messages)
    expect(store.getState().branches).toStrictEqual({ [original.messages[3]!.id]: { index: 0, count: 2 } })
  })

  it('of an earlier answer cuts the branch after its question; a third version goes last', async () => {
    const { store, agent } = await twoExchanges()
    const firstAnswer = store.getState().messages[1]!.id
    await store.regenerate({ messageId: firstAnswer })
    expect(texts(agent.inputs[2]!.messages)).toStrictEqual(['user:cats'])
    expect('parentRunId' in agent.inputs[2]!).toBe(false)
    await store.regenerate()
    const answers = store.getState().messages.filter((message) => message.role === 'assistant')
    expect(answers).toHaveLength(1)
    expect(store.getState().branches).toStrictEqual({ [answers[0]!.id]: { index: 2, count: 3 } })
    await store.switchBranch({ messageId: answers[0]!.id, index: 0 })
    expect(texts(store.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:dogs', 'assistant:About dogs'])
  })

  it('whose run fails before it writes anything gives back the answer it was to replace, with the error', async () => {
    const { store, errors } = chat([answering, (input) => [ev.runStarted(input.runId), ev.runError('model overloaded')]])
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    const original = store.getState()
    await store.regenerate()
    const after = store.getState()
    expect(after.messages).toBe(original.messages)
    expect(after.state).toBe(original.state)
    expect(after.branches).toStrictEqual({})
    expect([after.status, after.error?.code, after.error?.message]).toStrictEqual(['idle', 'RUN_ERROR', 'model overloaded'])
    expect(errors.map((error) => error.code)).toStrictEqual(['RUN_ERROR'])
  })

  it('whose run fails before it writes anything keeps the user’s edits made meanwhile on the answer given back', async () => {
    const failing = (input: RunAgentInput) => [ev.runStarted(input.runId), ev.runError('model overloaded')]
    const agent = new ScriptedAgent({ runs: [answering, failing], delay: 5 })
    const store = createAgentStore<Notes>({ agent, initialState: { topic: '', runs: 0 }, onError: () => undefined })
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    const original = store.getState()
    const started = new Promise<void>((resolve) => store.onEvent((event) => event.type === 'RUN_STARTED' && resolve()))
    const regenerating = store.regenerate()
    await started
    store.setState((notes) => ({ ...notes, pinned: 'meanwhile' }))
    await regenerating
    const after = store.getState()
    expect(after.messages).toBe(original.messages)
    expect(after.state).toStrictEqual({ topic: 'cats', runs: 1, pinned: 'meanwhile' })
    expect(after.committed).toStrictEqual(after.state)
    expect(after.error?.code).toBe('RUN_ERROR')
    // The next run sends them.
    await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
    expect(agent.inputs[2]!.state).toStrictEqual({ topic: 'cats', runs: 1, pinned: 'meanwhile' })
  })
})

/** One exchange answered "cats", then a regenerate whose run the test streams by hand, with RUN_STARTED sent. */
async function regenerating() {
  const agent = new ManualAgent({})
  const store = createAgentStore<Notes>({ agent, initialState: { topic: '', runs: 0 } })
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
  const first = store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
  await tick()
  agent.push(ev.snapshot({ topic: 'cats', runs: 1 }), ev.textStart('a1'), ev.text('a1', 'About cats'), ev.textEnd('a1'))
  agent.finish(agent.inputs[0]!.runId)
  await first
  const original = store.getState()
  const regenerated = store.regenerate()
  await tick()
  return { agent, store, original, regenerated }
}

describe('regenerate() given back', () => {
  for (const end of ['fails', 'is aborted'] as const) {
    it(`whose run ${end} before it writes a message keeps the user's edits made while it ran`, async () => {
      const { agent, store, original, regenerated } = await regenerating()
      expect(store.getState().state).toStrictEqual({ topic: '', runs: 0 })
      store.setState((notes) => ({ ...notes, pinned: 'mine' }))
      if (end === 'fails') agent.push(ev.runError('model overloaded'))
      else store.abort()
      await regenerated
      const after = store.getState()
      expect(after.messages).toBe(original.messages)
      expect(after.branches).toStrictEqual({})
      expect(after.state).toStrictEqual({ topic: 'cats', runs: 1, pinned: 'mine' })
      expect(after.committed).toStrictEqual({ topic: 'cats', runs: 1, pinned: 'mine' })
      // The edit is the branch's: the next run sends it.
      const next = store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
      expect(agent.inputs.at(-1)!.state).toStrictEqual({ topic: 'cats', runs: 1, pinned: 'mine' })
      store.abort()
      await next
    })
  }

  it('without an edit gives back the answer’s state object itself', async () => {
    const { agent, store, original, regenerated } = await regenerating()
    agent.push(ev.runError('model overloaded'))
    await regenerated
    expect(store.getState().state).toBe(original.state)
    expect(store.getState().committed).toBe(original.committed)
  })
})

describe('branches', () => {
  it('is {} and the same object in every snapshot of a conversation never forked', async () => {
    const { store } = await twoExchanges()
    expect(store.getState().branches).toStrictEqual({})
    expect(store.getState().branches).toBe(createAgentStore({ initialState: {} }).getState().branches)
  })

  it('keeps one object while the versions shown do not change (a binding re-renders only when they do)', async () => {
    const { store } = await twoExchanges()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const { branches } = store.getState()
    store.setState((notes) => ({ ...notes, pinned: 'again' }))
    expect(store.getState().branches).toBe(branches)
  })

  it('lists every fork on the branch: an edit below a regenerated answer', async () => {
    const { store } = await twoExchanges()
    await store.regenerate({ messageId: store.getState().messages[1]!.id })
    const answer = store.getState().messages[1]!.id
    await store.run({ message: { id: 'u4', role: 'user', content: 'fish' } })
    await store.edit({ messageId: 'u4', content: 'frogs' })
    const edited = store.getState().messages[2]!.id
    expect(store.getState().branches).toStrictEqual({ [answer]: { index: 1, count: 2 }, [edited]: { index: 1, count: 2 } })
    // Switching above keeps the branch below as it was: coming back shows the edit again.
    await store.switchBranch({ messageId: answer, index: 0 })
    await store.switchBranch({ messageId: store.getState().messages[1]!.id, index: 1 })
    expect(texts(store.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:frogs', 'assistant:About frogs'])
  })
})

describe('refusals: nothing changes, and the promise rejects with a stable code', () => {
  it('while a run is active: RUN_ACTIVE for all three', async () => {
    const { store } = await twoExchanges()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const shown = store.getState()
    const running = store.run({ message: 'more' })
    const during = store.getState()
    expect(await refusal(store.edit({ messageId: 'u1', content: 'x' }))).toStrictEqual(['RUN_ACTIVE', undefined])
    expect(await refusal(store.regenerate())).toStrictEqual(['RUN_ACTIVE', undefined])
    expect(await refusal(store.switchBranch({ messageId: shown.messages[2]!.id, index: 0 }))).toStrictEqual(['RUN_ACTIVE', undefined])
    expect(store.getState()).toBe(during)
    await running
  })

  it('while a confirmation is open: PENDING_CONFIRMATION', async () => {
    const interrupted = (input: RunAgentInput) => [
      ev.runStarted(input.runId),
      ev.runFinished(input.runId, 't1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'input_required' }] }),
    ]
    const { store, errors } = chat([answering, interrupted])
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
    expect(errors).toStrictEqual([])
    expect(store.getState().confirmations).toHaveLength(1)
    expect(await refusal(store.edit({ messageId: 'u1', content: 'x' }))).toStrictEqual(['PENDING_CONFIRMATION', undefined])
    expect(await refusal(store.regenerate())).toStrictEqual(['PENDING_CONFIRMATION', undefined])
  })

  it('a message that is not on the branch, of the wrong role, without versions, or a version that does not exist: BRANCH', async () => {
    const { store } = await twoExchanges()
    const answer = store.getState().messages[1]!.id
    expect(await refusal(store.edit({ messageId: 'nope', content: 'x' }))).toStrictEqual(['BRANCH', 'unknown-message'])
    expect(await refusal(store.edit({ messageId: answer, content: 'x' }))).toStrictEqual(['BRANCH', 'wrong-role'])
    expect(await refusal(store.regenerate({ messageId: 'u1' }))).toStrictEqual(['BRANCH', 'wrong-role'])
    expect(await refusal(store.switchBranch({ messageId: 'u1', index: 0 }))).toStrictEqual(['BRANCH', 'no-versions'])
    await store.edit({ messageId: 'u2', content: 'birds' })
    const edited = store.getState().messages[2]!.id
    expect(await refusal(store.switchBranch({ messageId: edited, index: 2 }))).toStrictEqual(['BRANCH', 'no-such-version'])
    expect(await refusal(store.switchBranch({ messageId: edited, index: -1 }))).toStrictEqual(['BRANCH', 'no-such-version'])
    expect(await refusal(chat().store.regenerate())).toStrictEqual(['BRANCH', 'nothing-to-regenerate'])
  })

  it('an answer a failed regenerate gave back still has no other versions: BRANCH no-versions, for every index', async () => {
    const { store } = chat([answering, (input) => [ev.runStarted(input.runId), ev.runError('model overloaded')]])
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.regenerate()
    const shown = store.getState()
    const answer = shown.messages[1]!.id
    expect(await refusal(store.switchBranch({ messageId: answer, index: 0 }))).toStrictEqual(['BRANCH', 'no-versions'])
    expect(await refusal(store.switchBranch({ messageId: answer, index: 1 }))).toStrictEqual(['BRANCH', 'no-versions'])
    expect(store.getState()).toBe(shown)
  })
})

describe('the tree across a reload', () => {
  it('serializeThread and restoreThread keep every branch: the restored store switches back to the original state', async () => {
    const { store } = await twoExchanges()
    const original = store.getState()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const edited = store.getState()
    const saved = JSON.parse(JSON.stringify(serializeThread(store)))
    const restored = createAgentStore<Notes>({
      agent: new ScriptedAgent({ runs: [answering] }),
      initialState: { topic: '', runs: 0 },
      restore: restoreThread(saved),
    })
    expect(restored.getState().messages).toStrictEqual(edited.messages)
    expect(restored.getState().branches).toStrictEqual(edited.branches)
    await restored.switchBranch({ messageId: edited.messages[2]!.id, index: 0 })
    expect(restored.getState().messages).toStrictEqual(original.messages)
    expect(restored.getState().state).toStrictEqual(original.state)
    // The state each branch shares is one object again after the reload.
    expect(restored.getState().messages[0]).toBe(restored.getState().messages[0])
  })

  it("a migrate that renames a state key where the tree holds it too (the threads guide's): every branch comes back renamed", async () => {
    const { store } = await twoExchanges()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const edited = store.getState()
    const items = new Map([['notes', JSON.stringify({ ...serializeThread(store), appVersion: 1 })]])
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: () => undefined,
    }
    // Version 2 calls `topic` `subject`.
    const renamed = (state: unknown) => {
      const { topic, ...rest } = state as Notes
      return { ...rest, subject: topic }
    }
    const mapValues = <T>(record: Readonly<Record<string, T>>, map: (value: T) => T) =>
      Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]))
    const migrate = (saved: SavedThread): SavedThread => {
      const { snapshot, server, tree } = saved.model
      const view = <V extends SavedView>(v: V): V => ({ ...v, state: renamed(v.state), committed: renamed(v.committed) })
      const branches = tree && {
        ...tree,
        sent: mapValues(tree.sent, (sent) => ({ ...sent, committed: renamed(sent.committed) })),
        shelved: mapValues(tree.shelved, (branch) => ({ ...branch, snapshot: view(branch.snapshot), server: renamed(branch.server) })),
      }
      return { ...saved, model: { ...saved.model, snapshot: view(snapshot), server: renamed(server), tree: branches } }
    }
    const errors: AgentStoreError[] = []
    const agent = new ScriptedAgent({ runs: [answering] })
    const restored = createAgentStore<Omit<Notes, 'topic'> & { subject: string }>({
      agent,
      initialState: { subject: '', runs: 0 },
      persist: persistThread({ storage, key: 'notes', version: 2, migrate }),
      onError: (error) => errors.push(error),
    })
    expect(errors).toStrictEqual([])
    expect(restored.getState().state).toStrictEqual(renamed(edited.state))
    await restored.switchBranch({ messageId: edited.messages[2]!.id, index: 0 })
    expect(restored.getState().state).toStrictEqual({ subject: 'dogs', runs: 2, pinned: 'mine' })
    expect(restored.getState().committed).toStrictEqual({ subject: 'dogs', runs: 2, pinned: 'mine' })
    await restored.regenerate()
    // The regenerated run is sent the committed state "dogs" was sent with, renamed.
    expect(agent.inputs.at(-1)!.state).toStrictEqual({ subject: 'cats', runs: 1, pinned: 'mine' })
  })
})

describe('a reload while a regenerate streams', () => {
  it('before its first message gives back the answer it was to replace, as abort() does; the next run follows it', async () => {
    const { store, original } = await regenerating()
    const saved = JSON.parse(JSON.stringify(serializeThread(store)))
    const agent = new ScriptedAgent({ runs: [answering] })
    const restored = createAgentStore<Notes>({ agent, initialState: { topic: '', runs: 0 }, restore: restoreThread(saved) })
    expect(restored.getState().messages).toStrictEqual(original.messages)
    expect(restored.getState().state).toStrictEqual(original.state)
    expect([restored.getState().branches, restored.getState().requesting]).toStrictEqual([{}, false])
    await restored.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
    expect(texts(agent.inputs[0]!.messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:dogs'])
    expect(texts(restored.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:dogs', 'assistant:About dogs'])
    expect(restored.getState().branches).toStrictEqual({})
  })
})

describe('the saved size of the tree', () => {
  it('every branch of a large state is saved as what differs: ten versions add less than half a copy of it', async () => {
    const big = Array.from({ length: 2_000 }, (_, index) => ({ id: index, text: `row ${index} `.repeat(5) }))
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          ev.delta({ op: 'replace', path: '/topic', value: lastUserText(input) }),
          ev.textStart(`a-${input.runId}`),
          ev.textEnd(`a-${input.runId}`),
          ev.runFinished(input.runId),
        ],
      ],
    })
    const store = createAgentStore({ agent, initialState: { topic: '', rows: big } })
    await store.run({ message: { id: 'u1', role: 'user', content: 'first' } })
    for (let version = 0; version < 10; version++) await store.edit({ messageId: store.getState().messages[0]!.id, content: `version ${version}` })
    const serialized = serializeThread(store)
    const saved = JSON.stringify(serialized)
    const copy = JSON.stringify(big).length
    expect(store.getState().branches[store.getState().messages[0]!.id]).toStrictEqual({ index: 10, count: 11 })
    expect(JSON.stringify((serialized.model as { tree: unknown }).tree).length).toBeLessThan(copy / 2)
    const restored = createAgentStore({ agent, initialState: { topic: '', rows: [] as typeof big }, restore: restoreThread(JSON.parse(saved)) })
    await restored.switchBranch({ messageId: restored.getState().messages[0]!.id, index: 3 })
    expect(restored.getState().state.topic).toBe('version 2')
    expect(restored.getState().state.rows).toStrictEqual(big)
  })
})

describe('the tree at its edges', () => {
  /** A run that calls a tool and answers after its result: four messages from one run. */
  const toolRoundTrip = (input: RunAgentInput): BaseEvent[] => [
    ev.runStarted(input.runId),
    ev.textStart(`call-${input.runId}`),
    ev.toolStart(`tc-${input.runId}`, 'lookup', `call-${input.runId}`),
    ev.toolArgs(`tc-${input.runId}`, '{}'),
    ev.toolEnd(`tc-${input.runId}`),
    ev.textEnd(`call-${input.runId}`),
    ev.toolResult(`result-${input.runId}`, `tc-${input.runId}`, 'found'),
    ev.textStart(`a-${input.runId}`),
    ev.text(`a-${input.runId}`, 'Found it'),
    ev.textEnd(`a-${input.runId}`),
    ev.runFinished(input.runId),
  ]

  it('regenerate() of the answer after a tool round trip replaces all the run wrote, sending the question alone', async () => {
    const { store, agent } = chat([toolRoundTrip])
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    const first = store.getState().messages
    expect(first.map((message) => message.role)).toStrictEqual(['user', 'assistant', 'tool', 'assistant'])
    await store.regenerate({ messageId: first[3]!.id })
    expect(agent.inputs[1]!.messages).toStrictEqual([first[0]])
    const again = store.getState()
    expect(texts(again.messages)).toStrictEqual(['user:cats', 'assistant:About cats'])
    expect(again.branches).toStrictEqual({ [again.messages[1]!.id]: { index: 1, count: 2 } })
    await store.switchBranch({ messageId: again.messages[1]!.id, index: 0 })
    expect(store.getState().messages).toStrictEqual(first)
  })

  it('regenerate() without a messageId takes the last answer, also when the branch ends with a question the failed run left', async () => {
    const { store, agent } = chat([answering, (input) => [ev.runStarted(input.runId), ev.runError('model overloaded')]])
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
    expect(store.getState().messages.map((message) => message.id)).toStrictEqual(['u1', `a-${agent.inputs[0]!.runId}`, 'u2'])
    await store.regenerate()
    expect(agent.inputs[2]!.messages.map((message) => message.id)).toStrictEqual(['u1'])
    expect(texts(store.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats'])
  })

  it('regenerate() of an answer no user message comes before is refused (BRANCH nothing-to-regenerate)', async () => {
    const { store } = chat()
    store.apply([ev.runStarted('r0'), ev.textStart('greeting'), ev.text('greeting', 'Hello'), ev.textEnd('greeting'), ev.runFinished('r0')])
    const shown = store.getState()
    expect(await refusal(store.regenerate({ messageId: 'greeting' }))).toStrictEqual(['BRANCH', 'nothing-to-regenerate'])
    expect(await refusal(store.regenerate())).toStrictEqual(['BRANCH', 'nothing-to-regenerate'])
    expect(store.getState()).toBe(shown)
  })

  it('a refusal names the command and the message: switchBranch() of a message not on the branch is unknown-message', async () => {
    const { store } = await twoExchanges()
    const messageOf = (promise: Promise<void>) =>
      promise.then(
        () => undefined,
        (error: AgentStoreError) => [error.code, error.reason, error.message],
      )
    expect(await messageOf(store.switchBranch({ messageId: 'nope', index: 0 }))).toStrictEqual([
      'BRANCH',
      'unknown-message',
      'switchBranch(): message "nope" is not on the current branch',
    ])
    expect(await messageOf(store.edit({ messageId: 'nope', content: 'x' }))).toStrictEqual([
      'BRANCH',
      'unknown-message',
      'edit(): message "nope" is not on the current branch',
    ])
    expect(await messageOf(store.regenerate({ messageId: 'u2' }))).toStrictEqual(['BRANCH', 'wrong-role', 'regenerate(): message "u2" has the wrong role'])
  })

  it('a failed regenerate gives back its answer with the rest of the tree: an earlier fork still lists and switches', async () => {
    const failing = (input: RunAgentInput) => [ev.runStarted(input.runId), ev.runError('model overloaded')]
    const { store } = chat([answering, answering, answering, failing])
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
    await store.edit({ messageId: 'u2', content: 'birds' })
    const forked = store.getState()
    await store.regenerate()
    const after = store.getState()
    expect(after.messages).toBe(forked.messages)
    expect(after.branches).toStrictEqual(forked.branches)
    await store.switchBranch({ messageId: forked.messages[2]!.id, index: 0 })
    expect(texts(store.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:dogs', 'assistant:About dogs'])
    expect(store.getState().branches).toStrictEqual({ u2: { index: 0, count: 2 } })
  })

  it('a regenerate whose run completes having written no message gives back the answer, without that run’s state', async () => {
    const stateOnly = (input: RunAgentInput) => [ev.runStarted(input.runId), ev.snapshot({ topic: 'state only', runs: 9 }), ev.runFinished(input.runId)]
    const { store, errors } = chat([answering, stateOnly])
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    const original = store.getState()
    await store.regenerate()
    const after = store.getState()
    expect(after.messages).toBe(original.messages)
    expect(after.state).toStrictEqual({ topic: 'cats', runs: 1 })
    expect(after.committed).toStrictEqual({ topic: 'cats', runs: 1 })
    expect([after.status, after.branches]).toStrictEqual(['idle', {}])
    expect(errors).toStrictEqual([])
  })

  it('a MESSAGES_SNAPSHOT that leaves out a forked message leaves it out of branches too', async () => {
    const { store } = await twoExchanges()
    await store.edit({ messageId: 'u1', content: 'owls' })
    await store.regenerate()
    const [owls, answer] = store.getState().messages
    expect(Object.keys(store.getState().branches)).toStrictEqual([owls!.id, answer!.id])
    store.apply([ev.runStarted('r9'), { type: 'MESSAGES_SNAPSHOT', messages: [owls] } as BaseEvent, ev.runFinished('r9')])
    expect(store.getState().messages).toStrictEqual([owls])
    expect(store.getState().branches).toStrictEqual({ [owls!.id]: { index: 1, count: 2 } })
  })
})
