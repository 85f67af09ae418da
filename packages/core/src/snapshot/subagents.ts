import type { SubagentErrorEvent, SubagentFinishedEvent, SubagentStartedEvent } from '@ag-ui/core'
import { mergeMetadata } from '../event-types'
import type { AgentSnapshot, Subagent } from '../types'
import { copySnapshot, presentFields } from './copy'
import { invalidEvent } from './messages'

// One entry per subagent invocation, in start order. Entries outlive their run, like the messages
// that carry their subagentRunId; only the changed entry and the array are copied.

const invalid = (event: { type: string }, message: string) => invalidEvent(event, `${event.type}: ${message}`)

/** The snapshot with the subagent entry at `index` set (`index` = their count: a new one). */
function withSubagent<S>(snapshot: AgentSnapshot<S>, index: number, entry: Subagent): AgentSnapshot<S> {
  const subagents = (snapshot.subagents ?? []).slice()
  subagents[index] = entry
  const next = copySnapshot(snapshot)
  next.subagents = subagents
  return next
}

/** The entry of this id, with its index (-1 and undefined when there is none). */
function findSubagent(snapshot: AgentSnapshot<unknown>, id: string) {
  const subagents = snapshot.subagents ?? []
  const index = subagents.findIndex((entry) => entry.subagentRunId === id)
  return { subagents, index, existing: subagents[index] }
}

export function reduceSubagentStarted<S>(snapshot: AgentSnapshot<S>, event: SubagentStartedEvent): AgentSnapshot<S> {
  const { runId } = snapshot
  const id = event.subagentRunId
  const { subagents, index, existing } = findSubagent(snapshot, id)
  // The rules of @ag-ui/client's verifyEvents: an id is one invocation, started once per run; a
  // suspended one may be continued by a later run.
  if (existing?.status === 'running') throw invalid(event, `subagent "${id}" is already running`)
  if (existing && existing.runId === runId) throw invalid(event, `subagent "${id}" already ended in this run`)
  const parentId = event.parentSubagentRunId
  if (parentId !== undefined && !subagents.some((entry) => entry.subagentRunId === parentId && entry.runId === runId)) {
    throw invalid(event, `its parent subagent "${parentId}" has not started in this run`)
  }
  const entry: Subagent = {
    subagentRunId: id,
    name: event.name,
    ...presentFields({
      description: event.description,
      parentSubagentRunId: parentId,
      parentToolCallId: event.parentToolCallId,
      parentMessageId: event.parentMessageId,
    }),
    status: 'running',
    ...presentFields({ metadata: mergeMetadata(existing?.metadata, event.metadata) }),
    runId,
  }
  return withSubagent(snapshot, existing ? index : subagents.length, entry)
}

function endSubagent<S>(snapshot: AgentSnapshot<S>, event: SubagentFinishedEvent | SubagentErrorEvent, end: Partial<Subagent>): AgentSnapshot<S> {
  const { index, existing } = findSubagent(snapshot, event.subagentRunId)
  if (existing?.status !== 'running') throw invalid(event, `no running subagent has the id "${event.subagentRunId}"`)
  const { result: _result, error: _error, interruptIds: _interrupts, ...rest } = existing
  const entry: Subagent = { ...rest, ...end }
  if (event.metadata !== undefined) (entry as { metadata?: Record<string, unknown> }).metadata = mergeMetadata(existing.metadata, event.metadata)
  return withSubagent(snapshot, index, entry)
}

export function reduceSubagentFinished<S>(snapshot: AgentSnapshot<S>, event: SubagentFinishedEvent): AgentSnapshot<S> {
  const { outcome } = event
  const suspended = outcome?.type === 'suspended'
  return endSubagent(snapshot, event, {
    status: suspended ? 'suspended' : 'finished',
    ...presentFields({ result: event.result, interruptIds: suspended ? outcome.interruptIds : undefined }),
  })
}

export function reduceSubagentError<S>(snapshot: AgentSnapshot<S>, event: SubagentErrorEvent): AgentSnapshot<S> {
  return endSubagent(snapshot, event, { status: 'error', error: { message: event.message, ...presentFields({ code: event.code }) } })
}

/** Subagents still running when their run ends cannot finish any more: they end with this error. */
export function abandonSubagents(subagents: readonly Subagent[], error: { message: string; code?: string }): readonly Subagent[] {
  if (!subagents.some((entry) => entry.status === 'running')) return subagents
  return subagents.map((entry) => (entry.status === 'running' ? { ...entry, status: 'error', error } : entry))
}
