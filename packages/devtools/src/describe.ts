import type { Input, Model } from '@agent-state/core/internals'

// What the panel and Redux DevTools show of an input, and what its filters match on.

/** `event/TOOL_CALL_ARGS`, `run`, `answer/approve`, `setState`, `failed`…: the input's kind, and the event's or answer's. */
export function inputType(input: Input<unknown>): string {
  if (input.type === 'event') {
    const type = (input.event as { type?: unknown } | null)?.type
    return `event/${typeof type === 'string' ? type : 'unknown'}`
  }
  if (input.type === 'answer') return `answer/${input.answer.kind}`
  return input.type
}

const field = (value: unknown, key: string): string | undefined => {
  const found = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
  return typeof found === 'string' ? found : undefined
}

/** The run an input belongs to: the event's or command's own run id, else the run the model was in after it. */
export function inputRunId(input: Input<unknown>, after: Model<unknown>): string | undefined {
  if (input.type === 'event') return field(input.event, 'runId') ?? after.snapshot.runId
  if (input.type === 'run' || input.type === 'answer' || input.type === 'edit' || input.type === 'regenerate') return input.runId
  if (input.type === 'failed') return input.requestId
  return after.snapshot.runId
}

/** The tool call an input is about: a tool call event's, or the confirmation an answer names (a tool call id for tool confirmations). */
export function inputToolCallId(input: Input<unknown>): string | undefined {
  if (input.type === 'event') return field(input.event, 'toolCallId')
  if (input.type === 'answer') return input.id
  return undefined
}

/** The thread an input belongs to: the event's own thread id, else the thread of the model after it. */
export function inputThreadId(input: Input<unknown>, after: Model<unknown>): string {
  return (input.type === 'event' ? field(input.event, 'threadId') : undefined) ?? after.snapshot.threadId
}

/**
 * Where the conversation tree branched, for the inputs that move it: `branch from <message id>` for an
 * edit or a regenerate that started its run (the message it makes a new version of), `switch to
 * version 2 of <message id>` for a switch that changed the branch shown. Refused ones change nothing and get none.
 */
export function inputBranch(input: Input<unknown>, before: Model<unknown>, after: Model<unknown>): string | undefined {
  if (input.type === 'switchBranch') return after === before ? undefined : `switch to version ${input.index + 1} of ${input.messageId}`
  if ((input.type !== 'edit' && input.type !== 'regenerate') || after.request?.id !== input.runId) return undefined
  const from = input.type === 'edit' ? input.messageId : (input.messageId ?? before.snapshot.messages.findLast((message) => message.role === 'assistant')?.id)
  return `branch from ${from}`
}
