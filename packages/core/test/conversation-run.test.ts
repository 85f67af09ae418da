// The whole path of run(): a reasoning model's turn with an encrypted value, a progress activity
// and a subagent, then what the next request carries, next to what @ag-ui/client 1.0 sends.
import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { Observable } from 'rxjs'
import { expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'

const e = (event: Record<string, unknown>) => event as unknown as BaseEvent

const turn = (input: RunAgentInput): BaseEvent[] => [
  e({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }),
  e({ type: 'REASONING_START', messageId: 'think' }),
  e({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'think', delta: 'The user wants ' }),
  e({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'think', delta: 'a plan.' }),
  e({ type: 'REASONING_END', messageId: 'think' }),
  e({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'think', encryptedValue: 'opaque-blob' }),
  e({ type: 'ACTIVITY_SNAPSHOT', messageId: 'progress', activityType: 'progress', content: { done: 0, of: 2 } }),
  e({ type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' }),
  e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Delegating.' }),
  e({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'delegate', parentMessageId: 'a1' }),
  e({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' }),
  e({ type: 'TOOL_CALL_END', toolCallId: 'c1' }),
  e({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: 'c1', encryptedValue: 'call-blob' }),
  e({ type: 'TEXT_MESSAGE_END', messageId: 'a1' }),
  e({ type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'planner', parentToolCallId: 'c1' }),
  e({ type: 'TEXT_MESSAGE_START', messageId: 'm-s1', role: 'assistant', subagentRunId: 's1' }),
  e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm-s1', delta: 'Two steps.', subagentRunId: 's1' }),
  e({ type: 'TEXT_MESSAGE_END', messageId: 'm-s1', subagentRunId: 's1' }),
  e({ type: 'SUBAGENT_FINISHED', subagentRunId: 's1', result: { steps: 2 } }),
  e({ type: 'ACTIVITY_DELTA', messageId: 'progress', activityType: 'progress', patch: [{ op: 'replace', path: '/done', value: 2 }] }),
  e({ type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: 'planned' }),
  e({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId, usage: [{ inputTokens: 12, outputTokens: 30, reasoningTokens: 9 }] }),
]
const quiet = (input: RunAgentInput) => [
  e({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }),
  e({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId }),
]

/** @ag-ui/client's side: the same scripted turns through runAgent(), recording each input. */
class ClientAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  private readonly turns = [turn, quiet]
  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    const events = this.turns[this.inputs.length - 1]!(input)
    return new Observable<BaseEvent>((subscriber) => {
      for (const event of events) subscriber.next(event)
      subscriber.complete()
    })
  }
}

it("a reasoning turn through run(): the thinking, the activity, the subagent's work; the next request sends what @ag-ui/client sends", async () => {
  const agent = new ScriptedAgent({ runs: [turn, quiet], threadId: 't1' })
  const store = createAgentStore({ agent, initialState: {} })
  const question: Message = { id: 'u1', role: 'user', content: 'Plan my week' }
  await store.run({ message: question })
  const { messages, subagents, run, status, error } = store.getState()
  expect({ status, error }).toEqual({ status: 'idle', error: undefined })
  expect(messages.map((m) => [m.id, m.role])).toEqual([
    ['u1', 'user'],
    ['think', 'reasoning'],
    ['progress', 'activity'],
    ['a1', 'assistant'],
    ['t1', 'tool'],
    ['m-s1', 'assistant'],
  ])
  expect(messages[1]).toStrictEqual({ id: 'think', role: 'reasoning', content: 'The user wants a plan.', encryptedValue: 'opaque-blob' })
  expect(messages[2]).toMatchObject({ content: { done: 2, of: 2 } })
  expect(subagents).toMatchObject([{ subagentRunId: 's1', parentToolCallId: 'c1', status: 'finished', result: { steps: 2 } }])
  expect(run?.usage).toEqual([{ inputTokens: 12, outputTokens: 30, reasoningTokens: 9 }])

  const client = new ClientAgent({ threadId: 't1' })
  client.addMessage(question)
  await client.runAgent()
  expect(messages).toStrictEqual(client.messages)

  const follow: Message = { id: 'u2', role: 'user', content: 'Go on' }
  await store.run({ message: follow })
  client.addMessage(follow)
  await client.runAgent()
  const sent = agent.inputs[1]!.messages
  expect(sent).toStrictEqual(client.inputs[1]!.messages)
  expect(sent.map((m) => m.id)).toEqual(['u1', 'think', 'a1', 't1', 'm-s1', 'u2'])
  expect(sent[1]).toMatchObject({ encryptedValue: 'opaque-blob' })
  expect((sent[2] as { toolCalls: { encryptedValue?: string }[] }).toolCalls[0]!.encryptedValue).toBe('call-blob')
})
