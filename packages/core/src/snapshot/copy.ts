// The hand-tuned shape copies, in one place. A streamed token makes a new snapshot, a new message
// (or tool call) and a new message array, so these copies run once per token. Node 20's V8 copies
// `{ ...a }` of an object that was itself made by a spread through a slow path, while an object
// literal of the same fields is built on its fast path; so the shapes this store builds are copied
// as literals, field by field. Any other shape (a server's own fields, metadata) is copied by a
// spread. Each copy has a row in bench/hand-tuned.ts that times it against the spread it replaces;
// the figures are in bench/results.md.
import type { AssistantMessage, Message, ToolCall } from '@ag-ui/core'
import type { AgentSnapshot, Subagent, SubagentStep } from '../types'

export type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const noMessages: readonly Message[] = Object.freeze([])
export const noSteps: readonly string[] = Object.freeze([])
const noSubagents: readonly Subagent[] = Object.freeze([])
export const noSubagentSteps: readonly SubagentStep[] = Object.freeze([])
const noBranches: AgentSnapshot['branches'] = Object.freeze({})

/** The snapshot of a thread with nothing said yet: the one shape every snapshot copy below keeps. */
export function blankSnapshot<S>(threadId: string, state: S): AgentSnapshot<S> {
  return {
    state,
    committed: state,
    status: 'idle',
    requesting: false,
    steps: noSteps,
    messages: noMessages,
    threadId,
    runId: undefined,
    error: undefined,
    predictions: [],
    confirmations: [],
    subagents: noSubagents,
    subagentSteps: noSubagentSteps,
    run: undefined,
    branches: noBranches,
  }
}

/** A copy of a snapshot to fill in before it is published. */
export function copySnapshot<S>(snapshot: AgentSnapshot<S>): Mutable<AgentSnapshot<S>> {
  return {
    state: snapshot.state,
    committed: snapshot.committed,
    status: snapshot.status,
    requesting: snapshot.requesting,
    steps: snapshot.steps,
    messages: snapshot.messages,
    threadId: snapshot.threadId,
    runId: snapshot.runId,
    error: snapshot.error,
    predictions: snapshot.predictions,
    confirmations: snapshot.confirmations,
    subagents: snapshot.subagents,
    subagentSteps: snapshot.subagentSteps,
    run: snapshot.run,
    branches: snapshot.branches,
  }
}

/** The fields that hold a value: an optional field of a shape this store builds is left out, never set to undefined or null. */
export function presentFields<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: NonNullable<T[K]> } {
  const present: Record<string, unknown> = {}
  for (const key in fields) if (fields[key] != null) present[key] = fields[key]
  return present as { [K in keyof T]?: NonNullable<T[K]> }
}

/** Whether an object's enumerable keys are exactly `keys`, in order: then a literal copies it whole. */
function hasKeys(value: object, keys: readonly string[]): boolean {
  let count = 0
  for (const key in value) if (key !== keys[count++]) return false
  return count === keys.length
}

const TEXT_MESSAGE_KEYS = ['id', 'role', 'content']
const CALLS_MESSAGE_KEYS = ['id', 'role', 'toolCalls']
const TEXT_AND_CALLS_MESSAGE_KEYS = ['id', 'role', 'content', 'toolCalls']
const TOOL_CALL_KEYS = ['id', 'type', 'function']
const FUNCTION_KEYS = ['name', 'arguments']

/** The message with new text content. */
export function withContent(message: Message, content: string): Message & { content: string; metadata?: Record<string, unknown> } {
  if (hasKeys(message, TEXT_MESSAGE_KEYS)) return { id: message.id, role: message.role, content } as Message & { content: string }
  const grown = { ...message } as Message & { content: string }
  grown.content = content
  return grown
}

/** The assistant message with a new list of tool calls. */
export function withToolCalls(message: AssistantMessage, toolCalls: ToolCall[]): AssistantMessage {
  if (hasKeys(message, CALLS_MESSAGE_KEYS)) return { id: message.id, role: message.role, toolCalls }
  if (hasKeys(message, TEXT_AND_CALLS_MESSAGE_KEYS)) return { id: message.id, role: message.role, content: message.content, toolCalls }
  const next = { ...message }
  next.toolCalls = toolCalls
  return next
}

/** The tool call with new argument text. */
export function withArguments(toolCall: ToolCall, args: string): ToolCall & { metadata?: Record<string, unknown> } {
  const old = toolCall.function
  let call = { name: old.name, arguments: args }
  if (!hasKeys(old, FUNCTION_KEYS)) {
    call = { ...old }
    call.arguments = args
  }
  if (hasKeys(toolCall, TOOL_CALL_KEYS)) return { id: toolCall.id, type: toolCall.type, function: call }
  const grown = { ...toolCall }
  grown.function = call
  return grown
}
