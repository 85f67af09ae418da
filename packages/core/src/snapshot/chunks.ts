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
  const { delta } = event
  if (event.type === EventType.TOOL_CALL_CHUNK) {
    const { toolCallId, toolCallName } = event
    if (!toolCallId) throw needs(event, 'toolCallId')
    if (!findToolCall(snapshot.messages, toolCallId)) {
      if (!toolCallName) throw invalidEvent(event, `The first TOOL_CALL_CHUNK of "${toolCallId}" needs a toolCallName`)
      expanded.push({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName, ...presentFields({ parentMessageId: event.parentMessageId }), ...extra })
    }
    if (delta !== undefined) expanded.push({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta, ...extra })
    return expanded
  }
  const { messageId } = event
  if (!messageId) throw needs(event, 'messageId')
  const text = event.type === EventType.TEXT_MESSAGE_CHUNK
  if (indexOfMessage(snapshot.messages, messageId) === -1) {
    expanded.push(
      text
        ? { type: EventType.TEXT_MESSAGE_START, messageId, role: event.role ?? 'assistant', ...presentFields({ name: event.name }), ...extra }
        : { type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning', ...extra },
    )
  }
  if (delta !== undefined) {
    expanded.push({ type: text ? EventType.TEXT_MESSAGE_CONTENT : EventType.REASONING_MESSAGE_CONTENT, messageId, delta, ...extra } as Event)
  }
  return expanded
}
