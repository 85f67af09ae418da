// The store's conversation tree against real servers: edit(), regenerate() and switchBranch()
// through both transports, with the exact request each fork sends, the history the model saw (every
// turn is scripted as `echoHistory`, so an answer lists the history the server gave its model), the
// messages and `branches` of the store, and the state each branch comes back with. CopilotKit takes
// the branch sent as the truth (the default `branching: 'history'`), and so does Mastra without
// memory; LangGraph forks from its own checkpoints with `branching: 'langgraph'`; Mastra with memory
// appends whatever it is sent on a thread it holds, and branches with `branching: 'new-thread'`; a
// suspend on such a branch thread is approved there, across a reload too.
import type { Message, RunAgentInput } from '@ag-ui/core'
import { type AgentSnapshot, type AgentStoreOptions, restoreThread, type SerializedThread, serializeThread } from '@agent-state/core'
import { describe, expect, it } from 'vitest'
import { bodies, orphanToolMessages, protocolEvents, type Session, script, serverLog, servers, session, type Via, valuesOver } from './support'

interface Notes {
  document: string
  title?: string
}

/** What the model answers when given these messages: `historyText` of servers/control.ts. */
const echoOf = (messages: readonly Message[]) =>
  messages
    .filter((message) => (message.role === 'user' || message.role === 'assistant') && message.content)
    .map((message) => `${message.role}: ${message.content}`)
    .join(' | ')

const texts = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${String(message.content)}`)

/** Every answer of the thread is the history its model saw. */
async function echoing<S>(base: string, s: Session<S>): Promise<Session<S>> {
  await script(
    base,
    s.threadId,
    Array.from({ length: 10 }, () => ({ echoHistory: true as const })),
  )
  return s
}

/** The last message is the answer to the history before it: the model saw exactly that branch. */
function expectAnswered(messages: readonly Message[]): void {
  const answer = messages.at(-1)!
  expect(answer.role).toBe('assistant')
  expect(answer.content).toBe(echoOf(messages.slice(0, -1)))
}

/** The messages as copies on the branch thread of the fork run `runId` (branching 'new-thread'). */
const copies = (runId: string, ...messages: Message[]) => messages.map((message) => ({ ...message, id: `${message.id}~${runId}` }))

/** Two exchanges, "Q1" then "Q2", with the user's own edit of the state in between; each answer is the history the model saw. */
async function twoExchanges<S extends Notes>(base: string, url: string, options: Omit<AgentStoreOptions<S>, 'agent'>, via: Via) {
  const s = await echoing(base, session<S>(url, options, via))
  await s.store.run({ message: 'Q1' })
  s.store.setState((state) => ({ ...state, document: 'Written after Q1' }))
  await s.store.run({ message: 'Q2' })
  const [U1, A1, U2, A2] = s.store.getState().messages as [Message, Message, Message, Message]
  expectAnswered([U1, A1, U2, A2])
  return { ...s, U1, A1, U2, A2 }
}

describe.each(['HttpAgent', 'url'] as const)('CopilotKit through %s: the history sent is the branch', (via: Via) => {
  const base = servers.copilotkit
  const url = `${base}/api/agent/writer/run`
  const options = { initialState: { document: 'Empty' } as Notes }

  it('edit() sends the branch with the new version, the state U2 was sent with and the run before it; the model sees that branch', async () => {
    const { store, threadId, U1, A1, U2, A2 } = await twoExchanges(base, url, options, via)
    expectAnswered([U1, A1, U2, A2])
    const [first, second] = await bodies(base, threadId)
    expect(second!.parentRunId).toBeUndefined()

    await store.edit({ messageId: U2.id, content: 'Q2 edited' })

    const forked = (await bodies(base, threadId))[2]!
    const edited = forked.messages[2]!
    expect(edited).toEqual({ id: expect.any(String), role: 'user', content: 'Q2 edited' })
    expect(edited.id).not.toBe(U2.id)
    expect(forked).toMatchObject({ threadId, messages: [U1, A1, edited], state: { document: 'Written after Q1' }, parentRunId: first!.runId })
    expect(forked.state).toEqual(second!.state)
    const after = store.getState()
    expect(texts(after.messages)).toEqual([
      'user:Q1',
      `assistant:${A1.content}`,
      'user:Q2 edited',
      'assistant:user: Q1 | assistant: user: Q1 | user: Q2 edited',
    ])
    expectAnswered(after.messages)
    expect(after.messages[2]!.id).toBe(edited.id)
    expect(after.branches).toEqual({ [edited.id]: { index: 1, count: 2 } })
    expect(after).toMatchObject({ status: 'idle', error: undefined, state: { document: 'Written after Q1' } })
  })

  it('switchBranch() back and forth shows each branch with its state; a run then continues the branch shown, which the model sees', async () => {
    const { store, threadId, U1, A1, U2, A2 } = await twoExchanges(base, url, options, via)
    store.setState({ document: 'Written after Q2' })
    await store.edit({ messageId: U2.id, content: 'Q2 edited' })
    store.setState({ document: 'Written on the edited branch' })
    const edited = store.getState().messages.slice()

    await store.switchBranch({ messageId: edited[2]!.id, index: 0 })
    const old = store.getState()
    expect(old.messages).toEqual([U1, A1, U2, A2])
    expect(old.branches).toEqual({ [U2.id]: { index: 0, count: 2 } })
    expect(old).toMatchObject({ state: { document: 'Written after Q2' }, committed: { document: 'Written after Q2' } })

    await store.switchBranch({ messageId: U2.id, index: 1 })
    expect(store.getState().messages).toEqual(edited)
    expect(store.getState().state).toEqual({ document: 'Written on the edited branch' })

    await store.switchBranch({ messageId: edited[2]!.id, index: 0 })
    await store.run({ message: 'Q3' })
    const continued = (await bodies(base, threadId))[3]!
    expect(continued.messages.slice(0, 4)).toEqual([U1, A1, U2, A2])
    expect(continued.messages[4]).toMatchObject({ role: 'user', content: 'Q3' })
    expect(continued.state).toEqual({ document: 'Written after Q2' })
    expect(continued.parentRunId).toBeUndefined()
    const after = store.getState().messages
    expect(texts(after.slice(4))).toEqual(['user:Q3', `assistant:${echoOf(after.slice(0, 5))}`])
    expect(store.getState().branches).toEqual({ [U2.id]: { index: 0, count: 2 } })
  })

  it('regenerate() sends the same question with the state and parent of its run; the new answer is a second version of A2', async () => {
    const { store, threadId, U1, A1, U2, A2 } = await twoExchanges(base, url, options, via)
    store.setState({ document: 'Written after Q2' })

    await store.regenerate()

    const [first, second, again] = await bodies(base, threadId)
    expect(again).toMatchObject({ threadId, messages: [U1, A1, U2], state: { document: 'Written after Q1' }, parentRunId: first!.runId })
    expect(again!.runId).not.toBe(second!.runId)
    const after = store.getState()
    const A2b = after.messages[3]!
    expect(after.messages.slice(0, 3)).toEqual([U1, A1, U2])
    expect(A2b.id).not.toBe(A2.id)
    // The model saw the branch without A2: the same history, so the same echo under a new id.
    expect(A2b.content).toBe(A2.content)
    expectAnswered(after.messages)
    expect(after.branches).toEqual({ [A2b.id]: { index: 1, count: 2 } })
    expect(after.state).toEqual({ document: 'Written after Q1' })

    await store.switchBranch({ messageId: A2b.id, index: 0 })
    expect(store.getState().messages).toEqual([U1, A1, U2, A2])
    expect(store.getState().state).toEqual({ document: 'Written after Q2' })
  })

  it('an edit of the first message sends it alone, without parentRunId, with the initial state; then regenerate below it', async () => {
    const { store, threadId, U1 } = await twoExchanges(base, url, options, via)
    await store.edit({ messageId: U1.id, content: 'Q1 edited' })
    const forked = (await bodies(base, threadId))[2]!
    expect(forked.messages).toEqual([{ id: expect.any(String), role: 'user', content: 'Q1 edited' }])
    expect(forked.state).toEqual({ document: 'Empty' })
    expect(forked).not.toHaveProperty('parentRunId')
    const [V1, B1] = store.getState().messages as [Message, Message]
    expect(B1.content).toBe('user: Q1 edited')

    await store.regenerate({ messageId: B1.id })
    const again = (await bodies(base, threadId))[3]!
    expect(again.messages).toEqual([V1])
    expect(again).not.toHaveProperty('parentRunId')
    const after = store.getState()
    expect(after.branches).toEqual({ [V1.id]: { index: 1, count: 2 }, [after.messages[1]!.id]: { index: 1, count: 2 } })
    expectAnswered(after.messages)
  })
})

describe.each(['HttpAgent', 'url'] as const)("LangGraph through %s with branching: 'langgraph': forks from the server's checkpoints", (via: Via) => {
  const base = servers.langgraph
  const url = `${base}/writer`
  const initialState = { document: 'Empty', title: '', revision: 0 }
  const options = { initialState, branching: 'langgraph' as const }
  const fork = (runId: string) => ({ id: `fork-${runId}`, role: 'system', content: expect.any(String) })

  it('edit() sends a fresh system message and the new version under the id of U2; the store keeps its own id, and the next run continues the branch', async () => {
    const { store, threadId, U1, A1, U2 } = await twoExchanges(base, url, options, via)
    await store.edit({ messageId: U2.id, content: 'Q2 edited' })

    const [first, second, forked] = await bodies(base, threadId)
    expect(forked).toMatchObject({ threadId, state: second!.state, parentRunId: first!.runId })
    expect(forked!.messages).toEqual([fork(forked!.runId), U1, A1, { id: U2.id, role: 'user', content: 'Q2 edited' }])
    const after = store.getState()
    const edited = after.messages[2]!
    expect(edited).toEqual({ id: expect.any(String), role: 'user', content: 'Q2 edited' })
    expect(edited.id).not.toBe(U2.id)
    expect(after.messages).toHaveLength(4)
    expectAnswered(after.messages)
    expect(after.branches).toEqual({ [edited.id]: { index: 1, count: 2 } })
    expect(after).toMatchObject({ status: 'idle', error: undefined, state: { document: 'Written after Q1' } })

    await store.run({ message: 'Q3' })
    const next = (await bodies(base, threadId))[3]!
    expect(next.messages.slice(0, 4)).toEqual([U1, A1, { ...edited, id: U2.id }, after.messages[3]])
    expect(next).not.toHaveProperty('parentRunId')
    const continued = store.getState().messages
    expect(continued.slice(0, 4)).toEqual(after.messages)
    expect(continued).toHaveLength(6)
    expectAnswered(continued)
  })

  it('regenerate() sends a fresh system message and the branch to U2; the model sees it without A2', async () => {
    const { store, threadId, U1, A1, U2, A2 } = await twoExchanges(base, url, options, via)
    await store.regenerate()
    const [first, second, again] = await bodies(base, threadId)
    expect(again).toMatchObject({ threadId, state: second!.state, parentRunId: first!.runId })
    expect(again!.messages).toEqual([fork(again!.runId), U1, A1, U2])
    const after = store.getState()
    const A2b = after.messages[3]!
    expect(after.messages.slice(0, 3)).toEqual([U1, A1, U2])
    expect(A2b.id).not.toBe(A2.id)
    expect(A2b.content).toBe(A2.content)
    expect(after.messages).toHaveLength(4)
    expect(after.branches).toEqual({ [A2b.id]: { index: 1, count: 2 } })
  })

  it('after switching back to the older branch, run() is refused (the server holds the other one), a fork at U2 is sent, and the newer branch is then refused in turn', async () => {
    const { store, threadId, U1, A1, U2, A2 } = await twoExchanges(base, url, options, via)
    await store.edit({ messageId: U2.id, content: 'Q2 edited' })
    const edited = store.getState().messages.slice()
    await store.switchBranch({ messageId: edited[2]!.id, index: 0 })
    expect(store.getState().messages).toEqual([U1, A1, U2, A2])
    // LangGraph's state snapshots carry its own `messages` too.
    expect(store.getState().state).toMatchObject({ document: 'Written after Q1', revision: 0 })

    await expect(store.run({ message: 'Q3' })).rejects.toMatchObject({ code: 'BRANCH', reason: 'server-branch', messageId: A2.id })
    expect(await bodies(base, threadId)).toHaveLength(3)

    await store.regenerate()
    const again = (await bodies(base, threadId))[3]!
    expect(again.messages).toEqual([fork(again.runId), U1, A1, U2])
    const regenerated = store.getState()
    expect(regenerated.messages.slice(0, 3)).toEqual([U1, A1, U2])
    expectAnswered(regenerated.messages)
    expect(regenerated.branches).toEqual({ [U2.id]: { index: 0, count: 2 }, [regenerated.messages[3]!.id]: { index: 1, count: 2 } })

    await store.switchBranch({ messageId: U2.id, index: 1 })
    expect(store.getState().messages).toEqual(edited)
    await expect(store.run({ message: 'Q3' })).rejects.toMatchObject({ code: 'BRANCH', reason: 'server-branch', messageId: edited[3]!.id })
    expect(await bodies(base, threadId)).toHaveLength(4)
  })
})

describe('servers that keep the thread, with the default branching: the fork is not taken', () => {
  /** Two exchanges and an edit of the second question, with the default `branching: 'history'`. */
  async function editedOn(base: string, url: string) {
    const s = await echoing(base, session<Notes>(url, { initialState: { document: 'Empty' } as Notes }, 'url'))
    await s.store.run({ message: 'Q1' })
    await s.store.run({ message: 'Q2' })
    const [U1, A1, U2, A2] = s.store.getState().messages as [Message, Message, Message, Message]
    await s.store.edit({ messageId: U2.id, content: 'Q2 edited' })
    const edited = s.store.getState().messages[2]!
    return { answer: s.store.getState().messages[3]!, seen: [U1, A1, U2, A2, edited] }
  }

  it("LangGraph appends the edit after A2 (branching: 'langgraph' is what forks it)", async () => {
    const { answer, seen } = await editedOn(servers.langgraph, `${servers.langgraph}/writer`)
    expect(answer.content).toBe(echoOf(seen))
  })

  it("Mastra with memory appends the edit after A2 (branching: 'new-thread' is what forks it)", async () => {
    const { answer, seen } = await editedOn(servers.mastra, `${servers.mastra}/writer`)
    expect(answer.content).toBe(echoOf(seen))
  })
})

describe.each(['HttpAgent', 'url'] as const)(
  "Mastra with memory through %s with branching: 'new-thread': each branch a server thread of its own",
  (via: Via) => {
    const base = servers.mastra
    const url = `${base}/writer`
    const options = { initialState: { document: 'Empty' } as Notes, branching: 'new-thread' as const }

    it('edit() sends the branch on a new thread, every earlier message a copy there; the model sees that branch, and the next run continues it there', async () => {
      const { store, threadId, U1, A1, U2 } = await twoExchanges(base, url, options, via)
      const [first, second] = await bodies(base, threadId)
      await store.edit({ messageId: U2.id, content: 'Q2 edited' })

      const forked = (await bodies(base, threadId))[2]!
      const edited = store.getState().messages[2]!
      expect(edited).toEqual({ id: expect.any(String), role: 'user', content: 'Q2 edited' })
      expect(forked).toMatchObject({
        threadId: `${threadId}~${forked.runId}`,
        messages: [...copies(forked.runId, U1, A1), edited],
        state: second!.state,
        parentRunId: first!.runId,
      })
      const after = store.getState()
      expect(after.messages.slice(0, 3)).toEqual([U1, A1, edited])
      expect(after.messages).toHaveLength(4)
      expectAnswered(after.messages)
      expect(after.branches).toEqual({ [edited.id]: { index: 1, count: 2 } })
      expect(after).toMatchObject({ threadId, status: 'idle', error: undefined, state: { document: 'Written after Q1' } })

      await store.run({ message: 'Q3' })
      const next = (await bodies(base, threadId))[3]!
      expect(next.threadId).toBe(forked.threadId)
      expect(next.messages.slice(0, 4)).toEqual([...copies(forked.runId, U1, A1), edited, after.messages[3]])
      const continued = store.getState().messages
      expect(continued.slice(0, 4)).toEqual(after.messages)
      expect(continued).toHaveLength(6)
      expectAnswered(continued)
    })

    it('regenerate() sends the branch through the question as copies on a new thread; the model sees it without A2', async () => {
      const { store, threadId, U1, A1, U2, A2 } = await twoExchanges(base, url, options, via)
      await store.regenerate()
      const again = (await bodies(base, threadId))[2]!
      expect(again).toMatchObject({ threadId: `${threadId}~${again.runId}`, messages: copies(again.runId, U1, A1, U2) })
      const after = store.getState()
      const A2b = after.messages[3]!
      expect(after.messages.slice(0, 3)).toEqual([U1, A1, U2])
      expect(A2b.id).not.toBe(A2.id)
      expect(A2b.content).toBe(A2.content)
      expect(after.messages).toHaveLength(4)
      expect(after.branches).toEqual({ [A2b.id]: { index: 1, count: 2 } })

      await store.run({ message: 'Q3' })
      expect((await bodies(base, threadId))[3]!.threadId).toBe(again.threadId)
      expectAnswered(store.getState().messages)
      expect(store.getState().messages.slice(0, 4)).toEqual(after.messages)
    })

    it("switching back, run() continues the older branch on the store's thread, which the fork left intact; back on the edited branch, on its own", async () => {
      const { store, threadId, U1, A1, U2, A2 } = await twoExchanges(base, url, options, via)
      store.setState({ document: 'Written after Q2' })
      await store.edit({ messageId: U2.id, content: 'Q2 edited' })
      const edited = store.getState().messages.slice()

      await store.switchBranch({ messageId: edited[2]!.id, index: 0 })
      expect(store.getState()).toMatchObject({ threadId, messages: [U1, A1, U2, A2], state: { document: 'Written after Q2' } })
      await store.run({ message: 'Q3' })
      const older = (await bodies(base, threadId))[3]!
      expect(older).toMatchObject({ threadId, messages: [U1, A1, U2, A2, { role: 'user', content: 'Q3' }], state: { document: 'Written after Q2' } })
      const oldBranch = store.getState()
      // Memory still holds U1, A1, U2, A2 on this thread: the model saw them all.
      expectAnswered(oldBranch.messages)
      expect(oldBranch.messages).toHaveLength(6)
      expect(oldBranch.state).toEqual({ document: 'Written after Q2' })

      await store.switchBranch({ messageId: U2.id, index: 1 })
      expect(store.getState().messages).toEqual(edited)
      await store.run({ message: 'Q4' })
      const newer = (await bodies(base, threadId))[4]!
      expect(newer.threadId).toBe((await bodies(base, threadId))[2]!.threadId)
      const newBranch = store.getState().messages
      expect(newBranch.slice(0, 4)).toEqual(edited)
      expect(texts(newBranch.slice(4))).toEqual(['user:Q4', `assistant:${echoOf(newBranch.slice(0, 5))}`])
    })

    it('working memory is one per resource, shared by the branches: the state sent wins on its keys, a key only the other branch set stays', async () => {
      const { store, U2 } = await twoExchanges(base, url, options, via)
      await store.edit({ messageId: U2.id, content: 'Q2 edited' })
      store.setState({ document: 'On the edited branch', title: 'Edited' })
      await store.run({ message: 'Q3' })
      expect(store.getState().state).toEqual({ document: 'On the edited branch', title: 'Edited' })

      await store.switchBranch({ messageId: store.getState().messages[2]!.id, index: 0 })
      expect(store.getState().state).toEqual({ document: 'Written after Q1' })
      await store.run({ message: 'Q3' })
      expect(store.getState().state).toEqual({ document: 'Written after Q1', title: 'Edited' })
    })
  },
)

describe.each(['HttpAgent', 'url'] as const)(
  "Mastra with memory through %s with branching: 'new-thread': a suspend on a branch thread, approved there",
  (via: Via) => {
    const base = servers.mastra
    const url = `${base}/writer`
    const options = { initialState: { document: 'Empty' } as Notes, branching: 'new-thread' as const }
    const NEW = 'A brand new document about the sea.'
    /** The working memory the fork's run leaves: the state sent with U2, and the title the model set. */
    const beforeApproval = { document: 'Written after Q1', title: 'Sea' }
    /** Once approved, the model saves the document to working memory. */
    const approved = { document: NEW, title: 'Sea' }

    /**
     * Two exchanges, then a fork (an edit of U2 or a regenerate of A2) on its branch thread, whose model
     * sets a title in working memory and calls the suspending `write_document`; once approved, the
     * model saves the document to working memory and answers with the history it saw.
     */
    async function suspendedOnBranch(fork: 'edit' | 'regenerate') {
      const s = await twoExchanges(base, url, options, via)
      const callId = `call_${s.threadId.slice(0, 8)}`
      await script(base, s.threadId, [
        { tool: 'updateWorkingMemory', args: { memory: { title: 'Sea' } } },
        { tool: 'write_document', args: { document: NEW }, id: callId },
        { tool: 'updateWorkingMemory', args: { memory: { document: NEW } } },
        ...Array.from({ length: 6 }, () => ({ echoHistory: true as const })),
      ])
      if (fork === 'edit') await s.store.edit({ messageId: s.U2.id, content: 'Q2 edited' })
      else await s.store.regenerate()
      const [first, second, forked] = await bodies(base, s.threadId)
      const branchThread = `${s.threadId}~${forked!.runId}`
      const waiting = s.store.getState()
      // The branch as sent: every message before the new version (through U2, for a regenerate) a copy.
      const branch = [s.U1, s.A1, fork === 'edit' ? waiting.messages[2]! : s.U2]
      const sent = fork === 'edit' ? [...copies(forked!.runId, s.U1, s.A1), waiting.messages[2]!] : copies(forked!.runId, s.U1, s.A1, s.U2)
      expect(forked).toMatchObject({ threadId: branchThread, messages: sent, state: second!.state, parentRunId: first!.runId })
      return { ...s, callId, forked: forked!, branchThread, interruptId: `${forked!.runId}::${callId}`, branch, sent }
    }

    type Suspended = Awaited<ReturnType<typeof suspendedOnBranch>>

    /** The confirmation is open on the branch, with the working memory the fork's run left. */
    function expectWaiting({ store, threadId, branch, interruptId, callId }: Suspended, branches: AgentSnapshot<Notes>['branches']) {
      const waiting = store.getState()
      expect(waiting).toMatchObject({ threadId, status: 'interrupted', error: undefined, messages: branch, branches, state: beforeApproval })
      expect(waiting.confirmations.map(({ id, source, reason, toolCallId }) => ({ id, source, reason, toolCallId }))).toEqual([
        { id: interruptId, source: 'interrupt', reason: 'mastra:tool_suspend', toolCallId: callId },
      ])
    }

    /**
     * approve() resumes on the branch thread: exactly the fork and the resume were sent there, the
     * resume with the branch's copies and the answer; the document lands in the state.
     */
    async function expectResumedOnBranch({ store, snapshots, branchThread, forked, sent, interruptId, callId }: Suspended) {
      const before = store.getState()
      const from = snapshots.length
      await store.approve()
      // Mastra streams a resumed run's working memory from `{}`, not from the memory it holds: the
      // title is gone from the state while the document streams, back with the end-of-run snapshot.
      const states = valuesOver([before, ...snapshots.slice(from)], (snapshot) => snapshot.state)
      expect([states[0], states.at(-2), states.at(-1)]).toEqual([beforeApproval, { document: NEW }, approved])
      for (const streamed of states.slice(1, -1)) expect(streamed).toEqual({ document: NEW.slice(0, streamed.document.length) })
      const log = await serverLog(base, branchThread)
      expect(log.map((run) => (run.body as RunAgentInput).runId)).toEqual([forked.runId, expect.any(String)])
      const resumed = log[1]!.body as RunAgentInput
      expect(resumed).toEqual({
        threadId: branchThread,
        runId: resumed.runId,
        state: beforeApproval,
        messages: sent,
        tools: [],
        context: [],
        forwardedProps: {},
        resume: [{ interruptId, status: 'resolved', payload: { accepted: true } }],
      })
      // The server ran the tool on the branch thread: the result of the call the conversation never showed.
      expect(protocolEvents(log[1]!).find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({ toolCallId: callId, content: '{"saved":true}' })
    }

    /** The store's own thread holds the two exchanges only: nothing of the fork or its resume went there. */
    const originalRuns = async ({ threadId }: Suspended) => (await bodies(base, threadId)).filter((body) => body.threadId === threadId)

    it('an edit whose answer suspends: the confirmation is open on the branch; approve resumes there, the document lands in the state; switching back and forth keeps each branch, and each thread goes on with its own history', async () => {
      const s = await suspendedOnBranch('edit')
      const { store, threadId, U1, A1, U2, A2, branch } = s
      const edited = branch[2]!
      expectWaiting(s, { [edited.id]: { index: 1, count: 2 } })
      await expect(store.switchBranch({ messageId: edited.id, index: 0 })).rejects.toMatchObject({ code: 'PENDING_CONFIRMATION' })

      await expectResumedOnBranch(s)
      const done = store.getState()
      expect(done).toMatchObject({ threadId, status: 'idle', error: undefined, confirmations: [], state: approved, committed: approved })
      expect(done.messages).toHaveLength(4)
      expect(done.messages.slice(0, 3)).toEqual(branch)
      // The model, resumed on the branch thread, saw that branch: U2 as edited, no A2.
      expectAnswered(done.messages)
      expect(orphanToolMessages(done.messages)).toEqual([])
      expect(done.branches).toEqual({ [edited.id]: { index: 1, count: 2 } })
      expect(await originalRuns(s)).toHaveLength(2)

      await store.switchBranch({ messageId: edited.id, index: 0 })
      expect(store.getState()).toMatchObject({ threadId, messages: [U1, A1, U2, A2], state: { document: 'Written after Q1' }, confirmations: [] })
      await store.switchBranch({ messageId: U2.id, index: 1 })
      expect(store.getState()).toMatchObject({ messages: done.messages, state: approved, committed: approved, confirmations: [] })

      await store.switchBranch({ messageId: edited.id, index: 0 })
      await store.run({ message: 'Q3' })
      const older = (await originalRuns(s))[2]!
      expect(older).toMatchObject({ threadId, messages: [U1, A1, U2, A2, { role: 'user', content: 'Q3' }], state: { document: 'Written after Q1' } })
      // The store's thread never saw the fork, its suspend or its resume.
      expectAnswered(store.getState().messages)
      // Working memory is the resource's, shared with the branch: the title it set stays.
      expect(store.getState().state).toEqual({ document: 'Written after Q1', title: 'Sea' })

      await store.switchBranch({ messageId: U2.id, index: 1 })
      await store.run({ message: 'Q4' })
      const newer = (await serverLog(base, s.branchThread)).at(-1)!.body as RunAgentInput
      expect(newer.messages.slice(0, 4)).toEqual([...s.sent, done.messages[3]])
      const continued = store.getState().messages
      expect(continued.slice(0, 4)).toEqual(done.messages)
      expect(texts(continued.slice(4))).toEqual(['user:Q4', `assistant:${echoOf(continued.slice(0, 5))}`])
    })

    it('a regenerate whose answer suspends before it writes a message: the confirmation stays open on the branch; approve resumes there and its answer is the new version of A2', async () => {
      const s = await suspendedOnBranch('regenerate')
      const { store, threadId, U1, A1, U2, A2 } = s
      // Mastra never shows the suspending call: the new version has no message yet.
      expectWaiting(s, {})

      await expectResumedOnBranch(s)
      const done = store.getState()
      expect(done).toMatchObject({ threadId, status: 'idle', error: undefined, confirmations: [], state: approved })
      const A2b = done.messages[3]!
      expect(done.messages).toHaveLength(4)
      expect(done.messages.slice(0, 3)).toEqual([U1, A1, U2])
      expect(A2b.id).not.toBe(A2.id)
      // The model saw the branch without A2: the same history, so the same echo under a new id.
      expect(A2b.content).toBe(A2.content)
      expect(done.branches).toEqual({ [A2b.id]: { index: 1, count: 2 } })
      expect(await originalRuns(s)).toHaveLength(2)

      await store.switchBranch({ messageId: A2b.id, index: 0 })
      expect(store.getState()).toMatchObject({ messages: [U1, A1, U2, A2], state: { document: 'Written after Q1' } })
      await store.switchBranch({ messageId: A2.id, index: 1 })
      expect(store.getState()).toMatchObject({ messages: done.messages, state: approved })
    })

    it.each(['edit', 'regenerate'] as const)(
      'a reload while the confirmation of a suspended %s is open on the branch, then approve: the resume goes to the branch thread',
      async (fork) => {
        const s = await suspendedOnBranch(fork)
        const saved = JSON.parse(JSON.stringify(serializeThread(s.store))) as SerializedThread
        const waiting = s.store.getState()
        const restored = session<Notes>(url, { ...options, restore: restoreThread(saved) }, via, s.threadId)
        expect(restored.store.getState()).toMatchObject({
          messages: waiting.messages,
          branches: waiting.branches,
          state: waiting.state,
          confirmations: waiting.confirmations,
          status: 'interrupted',
        })

        const reloaded = { ...s, store: restored.store, snapshots: restored.snapshots }
        await expectResumedOnBranch(reloaded)
        const done = restored.store.getState()
        expect(done).toMatchObject({ status: 'idle', error: undefined, confirmations: [], state: approved })
        expect(done.messages.slice(0, 3)).toEqual(s.branch)
        expect(done.messages).toHaveLength(4)
        expectAnswered(done.messages)
        const version = done.messages[fork === 'edit' ? 2 : 3]!
        expect(done.branches).toEqual({ [version.id]: { index: 1, count: 2 } })
        expect(await originalRuns(s)).toHaveLength(2)

        await restored.store.switchBranch({ messageId: version.id, index: 0 })
        expect(restored.store.getState()).toMatchObject({ messages: [s.U1, s.A1, s.U2, s.A2], state: { document: 'Written after Q1' } })
      },
    )
  },
)

describe("CopilotKit with branching: 'new-thread' (it needs none): a fork on a new thread works there too", () => {
  it('its RUN_STARTED echoes the copies it was sent as new to the thread; the store maps them back and adds none', async () => {
    const base = servers.copilotkit
    const { store, threadId } = await echoing(
      base,
      session<Notes>(`${base}/api/agent/writer/run`, { initialState: { document: 'Empty' }, branching: 'new-thread' }),
    )
    await store.run({ message: 'Q1' })
    await store.run({ message: 'Q2' })
    const [U1, A1, U2] = store.getState().messages as [Message, Message, Message]
    await store.edit({ messageId: U2.id, content: 'Q2 edited' })
    const log = await serverLog(base, threadId)
    const forked = log[2]!.body as RunAgentInput
    expect(forked.threadId).toBe(`${threadId}~${forked.runId}`)
    const started = log[2]!.events.find((event) => (event as { type: string }).type === 'RUN_STARTED') as { input?: { messages: Message[] } }
    expect(started.input!.messages.map((message) => message.id)).toEqual([
      `${U1.id}~${forked.runId}`,
      `${A1.id}~${forked.runId}`,
      store.getState().messages[2]!.id,
    ])
    const after = store.getState().messages
    expect(after.slice(0, 2)).toEqual([U1, A1])
    expect(after).toHaveLength(4)
    expectAnswered(after)
  })
})

describe.each(['HttpAgent', 'url'] as const)(
  "Mastra without memory through %s, the default branching: 'history': the history sent is the branch",
  (via: Via) => {
    const base = servers.mastra
    const url = `${base}/writer-without-memory`
    const options = { initialState: { document: 'Empty' } as Notes }

    it('edit() and regenerate() are sent on the same thread as the branch, and the model sees that branch', async () => {
      const { store, threadId, U1, A1, U2 } = await twoExchanges(base, url, options, via)
      await store.edit({ messageId: U2.id, content: 'Q2 edited' })
      const forked = (await bodies(base, threadId))[2]!
      const edited = store.getState().messages[2]!
      expect(forked).toMatchObject({ threadId, messages: [U1, A1, edited], state: { document: 'Written after Q1' } })
      expectAnswered(store.getState().messages)
      expect(store.getState().messages).toHaveLength(4)

      await store.regenerate()
      const again = (await bodies(base, threadId))[3]!
      expect(again).toMatchObject({ threadId, messages: [U1, A1, edited] })
      const after = store.getState()
      expectAnswered(after.messages)
      expect(after.branches).toEqual({ [edited.id]: { index: 1, count: 2 }, [after.messages[3]!.id]: { index: 1, count: 2 } })
      // No working memory: no state events, the store's own state stays.
      expect(after.state).toEqual({ document: 'Written after Q1' })
    })

    it('switching back, run() sends the older branch and the model sees it', async () => {
      const { store, threadId, U1, A1, U2, A2 } = await twoExchanges(base, url, options, via)
      await store.edit({ messageId: U2.id, content: 'Q2 edited' })
      await store.switchBranch({ messageId: store.getState().messages[2]!.id, index: 0 })
      await store.run({ message: 'Q3' })
      const continued = (await bodies(base, threadId))[3]!
      expect(continued).toMatchObject({ threadId, messages: [U1, A1, U2, A2, { role: 'user', content: 'Q3' }] })
      const after = store.getState().messages
      expect(after).toHaveLength(6)
      expectAnswered(after)
    })
  },
)
