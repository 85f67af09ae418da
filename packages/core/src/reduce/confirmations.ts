import type { Interrupt, Message, ResumeEntry, RunFinishedEvent, ToolMessage } from '@ag-ui/core'
import { createId } from '../ids'
import type { Confirmation } from '../types'
import { isObject, type Pending, type RunContext } from './drafts'

/** How the user answered, before it is put on the wire. */
export type Answer =
  | { kind: 'approve'; edits: Record<string, unknown> | undefined }
  | { kind: 'reject'; reason: string | undefined }
  | { kind: 'respond'; payload: unknown }
  | { kind: 'cancel' }

/** What one answer adds to the resumed run's input. */
export interface WireAnswer {
  resume?: ResumeEntry
  message?: ToolMessage
  /** LangGraph's `forwardedProps.command.resume`. */
  command?: unknown
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The keys a confirmation governs: the drafts of the tool call it names, or all drafts of its run. */
function governed(toolCallId: string | undefined, runId: string | undefined, pending: Pending): string[] {
  const keys: string[] = []
  for (const [key, entry] of pending) {
    if (entry.runId !== runId) continue
    if (toolCallId === undefined || entry.toolCallId === toolCallId) keys.push(key)
  }
  return keys
}

function fromInterrupt(interrupt: Interrupt, runId: string | undefined, pending: Pending): Confirmation {
  const { id, reason, message, toolCallId, responseSchema, expiresAt, metadata } = interrupt as Interrupt & Record<string, unknown>
  return {
    id,
    source: 'interrupt',
    runId,
    ...(reason === undefined ? {} : { reason }),
    ...(message === undefined ? {} : { message: message as string }),
    ...(toolCallId === undefined ? {} : { toolCallId: toolCallId as string }),
    ...(responseSchema === undefined ? {} : { responseSchema }),
    ...(expiresAt === undefined ? {} : { expiresAt: expiresAt as string }),
    ...(metadata === undefined ? {} : { metadata: metadata as Record<string, unknown> }),
    stateKeys: governed(toolCallId as string | undefined, runId, pending),
  }
}

/**
 * The confirmations a finished run leaves open. AG-UI interrupts, when present, stand for any
 * confirmation tool call or on_interrupt of the same run, which then open none of their own.
 */
export function collectConfirmations(
  event: RunFinishedEvent,
  run: RunContext,
  messages: readonly Message[],
  confirmTools: ReadonlySet<string>,
  pending: Pending,
): Confirmation[] {
  const { runId } = run
  const outcome = event.outcome
  if (outcome?.type === 'interrupt' && outcome.interrupts.length > 0) {
    return outcome.interrupts.map((interrupt) => fromInterrupt(interrupt, runId, pending))
  }
  const answered = new Set<string>()
  for (const message of messages) if (message.role === 'tool') answered.add(message.toolCallId)
  const confirmations: Confirmation[] = []
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.toolCalls) continue
    for (const call of message.toolCalls) {
      if (!confirmTools.has(call.function.name) || answered.has(call.id) || run.toolCallsBefore.has(call.id)) continue
      const args = parseJson(call.function.arguments || '{}')
      const named = isObject(args) && typeof args.function_call_id === 'string' ? args.function_call_id : undefined
      confirmations.push({
        id: call.id,
        source: 'tool',
        runId,
        reason: 'tool_call',
        ...(named === undefined ? {} : { toolCallId: named }),
        value: args,
        stateKeys: governed(named, runId, pending),
      })
    }
  }
  for (const value of run.onInterrupts) {
    confirmations.push({ id: createId(), source: 'on_interrupt', runId, reason: 'langgraph:interrupt', value, stateKeys: governed(undefined, runId, pending) })
  }
  return confirmations
}

export function parseOnInterrupt(value: unknown): unknown {
  return typeof value === 'string' ? parseJson(value) : value
}

/** The boolean an interrupt's responseSchema requires (`accepted`, `approved`, …); `accepted` by default. */
export function decisionField(schema: unknown): string {
  if (!isObject(schema) || !isObject(schema.properties)) return 'accepted'
  const properties = schema.properties
  const isBoolean = (name: string) => isObject(properties[name]) && (properties[name] as { type?: unknown }).type === 'boolean'
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []
  return required.find(isBoolean) ?? Object.keys(properties).find(isBoolean) ?? 'accepted'
}

function schemaHas(schema: unknown, property: string): boolean {
  return isObject(schema) && isObject(schema.properties) && Object.hasOwn(schema.properties, property)
}

/** Puts an answer on the wire in the shape each kind of confirmation expects. */
export function toWire(confirmation: Confirmation, answer: Answer): WireAnswer {
  const accepted = answer.kind === 'approve' || answer.kind === 'respond'
  switch (confirmation.source) {
    case 'interrupt': {
      const interruptId = confirmation.id
      if (answer.kind === 'cancel') return { resume: { interruptId, status: 'cancelled' } }
      if (answer.kind === 'respond') return { resume: { interruptId, status: 'resolved', payload: answer.payload } }
      const field = decisionField(confirmation.responseSchema)
      // Spread, not Object.assign: an edit keyed "__proto__" stays data.
      const payload: Record<string, unknown> = { ...(answer.kind === 'approve' ? answer.edits : {}), [field]: accepted }
      if (answer.kind === 'reject' && answer.reason !== undefined && schemaHas(confirmation.responseSchema, 'reason')) payload.reason = answer.reason
      return { resume: { interruptId, status: 'resolved', payload } }
    }
    case 'tool': {
      const content = answer.kind === 'respond' ? JSON.stringify(answer.payload) : JSON.stringify({ accepted: answer.kind === 'approve' })
      return { message: { id: createId(), role: 'tool', toolCallId: confirmation.id, content } }
    }
    case 'on_interrupt': {
      if (answer.kind === 'respond') return { command: answer.payload }
      return { command: { ...(answer.kind === 'approve' ? answer.edits : {}), accepted: answer.kind === 'approve' } }
    }
  }
}
