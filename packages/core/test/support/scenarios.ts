// Scenario builders shared by the behaviour tests: the events of a drafting tool call, an agent
// whose first run drafts and asks, stores that record their errors, an agent driven by hand, and
// bounded waits (a promise the store hands out must settle: one that never does is a defect, not a
// hung test).
import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'
import { type AgentStoreError, type AgentStoreOptions, createAgentStore } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { ev } from '../helpers'

export type Doc = Record<string, unknown>

/** A title, five rows and a meta object: a state whose subtrees structural sharing keeps or replaces. */
export type Rows = { title: string; rows: { id: number; status: string }[]; meta: { version: number } }
export const rowsState = (): Rows => ({
  title: 'T',
  rows: Array.from({ length: 5 }, (_, id) => ({ id, status: 'todo' })),
  meta: { version: 1 },
})

/** A PredictState mapping `stateKey` to `tool`'s argument `toolArgument`, or to its whole arguments without one. */
export const predict = (stateKey: string, tool: string, toolArgument?: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, ...(toolArgument === undefined ? {} : { tool_argument: toolArgument }) }])
/** A RUN_FINISHED whose outcome asks for the given interrupts. */
export const interrupt = (runId: string, interrupts: Record<string, unknown>[]) => ev.runFinished(runId, 't1', { type: 'interrupt', interrupts })
/** A run that starts and finishes with nothing in between. */
export const done = (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId), ev.runFinished(input.runId)]
/** A whole tool call: start, its arguments in one chunk, end. */
export const call = (id: string, tool: string, args: string, parent = 'm1') => [ev.toolStart(id, tool, parent), ev.toolArgs(id, args), ev.toolEnd(id)]

/** A document drafted from write_document's `document` argument (call w1). */
export const writeDocument = (text = 'draft text', id = 'w1'): BaseEvent[] => [
  predict('document', 'write_document', 'document'),
  ev.toolStart(id, 'write_document', 'm1'),
  ev.toolArgs(id, JSON.stringify({ document: text })),
  ev.toolEnd(id),
]

type Run = (input: RunAgentInput) => BaseEvent[]

/** An agent whose first run starts and streams `first(runId)`; the runs after it are `later` (one that just finishes, by default). */
export function scripted(first: (runId: string) => BaseEvent[], later: Run[] = [done]) {
  return new ScriptedAgent({ runs: [(input) => [ev.runStarted(input.runId), ...first(input.runId)], ...later] })
}

/** Call w1 of write_document, mapped to `document`, still streaming: started, with the argument text `args` received so far. */
export const documentCallStreaming = (args?: string): BaseEvent[] => [
  predict('document', 'write_document', 'document'),
  ev.toolStart('w1', 'write_document'),
  ...(args === undefined ? [] : [ev.toolArgs('w1', args)]),
]

/** Mappings of `document` to write_document's argument of that name, and of `title` to set_title's. */
export const documentAndTitle = ev.custom('PredictState', [
  { state_key: 'document', tool: 'write_document', tool_argument: 'document' },
  { state_key: 'title', tool: 'set_title', tool_argument: 'title' },
])

/** Run 1 drafts `document` and ends as `ending` says; later runs just finish. */
export function writerAgent(ending: Run, later: Run[] = [done]) {
  return new ScriptedAgent({ runs: [(input) => [ev.runStarted(input.runId), ...writeDocument(), ...ending(input)], ...later] })
}
/** The ending of a run whose interrupt i1 confirms call w1. */
export const interruptOnW1 = (input: RunAgentInput) => [interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])]

/** A store with these options and the errors it reported. */
export function withErrors<S>(options: AgentStoreOptions<S>) {
  const errors: AgentStoreError[] = []
  const store = createAgentStore<S>({ ...options, onError: (error) => errors.push(error) })
  return { store, errors }
}

/**
 * A store without an agent, from `initialState` (any value) and the other options, and the errors it
 * reported. `validate` is any function, so a test can hand over one that returns something else.
 */
export function storeWithErrors(initialState: unknown = {}, options: Omit<Partial<AgentStoreOptions<Doc>>, 'validate'> & { validate?: unknown } = {}) {
  return withErrors<Doc>({ ...options, initialState: initialState as Doc } as AgentStoreOptions<Doc>)
}

/** A promise made inside a listener is checked later: it must not count as unhandled meanwhile. */
export function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {})
  return promise
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How a promise ended within `ms`. */
export async function settled(promise: Promise<unknown> | undefined, ms = 2000): Promise<'resolved' | 'rejected' | 'pending' | 'none'> {
  if (promise === undefined) return 'none'
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)))
  const outcome = promise.then(
    () => 'resolved' as const,
    () => 'rejected' as const,
  )
  const result = await Promise.race([outcome, timeout])
  clearTimeout(timer)
  return result
}

export async function until(condition: () => boolean, ms = 2000) {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await pause(5)
  }
}

/** An agent the test drives by hand; each run starts with RUN_STARTED unless told otherwise. */
export class DrivenAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  autoStart = true
  private subscriber: Subscriber<BaseEvent> | undefined
  get open() {
    return this.subscriber !== undefined && !this.subscriber.closed
  }
  get input() {
    return this.inputs[this.inputs.length - 1]!
  }
  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    return new Observable<BaseEvent>((subscriber) => {
      this.subscriber = subscriber
      if (this.autoStart) subscriber.next(ev.runStarted(input.runId, input.threadId))
    })
  }
  push(...events: BaseEvent[]) {
    for (const event of events) this.subscriber?.next(event)
  }
  finish(event?: BaseEvent) {
    this.subscriber?.next(event ?? ev.runFinished(this.input.runId, this.input.threadId))
    this.subscriber?.complete()
  }
  /** Ends the stream without a terminal event: a truncated run. */
  complete() {
    this.subscriber?.complete()
  }
  /** Errors the stream the way a broken connection does. */
  fail(error: Error) {
    this.subscriber?.error(error)
  }
}

/** A store whose run is open and streams what the test pushes into `agent`; `running` is run()'s promise. */
export async function streaming<S extends Doc>(initialState: S, options: Partial<AgentStoreOptions<S>> = {}) {
  const agent = new DrivenAgent()
  const { store, errors } = withErrors<S>({ ...options, agent, initialState })
  const running = store.run()
  await until(() => agent.open)
  return { agent, store, errors, running }
}

/** Resume entries in interrupt id order. */
export const byInterrupt = (entries: readonly { interruptId: string }[] | undefined) =>
  [...(entries ?? [])].sort((a, b) => a.interruptId.localeCompare(b.interruptId))
