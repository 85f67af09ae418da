// What each server does with a forked request (regenerate an answer, edit a past user message), on
// the wire and without the store: the facts of FINDINGS.md "Branching: edit and regenerate". Every
// model turn here is `echoHistory`, so an answer says which history the server gave its model.
import { randomUUID } from 'node:crypto'
import type { Message, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { script, servers } from './support'

type Event = { type: string; [key: string]: unknown }
type ServerName = keyof typeof servers

const routes: Record<ServerName, string> = {
  langgraph: `${servers.langgraph}/writer`,
  copilotkit: `${servers.copilotkit}/api/agent/writer/run`,
  mastra: `${servers.mastra}/writer`,
}

async function post(url: string, input: RunAgentInput): Promise<Event[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(input),
  })
  const text = await response.text()
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data:'))
    .map((block) => JSON.parse(block.slice(5)) as Event)
    .filter((event) => event.type !== 'RAW')
}

const user = (content: string, id: string = randomUUID()): Message => ({ id, role: 'user', content })
const system = (): Message => ({ id: randomUUID(), role: 'system', content: 'You write documents.' })
const developer = (): Message => ({ id: randomUUID(), role: 'developer', content: 'You write documents.' })
const edited = (message: Message, content: string): Message => ({ ...message, content }) as Message

/** The streamed answer's text (LangGraph and CopilotKit send CONTENT, Mastra CHUNK). */
const answerText = (events: Event[]) =>
  events
    .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT' || event.type === 'TEXT_MESSAGE_CHUNK')
    .map((event) => event.delta)
    .join('')

/** What the model answers when given this history: `historyText` of servers/control.ts. */
const echoOf = (...messages: Message[]) =>
  messages
    .filter((message) => (message.role === 'user' || message.role === 'assistant') && message.content)
    .map((message) => `${message.role}: ${message.content}`)
    .join(' | ')

const messagesSnapshot = (events: Event[]) => events.filter((event) => event.type === 'MESSAGES_SNAPSHOT').at(-1)?.messages as Message[] | undefined
const lastStateSnapshot = (events: Event[]) => events.filter((event) => event.type === 'STATE_SNAPSHOT').at(-1)?.snapshot

/** The assistant message of a run, as the client holds it: from the server's snapshot, else from the streamed text. */
function assistantOf(events: Event[]): Message {
  const fromSnapshot = messagesSnapshot(events)
    ?.filter((message) => message.role === 'assistant')
    .at(-1)
  if (fromSnapshot) return fromSnapshot
  const first = events.find((event) => event.type === 'TEXT_MESSAGE_START' || event.type === 'TEXT_MESSAGE_CHUNK')!
  return { id: first.messageId as string, role: 'assistant', content: answerText(events) }
}

interface Conversation {
  server: ServerName
  threadId: string
  U1: Message
  A1: Message
  U2: Message
  A2: Message
  /** The client's runId of each exchange. */
  runIds: [string, string]
  send(messages: Message[], extra?: Partial<RunAgentInput>): Promise<Event[]>
}

/** A thread with two exchanges (U1 → A1, U2 → A2), every later turn scripted to echo its history. */
async function twoExchanges(server: ServerName, states: [unknown, unknown] = [{ document: 'Doc' }, { document: 'Doc' }]): Promise<Conversation> {
  const threadId = randomUUID()
  await echoOn(server, threadId)
  const send = (messages: Message[], extra: Partial<RunAgentInput> = {}) =>
    post(routes[server], { threadId, runId: randomUUID(), state: states[1], messages, tools: [], context: [], forwardedProps: {}, ...extra })
  const runIds: [string, string] = [randomUUID(), randomUUID()]
  const U1 = user('Q1')
  const A1 = assistantOf(await send([U1], { runId: runIds[0], state: states[0] }))
  const U2 = user('Q2')
  const A2 = assistantOf(await send([U1, A1, U2], { runId: runIds[1], parentRunId: runIds[0] }))
  expect(A2.content).toBe(echoOf(U1, A1, U2))
  return { server, threadId, U1, A1, U2, A2, runIds, send }
}

async function echoOn(server: ServerName, threadId: string): Promise<void> {
  await script(
    servers[server],
    threadId,
    Array.from({ length: 6 }, () => ({ echoHistory: true as const })),
  )
}

describe('LangGraph: forks from a checkpoint only when a sent id is unknown and the last user message is known', () => {
  it('regenerate with the branch as held ([U1, A1, U2], every id known) does not fork: the model sees A2, the answer is appended after it', async () => {
    const { U1, A1, U2, A2, runIds, send } = await twoExchanges('langgraph')
    const events = await send([U1, A1, U2], { parentRunId: runIds[0] })
    expect(answerText(events)).toBe(echoOf(U1, A1, U2, A2))
    expect(messagesSnapshot(events)!.map((message) => message.id)).toEqual([U1.id, A1.id, U2.id, A2.id, assistantOf(events).id])
  })

  for (const leading of [[], [system()]])
    it(`edit under a new id${leading.length ? ', even with a system message under a fresh id,' : ''} is appended after A2`, async () => {
      const { U1, A1, U2, A2, send } = await twoExchanges('langgraph')
      const U2b = user('Q2 edited')
      const events = await send([...leading, U1, A1, U2b])
      expect(answerText(events)).toBe(echoOf(U1, A1, U2, A2, U2b))
      expect(messagesSnapshot(events)!.map((message) => message.id)).toEqual([U1.id, A1.id, U2.id, A2.id, U2b.id, assistantOf(events).id])
    })

  it('edit under the old id does not fork, and the new content is dropped', async () => {
    const { U1, A1, U2, A2, send } = await twoExchanges('langgraph')
    const events = await send([U1, A1, edited(U2, 'Q2 edited')])
    expect(answerText(events)).toBe(echoOf(U1, A1, U2, A2))
    expect(messagesSnapshot(events)!.find((message) => message.id === U2.id)!.content).toBe('Q2')
  })

  it('regenerate with a system message under a fresh id forks at U2: the model sees [U1, A1, U2], A2 leaves the thread, the next turn continues the branch', async () => {
    const { U1, A1, U2, A2, send } = await twoExchanges('langgraph')
    const events = await send([system(), U1, A1, U2])
    expect(answerText(events)).toBe(echoOf(U1, A1, U2))
    const A2b = assistantOf(events)
    expect(A2b.id).not.toBe(A2.id)
    expect(messagesSnapshot(events)!.map((message) => message.id)).toEqual([U1.id, A1.id, U2.id, A2b.id])
    // The streamed answer already has the id the snapshot gives it.
    expect(events.find((event) => event.type === 'TEXT_MESSAGE_START')!.messageId).toBe(A2b.id)
    const U3 = user('Q3')
    const next = await send([U1, A1, U2, A2b, U3])
    expect(answerText(next)).toBe(echoOf(U1, A1, U2, A2b, U3))
  })

  it('edit under the old id with a system message under a fresh id forks at U2 with the new content', async () => {
    const { U1, A1, U2, send } = await twoExchanges('langgraph')
    const U2b = edited(U2, 'Q2 edited')
    const events = await send([system(), U1, A1, U2b])
    expect(answerText(events)).toBe(echoOf(U1, A1, U2b))
    expect(messagesSnapshot(events)!.map((message) => [message.id, message.content])).toEqual([
      [U1.id, 'Q1'],
      [A1.id, A1.content],
      [U2.id, 'Q2 edited'],
      [assistantOf(events).id, echoOf(U1, A1, U2b)],
    ])
  })

  it('edit of the first message: [system, U1 under its id with new content] forks to a one-exchange thread', async () => {
    const { U1, send } = await twoExchanges('langgraph')
    const U1b = edited(U1, 'Q1 edited')
    const events = await send([system(), U1b])
    expect(answerText(events)).toBe(echoOf(U1b))
    expect(messagesSnapshot(events)!.map((message) => message.id)).toEqual([U1.id, assistantOf(events).id])
  })

  it('a developer message under a fresh id does not fork (it counts as sent, so the thread holds no more than was sent)', async () => {
    const { U1, A1, U2, A2, send } = await twoExchanges('langgraph')
    const events = await send([developer(), U1, A1, U2])
    expect(answerText(events)).toBe(echoOf(U1, A1, U2, A2))
  })

  it('after a fork, the old branch cannot be continued: its answer and the new message are appended after the new answer', async () => {
    const { U1, A1, U2, A2, send } = await twoExchanges('langgraph')
    const A2b = assistantOf(await send([system(), U1, A1, U2]))
    const U3 = user('Q3')
    const events = await send([U1, A1, U2, A2, U3])
    expect(answerText(events)).toBe(echoOf(U1, A1, U2, A2b, A2, U3))
  })

  it('the branch sent on a new threadId (same message ids, state as sent) runs as a new thread: the model sees the branch, the old thread keeps A2', async () => {
    const { U1, A1, U2, A2, send } = await twoExchanges('langgraph')
    const fork = randomUUID()
    await echoOn('langgraph', fork)
    const U2b = user('Q2 edited')
    const forked = await send([U1, A1, U2b], { threadId: fork, state: { document: 'Sent with the fork' } })
    expect(answerText(forked)).toBe(echoOf(U1, A1, U2b))
    expect(lastStateSnapshot(forked)).toMatchObject({ document: 'Sent with the fork' })
    const U3 = user('Q3 on the old branch')
    expect(answerText(await send([U1, A1, U2, A2, U3]))).toBe(echoOf(U1, A1, U2, A2, U3))
  })

  it('the fork restores the state of its checkpoint (as sent with U2), not the state sent with the fork', async () => {
    const { U1, A1, U2, send } = await twoExchanges('langgraph', [{ document: 'Sent with U1' }, { document: 'Sent with U2' }])
    const events = await send([system(), U1, A1, U2], { state: { document: 'Sent with the fork' } })
    expect(answerText(events)).toBe(echoOf(U1, A1, U2))
    expect(lastStateSnapshot(events)).toMatchObject({ document: 'Sent with U2' })
  })

  it('a fork after approved drafts rolls the graph state back to the checkpoint: the document and revision of when U2 was sent', async () => {
    const threadId = randomUUID()
    await script(servers.langgraph, threadId, [
      { tool: 'write_document', args: { document: 'First draft' } },
      { text: 'Saved.' },
      { tool: 'write_document', args: { document: 'Second draft' } },
      { text: 'Saved again.' },
      { echoHistory: true },
    ])
    const send = (messages: Message[], state: unknown, extra: Partial<RunAgentInput> = {}) =>
      post(routes.langgraph, { threadId, runId: randomUUID(), state, messages, tools: [], context: [], forwardedProps: {}, ...extra })
    /** One exchange whose draft is approved: the thread's messages after it. */
    const approvedExchange = async (history: Message[], state: unknown) => {
      const asked = await send(history, state)
      const interrupt = (asked.find((event) => event.type === 'RUN_FINISHED')!.outcome as { interrupts: { id: string }[] }).interrupts[0]!
      const resumed = await send(history, state, { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { accepted: true } }] })
      return { messages: messagesSnapshot(resumed)!, state: lastStateSnapshot(resumed) as Record<string, unknown> }
    }
    const U1 = user('Write')
    const first = await approvedExchange([U1], { document: '', title: '', revision: 0 })
    expect(first.state).toMatchObject({ document: 'First draft', revision: 1 })
    const U2 = user('Rewrite')
    const stateWithU2 = { document: first.state.document, title: '', revision: first.state.revision }
    const second = await approvedExchange([...first.messages, U2], stateWithU2)
    expect(second.state).toMatchObject({ document: 'Second draft', revision: 2 })
    const branch = [...first.messages, U2]
    const forked = await send([system(), ...branch], { document: 'Sent with the fork', title: '', revision: 7 })
    expect(answerText(forked)).toBe(echoOf(...branch))
    expect(lastStateSnapshot(forked)).toMatchObject({ document: 'First draft', revision: 1 })
    expect(messagesSnapshot(forked)!.map((message) => message.id)).toEqual([...branch.map((message) => message.id), assistantOf(forked).id])
  })

  it('parentRunId is not echoed: RUN_STARTED carries the client runId only, RUN_FINISHED the server run id', async () => {
    const { U1, A1, U2, runIds, send } = await twoExchanges('langgraph')
    const runId = randomUUID()
    const events = await send([system(), U1, A1, U2], { runId, parentRunId: runIds[0] })
    expect(events[0]).toEqual({ type: 'RUN_STARTED', threadId: expect.any(String), runId })
    const finished = events.find((event) => event.type === 'RUN_FINISHED')!
    expect(finished.runId).not.toBe(runId)
    expect(finished).not.toHaveProperty('parentRunId')
  })
})

describe('CopilotKit BuiltInAgent: the history sent is the branch', () => {
  it('regenerate ([U1, A1, U2]) forks: the model sees [U1, A1, U2]; RUN_STARTED.input echoes parentRunId and lists only messages new to the thread', async () => {
    const { U1, A1, U2, runIds, send } = await twoExchanges('copilotkit')
    const events = await send([U1, A1, U2], { parentRunId: runIds[0] })
    expect(answerText(events)).toBe(echoOf(U1, A1, U2))
    expect(events[0]!.input).toMatchObject({ parentRunId: runIds[0], messages: [] })
  })

  for (const id of ['a new id', 'the old id'] as const)
    it(`edit under ${id} forks: the model sees [U1, A1, U2']`, async () => {
      const { U1, A1, U2, send } = await twoExchanges('copilotkit')
      const U2b = user('Q2 edited', id === 'the old id' ? U2.id : randomUUID())
      const events = await send([U1, A1, U2b])
      expect(answerText(events)).toBe(echoOf(U1, A1, U2b))
    })

  for (const ids of ['the same ids', 'fresh ids'] as const)
    it(`the branch on a new threadId under ${ids} forks`, async () => {
      const { U1, A1, send } = await twoExchanges('copilotkit')
      const fork = randomUUID()
      await echoOn('copilotkit', fork)
      const branch = ids === 'fresh ids' ? [U1, A1].map((message) => ({ ...message, id: randomUUID() }) as Message) : [U1, A1]
      const U2b = user('Q2 edited')
      expect(answerText(await send([...branch, U2b], { threadId: fork }))).toBe(echoOf(U1, A1, U2b))
    })

  it('connect after a fork replays both branches: A2 and the regenerated answer', async () => {
    const { threadId, U1, A1, U2, A2, send } = await twoExchanges('copilotkit')
    const A2b = assistantOf(await send([U1, A1, U2]))
    const replay = await post(`${servers.copilotkit}/api/agent/writer/connect`, {
      threadId,
      runId: randomUUID(),
      messages: [],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    })
    const replayed = replay.filter((event) => event.type === 'TEXT_MESSAGE_START').map((event) => event.messageId)
    expect(replayed).toEqual([A1.id, A2.id, A2b.id])
  })
})

describe('Mastra with memory: the thread keeps its own history; a fork needs a new threadId', () => {
  it('regenerate on the same thread does not fork: the model sees A2, and memory merges the new answer into A2', async () => {
    const { U1, A1, U2, A2, send } = await twoExchanges('mastra')
    const events = await send([U1, A1, U2])
    const A2b = assistantOf(events)
    expect(A2b.content).toBe(echoOf(U1, A1, U2, A2))
    const U3 = user('Q3')
    const next = await send([U1, A1, U2, A2b, U3])
    expect(answerText(next)).toBe(`${echoOf(U1, A1, U2)} | assistant: ${A2.content}${A2b.content} | ${echoOf(U3)}`)
  })

  it('edit under a new id is appended after A2; under the old id the new content is ignored', async () => {
    const appended = await twoExchanges('mastra')
    const U2b = user('Q2 edited')
    expect(answerText(await appended.send([appended.U1, appended.A1, U2b]))).toBe(echoOf(appended.U1, appended.A1, appended.U2, appended.A2, U2b))
    const ignored = await twoExchanges('mastra')
    const events = await ignored.send([ignored.U1, ignored.A1, edited(ignored.U2, 'Q2 edited')])
    expect(answerText(events)).toBe(echoOf(ignored.U1, ignored.A1, ignored.U2, ignored.A2))
  })

  /** The conversation, a thread for the fork (scripted to echo), and a send on each. */
  async function withForkThread() {
    const conversation = await twoExchanges('mastra')
    const fork = randomUUID()
    await echoOn('mastra', fork)
    return { ...conversation, onFork: (messages: Message[]) => conversation.send(messages, { threadId: fork }) }
  }

  it('the branch sent on a new threadId under fresh message ids forks, the new thread continues it, the old thread keeps its history', async () => {
    const { U1, A1, U2, A2, send, onFork } = await withForkThread()
    const copies = [U1, A1].map((message) => ({ ...message, id: randomUUID() }) as Message)
    const U2b = user('Q2 edited')
    const forked = await onFork([...copies, U2b])
    expect(answerText(forked)).toBe(echoOf(U1, A1, U2b))
    const A2b = assistantOf(forked)
    const U3 = user('Q3')
    expect(answerText(await onFork([...copies, U2b, A2b, U3]))).toBe(echoOf(U1, A1, U2b, A2b, U3))
    const U3old = user('Q3 on the old branch')
    expect(answerText(await send([U1, A1, U2, A2, U3old]))).toBe(echoOf(U1, A1, U2, A2, U3old))
  })

  it('the branch sent on a new threadId under the same message ids forks, but takes U1 and A1 away from the old thread', async () => {
    const { U1, A1, U2, A2, send, onFork } = await withForkThread()
    const U2b = user('Q2 edited')
    expect(answerText(await onFork([U1, A1, U2b]))).toBe(echoOf(U1, A1, U2b))
    const U3old = user('Q3 on the old branch')
    expect(answerText(await send([U1, A1, U2, A2, U3old]))).toBe(echoOf(U2, A2, U3old))
  })

  it('the state sent is merged into working memory: keys sent win, keys not sent stay', async () => {
    const { U1, A1, U2, send } = await twoExchanges('mastra', [{ document: 'Sent with U1' }, { document: 'Sent with U2', title: 'Title' }])
    const events = await send([U1, A1, U2], { state: { document: 'Sent with the fork' } })
    expect(lastStateSnapshot(events)).toEqual({ document: 'Sent with the fork', title: 'Title' })
  })

  it('parentRunId is not echoed', async () => {
    const { U1, A1, U2, runIds, send } = await twoExchanges('mastra')
    const runId = randomUUID()
    const events = await send([U1, A1, U2], { runId, parentRunId: runIds[0] })
    expect(events[0]).toEqual({ type: 'RUN_STARTED', threadId: expect.any(String), runId })
    expect(events.find((event) => event.type === 'RUN_FINISHED')).not.toHaveProperty('parentRunId')
  })
})
