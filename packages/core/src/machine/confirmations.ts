import type { Interrupt, Message, ResumeEntry, RunFinishedEvent, ToolMessage } from '@ag-ui/core'
import type { Confirmation } from '../types'
import type { Draft, OnInterrupt, RunContext, WireAnswer } from './model'
import { isObject } from './predictions'

/** How the user answered, before it is put on the wire. */
export type Answer =
  | { kind: 'approve'; edits: Record<string, unknown> | undefined }
  | { kind: 'reject'; reason: string | undefined }
  | { kind: 'respond'; payload: unknown }
  | { kind: 'cancel' }

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

type Found = Omit<Confirmation, 'stateKeys'> & { names: readonly string[] }

/** A confirmation opened by a tool call or an on_interrupt: it governs the drafts of the tool call it names, if any. */
const opened = (id: string, source: Found['source'], runId: string | undefined, reason: string, toolCallId: string | undefined, value: unknown) =>
  ({ id, source, runId, reason, ...(toolCallId === undefined ? {} : { toolCallId }), value, names: toolCallId ? [toolCallId] : [] }) as Found

/** The fields of an interrupt a confirmation carries when the interrupt has them, in this order. */
const interruptFields = ['reason', 'message', 'toolCallId', 'responseSchema', 'expiresAt', 'metadata', 'subagentRunId'] as const

function fromInterrupt(interrupt: Interrupt, runId: string | undefined, confirmCalls: ReadonlyMap<string, string | undefined>): Found {
  const fields = interrupt as Interrupt & Record<string, unknown>
  const found: Record<string, unknown> = { id: interrupt.id, source: 'interrupt', runId }
  for (const field of interruptFields) if (fields[field] !== undefined) found[field] = fields[field]
  const { toolCallId } = interrupt
  // An interrupt naming a confirmation tool call governs the drafts that call confirms.
  const confirmed = typeof toolCallId === 'string' ? confirmCalls.get(toolCallId) : undefined
  found.names = [toolCallId, confirmed].filter((name): name is string => typeof name === 'string')
  return found as Found
}

/** The tool call an on_interrupt value names, in the spellings servers use. */
function namedToolCall(value: unknown): string | undefined {
  if (!isObject(value)) return undefined
  for (const field of ['toolCallId', 'tool_call_id', 'function_call_id']) if (typeof value[field] === 'string') return value[field] as string
  for (const nested of ['tool_call', 'toolCall']) {
    const call = value[nested]
    if (isObject(call) && typeof call.id === 'string') return call.id
  }
  return undefined
}

/** The tool calls the conversation holds a result (a tool message) of. */
export const answeredCalls = (messages: readonly Message[]) => new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])))

/** This run's unanswered confirmation tool calls, by id: the tool call each confirms (`function_call_id`), if named. */
function confirmationCalls(run: RunContext, messages: readonly Message[], confirmTools: ReadonlySet<string>) {
  const answered = answeredCalls(messages)
  const calls = new Map<string, { args: unknown; confirms: string | undefined }>()
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.toolCalls) continue
    for (const call of message.toolCalls) {
      if (!confirmTools.has(call.function.name) || answered.has(call.id) || run.toolCallsBefore.includes(call.id)) continue
      const args = parseJson(call.function.arguments || '{}')
      calls.set(call.id, { args, confirms: isObject(args) && typeof args.function_call_id === 'string' ? args.function_call_id : undefined })
    }
  }
  return calls
}

function findConfirmations(event: RunFinishedEvent, run: RunContext, messages: readonly Message[], confirmTools: ReadonlySet<string>, ids: readonly string[]) {
  const { runId } = run
  const calls = confirmationCalls(run, messages, confirmTools)
  const outcome = event.outcome
  if (outcome?.type === 'interrupt' && outcome.interrupts.length > 0) {
    const confirms = new Map([...calls].map(([id, call]) => [id, call.confirms]))
    return outcome.interrupts.map((interrupt) => fromInterrupt(interrupt, runId, confirms))
  }
  return [
    ...[...calls].map(([id, call]) => opened(id, 'tool', runId, 'tool_call', call.confirms, call.args)),
    ...run.onInterrupts.map(({ value }, i) => opened(ids[i]!, 'on_interrupt', runId, 'langgraph:interrupt', namedToolCall(value), value)),
  ]
}

/**
 * The confirmations a finished run leaves open, each with the draft keys it governs. AG-UI
 * interrupts, when present, stand for any confirmation tool call or on_interrupt of the same run,
 * which then open none of their own. One that names a tool call governs that call's drafts; one
 * that names none governs the run's drafts no other confirmation of the run names.
 * `ids`: one fresh id per on_interrupt value of the run.
 */
export function collectConfirmations(
  event: RunFinishedEvent,
  run: RunContext,
  messages: readonly Message[],
  confirmTools: ReadonlySet<string>,
  drafts: readonly Draft[],
  ids: readonly string[],
): Confirmation[] {
  const found = findConfirmations(event, run, messages, confirmTools, ids)
  const named = new Set(found.flatMap((confirmation) => confirmation.names))
  const runDrafts = drafts.filter((draft) => draft.runId === run.runId)
  return found.map(({ names, ...confirmation }) => ({
    ...confirmation,
    stateKeys: runDrafts
      .filter((draft) =>
        names.length > 0 ? draft.toolCallId !== undefined && names.includes(draft.toolCallId) : !(draft.toolCallId && named.has(draft.toolCallId)),
      )
      .map((draft) => draft.stateKey),
  }))
}

/** An on_interrupt event's value, and LangGraph's id of the interrupt from the event's `rawEvent` (the interrupt itself, as `@ag-ui/langgraph` sends it). */
export function parseOnInterrupt(value: unknown, rawEvent: unknown): OnInterrupt {
  const id = isObject(rawEvent) && typeof rawEvent.id === 'string' && rawEvent.id !== '' ? rawEvent.id : undefined
  return { value: typeof value === 'string' ? parseJson(value) : value, interruptId: id }
}

/** One id per on_interrupt of the run: LangGraph's interrupt id when the event carried it (once per run), else one made from the run's. */
export function onInterruptIds(run: RunContext): string[] {
  const taken = new Set<string>()
  return run.onInterrupts.map(({ interruptId }, i) => {
    const id = interruptId !== undefined && !taken.has(interruptId) ? interruptId : `${run.runId ?? 'run'}:on_interrupt:${i}`
    taken.add(id)
    return id
  })
}

/** The boolean an interrupt's responseSchema requires (`accepted`, `approved`, …); `accepted` by default. */
export function decisionField(schema: unknown): string {
  const properties = propertiesOf(schema)
  const isBoolean = (name: string) => isObject(properties[name]) && (properties[name] as { type?: unknown }).type === 'boolean'
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []
  return required.find(isBoolean) ?? Object.keys(properties).find(isBoolean) ?? 'accepted'
}

/** A responseSchema's `properties`; none when the schema has no such object. */
const propertiesOf = (schema: unknown): Record<string, unknown> => (isObject(schema) && isObject(schema.properties) ? schema.properties : {})

/** An answer that gives no payload of its own, as one: an approval's edits, and whether it approves under `field`. */
function decision(answer: Exclude<Answer, { kind: 'respond' }>, field: string): Record<string, unknown> {
  // Spread, not Object.assign: an edit keyed "__proto__" stays data.
  return { ...(answer.kind === 'approve' ? answer.edits : {}), [field]: answer.kind === 'approve' }
}

function interruptAnswer(confirmation: Confirmation, answer: Answer): ResumeEntry {
  const interruptId = confirmation.id
  if (answer.kind === 'cancel') return { interruptId, status: 'cancelled' }
  if (answer.kind === 'respond') return { interruptId, status: 'resolved', payload: answer.payload }
  const payload = decision(answer, decisionField(confirmation.responseSchema))
  if (answer.kind === 'reject' && answer.reason !== undefined && Object.hasOwn(propertiesOf(confirmation.responseSchema), 'reason'))
    payload.reason = answer.reason
  return { interruptId, status: 'resolved', payload }
}

/**
 * Whether the answer to an interrupt must also go as the tool message of the call it names. Read
 * from the wire: a `tool_call` interrupt with no `responseSchema` names a call the conversation
 * holds without a result (the CopilotKit runtime: it never emits one, and fails the next turn
 * without it). A server that describes its answer with a schema (agent-framework, .NET) reads it
 * from `resume` and writes the result itself; LangGraph and Mastra use other reasons.
 */
function answersCallToo(confirmation: Confirmation, messages: readonly Message[]): boolean {
  const { reason, toolCallId, responseSchema } = confirmation
  if (reason !== 'tool_call' || toolCallId === undefined || responseSchema !== undefined) return false
  let called = false
  for (const message of messages) {
    if (message.role === 'tool' && message.toolCallId === toolCallId) return false
    if (message.role === 'assistant' && message.toolCalls?.some((call) => call.id === toolCallId)) called = true
  }
  return called
}

/** Puts an answer on the wire in the shape each kind of confirmation expects. */
export function toWire(confirmation: Confirmation, answer: Answer, messageId: string, messages: readonly Message[]): WireAnswer {
  const result = (toolCallId: string, value: unknown): ToolMessage => ({ id: messageId, role: 'tool', toolCallId, content: JSON.stringify(value) })
  switch (confirmation.source) {
    case 'interrupt': {
      const resume = interruptAnswer(confirmation, answer)
      if (!answersCallToo(confirmation, messages)) return { resume }
      // The server never writes this call's result: the answer is its result too (CopilotKit's rule).
      return {
        resume,
        message: result(confirmation.toolCallId!, resume.status === 'cancelled' ? { status: 'cancelled' } : (resume.payload ?? { status: 'resolved' })),
      }
    }
    case 'tool':
      return { message: result(confirmation.id, answer.kind === 'respond' ? answer.payload : { accepted: answer.kind === 'approve' }) }
    case 'on_interrupt':
      return { command: answer.kind === 'respond' ? answer.payload : decision(answer, 'accepted') }
  }
}

/**
 * How many answered interrupt ids a thread keeps. They only tell a replayed RUN_FINISHED from a
 * new one (live runs open what they ask), and a replay brings back the thread's recent past: the
 * oldest go, so the list (and every saved copy of the thread) stays bounded however long it runs.
 */
const ANSWERED_KEPT = 100

/** The answered interrupt ids with `ids` added last, each once, the oldest dropped past ANSWERED_KEPT. */
export function rememberAnswered(previous: readonly string[], ids: readonly string[]): readonly string[] {
  if (ids.length === 0) return previous
  const kept = [...previous.filter((id) => !ids.includes(id)), ...new Set(ids)]
  return kept.length > ANSWERED_KEPT ? kept.slice(kept.length - ANSWERED_KEPT) : kept
}
