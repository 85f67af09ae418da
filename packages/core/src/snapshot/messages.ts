import type {
  AssistantMessage,
  BaseEvent,
  Message,
  MessagesSnapshotEvent,
  TextMessageStartEvent,
  ToolCall,
  ToolCallArgsEvent,
  ToolCallEndEvent,
  ToolCallResultEvent,
  ToolCallStartEvent,
} from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { mergeMetadata } from '../event-types'
import { isPlainObject, replaceEqualDeep } from '../json/json-value'
import type { AgentSnapshot } from '../types'
import { copySnapshot, presentFields, withArguments, withContent, withToolCalls } from './copy'

// Streaming costs O(delta) plus one shallow copy of the message array per token: only the
// changed message (and its tool call) become new objects; every other message keeps its identity.
// Lookups scan from the end, where the message being streamed almost always is.

export function indexOfMessage(messages: readonly Message[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.id === id) return i
  return -1
}

/** The tool call of this id, with where it is: its message's index and its own in that message's calls. */
export function findToolCall(messages: readonly Message[], toolCallId: string): { index: number; call: number; toolCall: ToolCall } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (message.role !== 'assistant' || !message.toolCalls) continue
    const calls = message.toolCalls
    for (let call = calls.length - 1; call >= 0; call--) if (calls[call]!.id === toolCallId) return { index: i, call, toolCall: calls[call]! }
  }
  return undefined
}

/** The message at `index` replaced, or appended when `index` is their count. */
export function withMessage<S>(snapshot: AgentSnapshot<S>, index: number, message: Message): AgentSnapshot<S> {
  const messages = snapshot.messages.slice()
  messages[index] = message
  return withMessages(snapshot, messages)
}

export function withMessages<S>(snapshot: AgentSnapshot<S>, messages: readonly Message[]): AgentSnapshot<S> {
  const next = copySnapshot(snapshot)
  next.messages = messages
  return next
}

/** An event's metadata folded into what it builds, key by key, the last write winning (as @ag-ui/client does). */
export function withMetadata<T extends { metadata?: Record<string, unknown> }>(target: T, event: BaseEvent): T {
  if (event.metadata === undefined) return target
  const next = { ...target }
  next.metadata = mergeMetadata(target.metadata, event.metadata)
  return next
}

/** The message at `index` with the event's metadata folded in; the snapshot itself when the event carries none. */
export function withMessageMetadata<S>(snapshot: AgentSnapshot<S>, index: number, event: BaseEvent): AgentSnapshot<S> {
  if (event.metadata === undefined) return snapshot
  return withMessage(snapshot, index, withMetadata(snapshot.messages[index] as Message & { metadata?: Record<string, unknown> }, event) as Message)
}

/** `subagentRunId` of the event, as a field for the message it creates. */
export const attribution = (event: { subagentRunId?: string }) => presentFields({ subagentRunId: event.subagentRunId })

/** A fresh object's metadata: a copy, so a later merge never writes into the event's own object. */
export const ownMetadata = (event: BaseEvent) => presentFields({ metadata: mergeMetadata(undefined, event.metadata) })

/** INVALID_EVENT for this event. */
export const invalidEvent = (event: { type: string }, message: string) => new AgentStoreError('INVALID_EVENT', message, { eventType: event.type })

export const outOfOrder = (event: { type: string }, what: string) => invalidEvent(event, `${event.type} for ${what}`)

/** START of a text or reasoning message: joins a message of the same role, else creates one. */
export function startMessage<S>(
  snapshot: AgentSnapshot<S>,
  event: BaseEvent & { messageId: string; subagentRunId?: string },
  role: 'assistant' | 'developer' | 'system' | 'user' | 'reasoning',
  name?: string,
): AgentSnapshot<S> {
  const index = indexOfMessage(snapshot.messages, event.messageId)
  if (index === -1) {
    const message = { id: event.messageId, role, content: '', ...presentFields({ name }), ...attribution(event), ...ownMetadata(event) }
    return withMessage(snapshot, snapshot.messages.length, message as Message)
  }
  // A tool call may have created the assistant message first; the text joins it. An id of
  // another kind (a reused activity or tool message id) is the producer's bug, refused.
  const existing = snapshot.messages[index]!
  if (existing.role !== role) throw outOfOrder(event, `message "${event.messageId}", which exists with the role "${existing.role}"`)
  return withMessageMetadata(snapshot, index, event)
}

/** CONTENT of a text or reasoning message: appends to any message but an activity. */
export function appendContent<S>(snapshot: AgentSnapshot<S>, event: BaseEvent & { messageId: string; delta: string }): AgentSnapshot<S> {
  const index = indexOfMessage(snapshot.messages, event.messageId)
  if (index === -1) throw outOfOrder(event, `message "${event.messageId}", which has not started`)
  const message = snapshot.messages[index]!
  if (message.role === 'activity') throw outOfOrder(event, `message "${event.messageId}", which is an activity`)
  const content = typeof message.content === 'string' ? message.content : undefined
  if (event.delta === '' && content !== undefined && event.metadata === undefined) return snapshot
  const grown = withContent(message, (content ?? '') + event.delta)
  if (event.metadata !== undefined) grown.metadata = mergeMetadata(grown.metadata, event.metadata)
  return withMessage(snapshot, index, grown)
}

/** END of a text or reasoning message: only its metadata lands. */
export function endMessage<S>(snapshot: AgentSnapshot<S>, event: BaseEvent & { messageId: string }): AgentSnapshot<S> {
  if (event.metadata === undefined) return snapshot
  const index = indexOfMessage(snapshot.messages, event.messageId)
  const message = snapshot.messages[index]
  return !message || message.role === 'activity' ? snapshot : withMessageMetadata(snapshot, index, event)
}

export const reduceTextMessageStart = <S>(snapshot: AgentSnapshot<S>, event: TextMessageStartEvent): AgentSnapshot<S> =>
  startMessage(snapshot, event, event.role ?? 'assistant', event.name)

/** One tool call of one assistant message replaced. */
export function withToolCall<S>(snapshot: AgentSnapshot<S>, at: { index: number; call: number }, toolCall: ToolCall): AgentSnapshot<S> {
  const message = snapshot.messages[at.index] as AssistantMessage
  const toolCalls = message.toolCalls!.slice()
  toolCalls[at.call] = toolCall
  return withMessage(snapshot, at.index, withToolCalls(message, toolCalls))
}

export function reduceToolCallStart<S>(snapshot: AgentSnapshot<S>, event: ToolCallStartEvent): AgentSnapshot<S> {
  const existing = findToolCall(snapshot.messages, event.toolCallId)
  const called = { name: event.toolCallName, arguments: '' }
  // A server restating a call it already made (the .NET server does on resume, with its
  // arguments): the call starts over in place, rather than its arguments being appended twice.
  if (existing) return withToolCall(snapshot, existing, withMetadata({ ...existing.toolCall, function: called }, event))
  const toolCall: ToolCall = { id: event.toolCallId, type: 'function', function: called, ...ownMetadata(event) }
  // parentMessageId may name a message never started, or be "": then the call gets a message of its own.
  const parentId = event.parentMessageId
  const index = parentId ? indexOfMessage(snapshot.messages, parentId) : -1
  const parent = snapshot.messages[index]
  if (parent?.role === 'assistant') {
    return withMessage(snapshot, index, { ...parent, toolCalls: [...(parent.toolCalls ?? []), toolCall] })
  }
  // A parent never started lends the new message its id.
  const id = parent ? event.toolCallId : parentId || event.toolCallId
  const message: AssistantMessage = { id, role: 'assistant', toolCalls: [toolCall], ...attribution(event) }
  return withMessage(snapshot, snapshot.messages.length, message)
}

export function reduceToolCallArgs<S>(snapshot: AgentSnapshot<S>, event: ToolCallArgsEvent): AgentSnapshot<S> {
  const found = findToolCall(snapshot.messages, event.toolCallId)
  if (!found) throw outOfOrder(event, `tool call "${event.toolCallId}", which has not started`)
  if (event.delta === '' && event.metadata === undefined) return snapshot
  const { toolCall } = found
  const grown = withArguments(toolCall, toolCall.function.arguments + event.delta)
  if (event.metadata !== undefined) grown.metadata = mergeMetadata(grown.metadata, event.metadata)
  return withToolCall(snapshot, found, grown)
}

export function reduceToolCallEnd<S>(snapshot: AgentSnapshot<S>, event: ToolCallEndEvent): AgentSnapshot<S> {
  if (event.metadata === undefined) return snapshot
  const found = findToolCall(snapshot.messages, event.toolCallId)
  return found ? withToolCall(snapshot, found, withMetadata(found.toolCall, event)) : snapshot
}

export function reduceToolCallResult<S>(snapshot: AgentSnapshot<S>, event: ToolCallResultEvent): AgentSnapshot<S> {
  const message: Message = {
    id: event.messageId,
    role: 'tool',
    toolCallId: event.toolCallId,
    content: event.content,
    ...attribution(event),
    ...ownMetadata(event),
  }
  const { messages } = snapshot
  // A restated result replaces the earlier one. Servers reuse the tool call id as the result's
  // message id, which may also be the id of the assistant message that holds a parentless call.
  const index = indexOfMessage(messages, event.messageId)
  if (index !== -1 && messages[index]!.role === 'tool') return withMessage(snapshot, index, message)
  // Right after the assistant message that holds the call, after the results already there:
  // OpenAI-style transcripts require a tool result to follow its call (as @ag-ui/client places it).
  const next = messages.slice()
  next.splice(resultSlot(messages, event.toolCallId), 0, message)
  return withMessages(snapshot, next)
}

const historyKey = '@ag-ui/client'

/**
 * The activity types a MESSAGES_SNAPSHOT declares it owns, by @ag-ui/client's convention
 * (`metadata["@ag-ui/client"].authoritativeActivityTypes`): null owns every type, an array its
 * types, an invalid declaration none; undefined when nothing is declared.
 */
export function ownedActivityTypes(event: MessagesSnapshotEvent): readonly string[] | null | undefined {
  const { metadata } = event
  if (!metadata || !Object.hasOwn(metadata, historyKey)) return undefined
  const declared = metadata[historyKey]
  if (!isPlainObject(declared)) return []
  if (!Object.hasOwn(declared, 'authoritativeActivityTypes')) return undefined
  const types = declared.authoritativeActivityTypes
  if (types === null) return null
  return Array.isArray(types) && types.every((type) => typeof type === 'string') ? (types as string[]) : []
}

/**
 * A snapshot of the messages the server owns, merged as @ag-ui/client 1.0 merges it: held messages
 * keep their places and take the snapshot's version; those it leaves out are dropped, except
 * client-only ones (activities of types it does not own, reasoning when it carries none); the
 * rest of the snapshot is appended in its order.
 */
export function reduceMessagesSnapshot<S>(snapshot: AgentSnapshot<S>, event: MessagesSnapshotEvent): AgentSnapshot<S> {
  const incoming = event.messages
  const byId = new Map(incoming.map((message) => [message.id, message]))
  const owned = ownedActivityTypes(event)
  const carriesActivity = incoming.some((message) => message.role === 'activity')
  const carriesReasoning = incoming.some((message) => message.role === 'reasoning')
  const keptAsClientOnly = (message: Message) =>
    message.role === 'activity'
      ? owned
        ? !owned.includes(message.activityType)
        : owned !== null && !carriesActivity
      : message.role === 'reasoning' && !carriesReasoning
  const messages: Message[] = []
  for (const message of snapshot.messages) {
    const replacement = byId.get(message.id)
    // Messages equal to the ones held keep their identity, so renders of unchanged messages stay quiet.
    if (replacement !== undefined) messages.push(replaceEqualDeep(message, replacement))
    else if (keptAsClientOnly(message)) messages.push(message)
  }
  const held = new Set(messages.map((message) => message.id))
  for (const message of incoming) {
    if (held.has(message.id)) continue
    // A tool result the snapshot adds goes right after its call, as TOOL_CALL_RESULT's does
    // (@ag-ui/client appends it, which puts it after a reply streamed in the meantime: LangGraph).
    messages.splice(message.role === 'tool' ? resultSlot(messages, message.toolCallId) : messages.length, 0, message)
  }
  const same = messages.length === snapshot.messages.length && messages.every((message, i) => message === snapshot.messages[i])
  return same ? snapshot : withMessages(snapshot, messages)
}

/** Where a result for `toolCallId` goes: after the first assistant message holding the call and its results; at the end if none holds it. */
function resultSlot(messages: readonly Message[], toolCallId: string): number {
  const index = messages.findIndex((message) => message.role === 'assistant' && message.toolCalls?.some((call) => call.id === toolCallId))
  if (index === -1) return messages.length
  let at = index + 1
  while (at < messages.length && messages[at]!.role === 'tool') at++
  return at
}

/** RUN_STARTED.input.messages: the ones not held yet are appended, as @ag-ui/client does. */
export function appendInputMessages<S>(snapshot: AgentSnapshot<S>, input: readonly Message[] | undefined): AgentSnapshot<S> {
  if (!input) return snapshot
  const held = new Set(snapshot.messages.map((message) => message.id))
  // The first message of each id not held yet (Set.add returns the set, which is truthy).
  const added = input.filter((message) => !held.has(message.id) && held.add(message.id))
  return added.length === 0 ? snapshot : withMessages(snapshot, [...snapshot.messages, ...added])
}

/**
 * What the next `RunAgentInput.messages` must be, exactly as @ag-ui/client 1.0 sends it: every
 * message but activities (client-side UI), reasoning and `encryptedValue`s as they are, so a
 * provider gets its encrypted reasoning back.
 */
export function messagesForServer(messages: readonly Message[]): Message[] {
  return messages.filter((message) => message.role !== 'activity')
}
