import type { AssistantMessage, Message, ReasoningEncryptedValueEvent, ReasoningMessageStartEvent } from '@ag-ui/core'
import type { AgentSnapshot } from '../types'
import { outOfOrder, startMessage, withMessage, withToolCall } from './messages'

// Reasoning messages (`role: 'reasoning'`) stream exactly like text: same O(delta) append, same
// metadata merge. REASONING_START / REASONING_END only bracket a span; they change no message
// and reach listeners through onEvent.

export const reduceReasoningMessageStart = <S>(snapshot: AgentSnapshot<S>, event: ReasoningMessageStartEvent): AgentSnapshot<S> =>
  startMessage(snapshot, event, 'reasoning')

/**
 * The provider's encrypted reasoning, kept on the message or tool call it names so the next run
 * sends it back (zero-data-retention setups need it). Its metadata stays on the event, as in
 * @ag-ui/client: it attaches to an entity rather than building one.
 */
export function reduceReasoningEncryptedValue<S>(snapshot: AgentSnapshot<S>, event: ReasoningEncryptedValueEvent): AgentSnapshot<S> {
  const { entityId, encryptedValue } = event
  const { messages } = snapshot
  if (event.subtype === 'tool-call') {
    // The first holder, as @ag-ui/client finds it.
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index] as AssistantMessage
      const call = message.role === 'assistant' && message.toolCalls ? message.toolCalls.findIndex((toolCall) => toolCall.id === entityId) : -1
      if (call === -1) continue
      const toolCall = message.toolCalls![call]!
      return toolCall.encryptedValue === encryptedValue ? snapshot : withToolCall(snapshot, { index, call }, { ...toolCall, encryptedValue })
    }
    throw outOfOrder(event, `tool call "${entityId}", which does not exist`)
  }
  const index = messages.findIndex((message) => message.id === entityId)
  const message = messages[index]
  if (!message) throw outOfOrder(event, `message "${entityId}", which does not exist`)
  if (message.role === 'activity') throw outOfOrder(event, `message "${entityId}", which is an activity`)
  if (message.encryptedValue === encryptedValue) return snapshot
  return withMessage(snapshot, index, { ...message, encryptedValue } as Message)
}
