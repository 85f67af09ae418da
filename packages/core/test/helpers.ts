import type { BaseEvent } from '@ag-ui/core'
import { type AgentSnapshot, type AgentStore, type AgentStoreError, type AgentStoreOptions, createAgentStore } from '../src'

/** A store plus a record of every snapshot it published and every error it reported. */
export function recordedStore<S>(options: AgentStoreOptions<S>) {
  const errors: unknown[] = []
  const store = createAgentStore<S>({ ...options, onError: (error) => errors.push(error) })
  const published: AgentSnapshot<S>[] = []
  store.subscribe((snapshot) => published.push(snapshot))
  return { store, published, errors }
}

export const ev = {
  runStarted: (runId = 'r1', threadId = 't1') => ({ type: 'RUN_STARTED', threadId, runId }) as BaseEvent,
  runFinished: (runId = 'r1', threadId = 't1', outcome?: unknown) =>
    ({ type: 'RUN_FINISHED', threadId, runId, ...(outcome === undefined ? {} : { outcome }) }) as BaseEvent,
  runError: (message: string, code?: string) => ({ type: 'RUN_ERROR', message, ...(code ? { code } : {}) }) as BaseEvent,
  snapshot: (snapshot: unknown) => ({ type: 'STATE_SNAPSHOT', snapshot }) as BaseEvent,
  delta: (...delta: unknown[]) => ({ type: 'STATE_DELTA', delta }) as BaseEvent,
  textStart: (messageId: string) => ({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' }) as BaseEvent,
  text: (messageId: string, delta: string) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta }) as BaseEvent,
  textEnd: (messageId: string) => ({ type: 'TEXT_MESSAGE_END', messageId }) as BaseEvent,
  toolStart: (toolCallId: string, toolCallName: string, parentMessageId?: string) =>
    ({ type: 'TOOL_CALL_START', toolCallId, toolCallName, ...(parentMessageId === undefined ? {} : { parentMessageId }) }) as BaseEvent,
  toolArgs: (toolCallId: string, delta: string) => ({ type: 'TOOL_CALL_ARGS', toolCallId, delta }) as BaseEvent,
  toolEnd: (toolCallId: string) => ({ type: 'TOOL_CALL_END', toolCallId }) as BaseEvent,
  toolResult: (messageId: string, toolCallId: string, content: string) => ({ type: 'TOOL_CALL_RESULT', messageId, toolCallId, content }) as BaseEvent,
  stepStarted: (stepName: string) => ({ type: 'STEP_STARTED', stepName }) as BaseEvent,
  stepFinished: (stepName: string) => ({ type: 'STEP_FINISHED', stepName }) as BaseEvent,
  custom: (name: string, value: unknown) => ({ type: 'CUSTOM', name, value }) as BaseEvent,
}

export const run = (runId: string, ...events: BaseEvent[]): BaseEvent[] => [ev.runStarted(runId), ...events, ev.runFinished(runId)]

/** A writer's runs, for the reconnect tests: run 0 streams text, a drafted document and a state delta; later runs a short answer. */
export function writerRun(runId: string, index: number): BaseEvent[] {
  if (index > 0) return [ev.runStarted(runId), ev.textStart(`a${index}`), ev.text(`a${index}`, 'ok'), ev.textEnd(`a${index}`), ev.runFinished(runId)]
  return [
    ev.runStarted(runId),
    ev.custom('PredictState', [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }]),
    ev.textStart('m1'),
    ...['Writing', ' it', ' now.'].map((part) => ev.text('m1', part)),
    ev.textEnd('m1'),
    ev.toolStart('w1', 'write_document', 'm2'),
    ...['{"document":"', 'Once upon', ' a time', '"}'].map((part) => ev.toolArgs('w1', part)),
    ev.toolEnd('w1'),
    ev.toolResult('t1', 'w1', 'done'),
    ev.delta({ op: 'add', path: '/document', value: 'Once upon a time' }, { op: 'add', path: '/words', value: 4 }),
    ev.runFinished(runId),
  ]
}

export type { AgentStore }

import { AbstractAgent } from '@ag-ui/client'
import type { RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'

/** An agent driven by hand from the test: `push` events into the open run, then `finish` it. */
export class ManualAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  private subscriber: Subscriber<BaseEvent> | undefined
  unsubscribed = 0

  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    return new Observable<BaseEvent>((subscriber) => {
      this.subscriber = subscriber
      subscriber.next(ev.runStarted(input.runId))
      return () => this.unsubscribed++
    })
  }

  push(...events: BaseEvent[]) {
    for (const event of events) this.subscriber?.next(event)
  }

  finish(runId = 'r1') {
    this.subscriber?.next(ev.runFinished(runId))
    this.subscriber?.complete()
  }
}

/** What a synchronous refusal says: its code, message and event type; a call that throws nothing fails the test. */
export function refusalOf(run: () => unknown) {
  try {
    run()
  } catch (error) {
    const { code, message, eventType } = error as AgentStoreError
    return { code, message, eventType }
  }
  throw new Error('not refused')
}

/** The code and message a command's promise rejects with; undefined when it resolves. */
export async function rejectionOf(promise: Promise<void>) {
  try {
    await promise
  } catch (error) {
    return { code: (error as AgentStoreError).code, message: (error as AgentStoreError).message }
  }
  return undefined
}
