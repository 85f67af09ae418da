import type { AssistantMessage, Message, ReasoningEncryptedValueEvent, ReasoningMessage, ReasoningMessageStartEvent } from '@ag-ui/core'
import type { AgentSnapshot } from '../types'
import { attribution, outOfOrder, ownMetadata, startMessage, withMessage } from './messages'

// Reasoning messages (`role: 'reasoning'`) stream exactly like text: same O(delta) append, same
// metadata merge. REASONING_START / REASONING_END only bracket a span; they change no message
// and reach listeners through onEvent.

export function reduceReasoningMessageStart<S>(snapshot: AgentSnapshot<S>, event: ReasoningMessageStartEvent): AgentSnapshot<S> {
  return startMessage(snapshot, event, 'reasoning', () => {
    const message: ReasoningMessage = { id: event.messageId, role: 'reasoning', content: '', ...attribution(event), ...ownMetadata(event) }
    return message
  })
}

/**
 * The provider's encrypted reasoning, kept on the message or tool call it names so the next run
 * sends it back (zero-data-retention setups need it). Its metadata stays on the event, as in
 * @ag-ui/client: it attaches to an entity rather than building one.
 */
export function reduceReasoningEncryptedValue<S>(snapshot: AgentSnapshot<S>, event: ReasoningEncryptedValueEvent): AgentSnapshot<S> {
  const { entityId, encryptedValue } = event
  if (event.subtype === 'tool-call') {
    // The first holder, as @ag-ui/client finds it.
    let found: { index: number; call: number } | undefined
    for (let i = 0; i < snapshot.messages.length && !found; i++) {
      const message = snapshot.messages[i]!
      if (message.role !== 'assistant' || !message.toolCalls) continue
      const call = message.toolCalls.findIndex((toolCall) => toolCall.id === entityId)
      if (call !== -1) found = { index: i, call }
    }
    if (!found) throw outOfOrder(event, `tool call "${entityId}", which does not exist`)
    const message = snapshot.messages[found.index] as AssistantMessage
    const toolCall = message.toolCalls![found.call]!
    if (toolCall.encryptedValue === encryptedValue) return snapshot
    const toolCalls = message.toolCalls!.slice()
    toolCalls[found.call] = { ...toolCall, encryptedValue }
    return withMessage(snapshot, found.index, { ...message, toolCalls })
  }
  const index = snapshot.messages.findIndex((message) => message.id === entityId)
  const message = index === -1 ? undefined : snapshot.messages[index]!
  if (!message) throw outOfOrder(event, `message "${entityId}", which does not exist`)
  if (message.role === 'activity') throw outOfOrder(event, `message "${entityId}", which is an activity`)
  if (message.encryptedValue === encryptedValue) return snapshot
  return withMessage(snapshot, index, { ...message, encryptedValue } as Message)
}
