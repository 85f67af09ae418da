// The lifecycle rules of AG-UI's event order: a run starts with RUN_STARTED and ends once, and
// messages, tool calls, reasoning, steps and subagents open before they stream and close before
// the run ends, each under the subagent that opened it. The verdicts are those of @ag-ui/client's
// verifyEvents (a property test holds them equal); the messages are the store's own. It is not
// verifyEvents itself because that brings rxjs and the zod schemas into the bundle and is much
// larger. The store checks each event's content; these are the rules that need the whole stream.

type Fields = { type: string } & Record<string, unknown>
/** A subagent's run id, or undefined for the parent agent: whom an event or what it opened belongs to. */
type Owner = unknown
/** What an id names, for the owner maps and in messages. */
type OwnerKind = 'message' | 'tool call' | 'reasoning' | 'activity'

/**
 * Something that opens, may stream, then closes, each id open once at a time: `<prefix>_START`,
 * `<prefix>_<stream>` (if it streams), `<prefix>_END`; `idField` holds the id, `owners` names the
 * map of whom each id belongs to.
 */
type Family = [prefix: string, stream: string, idField: string, owners: OwnerKind]
const families: Family[] = [
  ['TEXT_MESSAGE', 'CONTENT', 'messageId', 'message'],
  ['TOOL_CALL', 'ARGS', 'toolCallId', 'tool call'],
  ['REASONING', '', 'messageId', 'reasoning'],
  ['REASONING_MESSAGE', 'CONTENT', 'messageId', 'reasoning'],
]
/** Each event type of a family, to its family and whether it opens (START), streams or closes (END) its id. */
const familyOf = new Map(
  families.flatMap((family) => {
    const [prefix, stream] = family
    return (stream ? ['START', stream, 'END'] : ['START', 'END']).map((part): [string, [Family, string]] => [`${prefix}_${part}`, [family, part]])
  }),
)
/** "text message", "tool call", "reasoning", "reasoning message". */
const nameOf = ([prefix]: Family) => prefix.toLowerCase().replace('_', ' ')

/** The subagent events: the fields each must carry as strings, and the optional ones it must not send as null. */
const subagentFields = new Map<string, [required: string[], optional: string[]]>([
  [
    'SUBAGENT_STARTED',
    [
      ['subagentRunId', 'name'],
      ['description', 'parentSubagentRunId', 'parentToolCallId', 'parentMessageId'],
    ],
  ],
  ['SUBAGENT_FINISHED', [['subagentRunId'], ['outcome']]],
  ['SUBAGENT_ERROR', [['subagentRunId', 'message'], ['code']]],
])

const who = (owner: Owner) => (owner === undefined ? 'the parent agent' : `subagent "${owner}"`)
const about = (type: string, what: string, id: unknown, why: string) => `${type} for ${what} "${id}", which ${why}`
const nullField = (type: string, field: string, where = '') => `${type} with ${field}: null${where} (leave it out instead)`

/** One stream's lifecycle: call it with each event in order; the first message it returns is the stream's failure, why the event breaks the order (undefined if it may come now). */
export function lifecycleVerifier(): (event: Fields) => string | undefined {
  /** The last of RUN_STARTED, RUN_FINISHED and RUN_ERROR accepted. */
  let lastRunEvent: string | undefined
  // What the current run has open, and whom each id it has seen belongs to: set by RUN_STARTED, before which no other event gets this far.
  let open: Map<Family, Set<unknown>>
  let owners: Record<OwnerKind, Map<unknown, Owner>>
  let steps: [name: unknown, owner: Owner][]
  /** Each subagent of the run: true while it runs, false once it has ended. */
  let subagents: Map<unknown, boolean>
  const newRun = () => {
    open = new Map(families.map((family) => [family, new Set()]))
    owners = { message: new Map(), 'tool call': new Map(), reasoning: new Map(), activity: new Map() }
    steps = []
    subagents = new Map()
  }

  /** An event tagged with another subagent than the one its entity belongs to. */
  const foreign = (type: string, tag: Owner, kind: OwnerKind, id: unknown) => {
    const owner = owners[kind].get(id)
    return tag !== undefined && owners[kind].has(id) && owner !== tag ? about(type, kind, id, `belongs to ${who(owner)}, not ${who(tag)}`) : undefined
  }

  const claim = (kind: OwnerKind, id: unknown, owner: Owner, authoritative: boolean) => {
    if (authoritative || !owners[kind].has(id)) owners[kind].set(id, owner)
  }

  /** The owners of what a run's input or a messages snapshot holds, so later events are checked against them. */
  const seedOwners = (type: string, messages: unknown, authoritative: boolean) => {
    if (!Array.isArray(messages)) return undefined
    for (const message of messages as (Record<string, unknown> | null)[]) {
      if (!message || typeof message.id !== 'string') continue
      const { id, subagentRunId: owner } = message
      if (owner === null) return nullField(type, 'subagentRunId', ` on message "${id}"`)
      claim(message.role === 'reasoning' || message.role === 'activity' ? message.role : 'message', id, owner, authoritative)
      const calls = (message.toolCalls ?? []) as Iterable<{ id?: unknown } | null>
      if (typeof calls[Symbol.iterator] !== 'function') return `${type} with message "${id}" whose toolCalls is not a list`
      for (const call of calls) if (typeof call?.id === 'string') claim('tool call', call.id, owner, authoritative)
    }
    return undefined
  }

  /** A START opens its id, and the events after it need it open; all keep to its owner. */
  const familyEvent = (type: string, event: Fields, tag: Owner, [family, part]: [Family, string]) => {
    const [, , idField, kind] = family
    const id = event[idField]
    const ids = open.get(family) as Set<unknown>
    const starts = part === 'START'
    if (ids.has(id) === starts) return about(type, nameOf(family), id, starts ? 'is already open' : 'is not open')
    const wrong = foreign(type, tag, kind, id)
    if (wrong) return wrong
    let owner = tag
    const parent = event.parentMessageId
    if (type === 'TOOL_CALL_START' && parent !== undefined && owners.message.has(parent)) {
      // A tool call belongs to the message that carries it.
      owner = owners.message.get(parent)
      const claimed = tag !== undefined ? tag : owners['tool call'].has(id) ? owners['tool call'].get(id) : owner
      if (claimed !== owner) return about(type, 'tool call', id, `belongs to ${who(claimed)}, but its parent message "${parent}" to ${who(owner)}`)
    }
    if (starts) {
      ids.add(id)
      claim(kind, id, owner, false)
    }
    if (part === 'END') ids.delete(id)
    return undefined
  }

  const step = (type: string, name: unknown, owner: Owner) => {
    const index = steps.findIndex(([stepName, by]) => stepName === name && by === owner)
    if (type === 'STEP_STARTED') {
      if (index >= 0) return about(type, 'step', name, `is already open under ${who(owner)}`)
      steps.push([name, owner])
    } else if (index < 0) {
      const holder = steps.find(([stepName]) => stepName === name)
      return about(type, 'step', name, holder ? `is open under ${who(holder[1])}, not ${who(owner)}` : 'is not open')
    } else steps.splice(index, 1)
    return undefined
  }

  const subagent = (type: string, event: Fields, [required, optional]: [string[], string[]]) => {
    const nulled = optional.find((field) => event[field] === null)
    if (nulled) return nullField(type, nulled)
    const outcome = event.outcome as { type?: unknown; interruptIds?: unknown } | null | undefined
    const ids = outcome?.interruptIds
    const wrongIds = ids === null || (Array.isArray(ids) && ids.some((id) => typeof id !== 'string'))
    if (outcome != null && ((outcome.type !== 'success' && outcome.type !== 'suspended') || wrongIds)) {
      return `${type} with an outcome other than { type: "success" | "suspended", interruptIds?: string[] }`
    }
    const missing = required.find((field) => typeof event[field] !== 'string')
    if (missing) return `${type} without a ${missing}`
    const id = event.subagentRunId
    if (type !== 'SUBAGENT_STARTED') {
      if (!subagents.get(id)) return about(type, 'subagent', id, 'is not running')
      subagents.set(id, false)
      return undefined
    }
    if (subagents.has(id)) return about(type, 'subagent', id, subagents.get(id) ? 'is already running' : 'has already ended in this run')
    const parent = event.parentSubagentRunId
    if (parent !== undefined && !subagents.has(parent)) return about(type, 'parent subagent', parent, 'has not started in this run')
    subagents.set(id, true)
    return undefined
  }

  /** RUN_FINISHED closes the run: nothing may be left open, and no interrupt's subagentRunId is null. */
  const finishRun = (type: string, event: Fields) => {
    const outcome = event.outcome as { type?: unknown; interrupts?: unknown } | null | undefined
    if (outcome?.type === 'interrupt' && Array.isArray(outcome.interrupts)) {
      const orphan = outcome.interrupts.find((interrupt) => interrupt && interrupt.subagentRunId === null)
      if (orphan) return nullField(type, 'subagentRunId', ` on interrupt "${orphan.id}"`)
    }
    const stillOpen = [
      ...steps.map(([name, owner]) => `step "${name}" of ${who(owner)}`),
      ...[...open].flatMap(([family, ids]) => [...ids].map((id) => `${nameOf(family)} "${id}"`)),
      ...[...subagents].filter(([, running]) => running).map(([id]) => `subagent "${id}"`),
    ]
    if (stillOpen.length > 0) return `${type} with ${stillOpen.join(', ')} still open`
    lastRunEvent = type
    return undefined
  }

  return (event: Fields): string | undefined => {
    const { type } = event
    const tag = event.subagentRunId
    if (type === 'RUN_STARTED') {
      if (lastRunEvent === type) return 'RUN_STARTED while a run is active'
      newRun()
    } else if (lastRunEvent === 'RUN_ERROR' || (lastRunEvent !== 'RUN_STARTED' && type !== 'RUN_ERROR')) {
      return lastRunEvent ? `${type} after ${lastRunEvent}, before a new RUN_STARTED` : `${type} before RUN_STARTED`
    }
    if (tag === null) return nullField(type, 'subagentRunId')
    const family = familyOf.get(type)
    if (family) return familyEvent(type, event, tag, family)
    const subagentEvent = subagentFields.get(type)
    if (subagentEvent) return subagent(type, event, subagentEvent)
    switch (type) {
      case 'STEP_STARTED':
      case 'STEP_FINISHED':
        return step(type, event.stepName, tag)
      case 'ACTIVITY_SNAPSHOT':
        claim('activity', event.messageId, tag, event.replace !== false)
        return undefined
      case 'ACTIVITY_DELTA':
        return foreign(type, tag, 'activity', event.messageId)
      case 'TOOL_CALL_RESULT':
        if (typeof event.messageId === 'string') claim('message', event.messageId, tag, true)
        return undefined
      case 'REASONING_ENCRYPTED_VALUE': {
        const id = event.entityId
        const kind = event.subtype === 'tool-call' ? 'tool call' : event.subtype === 'message' && owners.message.has(id) ? 'message' : 'reasoning'
        return foreign(type, tag, kind, id)
      }
      case 'MESSAGES_SNAPSHOT':
        return seedOwners(type, event.messages, true)
      case 'RUN_STARTED':
        lastRunEvent = type
        return seedOwners(type, (event.input as { messages?: unknown } | null | undefined)?.messages, false)
      case 'RUN_FINISHED':
        return finishRun(type, event)
      case 'RUN_ERROR':
        lastRunEvent = type
        return undefined
      default:
        return undefined
    }
  }
}
