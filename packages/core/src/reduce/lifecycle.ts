import type { RunErrorEvent, RunFinishedEvent, RunStartedEvent, StepFinishedEvent, StepStartedEvent } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import type { AgentSnapshot } from '../types'

const noSteps: readonly string[] = Object.freeze([])

export function reduceRunStarted<S>(snapshot: AgentSnapshot<S>, event: RunStartedEvent): AgentSnapshot<S> {
  return { ...snapshot, status: 'running', runId: event.runId, steps: noSteps, error: undefined }
}

export function reduceRunFinished<S>(snapshot: AgentSnapshot<S>, event: RunFinishedEvent): AgentSnapshot<S> {
  const interrupted = event.outcome?.type === 'interrupt' && event.outcome.interrupts.length > 0
  return { ...snapshot, status: interrupted ? 'interrupted' : 'idle', steps: noSteps }
}

export function reduceRunError<S>(snapshot: AgentSnapshot<S>, event: RunErrorEvent): AgentSnapshot<S> {
  const error = new AgentStoreError('RUN_ERROR', event.message, {
    ...(event.code === undefined ? {} : { serverCode: event.code }),
  })
  return { ...snapshot, status: 'error', steps: noSteps, error }
}

export function reduceStepStarted<S>(snapshot: AgentSnapshot<S>, event: StepStartedEvent): AgentSnapshot<S> {
  return { ...snapshot, steps: [...snapshot.steps, event.stepName] }
}

export function reduceStepFinished<S>(snapshot: AgentSnapshot<S>, event: StepFinishedEvent): AgentSnapshot<S> {
  const index = snapshot.steps.lastIndexOf(event.stepName)
  if (index === -1) {
    throw new AgentStoreError('INVALID_EVENT', `STEP_FINISHED for step "${event.stepName}", which has not started`, {
      eventType: event.type,
    })
  }
  const steps = snapshot.steps.slice()
  steps.splice(index, 1)
  return { ...snapshot, steps: steps.length === 0 ? noSteps : steps }
}
