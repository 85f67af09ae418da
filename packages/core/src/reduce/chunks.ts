import { type Event, EventType, type TextMessageChunkEvent, type ToolCallChunkEvent } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import type { AgentSnapshot } from '../types'

/**
 * The long forms of a shorthand event fed to apply(). run() expands them with @ag-ui/client's
 * transformChunks; that operator keeps state across one stream and closes every open message when
 * it completes, which does not fit events arriving one apply() call at a time. Here a chunk starts
 * its message or tool call if the snapshot does not hold it yet, then appends its delta.
 */
export function expandChunk(snapshot: AgentSnapshot<unknown>, event: TextMessageChunkEvent | ToolCallChunkEvent): Event[] {
  const expanded: Event[] = []
  if (event.type === EventType.TEXT_MESSAGE_CHUNK) {
    const { messageId, role, name, delta } = event
    if (!messageId) throw new AgentStoreError('INVALID_EVENT', 'TEXT_MESSAGE_CHUNK needs a messageId', { eventType: event.type })
    if (!snapshot.messages.some((message) => message.id === messageId)) {
      expanded.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: role ?? 'assistant', ...(name === undefined ? {} : { name }) } as Event)
    }
    if (delta) expanded.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta } as Event)
    return expanded
  }
  const { toolCallId, toolCallName, parentMessageId, delta } = event
  if (!toolCallId) throw new AgentStoreError('INVALID_EVENT', 'TOOL_CALL_CHUNK needs a toolCallId', { eventType: event.type })
  const started = snapshot.messages.some((message) => message.role === 'assistant' && message.toolCalls?.some((call) => call.id === toolCallId))
  if (!started) {
    if (!toolCallName)
      throw new AgentStoreError('INVALID_EVENT', `The first TOOL_CALL_CHUNK of "${toolCallId}" needs a toolCallName`, { eventType: event.type })
    expanded.push({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName, ...(parentMessageId === undefined ? {} : { parentMessageId }) } as Event)
  }
  if (delta) expanded.push({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta } as Event)
  return expanded
}
