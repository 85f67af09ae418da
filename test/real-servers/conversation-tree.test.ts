// The store's conversation tree against real servers: edit(), regenerate() and switchBranch()
// through both transports, with the exact request each fork sends, the history the model saw (every
// turn is scripted as `echoHistory`, so an answer lists the history the server gave its model), the
// messages and `branches` of the store, and the state each branch comes back with.
import type { Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { bodies, type Session, script, servers, session, type Via } from './support'

interface Notes {
  document: string
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

describe.each(['HttpAgent', 'url'] as const)('CopilotKit through %s: the history sent is the branch', (via: Via) => {
  const base = servers.copilotkit
  const url = `${base}/api/agent/writer/run`

  /** Two exchanges, "Q1" then "Q2", with the user's own edit of the state in between. */
  async function twoExchanges() {
    const s = await echoing(base, session<Notes>(url, { initialState: { document: 'Empty' } }, via))
    await s.store.run({ message: 'Q1' })
    s.store.setState({ document: 'Written after Q1' })
    await s.store.run({ message: 'Q2' })
    const [U1, A1, U2, A2] = s.store.getState().messages as [Message, Message, Message, Message]
    return { ...s, U1, A1, U2, A2 }
  }

  it('edit() sends the branch with the new version, the state U2 was sent with and the run before it; the model sees that branch', async () => {
    const { store, threadId, U1, A1, U2, A2 } = await twoExchanges()
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
    const { store, threadId, U1, A1, U2, A2 } = await twoExchanges()
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
    const { store, threadId, U1, A1, U2, A2 } = await twoExchanges()
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
    const { store, threadId, U1 } = await twoExchanges()
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
