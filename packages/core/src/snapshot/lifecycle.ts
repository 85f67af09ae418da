import type { BaseEvent, RunErrorEvent, RunFinishedEvent, RunStartedEvent, StepFinishedEvent, StepStartedEvent } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { mergeMetadata } from '../event-types'
import type { AgentSnapshot, RunInfo, SubagentStep } from '../types'
import { noSteps, noSubagentSteps, presentFields } from './copy'
import { appendInputMessages, outOfOrder, ownMetadata } from './messages'
import { abandonSubagents } from './subagents'

export function reduceRunStarted<S>(snapshot: AgentSnapshot<S>, event: RunStartedEvent): AgentSnapshot<S> {
  const run: RunInfo = {
    runId: event.runId,
    ...presentFields({ parentRunId: event.parentRunId, input: event.input }),
    ...ownMetadata(event),
  }
  const started: AgentSnapshot<S> = {
    ...snapshot,
    status: 'running',
    runId: event.runId,
    steps: noSteps,
    subagentSteps: noSubagentSteps,
    error: undefined,
    run,
  }
  // The input echo carries history the server ran with: messages not held yet are appended.
  return appendInputMessages(started, event.input?.messages)
}

/** What ends with every run, however it ends: open steps, and subagents that never finished. */
export function endRunWork<S>(snapshot: AgentSnapshot<S>, failure: { message: string; code?: string }): AgentSnapshot<S> {
  const subagents = abandonSubagents(snapshot.subagents ?? [], failure)
  if (snapshot.steps.length === 0 && (snapshot.subagentSteps?.length ?? 0) === 0 && subagents === snapshot.subagents) return snapshot
  return { ...snapshot, steps: noSteps, subagentSteps: noSubagentSteps, subagents }
}

/** The run info of an ending run: the one started with this id, or a new one (a recording may end a run it never started). */
function endedRun(snapshot: AgentSnapshot<unknown>, runId: string | undefined, event: BaseEvent, end: Partial<RunInfo>): RunInfo {
  const current = snapshot.run
  const base: RunInfo = current && (runId === undefined || current.runId === runId) ? current : { runId }
  const { outcome: _outcome, result: _result, usage: _usage, metadata: _metadata, ...rest } = base
  return { ...rest, ...end, ...presentFields({ metadata: mergeMetadata(base.metadata, event.metadata) }) }
}

export function reduceRunFinished<S>(snapshot: AgentSnapshot<S>, event: RunFinishedEvent): AgentSnapshot<S> {
  const interrupted = event.outcome?.type === 'interrupt' && event.outcome.interrupts.length > 0
  const ended = endRunWork(snapshot, { message: 'The run finished before the subagent did' })
  const run = endedRun(snapshot, event.runId, event, {
    outcome: event.outcome?.type ?? 'success',
    ...presentFields({ result: event.result, usage: event.usage }),
  })
  return { ...ended, status: interrupted ? 'interrupted' : 'idle', steps: noSteps, run }
}

export function reduceRunError<S>(snapshot: AgentSnapshot<S>, event: RunErrorEvent): AgentSnapshot<S> {
  const error = new AgentStoreError('RUN_ERROR', event.message, presentFields({ serverCode: event.code }))
  const ended = endRunWork(snapshot, { message: event.message, ...presentFields({ code: event.code }) })
  const run = endedRun(snapshot, undefined, event, { outcome: 'error', ...presentFields({ usage: event.usage }) })
  return { ...ended, status: 'error', steps: noSteps, error, run }
}

const ownerName = (owner: string | undefined) => (owner === undefined ? 'the parent agent' : `subagent "${owner}"`)

function whoHolds(snapshot: AgentSnapshot<unknown>, stepName: string, except: string | undefined): string | undefined | null {
  if (except !== undefined && snapshot.steps.includes(stepName)) return undefined
  const other = (snapshot.subagentSteps ?? noSubagentSteps).find((step) => step.stepName === stepName && step.subagentRunId !== except)
  return other ? other.subagentRunId : null
}

/** The list without its last element that `matches` (`empty` once none is left); undefined when none matches. */
function withoutLast<T>(list: readonly T[], matches: (item: T) => boolean, empty: readonly T[]): readonly T[] | undefined {
  const index = list.findLastIndex(matches)
  if (index === -1) return undefined
  return list.length === 1 ? empty : list.filter((_, i) => i !== index)
}

// Steps are tracked per owner, as @ag-ui/client's verifyEvents does: the parent agent's in
// `steps`, each subagent's in `subagentSteps`; a step must be finished by whoever started it.

export function reduceStepStarted<S>(snapshot: AgentSnapshot<S>, event: StepStartedEvent): AgentSnapshot<S> {
  const owner = event.subagentRunId
  if (owner === undefined) return { ...snapshot, steps: [...snapshot.steps, event.stepName] }
  return { ...snapshot, subagentSteps: [...(snapshot.subagentSteps ?? noSubagentSteps), { subagentRunId: owner, stepName: event.stepName }] }
}

export function reduceStepFinished<S>(snapshot: AgentSnapshot<S>, event: StepFinishedEvent): AgentSnapshot<S> {
  const { stepName, subagentRunId: owner } = event
  if (owner === undefined) {
    const steps = withoutLast(snapshot.steps, (step) => step === stepName, noSteps)
    if (steps) return { ...snapshot, steps }
  } else {
    const isStep = (step: SubagentStep) => step.subagentRunId === owner && step.stepName === stepName
    const subagentSteps = withoutLast(snapshot.subagentSteps ?? noSubagentSteps, isStep, noSubagentSteps)
    if (subagentSteps) return { ...snapshot, subagentSteps }
  }
  const step = `step "${stepName}"`
  const holder = whoHolds(snapshot, stepName, owner)
  throw outOfOrder(
    event,
    holder === null ? `${step}, which has not started` : `${step} of ${ownerName(owner)}: it is open under ${ownerName(holder)}, which must finish it`,
  )
}
