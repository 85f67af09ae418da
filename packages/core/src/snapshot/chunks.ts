import type { Event, ReasoningMessageChunkEvent, TextMessageChunkEvent, ToolCallChunkEvent } from '@ag-ui/core'
import { EventType } from '../event-types'
import type { AgentSnapshot } from '../types'
import { presentFields } from './copy'
import { findToolCall, indexOfMessage, invalidEvent } from './messages'

export type ChunkEvent = TextMessageChunkEvent | ToolCallChunkEvent | ReasoningMessageChunkEvent

export const isChunk = (type: EventType) =>
  type === EventType.TEXT_MESSAGE_CHUNK || type === EventType.TOOL_CALL_CHUNK || type === EventType.REASONING_MESSAGE_CHUNK

// What a chunk carries onto the events it stands for, as @ag-ui/client's transformChunks does.
const carried = (event: ChunkEvent) => presentFields({ subagentRunId: event.subagentRunId, metadata: event.metadata })

const needs = (event: ChunkEvent, field: string) => invalidEvent(event, `${event.type} needs a ${field}`)

/**
 * The long forms of a shorthand event fed to apply(). run() expands them with @ag-ui/client's
 * transformChunks; that operator keeps state across one stream and closes every open message when
 * it completes, which does not fit events arriving one apply() call at a time. Here a chunk starts
 * its message or tool call if the snapshot does not hold it yet, then appends its delta.
 */
export function expandChunk(snapshot: AgentSnapshot<unknown>, event: ChunkEvent): Event[] {
  const expanded: Event[] = []
  const extra = carried(event)
  if (event.type === EventType.TEXT_MESSAGE_CHUNK || event.type === EventType.REASONING_MESSAGE_CHUNK) {
    const { messageId, delta } = event
    if (!messageId) throw needs(event, 'messageId')
    const reasoning = event.type === EventType.REASONING_MESSAGE_CHUNK
    if (indexOfMessage(snapshot.messages, messageId) === -1) {
      if (reasoning) expanded.push({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning', ...extra })
      else {
        const { role, name } = event as TextMessageChunkEvent
        expanded.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: role ?? 'assistant', ...presentFields({ name }), ...extra })
      }
    }
    if (delta !== undefined) {
      expanded.push({ type: reasoning ? EventType.REASONING_MESSAGE_CONTENT : EventType.TEXT_MESSAGE_CONTENT, messageId, delta, ...extra } as Event)
    }
    return expanded
  }
  const { toolCallId, toolCallName, parentMessageId, delta } = event
  if (!toolCallId) throw needs(event, 'toolCallId')
  if (!findToolCall(snapshot.messages, toolCallId)) {
    if (!toolCallName) throw invalidEvent(event, `The first TOOL_CALL_CHUNK of "${toolCallId}" needs a toolCallName`)
    expanded.push({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName, ...presentFields({ parentMessageId }), ...extra })
  }
  if (delta !== undefined) expanded.push({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta, ...extra })
  return expanded
}
