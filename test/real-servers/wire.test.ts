// What each server needs back after an interrupt, on the wire and without the store: the facts
// FINDINGS.md rests on, pinned so that a version bump that changes them shows up here.
import { randomUUID } from 'node:crypto'
import type { Message, RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { recordAs, script, servers } from './support'

type Event = { type: string; [key: string]: unknown }

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

const input = (threadId: string, state: unknown, messages: Message[], extra: Partial<RunAgentInput> = {}): RunAgentInput => ({
  threadId,
  runId: randomUUID(),
  state,
  messages,
  tools: [],
  context: [],
  forwardedProps: {},
  ...extra,
})

const user = (content: string): Message => ({ id: randomUUID(), role: 'user', content })
const writeCall = (id: string, document: string): Message => ({
  id: `a-${id}`,
  role: 'assistant',
  content: '',
  toolCalls: [{ id, type: 'function', function: { name: 'write_document', arguments: JSON.stringify({ document }) } }],
})
const terminal = (events: Event[]) => events.find((event) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR')!

describe('CopilotKit: a tool_call interrupt needs its tool result in the conversation', () => {
  const url = `${servers.copilotkit}/api/agent/writer/run`
  for (const withToolMessage of [false, true]) {
    it(`resume[] ${withToolMessage ? 'with' : 'without'} a tool message: the next turn ${withToolMessage ? 'works' : 'fails with "Tool result is missing"'}`, async () => {
      const threadId = randomUUID()
      recordAs(
        `wire-copilotkit-resume-${withToolMessage ? 'with' : 'without'}-tool-message`,
        'copilotkit',
        '@copilotkit/runtime 1.75.0',
        servers.copilotkit,
        () => threadId,
      )
      const callId = `call_${threadId.slice(0, 8)}`
      await script(servers.copilotkit, threadId, [{ tool: 'write_document', args: { document: 'New' }, id: callId }, { text: 'Saved.' }, { text: 'Next.' }])
      const ask = user('Write')
      const first = await post(url, input(threadId, { document: 'Old' }, [ask]))
      expect(terminal(first)).toMatchObject({ outcome: { interrupts: [{ id: callId, toolCallId: callId, reason: 'tool_call' }] } })
      const history: Message[] = [ask, writeCall(callId, 'New')]
      if (withToolMessage) history.push({ id: `t-${callId}`, role: 'tool', toolCallId: callId, content: '{"accepted":true}' })
      const resumed = await post(
        url,
        input(threadId, { document: 'New' }, history, { resume: [{ interruptId: callId, status: 'resolved', payload: { accepted: true } }] }),
      )
      expect(terminal(resumed).type).toBe('RUN_FINISHED')
      // The server never sends a result for the interrupted call.
      expect(resumed.filter((event) => event.type === 'TOOL_CALL_RESULT')).toEqual([])
      const next = await post(
        url,
        input(threadId, { document: 'New' }, [...history, { id: randomUUID(), role: 'assistant', content: 'Saved.' }, user('Again')]),
      )
      if (withToolMessage) expect(terminal(next).type).toBe('RUN_FINISHED')
      else expect(terminal(next)).toMatchObject({ type: 'RUN_ERROR', message: `Tool result is missing for tool call ${callId}.` })
    })
  }
})

describe('LangGraph: a tool message next to resume[] becomes a second result for the call', () => {
  it('is ignored on the resumed run, then added to the thread on the next run', async () => {
    const threadId = randomUUID()
    recordAs('wire-langgraph-resume-with-tool-message', 'langgraph', '@ag-ui/langgraph 0.0.43', servers.langgraph, () => threadId)
    const url = `${servers.langgraph}/writer`
    const callId = `call_${threadId.slice(0, 8)}`
    await script(servers.langgraph, threadId, [{ tool: 'write_document', args: { document: 'New' }, id: callId }, { text: 'Saved.' }, { text: 'Next.' }])
    const state = { document: 'Old', title: '', revision: 0 }
    const first = await post(url, input(threadId, state, [user('Write')]))
    const interrupt = (terminal(first).outcome as { interrupts: { id: string }[] }).interrupts[0]!
    const snapshot = first.filter((event) => event.type === 'MESSAGES_SNAPSHOT').at(-1)!.messages as Message[]
    const extra: Message = { id: `t-${callId}`, role: 'tool', toolCallId: callId, content: '{"accepted":true}' }
    const resumed = await post(
      url,
      input(threadId, state, [...snapshot, extra], { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { accepted: true } }] }),
    )
    const afterResume = resumed.filter((event) => event.type === 'MESSAGES_SNAPSHOT').at(-1)!.messages as Message[]
    expect(afterResume.filter((message) => message.role === 'tool').map((message) => message.id)).not.toContain(extra.id)
    const next = await post(url, input(threadId, state, [...afterResume.slice(0, 2), extra, ...afterResume.slice(2), user('Again')]))
    const thread = next.filter((event) => event.type === 'MESSAGES_SNAPSHOT').at(-1)!.messages as Message[]
    expect(thread.filter((message) => message.role === 'tool' && message.toolCallId === callId)).toHaveLength(2)
  })
})

describe('Mastra: the suspended call is never shown, its result comes on resume', () => {
  it('sends TOOL_CALL_RESULT for a call it never streamed, and accepts that orphan result in the next turn', async () => {
    const threadId = randomUUID()
    recordAs('wire-mastra-orphan-result', 'mastra', '@ag-ui/mastra 1.1.2', servers.mastra, () => threadId)
    const url = `${servers.mastra}/writer`
    const callId = `call_${threadId.slice(0, 8)}`
    await script(servers.mastra, threadId, [{ tool: 'write_document', args: { document: 'New' }, id: callId }, { text: 'Saved.' }, { text: 'Next.' }])
    const ask = user('Write')
    const first = await post(url, input(threadId, { document: 'Old' }, [ask]))
    expect(first.filter((event) => event.type.startsWith('TOOL_CALL'))).toEqual([])
    const interrupt = (terminal(first).outcome as { interrupts: { id: string; toolCallId: string }[] }).interrupts[0]!
    expect(interrupt.toolCallId).toBe(callId)
    const resumed = await post(
      url,
      input(threadId, { document: 'Old' }, [ask], { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { accepted: true } }] }),
    )
    const result = resumed.find((event) => event.type === 'TOOL_CALL_RESULT')!
    expect(result).toMatchObject({ toolCallId: callId, content: '{"saved":true}' })
    const orphan: Message = { id: result.messageId as string, role: 'tool', toolCallId: callId, content: result.content as string }
    const next = await post(url, input(threadId, { document: 'Old' }, [ask, orphan, { id: randomUUID(), role: 'assistant', content: 'Saved.' }, user('Again')]))
    expect(terminal(next).type).toBe('RUN_FINISHED')
  })
})
