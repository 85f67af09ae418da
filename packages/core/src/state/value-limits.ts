import { AgentStoreError } from '../errors'
import { EventType } from '../event-types'
import { measureJson } from '../json/json-value'
import type { AgentStoreLimits, RunOptions } from '../types'

// Whatever the store keeps besides the state (metadata, a run's input and result, interrupts,
// subagent results, LangGraph's on_interrupt values, a snapshot's messages, a run's options) is
// saved with the thread and walked by its copies, and JSON.stringify recurses: a value deeper
// than the state's limit would make every later save fail. Each is checked once, where it comes
// in, as a whole: an event before it is reduced, a command's values when it is given.

/**
 * The deepest the protocol puts a value of free shape: `RUN_STARTED.input.messages[].toolCalls[].metadata`
 * sits six levels down in its event. A value within maxDepth is within maxDepth + this in its event.
 */
export const VALUE_NESTING = 6

/** LIMIT_EXCEEDED for an event deeper or larger than a kept value may be; undefined when it fits. */
export function checkEventValues(type: EventType, event: Record<string, unknown>, limits: AgentStoreLimits): AgentStoreError | undefined {
  // The state's own rules check what these bring (the patcher each op's value, without reading a
  // long string again), and nothing else of them is kept.
  if (type === EventType.STATE_SNAPSHOT || type === EventType.STATE_DELTA) return undefined
  // Only passed to listeners, never kept: not walked, so an app may carry what it likes in them.
  if (type === EventType.RAW || (type === EventType.CUSTOM && !keptCustom.has(event.name as string))) return undefined
  return exceeded(event, limits, `${type} event`, type)
}

/** The CUSTOM events the machine acts on (see its `custom` step): their values are kept. */
const keptCustom = new Set(['on_interrupt', 'PredictState'])

/** LIMIT_EXCEEDED for run options (and messages) given to run() or with an answer; undefined when they fit. */
export function checkRunValues(messages: readonly unknown[], options: RunOptions | undefined, limits: AgentStoreLimits): AgentStoreError | undefined {
  const kept = { messages, tools: options?.tools, context: options?.context, forwardedProps: options?.forwardedProps }
  return exceeded(kept, limits, 'The run options')
}

function exceeded(value: unknown, limits: AgentStoreLimits, what: string, eventType?: string): AgentStoreError | undefined {
  const measured = measureJson(value, limits.maxDepth + VALUE_NESTING, limits.maxEventBytes, true)
  if (measured.ok) return undefined
  const limit = measured.kind === 'depth' ? 'maxDepth' : 'maxEventBytes'
  // The path of a deep value is as long as the value is deep: the message names its first key.
  const where = measured.path.split('/', 2).join('/') || '/'
  const message = `${what}: the value at ${where} is ${measured.reason}, beyond what the store keeps (${limit})`
  return new AgentStoreError('LIMIT_EXCEEDED', message, { limit, path: measured.path, ...(eventType === undefined ? {} : { eventType }) })
}

/**
 * How deep the saved format puts a value below the model: a run being rejoined keeps the model it
 * began with (`request.rejoining.start`), whose answer keeps what to put back
 * (`outbox.restore.drafts[0].baseline`), and `undefined` is saved as a one-key object.
 */
const SAVED_NESTING = 8

/**
 * A saved model (as stored, before it is decoded) against the limits: no part deeper than a model
 * within them, and each value that came whole in one event or command (a run's input and result,
 * its options, an on_interrupt value, a subagent's result) within maxEventBytes, as when it came
 * in. Storage is no more trusted than the network. Undefined when it fits.
 */
export function checkSavedValues(saved: unknown, limits: AgentStoreLimits): AgentStoreError | undefined {
  const measured = measureJson(saved, limits.maxDepth + VALUE_NESTING + SAVED_NESTING, Number.POSITIVE_INFINITY, true)
  if (!measured.ok) {
    const where = measured.path.split('/', 4).join('/')
    return new AgentStoreError('LIMIT_EXCEEDED', `the value at ${where} is ${measured.reason}, beyond what the store keeps (maxDepth)`, {
      limit: 'maxDepth',
      path: measured.path,
    })
  }
  for (const [what, value] of keptWhole(saved)) {
    const error = exceeded(value, limits, what)
    if (error) return error
  }
  return undefined
}

/** The values of a saved model (and of the models it keeps) that each came in whole. */
function keptWhole(saved: unknown): [string, unknown][] {
  const model = saved as SavedParts | null
  if (typeof model !== 'object' || model === null) return []
  const run = model.snapshot?.run
  const found: [string, unknown][] = [
    ['snapshot.run.input', run?.input],
    ['snapshot.run.result', run?.result],
    ['settings', model.settings],
    ['outbox.settings', model.outbox?.settings],
    ...(Array.isArray(model.run?.onInterrupts) ? model.run.onInterrupts.map((value, i): [string, unknown] => [`run.onInterrupts[${i}]`, value]) : []),
    ...(Array.isArray(model.snapshot?.subagents)
      ? model.snapshot.subagents.map((subagent, i): [string, unknown] => [`snapshot.subagents[${i}].result`, subagent?.result])
      : []),
  ]
  const starts = [model.request?.start, model.request?.rejoining?.start, model.rejoin?.start]
  return [...found, ...starts.flatMap((start) => (start === undefined ? [] : keptWhole(start)))]
}

interface SavedParts {
  snapshot?: { run?: { input?: unknown; result?: unknown }; subagents?: { result?: unknown }[] }
  settings?: unknown
  outbox?: { settings?: unknown }
  run?: { onInterrupts?: unknown[] }
  request?: { start?: unknown; rejoining?: { start?: unknown } }
  rejoin?: { start?: unknown }
}
