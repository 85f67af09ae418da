// The conversation tree across reloads, tabs and the threads registry: a reload while a fork's run
// streams, or right after a switch, brings back the branch shown with its state and every other
// branch with its own; the dropped fork run re-attaches (reconnect) without moving the user's edits
// between branches; a forked thread keeps its tree when evicted, opened in another tab or reloaded,
// and loses it when deleted; the server thread and ids of 'new-thread' and 'langgraph' forks come
// back too; a tree no store could have written is refused and kept aside as damage, and a version
// no branch holds any more (lost, or renamed away by a server) is refused by a switch, not a crash.
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, type Branching, createAgentStore, createAgentThreads, type PersistStorage, persistThread } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { ev } from '../helpers'
import { ConnectingAgent, settle } from './support-storages'
import { MapStorage, SteppedAgent } from './support-threads'

interface Notes {
  topic: string
  pinned?: string
}

const initialState: Notes = { topic: '' }
const lastUserText = (input: RunAgentInput) => String(input.messages.findLast((message) => message.role === 'user')?.content ?? '')

/** The server's answer to a run: the topic becomes the last user message, and one text says "About <it>". */
const answer = (input: RunAgentInput): BaseEvent[] => {
  const asked = lastUserText(input)
  const id = `a-${input.runId}`
  return [
    ev.runStarted(input.runId, input.threadId),
    ev.snapshot({ ...(input.state as Notes), topic: asked }),
    ev.textStart(id),
    ev.text(id, `About ${asked}`),
    ev.textEnd(id),
    ev.runFinished(input.runId, input.threadId),
  ]
}

/** The events of `answer` as far as the stream got before the page went away: the text has begun. */
const ANSWER_BEGUN = 4

/** An agent the test streams into by hand: one that can re-attach a run (`connect`), or one that cannot. */
type HandAgent = ConnectingAgent | SteppedAgent

/** Streams events into the open request; the server closes it after the run's end. */
function stream(agent: HandAgent, events: readonly BaseEvent[]) {
  if (agent instanceof SteppedAgent) for (const event of events) agent.push(event)
  else {
    agent.push(...events)
    if (events.at(-1)?.type === 'RUN_FINISHED') agent.end()
  }
}

/** Streams the answer to the agent's last request (or connect), whole. */
async function answerLast(agent: HandAgent, pending: Promise<void>, from: 'inputs' | 'connects' = 'inputs') {
  await settle()
  const input = from === 'inputs' ? agent.inputs.at(-1)! : (agent as ConnectingAgent).connects.at(-1)!
  stream(agent, answer(input))
  await pending
}

/** A Web-Storage-shaped Map that answers later, as an IndexedDB wrapper does. */
function asyncStorage(): PersistStorage & { items: Map<string, string> } {
  const items = new Map<string, string>()
  return {
    items,
    getItem: async (key) => items.get(key) ?? null,
    setItem: async (key, value) => void items.set(key, value),
    removeItem: async (key) => void items.delete(key),
  }
}

const storages = [
  { kind: 'sync', make: () => new MapStorage() as PersistStorage & { items: Map<string, string> } },
  { kind: 'async', make: asyncStorage },
]

/**
 * A page over the storage: a store persisting under "notes", on an agent the test streams into by
 * hand. The default agent cannot connect; given a ConnectingAgent, a thread saved mid-run re-attaches by itself.
 */
async function page<A extends HandAgent | ScriptedAgent = SteppedAgent>(storage: PersistStorage, options: { branching?: Branching; agent?: A } = {}) {
  const agent = options.agent ?? (new SteppedAgent() as A)
  const errors: AgentStoreError[] = []
  const store = createAgentStore<Notes>({
    agent,
    initialState,
    persist: persistThread({ storage, key: 'notes', throttleMs: 0 }),
    onError: (error) => errors.push(error),
    ...(options.branching ? { branching: options.branching } : {}),
  })
  await store.whenRestored()
  return { agent, store, errors }
}

/**
 * Two exchanges, "cats" then "dogs", with the user's own edits of the state: `pinned` "mine" before
 * "dogs" was sent, "late" after its answer. The "dogs" branch shows { topic: 'dogs', pinned: 'late' }.
 */
async function twoExchanges(storage: PersistStorage, options: { branching?: Branching } = {}) {
  const session = await page(storage, { ...options, agent: new ConnectingAgent() })
  const { agent, store } = session
  await answerLast(agent, store.run({ message: { id: 'u1', role: 'user', content: 'cats' } }))
  store.setState((notes) => ({ ...notes, pinned: 'mine' }))
  await answerLast(agent, store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } }))
  store.setState((notes) => ({ ...notes, pinned: 'late' }))
  const [u1, a1, u2, a2] = store.getState().messages as [Message, Message, Message, Message]
  return { ...session, u1, a1, u2, a2, dogs: store.getState(), firstRun: agent.inputs[0]!.runId }
}

/** Lets the writes land (a sync storage's at the end of the task, an async one's a little later): what a reload then finds. */
const saved = () => settle()

/** A saved tree, to damage. */
type Tree = Record<string, unknown>

const texts = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${String(message.content)}`)
const ids = (messages: readonly Message[]) => messages.map((message) => message.id)
const codes = (errors: readonly AgentStoreError[]) => errors.map((error) => [error.code, error.reason])
const refusal = (promise: Promise<void>) =>
  promise.then(
    () => undefined,
    (error: AgentStoreError) => ({ code: error.code, reason: error.reason, messageId: error.messageId }),
  )

describe.each(storages)('a reload while an edit’s run streams ($kind storage)', ({ make }) => {
  /** "dogs" edited into "birds"; the page goes away once its answer has begun, after the user pinned "during". */
  async function editCut() {
    const storage = make()
    const session = await twoExchanges(storage)
    const { agent, store } = session
    void store.edit({ messageId: 'u2', content: 'birds' }).catch(() => undefined)
    await settle()
    const fork = agent.inputs[2]!
    agent.push(...answer(fork).slice(0, ANSWER_BEGUN))
    store.setState((notes) => ({ ...notes, pinned: 'during' }))
    await saved()
    const edited = store.getState().messages[2]!
    return { ...session, storage, fork, edited }
  }

  it('shows the fork as abort() would leave it: the edit, the answer as far as it came, the state it was sent with and the user’s edit', async () => {
    const { storage, u1, a1, fork, edited, firstRun } = await editCut()
    const { store, errors } = await page(storage)
    const shown = store.getState()
    expect(texts(shown.messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:birds', 'assistant:About birds'])
    expect(ids(shown.messages)).toStrictEqual([u1.id, a1.id, edited.id, `a-${fork.runId}`])
    // The fork was sent as the branch through the new version, from the run that answered "cats".
    expect(ids(fork.messages)).toStrictEqual([u1.id, a1.id, edited.id])
    expect(fork.parentRunId).toBe(firstRun)
    expect(shown.branches).toStrictEqual({ [edited.id]: { index: 1, count: 2 } })
    expect(shown).toMatchObject({ status: 'idle', requesting: false, error: undefined, run: { runId: fork.runId } })
    expect(shown.run?.outcome).toBeUndefined()
    // The server's "birds" topic never committed; the state "birds" was sent with, and the user's pin.
    expect(shown.state).toStrictEqual({ topic: 'cats', pinned: 'during' })
    expect(shown.committed).toStrictEqual({ topic: 'cats', pinned: 'during' })
    expect(errors).toStrictEqual([])
  })

  it('keeps the branch it left whole: a switch brings back "dogs" with its answer and the user’s "late" pin', async () => {
    const { storage, dogs, edited } = await editCut()
    const { store } = await page(storage)
    await store.switchBranch({ messageId: edited.id, index: 0 })
    expect(store.getState().messages).toStrictEqual(dogs.messages)
    expect(store.getState().state).toStrictEqual({ topic: 'dogs', pinned: 'late' })
    expect(store.getState().committed).toStrictEqual({ topic: 'dogs', pinned: 'late' })
    expect(store.getState().branches).toStrictEqual({ u2: { index: 0, count: 2 } })
    await store.switchBranch({ messageId: 'u2', index: 1 })
    expect(store.getState().state).toStrictEqual({ topic: 'cats', pinned: 'during' })
  })

  it('re-attaches the fork run by itself when the agent can connect: the fork’s request, the server’s answer, the user’s pin made again', async () => {
    const { storage, u1, a1, fork, edited } = await editCut()
    const { store, agent } = await page(storage, { agent: new ConnectingAgent() })
    await settle()
    expect(agent.connects).toHaveLength(1)
    // The fork's request again, but for parentRunId, which the model does not keep for a connect.
    const { parentRunId: _, ...forkInput } = fork
    expect(agent.connects[0]).toStrictEqual(forkInput)
    expect(ids(agent.connects[0]!.messages)).toStrictEqual([u1.id, a1.id, edited.id])
    expect(agent.connects[0]!.state).toStrictEqual({ topic: 'cats', pinned: 'mine' })
    await answerLast(agent, Promise.resolve(), 'connects')
    expect(texts(store.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:birds', 'assistant:About birds'])
    expect(store.getState()).toMatchObject({ status: 'idle', requesting: false, error: undefined, run: { runId: fork.runId, outcome: 'success' } })
    expect(store.getState().state).toStrictEqual({ topic: 'birds', pinned: 'during' })
    expect(store.getState().branches).toStrictEqual({ [edited.id]: { index: 1, count: 2 } })
  })

  it('a retry regenerates the cut answer from the state "birds" was sent with; the cut answer stays a version', async () => {
    const { storage, u1, a1, fork, edited } = await editCut()
    const { store, agent } = await page(storage)
    const cut = store.getState().messages[3]!
    await answerLast(agent, store.regenerate())
    const retry = agent.inputs[0]!
    expect(ids(retry.messages)).toStrictEqual([u1.id, a1.id, edited.id])
    expect(retry.state).toStrictEqual({ topic: 'cats', pinned: 'mine' })
    expect(retry.parentRunId).toBe(fork.parentRunId)
    expect(texts(store.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:birds', 'assistant:About birds'])
    expect(store.getState().branches).toStrictEqual({ [edited.id]: { index: 1, count: 2 }, [`a-${retry.runId}`]: { index: 1, count: 2 } })
    await store.switchBranch({ messageId: `a-${retry.runId}`, index: 0 })
    expect(store.getState().messages.at(-1)).toStrictEqual(cut)
    expect(store.getState().state).toStrictEqual({ topic: 'cats', pinned: 'during' })
  })
})

describe.each(storages)('a reload while a regenerate’s run waits for its answer ($kind storage)', ({ make }) => {
  /** The answer to "dogs" regenerated; the page goes away after RUN_STARTED, before any message of the new answer. */
  async function regenerateCut() {
    const storage = make()
    const session = await twoExchanges(storage)
    const { agent, store } = session
    void store.regenerate().catch(() => undefined)
    await settle()
    const regenerated = agent.inputs[2]!
    agent.push(ev.runStarted(regenerated.runId, regenerated.threadId))
    await saved()
    expect(texts(store.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:dogs'])
    return { ...session, storage, regenerated }
  }

  it('gives back the answer it was to replace, as abort() does, and an edit after the reload stays', async () => {
    const { storage, dogs } = await regenerateCut()
    const { store, errors } = await page(storage)
    expect(store.getState().messages).toStrictEqual(dogs.messages)
    expect(store.getState()).toMatchObject({ status: 'idle', requesting: false, error: undefined, branches: {} })
    expect(store.getState().state).toStrictEqual({ topic: 'dogs', pinned: 'late' })
    store.setState((notes) => ({ ...notes, pinned: 'after' }))
    expect(store.getState().messages).toStrictEqual(dogs.messages)
    expect(store.getState().state).toStrictEqual({ topic: 'dogs', pinned: 'after' })
    expect(errors).toStrictEqual([])
  })

  it('gives back the answer it was to replace with the edit the user made while it waited', async () => {
    const { storage, store: before, dogs } = await regenerateCut()
    before.setState((notes) => ({ ...notes, pinned: 'waiting' }))
    await saved()
    const { store, errors } = await page(storage)
    expect(store.getState().messages).toStrictEqual(dogs.messages)
    expect(store.getState()).toMatchObject({
      status: 'idle',
      branches: {},
      state: { topic: 'dogs', pinned: 'waiting' },
      committed: { topic: 'dogs', pinned: 'waiting' },
    })
    expect(errors).toStrictEqual([])
  })

  it('once the new answer has begun, shows it as far as it came, and the answer it replaces is a version with its state', async () => {
    const { storage, agent, dogs, a2, regenerated } = await regenerateCut()
    agent.push(...answer(regenerated).slice(1, ANSWER_BEGUN))
    await saved()
    const { store: reloaded } = await page(storage)
    const answerId = `a-${regenerated.runId}`
    expect(texts(reloaded.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:dogs', 'assistant:About dogs'])
    expect(ids(reloaded.getState().messages)).toStrictEqual(['u1', dogs.messages[1]!.id, 'u2', answerId])
    expect(reloaded.getState()).toMatchObject({ status: 'idle', branches: { [answerId]: { index: 1, count: 2 } } })
    // The state "dogs" was sent with: the server's snapshot never committed.
    expect(reloaded.getState().state).toStrictEqual({ topic: 'cats', pinned: 'mine' })
    await reloaded.switchBranch({ messageId: answerId, index: 0 })
    expect(reloaded.getState().messages).toStrictEqual(dogs.messages)
    expect(reloaded.getState().messages.at(-1)).toStrictEqual(a2)
    expect(reloaded.getState().state).toStrictEqual({ topic: 'dogs', pinned: 'late' })
  })

  it('re-attached by itself, shows the new answer with the state the server sent; the answer given back keeps the edit made on it', async () => {
    const { storage, a2, regenerated } = await regenerateCut()
    const { store, agent } = await page(storage, { agent: new ConnectingAgent() })
    // Given back until the server answers; the user edits what is shown.
    expect(ids(store.getState().messages).at(-1)).toBe(a2.id)
    store.setState((notes) => ({ ...notes, pinned: 'after' }))
    await answerLast(agent, Promise.resolve(), 'connects')
    const { parentRunId: _, ...regeneratedInput } = regenerated
    expect(agent.connects[0]).toStrictEqual(regeneratedInput)
    const answerId = `a-${regenerated.runId}`
    expect(ids(store.getState().messages)).toStrictEqual(['u1', store.getState().messages[1]!.id, 'u2', answerId])
    expect(store.getState().branches).toStrictEqual({ [answerId]: { index: 1, count: 2 } })
    // The server's state: "dogs" as it was sent, not the answer given back meanwhile.
    expect(store.getState().state).toStrictEqual({ topic: 'dogs', pinned: 'mine' })
    await store.switchBranch({ messageId: answerId, index: 0 })
    expect(ids(store.getState().messages).at(-1)).toBe(a2.id)
    expect(store.getState()).toMatchObject({ error: undefined, state: { topic: 'dogs', pinned: 'after' }, committed: { topic: 'dogs', pinned: 'after' } })
  })
})

describe('a regenerate whose stream drops before its answer, then reconnect() (no reload)', () => {
  it('the answer given back keeps the user’s edits there, and the re-attached answer has the server’s state', async () => {
    const { agent, store, a2, errors } = await twoExchanges(new MapStorage())
    const regenerating = store.regenerate()
    await settle()
    const regenerated = agent.inputs[2]!
    agent.push(ev.runStarted(regenerated.runId, regenerated.threadId))
    agent.drop()
    await regenerating
    expect(store.getState()).toMatchObject({ messages: expect.arrayContaining([a2]), error: { code: 'TRANSPORT' }, state: { topic: 'dogs', pinned: 'late' } })
    store.setState((notes) => ({ ...notes, pinned: 'offline' }))
    await answerLast(agent, store.reconnect(), 'connects')
    const answerId = `a-${regenerated.runId}`
    expect(store.getState()).toMatchObject({ error: undefined, status: 'idle', branches: { [answerId]: { index: 1, count: 2 } } })
    expect(store.getState().state).toStrictEqual({ topic: 'dogs', pinned: 'mine' })
    await store.switchBranch({ messageId: answerId, index: 0 })
    expect(store.getState().messages.at(-1)).toStrictEqual(a2)
    expect(store.getState().state).toStrictEqual({ topic: 'dogs', pinned: 'offline' })
    expect(codes(errors)).toStrictEqual([['TRANSPORT', 'network']])
  })
})

describe.each(storages)('a reload right after switchBranch() ($kind storage)', ({ make }) => {
  it('shows the branch switched to, with the user’s edits of each branch; a run goes on from the one shown', async () => {
    const storage = make()
    const { agent, store, u1, a1, u2, a2 } = await twoExchanges(storage)
    await answerLast(agent, store.edit({ messageId: 'u2', content: 'birds' }))
    store.setState((notes) => ({ ...notes, pinned: 'on birds' }))
    const edited = store.getState().messages[2]!.id
    await store.switchBranch({ messageId: edited, index: 0 })
    store.setState((notes) => ({ ...notes, pinned: 'on dogs' }))
    await saved()
    const { store: reloaded, agent: next } = await page(storage)
    expect(reloaded.getState().messages).toStrictEqual([u1, a1, u2, a2])
    expect(reloaded.getState()).toMatchObject({ branches: { u2: { index: 0, count: 2 } }, state: { topic: 'dogs', pinned: 'on dogs' } })
    await answerLast(next, reloaded.run({ message: { id: 'u3', role: 'user', content: 'fish' } }))
    expect(ids(next.inputs[0]!.messages)).toStrictEqual([u1.id, a1.id, 'u2', a2.id, 'u3'])
    expect(next.inputs[0]!.state).toStrictEqual({ topic: 'dogs', pinned: 'on dogs' })
    await reloaded.switchBranch({ messageId: 'u2', index: 1 })
    expect(texts(reloaded.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:birds', 'assistant:About birds'])
    expect(reloaded.getState().state).toStrictEqual({ topic: 'birds', pinned: 'on birds' })
  })
})

/** A registry page over the storage, one hand-streamed agent per thread. */
function registryPage(storage: PersistStorage, maxThreads = 10) {
  const agents = new Map<string, ConnectingAgent>()
  const errors: AgentStoreError[] = []
  const threads = createAgentThreads<Notes>({
    initialState,
    maxThreads,
    persist: persistThread({ storage, key: 'app' }),
    onError: (error) => errors.push(error),
    createAgent: (threadId) => {
      const agent = new ConnectingAgent()
      agents.set(threadId, agent)
      return agent
    },
  })
  return { threads, agents, errors }
}

/** Thread "a" on the registry: "cats" asked and edited into "owls", with the user's pin on each. */
async function forkedThread(threads: ReturnType<typeof registryPage>) {
  const store = threads.threads.open('a')
  const agent = threads.agents.get('a')!
  await answerLast(agent, store.run({ message: { id: 'u1', role: 'user', content: 'cats' } }))
  store.setState((notes) => ({ ...notes, pinned: 'on cats' }))
  await answerLast(agent, store.edit({ messageId: 'u1', content: 'owls' }))
  store.setState((notes) => ({ ...notes, pinned: 'on owls' }))
  return { store, owls: store.getState() }
}

describe('the threads registry', () => {
  it('a forked thread dropped from memory is saved with its tree, and opened after a reload switches back with each branch’s state', async () => {
    const storage = new MapStorage()
    const first = registryPage(storage, 1)
    const { owls } = await forkedThread(first)
    // Another thread shown: "a" is saved and dropped.
    first.threads.open('b')
    await first.threads.flush()
    expect(JSON.parse(storage.items.get('app:a')!).model.tree.versions).toStrictEqual({ '': ['u1', owls.messages[0]!.id] })
    const second = registryPage(storage, 1)
    await second.threads.whenRestored()
    const store = second.threads.store('a')!
    expect(store.getState().messages).toStrictEqual(owls.messages)
    expect(store.getState()).toMatchObject({ branches: owls.branches, state: { topic: 'owls', pinned: 'on owls' } })
    await store.switchBranch({ messageId: owls.messages[0]!.id, index: 0 })
    expect(texts(store.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats'])
    expect(store.getState().state).toStrictEqual({ topic: 'cats', pinned: 'on cats' })
    expect(second.errors).toStrictEqual([])
  })

  it('delete() removes the thread and its tree from storage: a reload neither lists nor opens it', async () => {
    const storage = new MapStorage()
    const first = registryPage(storage)
    await forkedThread(first)
    await first.threads.flush()
    expect(storage.items.has('app:a')).toBe(true)
    await first.threads.delete('a')
    await first.threads.flush()
    expect([...storage.items.keys()]).toStrictEqual(['app:threads'])
    const second = registryPage(storage)
    await second.threads.whenRestored()
    expect(second.threads.getState().threads).toStrictEqual([])
    expect(second.threads.store('a')).toBeUndefined()
  })

  it('a thread saved with a tree no store could have written is refused (RESTORE damaged), kept aside, and the others open whole', async () => {
    const storage = new MapStorage()
    const first = registryPage(storage)
    await forkedThread(first)
    const other = first.threads.open('b')
    await answerLast(first.agents.get('b')!, other.run({ message: { id: 'q1', role: 'user', content: 'frogs' } }))
    await first.threads.flush()
    const damaged = JSON.parse(storage.items.get('app:a')!)
    damaged.model.tree.versions[''] = []
    const text = JSON.stringify(damaged)
    storage.items.set('app:a', text)
    const second = registryPage(storage)
    await second.threads.whenRestored()
    const refused = second.threads.store('a')!
    expect(codes(second.errors)).toStrictEqual([['RESTORE', 'damaged']])
    // The fork point of a first message is ''.
    expect(second.errors[0]!.message).toBe('The saved thread is damaged: model.tree.versions. lists no version')
    expect(refused.getState()).toMatchObject({ messages: [], state: initialState, branches: {}, error: { code: 'RESTORE', reason: 'damaged' } })
    expect(storage.items.get('app:a:refused')).toBe(text)
    expect(texts(second.threads.store('b')!.getState().messages)).toStrictEqual(['user:frogs', 'assistant:About frogs'])
    expect(
      second.threads
        .getState()
        .threads.map((thread) => thread.id)
        .sort(),
    ).toStrictEqual(['a', 'b'])
  })
})

/** The "birds" edit of two exchanges, saved under "notes" with the answer to "cats" named "a1" (a stable fork point). */
async function savedEdit() {
  const storage = new MapStorage()
  const { store, agent } = await twoExchanges(storage)
  await answerLast(agent, store.edit({ messageId: 'u2', content: 'birds' }))
  await saved()
  const a1 = store.getState().messages[1]!.id
  return { storage, thread: JSON.parse(storage.items.get('notes')!.replaceAll(a1, 'a1')), edited: store.getState().messages[2]!.id }
}

describe('a saved tree no store could have written', () => {
  it.each([
    ['a fork point without versions', (tree: Tree) => void (tree.versions = { a1: [] }), 'model.tree.versions.a1 lists no version'],
    [
      'a regenerated answer waiting to give back one not put away',
      (tree: Tree) => void (tree.pending = { after: 'u2', replaced: 'gone' }),
      'model.tree.pending.replaced names a branch the tree does not hold',
    ],
  ])('%s: RESTORE damaged naming the part, the text copied to <key>:refused, the store blank and working', async (_, damage, part) => {
    const { storage, thread } = await savedEdit()
    damage(thread.model.tree)
    storage.items.set('notes', JSON.stringify(thread))
    const { store: reloaded, errors, agent: next } = await page(storage)
    expect(codes(errors)).toStrictEqual([['RESTORE', 'damaged']])
    expect(errors[0]!.message).toBe(`The saved thread is damaged: ${part}`)
    expect(storage.items.get('notes:refused')).toBe(JSON.stringify(thread))
    expect(reloaded.getState()).toMatchObject({ messages: [], state: initialState, branches: {} })
    await answerLast(next, reloaded.run({ message: { id: 'n1', role: 'user', content: 'again' } }))
    expect(texts(reloaded.getState().messages)).toStrictEqual(['user:again', 'assistant:About again'])
  })
})

describe('a version no branch holds any more', () => {
  it('in a saved thread, is no damage: the thread comes back whole, and a switch to that version is refused (BRANCH no-such-version), changing nothing', async () => {
    const { storage, thread, edited } = await savedEdit()
    // The "dogs" branch put away is gone.
    thread.model.tree.shelved = {}
    storage.items.set('notes', JSON.stringify(thread))
    const { store, errors } = await page(storage)
    expect(errors).toStrictEqual([])
    expect(texts(store.getState().messages)).toStrictEqual(['user:cats', 'assistant:About cats', 'user:birds', 'assistant:About birds'])
    const shown = store.getState()
    expect(await refusal(store.switchBranch({ messageId: edited, index: 0 }))).toStrictEqual({ code: 'BRANCH', reason: 'no-such-version', messageId: edited })
    expect(store.getState()).toBe(shown)
  })

  it("live, after a server's snapshot renamed it away: a switch to it is refused (BRANCH no-such-version), before and after a reload", async () => {
    // A server that keeps its own history, appends what it is sent under ids of its own, and ends with a snapshot of it.
    const history: Message[] = []
    const keepingAndRenaming = (input: RunAgentInput): BaseEvent[] => {
      const known = new Set(history.map((message) => message.id.replace(/^srv-/, '')))
      for (const message of input.messages)
        if (!known.has(message.id)) history.push({ ...message, id: history.length < 4 ? message.id : `srv-${message.id}` } as Message)
      const id = `a-${input.runId}`
      history.push({ id, role: 'assistant', content: `About ${lastUserText(input)}` })
      const [started, , , , , finished] = answer(input)
      return [started!, { type: 'MESSAGES_SNAPSHOT', messages: structuredClone(history) } as BaseEvent, finished!]
    }
    const storage = new MapStorage()
    const { store } = await page(storage, { agent: new ScriptedAgent({ runs: [keepingAndRenaming] }) })
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
    await store.edit({ messageId: 'u2', content: 'birds' })
    // The server's thread: "dogs" where the fork was, and "birds" appended under its own id.
    expect(texts(store.getState().messages)).toStrictEqual([
      'user:cats',
      'assistant:About cats',
      'user:dogs',
      'assistant:About dogs',
      'user:birds',
      'assistant:About birds',
    ])
    expect(store.getState().branches).toStrictEqual({ u2: { index: 0, count: 2 } })
    const shown = store.getState()
    expect(await refusal(store.switchBranch({ messageId: 'u2', index: 1 }))).toStrictEqual({ code: 'BRANCH', reason: 'no-such-version', messageId: 'u2' })
    expect(store.getState()).toBe(shown)
    await saved()
    const { store: reloaded, errors } = await page(storage)
    expect(errors).toStrictEqual([])
    expect(reloaded.getState().messages).toStrictEqual(shown.messages)
    expect(await refusal(reloaded.switchBranch({ messageId: 'u2', index: 1 }))).toStrictEqual({ code: 'BRANCH', reason: 'no-such-version', messageId: 'u2' })
  })
})

describe('a saved `branches` that the tree does not bear out', () => {
  it('is read from the tree: the position of the version shown, and nothing for a message without versions', async () => {
    const storage = new MapStorage()
    const { store, agent } = await twoExchanges(storage)
    await answerLast(agent, store.edit({ messageId: 'u2', content: 'birds' }))
    await saved()
    const edited = store.getState().messages[2]!.id
    const thread = JSON.parse(storage.items.get('notes')!)
    thread.model.snapshot.branches = { u1: { index: 0, count: 5 }, [edited]: { index: 0, count: 1 } }
    storage.items.set('notes', JSON.stringify(thread))
    const { store: reloaded, errors } = await page(storage)
    expect(reloaded.getState().branches).toStrictEqual({ [edited]: { index: 1, count: 2 } })
    expect(errors).toStrictEqual([])
  })
})

describe.each(storages)('server branches across a reload ($kind storage)', ({ make }) => {
  it("'new-thread': a reload while the fork streams keeps its server thread and copies: the next run goes on there", async () => {
    const storage = make()
    const { agent, store, u1, a1 } = await twoExchanges(storage, { branching: 'new-thread' })
    const { threadId } = store.getState()
    void store.edit({ messageId: 'u2', content: 'birds' }).catch(() => undefined)
    await settle()
    const fork = agent.inputs[2]!
    expect(fork.threadId).toBe(`${threadId}~${fork.runId}`)
    agent.push(...answer(fork).slice(0, ANSWER_BEGUN))
    await saved()
    const edited = store.getState().messages[2]!
    const { store: reloaded, agent: next } = await page(storage, { branching: 'new-thread', agent: new ConnectingAgent() })
    // It re-attaches on the branch's thread, with the copies.
    await settle()
    expect(next.connects[0]!.threadId).toBe(fork.threadId)
    expect(ids(next.connects[0]!.messages)).toStrictEqual([`u1~${fork.runId}`, `${a1.id}~${fork.runId}`, edited.id])
    await answerLast(next, Promise.resolve(), 'connects')
    await answerLast(next, reloaded.run({ message: { id: 'u3', role: 'user', content: 'fish' } }))
    const run = next.inputs[0]!
    expect(run.threadId).toBe(fork.threadId)
    expect(ids(run.messages)).toStrictEqual([`u1~${fork.runId}`, `${a1.id}~${fork.runId}`, edited.id, `a-${fork.runId}`, 'u3'])
    expect(reloaded.getState().threadId).toBe(threadId)
    expect(ids(reloaded.getState().messages)).toStrictEqual([u1.id, a1.id, edited.id, `a-${fork.runId}`, 'u3', `a-${run.runId}`])
  })

  it("'langgraph': after a switch to the older branch and a reload, run() is refused as before and a fork at u2 goes under the server's id", async () => {
    const storage = make()
    const { agent, store, a2 } = await twoExchanges(storage, { branching: 'langgraph' })
    await answerLast(agent, store.edit({ messageId: 'u2', content: 'birds' }))
    const edited = store.getState().messages[2]!.id
    await store.switchBranch({ messageId: edited, index: 0 })
    await saved()
    const { store: reloaded, agent: next, errors } = await page(storage, { branching: 'langgraph' })
    expect(await refusal(reloaded.run({ message: 'fish' }))).toStrictEqual({ code: 'BRANCH', reason: 'server-branch', messageId: a2.id })
    expect(next.inputs).toStrictEqual([])
    await answerLast(next, reloaded.edit({ messageId: 'u2', content: 'bees' }))
    const fork = next.inputs[0]!
    expect(fork.messages[0]).toStrictEqual({ id: `fork-${fork.runId}`, role: 'system', content: expect.any(String) })
    // The new version goes under the id the server has known the message by since the first: u2.
    expect(fork.messages.slice(1).map((message) => [message.id, message.content])).toStrictEqual([
      ['u1', 'cats'],
      [reloaded.getState().messages[1]!.id, 'About cats'],
      ['u2', 'bees'],
    ])
    expect(fork.state).toStrictEqual({ topic: 'cats', pinned: 'mine' })
    expect(reloaded.getState().branches[reloaded.getState().messages[2]!.id]).toStrictEqual({ index: 2, count: 3 })
    expect(errors).toStrictEqual([])
  })
})

/** Two tabs of one app: registries over one storage. */
describe('two tabs on one storage', () => {
  it('tab A forks a thread; tab B opens it with the fork, switches it while A’s next run streams, and the last write is what a reload shows', async () => {
    const storage = new MapStorage()
    const tabA = registryPage(storage)
    const { store: inA, owls } = await forkedThread(tabA)
    await tabA.threads.flush()
    const tabB = registryPage(storage)
    await tabB.threads.whenRestored()
    const inB = tabB.threads.store('a')!
    expect(inB.getState().messages).toStrictEqual(owls.messages)
    expect(inB.getState().branches).toStrictEqual(owls.branches)
    // A asks on; while it streams, B switches back to "cats".
    const running = inA.run({ message: { id: 'u2', role: 'user', content: 'mice' } })
    await settle()
    const agentA = tabA.agents.get('a')!
    agentA.push(...answer(agentA.inputs.at(-1)!).slice(0, ANSWER_BEGUN))
    await inB.switchBranch({ messageId: owls.messages[0]!.id, index: 0 })
    await tabB.threads.flush()
    expect(JSON.parse(storage.items.get('app:a')!).model.snapshot.messages.map((message: Message) => message.content)).toStrictEqual(['cats', 'About cats'])
    stream(agentA, answer(agentA.inputs.at(-1)!).slice(ANSWER_BEGUN))
    await running
    // Each tab saves its own copy of the thread: the last write wins.
    await tabA.threads.flush()
    const reload = registryPage(storage)
    await reload.threads.whenRestored()
    const shown = reload.threads.store('a')!
    expect(texts(shown.getState().messages)).toStrictEqual(['user:owls', 'assistant:About owls', 'user:mice', 'assistant:About mice'])
    await shown.switchBranch({ messageId: owls.messages[0]!.id, index: 0 })
    expect(shown.getState().state).toStrictEqual({ topic: 'cats', pinned: 'on cats' })
  })
})
