import type {
  AssistantMessage,
  Message,
  MessagesSnapshotEvent,
  TextMessageContentEvent,
  TextMessageStartEvent,
  ToolCall,
  ToolCallArgsEvent,
  ToolCallResultEvent,
  ToolCallStartEvent,
} from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { replaceEqualDeep } from '../json-value'
import { copySnapshot } from '../snapshot'
import { appendText } from '../strings'
import type { AgentSnapshot } from '../types'

// Streaming costs O(delta) plus one shallow copy of the message array per token: only the
// changed message (and its tool call) become new objects; every other message keeps its identity.
// Lookups scan from the end, where the message being streamed almost always is.

function indexOfMessage(messages: readonly Message[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.id === id) return i
  return -1
}

function findToolCall(messages: readonly Message[], toolCallId: string): { index: number; call: number } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (message.role !== 'assistant' || !message.toolCalls) continue
    const calls = message.toolCalls
    for (let call = calls.length - 1; call >= 0; call--) if (calls[call]!.id === toolCallId) return { index: i, call }
  }
  return undefined
}

// On the per-token paths objects are copied with a bare spread and then assigned: V8 clones
// `{ ...a }` on a fast path, while `{ ...a, key: value }` costs several times more (measured).
function withMessage<S>(snapshot: AgentSnapshot<S>, index: number, message: Message): AgentSnapshot<S> {
  const messages = snapshot.messages.slice()
  if (index === messages.length) messages.push(message)
  else messages[index] = message
  const next = copySnapshot(snapshot)
  next.messages = messages
  return next
}

const outOfOrder = (event: { type: string }, what: string) => new AgentStoreError('INVALID_EVENT', `${event.type} for ${what}`, { eventType: event.type })

export function reduceTextMessageStart<S>(snapshot: AgentSnapshot<S>, event: TextMessageStartEvent): AgentSnapshot<S> {
  const index = indexOfMessage(snapshot.messages, event.messageId)
  if (index !== -1) {
    // A tool call may have created the assistant message first; the text joins it.
    const existing = snapshot.messages[index]!
    if (existing.role !== (event.role ?? 'assistant')) throw outOfOrder(event, `message "${event.messageId}", which exists with another role`)
    return snapshot
  }
  const message = {
    id: event.messageId,
    role: event.role ?? 'assistant',
    content: '',
    ...(event.name === undefined ? {} : { name: event.name }),
  } as Message
  return withMessage(snapshot, snapshot.messages.length, message)
}

export function reduceTextMessageContent<S>(snapshot: AgentSnapshot<S>, event: TextMessageContentEvent): AgentSnapshot<S> {
  const index = indexOfMessage(snapshot.messages, event.messageId)
  if (index === -1) throw outOfOrder(event, `message "${event.messageId}", which has not started`)
  const message = snapshot.messages[index]!
  const content = typeof message.content === 'string' ? message.content : ''
  if (event.delta === '') return snapshot
  const grown = { ...message } as { content: string } & Message
  grown.content = appendText(content, event.delta)
  return withMessage(snapshot, index, grown)
}

export function reduceToolCallStart<S>(snapshot: AgentSnapshot<S>, event: ToolCallStartEvent): AgentSnapshot<S> {
  const existing = findToolCall(snapshot.messages, event.toolCallId)
  if (existing) {
    // A server restating a call it already made (the .NET server does on resume): the call starts
    // over in place, rather than its arguments being appended twice.
    const message = snapshot.messages[existing.index] as AssistantMessage
    const toolCalls = message.toolCalls!.slice()
    toolCalls[existing.call] = { ...toolCalls[existing.call]!, function: { name: event.toolCallName, arguments: '' } }
    return withMessage(snapshot, existing.index, { ...message, toolCalls })
  }
  const toolCall: ToolCall = { id: event.toolCallId, type: 'function', function: { name: event.toolCallName, arguments: '' } }
  // parentMessageId may name a message never started, or be "": then the call gets a message of its own.
  const parentId = event.parentMessageId || undefined
  const index = parentId === undefined ? -1 : indexOfMessage(snapshot.messages, parentId)
  const parent = index === -1 ? undefined : snapshot.messages[index]
  if (parent?.role === 'assistant') {
    return withMessage(snapshot, index, { ...parent, toolCalls: [...(parent.toolCalls ?? []), toolCall] })
  }
  const id = parentId !== undefined && parent === undefined ? parentId : event.toolCallId
  const message: AssistantMessage = { id, role: 'assistant', toolCalls: [toolCall] }
  return withMessage(snapshot, snapshot.messages.length, message)
}

export function reduceToolCallArgs<S>(snapshot: AgentSnapshot<S>, event: ToolCallArgsEvent): AgentSnapshot<S> {
  const found = findToolCall(snapshot.messages, event.toolCallId)
  if (!found) throw outOfOrder(event, `tool call "${event.toolCallId}", which has not started`)
  if (event.delta === '') return snapshot
  const message = snapshot.messages[found.index] as AssistantMessage
  const toolCalls = message.toolCalls!.slice()
  const toolCall = toolCalls[found.call]!
  const call = { ...toolCall.function }
  call.arguments = appendText(toolCall.function.arguments, event.delta)
  const grown = { ...toolCall }
  grown.function = call
  toolCalls[found.call] = grown
  const next = { ...message }
  next.toolCalls = toolCalls
  return withMessage(snapshot, found.index, next)
}

export function reduceToolCallResult<S>(snapshot: AgentSnapshot<S>, event: ToolCallResultEvent): AgentSnapshot<S> {
  const message: Message = { id: event.messageId, role: 'tool', toolCallId: event.toolCallId, content: event.content }
  // A restated result replaces the earlier one. Servers reuse the tool call id as the result's
  // message id, which may also be the id of the assistant message that holds a parentless call.
  const index = indexOfMessage(snapshot.messages, event.messageId)
  if (index !== -1 && snapshot.messages[index]!.role === 'tool') return withMessage(snapshot, index, message)
  return withMessage(snapshot, snapshot.messages.length, message)
}

export function reduceMessagesSnapshot<S>(snapshot: AgentSnapshot<S>, event: MessagesSnapshotEvent): AgentSnapshot<S> {
  // Messages equal to the ones held keep their identity, so renders of unchanged messages stay quiet.
  const byId = new Map<string, Message>()
  for (const message of snapshot.messages) byId.set(message.id, message)
  let same = event.messages.length === snapshot.messages.length
  const messages = event.messages.map((message, i) => {
    const previous = byId.get(message.id)
    const next = previous === undefined ? message : replaceEqualDeep(previous, message)
    if (next !== snapshot.messages[i]) same = false
    return next
  })
  return same ? snapshot : { ...snapshot, messages }
}
