// The exact request a forked run sends, by `branching` mode: 'history' (the default) sends the
// branch as the store holds it; 'langgraph' adds a system message the server has never seen, sends
// an edit under the id of the message it replaces (the store keeps its own id, and maps the server's
// MESSAGES_SNAPSHOT back to it), and refuses a request the server would append to another branch;
// 'new-thread' sends each fork on a server thread of its own, every earlier message a copy there
// under a fresh id, and each branch goes on on its own thread after a switch or a reload.
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { Observable } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, type Branching, createAgentStore, restoreThread, serializeThread } from '../src'
import { ScriptedAgent, type ScriptedRun } from '../src/testing'
import { ev } from './helpers'

interface Notes {
  topic: string
}

const lastUserText = (input: RunAgentInput) => String(input.messages.findLast((message) => message.role === 'user')?.content ?? '')

/**
 * A server that keeps its thread, as LangGraph does: it answers the last user message, writes it
 * into the state, and ends with a MESSAGES_SNAPSHOT of the thread under the ids it was sent (the
 * leading system message left out).
 */
const keepingThread = (input: RunAgentInput): BaseEvent[] => {
  const asked = lastUserText(input)
  const id = `a-${input.runId}`
  const thread = input.messages.filter((message) => message.role !== 'system')
  return [
    ev.runStarted(input.runId),
    ev.snapshot({ topic: asked }),
    ev.textStart(id),
    ev.text(id, `About ${asked}`),
    ev.textEnd(id),
    { type: 'MESSAGES_SNAPSHOT', messages: [...thread, { id, role: 'assistant', content: `About ${asked}` }] } as BaseEvent,
    ev.runFinished(input.runId),
  ]
}

/** Two exchanges, "cats" then "dogs", with the user's own edit of the state in between. */
async function twoExchanges(branching?: Branching) {
  const agent = new ScriptedAgent({ runs: [keepingThread] })
  const errors: AgentStoreError[] = []
  const store = createAgentStore<Notes>({ agent, initialState: { topic: '' }, onError: (error) => errors.push(error), ...(branching ? { branching } : {}) })
  await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
  store.setState({ topic: 'pinned' })
  await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
  const [u1, a1, u2, a2] = store.getState().messages as [Message, Message, Message, Message]
  return { agent, store, errors, u1, a1, u2, a2, firstRun: agent.inputs[0]!.runId }
}

/** The whole request, as the server receives it. */
const request = (runId: string, messages: Message[], state: Notes, parentRunId?: string): RunAgentInput => ({
  threadId: expect.any(String),
  runId,
  state,
  messages,
  tools: [],
  context: [],
  forwardedProps: {},
  ...(parentRunId === undefined ? {} : { parentRunId }),
})

const systemFor = (runId: string): Message => ({ id: `fork-${runId}`, role: 'system', content: expect.any(String) })
const ids = (messages: readonly Message[]) => messages.map((message) => message.id)
const refusal = (promise: Promise<void>) =>
  promise.then(
    () => undefined,
    (error: AgentStoreError) => ({ code: error.code, reason: error.reason, messageId: error.messageId }),
  )

describe("branching: 'history' (the default): the branch as the store holds it", () => {
  it('edit() sends the branch with the new version under its own id, the state its original was sent with, and the run before it', async () => {
    const { agent, store, u1, a1, firstRun } = await twoExchanges()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const sent = agent.inputs[2]!
    const edited = store.getState().messages[2]!
    expect(edited.id).not.toBe('u2')
    expect(sent).toStrictEqual(request(sent.runId, [u1, a1, { id: edited.id, role: 'user', content: 'birds' }], { topic: 'pinned' }, firstRun))
  })

  it('regenerate() sends the branch through the question, without any message added', async () => {
    const { agent, store, u1, a1, u2, firstRun } = await twoExchanges()
    await store.regenerate()
    const sent = agent.inputs[2]!
    expect(sent).toStrictEqual(request(sent.runId, [u1, a1, u2], { topic: 'pinned' }, firstRun))
  })

  it('a run after switching back to the older branch is sent as that branch, with no parentRunId', async () => {
    const { agent, store, u1, a1, u2, a2 } = await twoExchanges()
    await store.edit({ messageId: 'u2', content: 'birds' })
    await store.switchBranch({ messageId: store.getState().messages[2]!.id, index: 0 })
    await store.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    const sent = agent.inputs[3]!
    expect(sent).toStrictEqual(request(sent.runId, [u1, a1, u2, a2, { id: 'u3', role: 'user', content: 'fish' }], { topic: 'dogs' }))
  })
})

describe("branching: 'langgraph': the server forks from its own checkpoints", () => {
  it('edit() sends a fresh system message first and the new version under the id of the message it replaces', async () => {
    const { agent, store, u1, a1, firstRun } = await twoExchanges('langgraph')
    await store.edit({ messageId: 'u2', content: 'birds' })
    const sent = agent.inputs[2]!
    expect(sent).toStrictEqual(
      request(sent.runId, [systemFor(sent.runId), u1, a1, { id: 'u2', role: 'user', content: 'birds' }], { topic: 'pinned' }, firstRun),
    )
  })

  it('the store keeps the new version under its own id: the server snapshot naming it "u2" is mapped back, and the next run sends it as "u2" again', async () => {
    const { agent, store, u1, a1, u2, a2 } = await twoExchanges('langgraph')
    await store.edit({ messageId: 'u2', content: 'birds' })
    const after = store.getState()
    const edited = after.messages[2]!
    expect(edited).toStrictEqual({ id: expect.any(String), role: 'user', content: 'birds' })
    expect(edited.id).not.toBe('u2')
    expect(ids(after.messages)).toStrictEqual(['u1', a1.id, edited.id, `a-${agent.inputs[2]!.runId}`])
    expect(after.branches).toStrictEqual({ [edited.id]: { index: 1, count: 2 } })

    await store.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    const next = agent.inputs[3]!
    expect(next).toStrictEqual(
      request(next.runId, [u1, a1, { ...edited, id: 'u2' }, after.messages[3]!, { id: 'u3', role: 'user', content: 'fish' }], { topic: 'birds' }),
    )
    expect(ids(store.getState().messages)).toStrictEqual([...ids(after.messages), 'u3', `a-${next.runId}`])
    // The older branch still holds the original under its own id.
    await store.switchBranch({ messageId: edited.id, index: 0 })
    expect(store.getState().messages).toStrictEqual([u1, a1, u2, a2])
  })

  it('an edit of an edit goes under the id the server has known since the first', async () => {
    const { agent, store } = await twoExchanges('langgraph')
    await store.edit({ messageId: 'u2', content: 'birds' })
    await store.edit({ messageId: store.getState().messages[2]!.id, content: 'bees' })
    expect(agent.inputs[3]!.messages.at(-1)).toStrictEqual({ id: 'u2', role: 'user', content: 'bees' })
    expect(store.getState().branches).toStrictEqual({ [store.getState().messages[2]!.id]: { index: 2, count: 3 } })
  })

  it('regenerate() sends a fresh system message first and the branch through the question', async () => {
    const { agent, store, u1, a1, u2, firstRun } = await twoExchanges('langgraph')
    await store.regenerate()
    const sent = agent.inputs[2]!
    expect(sent).toStrictEqual(request(sent.runId, [systemFor(sent.runId), u1, a1, u2], { topic: 'pinned' }, firstRun))
  })

  it('an edit of the first message sends the system message and that message alone, with no parentRunId', async () => {
    const { agent, store } = await twoExchanges('langgraph')
    await store.edit({ messageId: 'u1', content: 'mice' })
    const sent = agent.inputs[2]!
    expect(sent).toStrictEqual(request(sent.runId, [systemFor(sent.runId), { id: 'u1', role: 'user', content: 'mice' }], { topic: '' }))
  })

  it('ordinary runs send no system message', async () => {
    const { agent, u1, a1 } = await twoExchanges('langgraph')
    expect(agent.inputs[1]!.messages).toStrictEqual([u1, a1, { id: 'u2', role: 'user', content: 'dogs' }])
  })
})

describe("branching: 'langgraph': nothing is sent that the server would append to another branch", () => {
  /** Edited at u2, then switched back to the original branch, which the server no longer holds. */
  async function backOnTheOlderBranch() {
    const session = await twoExchanges('langgraph')
    await session.store.edit({ messageId: 'u2', content: 'birds' })
    const edited = session.store.getState().messages.slice()
    await session.store.switchBranch({ messageId: edited[2]!.id, index: 0 })
    return { ...session, edited }
  }

  it('run() is refused with BRANCH server-branch, naming the first message the server does not hold; nothing is sent, changed or reported', async () => {
    const { agent, store, a2, errors } = await backOnTheOlderBranch()
    const before = store.getState()
    expect(await refusal(store.run({ message: 'fish' }))).toStrictEqual({ code: 'BRANCH', reason: 'server-branch', messageId: a2.id })
    expect(agent.inputs).toHaveLength(3)
    expect(store.getState()).toBe(before)
    // A refusal rejects the call's promise, as run()'s own refusals do; onError is for what happens on its own.
    expect(errors).toStrictEqual([])
  })

  it('a fork where both branches agree is sent: regenerate() of the older answer, then run() continues that branch', async () => {
    const { agent, store, u1, a1, u2 } = await backOnTheOlderBranch()
    await store.regenerate()
    const sent = agent.inputs[3]!
    expect(sent.messages).toStrictEqual([systemFor(sent.runId), u1, a1, u2])
    await store.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    expect(agent.inputs).toHaveLength(5)
    expect(ids(agent.inputs[4]!.messages)).toStrictEqual(['u1', a1.id, 'u2', `a-${sent.runId}`, 'u3'])
  })

  it('then, back on the newer branch, run() is refused, and a fork at u2 is sent from it with its own text', async () => {
    const { agent, store, u1, a1, edited } = await backOnTheOlderBranch()
    await store.regenerate()
    await store.switchBranch({ messageId: 'u2', index: 1 })
    expect(store.getState().messages).toStrictEqual(edited)
    expect(await refusal(store.run({ message: 'fish' }))).toStrictEqual({ code: 'BRANCH', reason: 'server-branch', messageId: edited[3]!.id })
    expect(agent.inputs).toHaveLength(4)
    await store.regenerate()
    const sent = agent.inputs[4]!
    expect(sent.messages).toStrictEqual([systemFor(sent.runId), u1, a1, { ...edited[2]!, id: 'u2' }])
  })

  it('a fork below where the branches part is refused: an edit of a message the server holds on another branch only', async () => {
    const { agent, store, u1, a1, u2, a2 } = await twoExchanges('langgraph')
    await store.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    await store.edit({ messageId: 'u2', content: 'birds' })
    await store.switchBranch({ messageId: store.getState().messages[2]!.id, index: 0 })
    expect(store.getState().messages.slice(0, 5)).toStrictEqual([u1, a1, u2, a2, expect.objectContaining({ id: 'u3' })])
    expect(await refusal(store.edit({ messageId: 'u3', content: 'frogs' }))).toStrictEqual({ code: 'BRANCH', reason: 'server-branch', messageId: a2.id })
    expect(await refusal(store.regenerate())).toStrictEqual({ code: 'BRANCH', reason: 'server-branch', messageId: a2.id })
    expect(agent.inputs).toHaveLength(4)
    await store.edit({ messageId: 'u2', content: 'bees' })
    expect(agent.inputs[4]!.messages.at(-1)).toStrictEqual({ id: 'u2', role: 'user', content: 'bees' })
  })

  it("the server's branch and the edited ids survive a reload", async () => {
    const { store, a2, edited } = await backOnTheOlderBranch()
    const agent = new ScriptedAgent({ runs: [keepingThread] })
    const saved = JSON.parse(JSON.stringify(serializeThread(store)))
    const restored = createAgentStore<Notes>({ agent, initialState: { topic: '' }, branching: 'langgraph', restore: restoreThread(saved), onError: () => {} })
    expect(await refusal(restored.run({ message: 'fish' }))).toStrictEqual({ code: 'BRANCH', reason: 'server-branch', messageId: a2.id })
    await restored.switchBranch({ messageId: 'u2', index: 1 })
    await restored.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    expect(agent.inputs[0]!.messages[2]).toStrictEqual({ ...edited[2]!, id: 'u2' })
  })
})

/**
 * A server that keeps each thread's history by message id, as Mastra with memory does: events name
 * the thread the request was sent on, RUN_STARTED echoes the input (as CopilotKit's does), and the
 * run ends with a MESSAGES_SNAPSHOT of the messages sent and the answer, under the ids it was sent.
 */
const keepingThreadsById = (input: RunAgentInput): BaseEvent[] => {
  const asked = lastUserText(input)
  const id = `a-${input.runId}`
  const { threadId, runId } = input
  return [
    { type: 'RUN_STARTED', threadId, runId, input } as BaseEvent,
    ev.snapshot({ topic: asked }),
    ev.textStart(id),
    ev.text(id, `About ${asked}`),
    ev.textEnd(id),
    { type: 'MESSAGES_SNAPSHOT', messages: [...input.messages, { id, role: 'assistant', content: `About ${asked}` }] } as BaseEvent,
    { type: 'RUN_FINISHED', threadId, runId } as BaseEvent,
  ]
}

/** A run that suspends a tool call it never shows (Mastra's suspending tools): no message, an interrupt outcome. */
const suspending = (input: RunAgentInput): BaseEvent[] => {
  const { threadId, runId } = input
  const interrupts = [{ id: `${runId}::call_w`, reason: 'mastra:tool_suspend', toolCallId: 'call_w' }]
  return [
    { type: 'RUN_STARTED', threadId, runId } as BaseEvent,
    { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts } } as BaseEvent,
  ]
}

/** Two exchanges with `branching: 'new-thread'`, "cats" then "dogs", with the user's own edit of the state in between. */
async function twoExchangesByThread({ runs = [keepingThreadsById], ...options }: { restore?: ReturnType<typeof restoreThread>; runs?: ScriptedRun[] } = {}) {
  const agent = new ScriptedAgent({ runs })
  const errors: AgentStoreError[] = []
  const store = createAgentStore<Notes>({ agent, initialState: { topic: '' }, branching: 'new-thread', onError: (error) => errors.push(error), ...options })
  const { threadId } = store.getState()
  await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
  store.setState({ topic: 'pinned' })
  await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
  const [u1, a1, u2, a2] = store.getState().messages as [Message, Message, Message, Message]
  return { agent, store, errors, threadId, u1, a1, u2, a2, firstRun: agent.inputs[0]!.runId }
}

/** A message as a copy on the server thread of the fork run `runId`. */
const copyOn = (runId: string, message: Message): Message => ({ ...message, id: `${message.id}~${runId}` }) as Message

describe("branching: 'new-thread': each fork is a server thread of its own, every message of the branch a copy there", () => {
  it('edit() sends on `<threadId>~<runId>` the messages before it under `<id>~<runId>`, the new version under its own id, the state and the run before it', async () => {
    const { agent, store, threadId, u1, a1, firstRun } = await twoExchangesByThread()
    expect(ids(agent.inputs[1]!.messages)).toStrictEqual(['u1', a1.id, 'u2'])
    await store.edit({ messageId: 'u2', content: 'birds' })
    const sent = agent.inputs[2]!
    const edited = store.getState().messages[2]!
    expect(sent).toStrictEqual({
      ...request(
        sent.runId,
        [copyOn(sent.runId, u1), copyOn(sent.runId, a1), { id: edited.id, role: 'user', content: 'birds' }],
        { topic: 'pinned' },
        firstRun,
      ),
      threadId: `${threadId}~${sent.runId}`,
    })
  })

  it("the store keeps its own ids: the server's echo and snapshot under the copies' ids change nothing; the snapshot's threadId stays the store's", async () => {
    const { agent, store, errors, threadId, u1, a1 } = await twoExchangesByThread()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const sent = agent.inputs[2]!
    const after = store.getState()
    expect(ids(after.messages)).toStrictEqual(['u1', a1.id, after.messages[2]!.id, `a-${sent.runId}`])
    expect(after.messages.slice(0, 2)).toStrictEqual([u1, a1])
    expect(after).toMatchObject({ threadId, status: 'idle', error: undefined, state: { topic: 'birds' } })
    expect(after.branches).toStrictEqual({ [after.messages[2]!.id]: { index: 1, count: 2 } })
    expect(errors).toStrictEqual([])
  })

  it("the next run continues the branch on its server thread, the copies under the same ids and the server's answer under its own", async () => {
    const { agent, store, threadId, u1, a1 } = await twoExchangesByThread()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const fork = agent.inputs[2]!.runId
    const [, , edited, answer] = store.getState().messages as Message[]
    await store.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    const next = agent.inputs[3]!
    const messages = [copyOn(fork, u1), copyOn(fork, a1), edited!, answer!, { id: 'u3', role: 'user', content: 'fish' } as Message]
    expect(next).toStrictEqual({ ...request(next.runId, messages, { topic: 'birds' }), threadId: `${threadId}~${fork}` })
  })

  it("a server that only echoes the input in RUN_STARTED (CopilotKit's) adds no copy to the branch", async () => {
    const echoOnly = (input: RunAgentInput) => keepingThreadsById(input).filter((event) => event.type !== 'MESSAGES_SNAPSHOT')
    const agent = new ScriptedAgent({ runs: [echoOnly] })
    const store = createAgentStore<Notes>({ agent, initialState: { topic: '' }, branching: 'new-thread' })
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
    const a1 = store.getState().messages[1]!
    await store.edit({ messageId: 'u2', content: 'birds' })
    const after = store.getState().messages
    expect(ids(after)).toStrictEqual(['u1', a1.id, after[2]!.id, `a-${agent.inputs[2]!.runId}`])
  })

  it('regenerate() sends the branch through the question, every message a copy, on a thread of its own', async () => {
    const { agent, store, threadId, u1, a1, u2, firstRun } = await twoExchangesByThread()
    await store.regenerate()
    const sent = agent.inputs[2]!
    const copies = [u1, a1, u2].map((message) => copyOn(sent.runId, message))
    expect(sent).toStrictEqual({ ...request(sent.runId, copies, { topic: 'pinned' }, firstRun), threadId: `${threadId}~${sent.runId}` })
    expect(ids(store.getState().messages)).toStrictEqual(['u1', a1.id, 'u2', `a-${sent.runId}`])
  })

  it("each branch keeps its thread: after a switch, run() goes on the store's thread with the original ids, and back on the edited branch on its own", async () => {
    const { agent, store, threadId, u1, a1, u2, a2 } = await twoExchangesByThread()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const fork = agent.inputs[2]!.runId
    const edited = store.getState().messages.slice()
    await store.switchBranch({ messageId: edited[2]!.id, index: 0 })
    expect(store.getState()).toMatchObject({ threadId, messages: [u1, a1, u2, a2] })
    await store.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    const older = agent.inputs[3]!
    expect(older).toStrictEqual(request(older.runId, [u1, a1, u2, a2, { id: 'u3', role: 'user', content: 'fish' }], { topic: 'dogs' }))
    expect(older.threadId).toBe(threadId)

    await store.switchBranch({ messageId: 'u2', index: 1 })
    expect(store.getState().messages).toStrictEqual(edited)
    await store.run({ message: { id: 'u4', role: 'user', content: 'owls' } })
    const newer = agent.inputs[4]!
    expect(newer.threadId).toBe(`${threadId}~${fork}`)
    expect(ids(newer.messages)).toStrictEqual([`u1~${fork}`, `${a1.id}~${fork}`, edited[2]!.id, edited[3]!.id, 'u4'])
  })

  it("a fork of a fork is a third thread: every message of the branch, the first fork's own included, a copy there", async () => {
    const { agent, store, threadId, a1 } = await twoExchangesByThread()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const [, , edited, answer] = store.getState().messages as Message[]
    await store.regenerate()
    const again = agent.inputs[3]!
    const run = again.runId
    expect(again.threadId).toBe(`${threadId}~${run}`)
    expect(ids(again.messages)).toStrictEqual([`u1~${run}`, `${a1.id}~${run}`, `${edited!.id}~${run}`])
    expect(ids(store.getState().messages)).toStrictEqual(['u1', a1.id, edited!.id, `a-${run}`])
    await store.switchBranch({ messageId: `a-${run}`, index: 0 })
    expect(store.getState().messages[3]).toStrictEqual(answer)
    await store.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    expect(agent.inputs[4]!.threadId).toBe(`${threadId}~${agent.inputs[2]!.runId}`)
  })

  it("a regenerate whose run fails before it writes anything gives back the old answer and its thread: run() goes on the store's thread", async () => {
    const failing = (input: RunAgentInput): BaseEvent[] => [
      { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId } as BaseEvent,
      ev.runError('down'),
    ]
    const agent = new ScriptedAgent({ runs: [keepingThreadsById, keepingThreadsById, failing, keepingThreadsById] })
    const store = createAgentStore<Notes>({ agent, initialState: { topic: '' }, branching: 'new-thread', onError: () => {} })
    const { threadId } = store.getState()
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
    const before = store.getState().messages
    await store.regenerate()
    expect(agent.inputs[2]!.threadId).toBe(`${threadId}~${agent.inputs[2]!.runId}`)
    expect(store.getState()).toMatchObject({ messages: before, branches: {}, error: { code: 'RUN_ERROR' } })
    await store.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    expect(agent.inputs[3]!.threadId).toBe(threadId)
    expect(ids(agent.inputs[3]!.messages)).toStrictEqual([...ids(before), 'u3'])
  })

  it('a regenerate whose run suspends before it writes anything (as Mastra, which never shows the suspending call) waits for the answer, across a reload; approve resumes on the branch thread and its answer is the new version', async () => {
    const { agent, store, threadId, u1, a1, u2, a2 } = await twoExchangesByThread({ runs: [keepingThreadsById, keepingThreadsById, suspending] })
    await store.regenerate()
    const fork = agent.inputs[2]!.runId
    const waiting = store.getState()
    expect(waiting).toMatchObject({ status: 'interrupted', messages: [u1, a1, u2], branches: {}, error: undefined })
    expect(waiting.confirmations.map(({ id, reason, toolCallId }) => ({ id, reason, toolCallId }))).toStrictEqual([
      { id: `${fork}::call_w`, reason: 'mastra:tool_suspend', toolCallId: 'call_w' },
    ])

    const reloaded = new ScriptedAgent({ runs: [keepingThreadsById] })
    const saved = JSON.parse(JSON.stringify(serializeThread(store)))
    const restored = createAgentStore<Notes>({ agent: reloaded, initialState: { topic: '' }, branching: 'new-thread', restore: restoreThread(saved) })
    expect(restored.getState()).toMatchObject({ status: 'interrupted', messages: [u1, a1, u2], confirmations: [{ id: `${fork}::call_w` }] })
    await restored.approve()
    const resumed = reloaded.inputs[0]!
    expect(resumed).toStrictEqual({
      ...request(
        resumed.runId,
        [u1, a1, u2].map((message) => copyOn(fork, message)),
        { topic: 'pinned' },
      ),
      threadId: `${threadId}~${fork}`,
      resume: [{ interruptId: `${fork}::call_w`, status: 'resolved', payload: { accepted: true } }],
    })
    const answered = restored.getState()
    expect(ids(answered.messages)).toStrictEqual(['u1', a1.id, 'u2', `a-${resumed.runId}`])
    expect(answered.branches).toStrictEqual({ [`a-${resumed.runId}`]: { index: 1, count: 2 } })
    await restored.switchBranch({ messageId: `a-${resumed.runId}`, index: 0 })
    expect(restored.getState().messages).toStrictEqual([u1, a1, u2, a2])
  })

  it('a suspended regenerate that is cancelled, its resumed run writing nothing, gives back the old answer and its thread', async () => {
    const cancelled = (input: RunAgentInput): BaseEvent[] => [
      { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId } as BaseEvent,
      { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId } as BaseEvent,
    ]
    const { agent, store, threadId, u1, a1, u2, a2 } = await twoExchangesByThread({
      runs: [keepingThreadsById, keepingThreadsById, suspending, cancelled, keepingThreadsById],
    })
    await store.regenerate()
    await store.cancel()
    expect(agent.inputs[3]!.threadId).toBe(`${threadId}~${agent.inputs[2]!.runId}`)
    expect(store.getState()).toMatchObject({ status: 'idle', messages: [u1, a1, u2, a2], branches: {}, confirmations: [] })
    await store.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    expect(agent.inputs[4]!.threadId).toBe(threadId)
  })

  it('a reload in the middle of a branch keeps its thread and ids: run() continues there, and a switch back goes to the store’s thread', async () => {
    const { agent, store, threadId, u1, a1, u2, a2 } = await twoExchangesByThread()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const fork = agent.inputs[2]!.runId
    const edited = store.getState().messages.slice()
    const saved = JSON.parse(JSON.stringify(serializeThread(store)))
    const reloaded = new ScriptedAgent({ runs: [keepingThreadsById] })
    const restored = createAgentStore<Notes>({ agent: reloaded, initialState: { topic: '' }, branching: 'new-thread', restore: restoreThread(saved) })
    expect(restored.getState()).toMatchObject({ threadId, messages: edited })
    await restored.run({ message: { id: 'u3', role: 'user', content: 'fish' } })
    expect(reloaded.inputs[0]!.threadId).toBe(`${threadId}~${fork}`)
    expect(ids(reloaded.inputs[0]!.messages)).toStrictEqual([`u1~${fork}`, `${a1.id}~${fork}`, edited[2]!.id, edited[3]!.id, 'u3'])
    await restored.switchBranch({ messageId: edited[2]!.id, index: 0 })
    await restored.run({ message: { id: 'u4', role: 'user', content: 'owls' } })
    expect(reloaded.inputs[1]!.threadId).toBe(threadId)
    expect(reloaded.inputs[1]!.messages.slice(0, 4)).toStrictEqual([u1, a1, u2, a2])
  })

  it('reconnect() of a fork whose stream dropped connects on the branch thread, with the copies', async () => {
    class Reconnecting extends ScriptedAgent {
      readonly connects: RunAgentInput[] = []
      protected override connect(input: RunAgentInput): Observable<BaseEvent> {
        this.connects.push(structuredClone(input))
        return new Observable<BaseEvent>((subscriber) => {
          for (const event of keepingThreadsById(input)) subscriber.next(event)
          subscriber.complete()
        })
      }
    }
    // The fork's stream ends after its answer began, before RUN_FINISHED.
    const dropped = (input: RunAgentInput) => keepingThreadsById(input).slice(0, 4)
    const agent = new Reconnecting({ runs: [keepingThreadsById, keepingThreadsById, dropped, keepingThreadsById] })
    const store = createAgentStore<Notes>({ agent, initialState: { topic: '' }, branching: 'new-thread', onError: () => {} })
    const { threadId } = store.getState()
    await store.run({ message: { id: 'u1', role: 'user', content: 'cats' } })
    await store.run({ message: { id: 'u2', role: 'user', content: 'dogs' } })
    const a1 = store.getState().messages[1]!
    await store.edit({ messageId: 'u2', content: 'birds' })
    expect(store.getState().error).toMatchObject({ code: 'TRANSPORT', reason: 'incomplete' })
    const fork = agent.inputs[2]!.runId
    await store.reconnect()
    const [connect] = agent.connects
    expect(connect!.threadId).toBe(`${threadId}~${fork}`)
    expect(ids(connect!.messages)).toStrictEqual([`u1~${fork}`, `${a1.id}~${fork}`, store.getState().messages[2]!.id])
    expect(ids(store.getState().messages)).toStrictEqual(['u1', a1.id, store.getState().messages[2]!.id, `a-${fork}`])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
  })

  it("a saved branch thread that is not a string, or a copy's id that is not one, is damage: RESTORE damaged, the store starts clean", async () => {
    const { store } = await twoExchangesByThread()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const saved = JSON.parse(JSON.stringify(serializeThread(store)))
    const wrongThread = structuredClone(saved)
    wrongThread.model.tree.thread = 5
    const wrongId = structuredClone(saved)
    const [thread] = Object.keys(saved.model.tree.threadWireIds)
    wrongId.model.tree.threadWireIds[thread!].u1 = null
    for (const damaged of [wrongThread, wrongId]) {
      const errors: AgentStoreError[] = []
      const restored = createAgentStore<Notes>({
        initialState: { topic: '' },
        branching: 'new-thread',
        restore: restoreThread(damaged),
        onError: (error) => errors.push(error),
      })
      expect(errors.map((error) => [error.code, error.reason])).toStrictEqual([['RESTORE', 'damaged']])
      expect(restored.getState().messages).toStrictEqual([])
    }
  })

  it('a thread saved without branch threads (a fork made with another mode) restores: its branches go on the store’s thread, a new fork on its own', async () => {
    const { store } = await twoExchanges()
    const { threadId } = store.getState()
    await store.edit({ messageId: 'u2', content: 'birds' })
    const saved = JSON.parse(JSON.stringify(serializeThread(store)))
    expect(JSON.stringify(saved)).not.toContain('threadWireIds')
    const agent = new ScriptedAgent({ runs: [keepingThreadsById] })
    const restored = createAgentStore<Notes>({ agent, initialState: { topic: '' }, branching: 'new-thread', restore: restoreThread(saved) })
    const edited = restored.getState().messages[2]!.id
    await restored.switchBranch({ messageId: edited, index: 0 })
    await restored.run({ message: 'fish' })
    expect(agent.inputs[0]!.threadId).toBe(threadId)
    await restored.regenerate()
    expect(agent.inputs[1]!.threadId).toBe(`${threadId}~${agent.inputs[1]!.runId}`)
  })
})
