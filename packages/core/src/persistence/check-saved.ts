import { AgentStoreError } from '../errors'
import { isPlainObject } from '../json/json-value'
import { context, message as messageShape, resumeEntry, type Shape, tool } from '../state/protocol-shapes'
import type { SavedModel } from '../types'

// The saved model's layout, part by part, with the types every transition relies on: a saved
// thread comes from storage, which is no more trusted than the network. A part of the wrong shape
// is found here, named by its path, instead of throwing later in a transition or a render.
// Values the store only carries (the state, a tool call's arguments, metadata) are any JSON.

/** The path of the first part that does not fit, or undefined. */
type Check = (value: unknown, path: string) => string | undefined

const any: Check = () => undefined
const string: Check = (value, path) => (typeof value === 'string' ? undefined : path)
const number: Check = (value, path) => (Number.isInteger(value) ? undefined : path)
const boolean: Check = (value, path) => (typeof value === 'boolean' ? undefined : path)
const record: Check = (value, path) => (isPlainObject(value) ? undefined : path)
const error: Check = (value, path) => (value instanceof AgentStoreError ? undefined : path)

/** A protocol part (a message, a tool): the path of the part itself when any rule of AG-UI's shape fails. */
const agui =
  (shape: Shape): Check =>
  (value, path) =>
    shape(value) === undefined ? undefined : path

const maybe =
  (check: Check): Check =>
  (value, path) =>
    value === undefined ? undefined : check(value, path)

const oneOf =
  (...allowed: string[]): Check =>
  (value, path) =>
    allowed.includes(value as string) ? undefined : path

function list(check: Check): Check {
  return (value, path) => {
    if (!Array.isArray(value)) return path
    for (let i = 0; i < value.length; i++) {
      const found = check(value[i], `${path}[${i}]`)
      if (found) return found
    }
    return undefined
  }
}

/** A plain object with these parts (a part given as `maybe` may be absent); other keys are left alone. */
function shape(parts: Record<string, Check>): Check {
  const entries = Object.entries(parts)
  return (value, path) => {
    if (!isPlainObject(value)) return path
    for (const [key, check] of entries) {
      const found = check(Object.hasOwn(value, key) ? value[key] : undefined, `${path}.${key}`)
      if (found) return found
    }
    return undefined
  }
}

function values(check: Check): Check {
  return (value, path) => {
    if (!isPlainObject(value)) return path
    for (const [key, item] of Object.entries(value)) {
      const found = check(item, `${path}.${key}`)
      if (found) return found
    }
    return undefined
  }
}

const strings = list(string)
const id = maybe(string)
const message = agui(messageShape)

const confirmation = shape({
  id: string,
  source: oneOf('interrupt', 'tool', 'on_interrupt'),
  runId: id,
  reason: maybe(string),
  message: maybe(string),
  toolCallId: maybe(string),
  responseSchema: any,
  // Any text: one that is not a date never expires, live or restored (see the README).
  expiresAt: maybe(string),
  metadata: maybe(record),
  value: any,
  stateKeys: strings,
  subagentRunId: maybe(string),
})

const prediction = shape({ toolCallId: id, tool: id, stateKey: string, value: any, complete: boolean })

const subagent = shape({
  subagentRunId: string,
  name: string,
  description: maybe(string),
  parentSubagentRunId: maybe(string),
  parentToolCallId: maybe(string),
  parentMessageId: maybe(string),
  status: oneOf('running', 'finished', 'error', 'suspended'),
  result: any,
  error: maybe(shape({ message: string, code: maybe(string) })),
  interruptIds: maybe(strings),
  metadata: maybe(record),
  runId: id,
})

const runInfo = shape({
  runId: id,
  parentRunId: maybe(string),
  input: maybe(record),
  outcome: maybe(oneOf('success', 'interrupt', 'cancelled', 'error')),
  result: any,
  usage: maybe(list(record)),
  metadata: maybe(record),
})

const snapshot = shape({
  state: any,
  committed: any,
  status: oneOf('idle', 'running', 'interrupted', 'error'),
  steps: strings,
  messages: list(message),
  threadId: string,
  runId: id,
  error: maybe(error),
  predictions: list(prediction),
  confirmations: list(confirmation),
  subagents: list(subagent),
  subagentSteps: list(shape({ subagentRunId: string, stepName: string })),
  run: maybe(runInfo),
  requesting: maybe(boolean),
  branches: values(shape({ index: number, count: number })),
})

const draft = shape({
  stateKey: string,
  runId: id,
  toolCallId: id,
  tool: id,
  toolArgument: string,
  complete: boolean,
  existed: boolean,
  baseline: any,
})

const edit = shape({ base: any, mine: any, whole: strings })

const runContext = shape({
  runId: id,
  requestId: id,
  base: any,
  mappings: list(shape({ stateKey: string, tool: string, toolArgument: maybe(string) })),
  toolCallsBefore: strings,
  messagesBefore: strings,
  onInterrupts: list(shape({ value: any, interruptId: maybe(string) })),
  userKeys: strings,
  streaming: values(string),
  stopped: strings,
  sawState: boolean,
  holding: boolean,
  resumedCalls: strings,
})

const settingParts = { tools: list(agui(tool)), context: list(agui(context)), forwardedProps: any }

const outbox = shape({
  answers: list(shape({ resume: maybe(agui(resumeEntry)), message: maybe(message), command: any })),
  answered: list(confirmation),
  settings: shape({ tools: maybe(settingParts.tools), context: maybe(settingParts.context), forwardedProps: any }),
  // What a give-back puts back: without it an answer that never arrived could not be undone.
  restore: shape({
    server: any,
    drafts: list(draft),
    state: any,
    committed: any,
    predictions: list(prediction),
    confirmations: list(confirmation),
    messages: list(message),
  }),
})

// A run being rejoined keeps the model it began with: the same layout, one level down.
const startModel: Check = (value, path) => model(value, path)
const rejoin = shape({ runId: string, start: startModel, cut: maybe(startModel), after: any, lastEventId: maybe(string) })
const request = shape({
  id: string,
  delivered: boolean,
  start: maybe(startModel),
  rejoining: maybe(rejoin),
  replaying: maybe(boolean),
  unchanged: maybe(shape({ shown: snapshot, before: snapshot })),
})

const tree = shape({
  sent: values(shape({ committed: any, subagents: list(subagent), parentRunId: id })),
  versions: values(strings),
  shelved: values(shape({ snapshot, server: any, drafts: list(draft), settings: shape(settingParts), thread: maybe(string) })),
  pending: maybe(shape({ after: string, replaced: string })),
  wireIds: maybe(values(string)),
  serverBranch: maybe(strings),
  thread: maybe(string),
  threadWireIds: maybe(values(values(string))),
})

const model: Check = shape({
  snapshot,
  server: any,
  drafts: list(draft),
  edit: maybe(edit),
  userEdits: list(edit),
  run: maybe(runContext),
  request: maybe(request),
  rejoin: maybe(rejoin),
  outbox: maybe(outbox),
  settings: shape(settingParts),
  answeredInterrupts: strings,
  tree: maybe(tree),
})

/** Where a decoded model does not fit the saved format (`model.run.userKeys`), or undefined when it fits. */
export const misfitOf = (value: unknown): string | undefined => model(value, 'model')

/**
 * What in a tree of the right shape no store could have written, or undefined: a fork point with no
 * version, or a regenerated answer waiting to give back one that was not put away. (A version no
 * branch holds any more is no damage: a server's MESSAGES_SNAPSHOT can rename the one shown away.)
 */
export function treeMisfitOf({ tree }: SavedModel): string | undefined {
  if (!tree) return undefined
  const empty = Object.keys(tree.versions).find((key) => tree.versions[key]!.length === 0)
  if (empty !== undefined) return `model.tree.versions.${empty} lists no version`
  if (tree.pending && !Object.hasOwn(tree.shelved, tree.pending.replaced)) return 'model.tree.pending.replaced names a branch the tree does not hold'
  return undefined
}
