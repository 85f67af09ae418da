// The lifecycle rules of AG-UI's event order, as @ag-ui/client 1.0's verifyEvents applies them
// (same rules, same messages), without rxjs: a run starts with RUN_STARTED, ends once, and
// messages, tool calls, reasoning, steps and subagents open before they stream and close before
// the run ends, each under the subagent that opened it. The store checks each event's content;
// these are the rules that need the whole stream.

type Owner = { subagentRunId?: string | undefined }
type Fields = { type: string } & Record<string, unknown>

const nullOptionals: Record<string, readonly string[]> = {
  SUBAGENT_STARTED: ['description', 'parentSubagentRunId', 'parentToolCallId', 'parentMessageId'],
  SUBAGENT_FINISHED: ['outcome'],
  SUBAGENT_ERROR: ['code'],
}

const ownerName = (owner: string | undefined) => owner ?? '(the parent agent)'
const nullField = (type: string, field: string) => `Cannot send '${type}' with '${field}: null'. The field is optional — omit it entirely.`

/** One stream's lifecycle: `check` each event in order; the first message it returns is the stream's failure. */
export class LifecycleVerifier {
  private readonly messages = new Set<string>()
  private readonly toolCalls = new Set<string>()
  private readonly reasoningSpans = new Set<string>()
  private readonly reasoningMessages = new Set<string>()
  private readonly owners = {
    message: new Map<string, Owner>(),
    toolCall: new Map<string, Owner>(),
    activity: new Map<string, Owner>(),
    reasoning: new Map<string, Owner>(),
  }
  private readonly steps = new Map<string | undefined, Set<string>>()
  private readonly subagents = new Set<string>()
  private readonly closedSubagents = new Set<string>()
  private runFinished = false
  private runError = false
  private runStarted = false
  private first = true

  /** Why the event breaks the order, or undefined if it may come now. */
  check(event: Fields): string | undefined {
    const type = event.type
    if (this.runError && type !== 'RUN_STARTED') {
      return `Cannot send event type '${type}': The run has already errored with 'RUN_ERROR'. No further events can be sent.`
    }
    if (this.runFinished && type !== 'RUN_ERROR' && type !== 'RUN_STARTED') {
      return `Cannot send event type '${type}': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'.`
    }
    if (this.first) {
      this.first = false
      if (type !== 'RUN_STARTED' && type !== 'RUN_ERROR') return `First event must be 'RUN_STARTED'`
    } else if (type === 'RUN_STARTED') {
      if (this.runStarted && !this.runFinished && !this.runError) {
        return `Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run.`
      }
      if (this.runFinished || this.runError) this.reset()
    }
    if (event.subagentRunId === null) return nullField(type, 'subagentRunId')
    const optionals = nullOptionals[type]
    if (optionals) {
      const wrong = this.subagentShape(type, event, optionals)
      if (wrong) return wrong
    }
    if (type === 'RUN_FINISHED') {
      const outcome = event.outcome as { type?: string; interrupts?: { id?: string; subagentRunId?: unknown }[] } | null | undefined
      if (outcome?.type === 'interrupt' && Array.isArray(outcome.interrupts)) {
        for (const interrupt of outcome.interrupts) {
          if (interrupt && interrupt.subagentRunId === null) {
            return `Cannot send 'RUN_FINISHED' with an interrupt (id '${interrupt.id}') carrying 'subagentRunId: null'. The field is optional — omit it entirely.`
          }
        }
      }
    }
    return this.order(type, event, event.subagentRunId as string | undefined)
  }

  private reset() {
    this.messages.clear()
    this.toolCalls.clear()
    this.reasoningSpans.clear()
    this.reasoningMessages.clear()
    for (const owners of Object.values(this.owners)) owners.clear()
    this.steps.clear()
    this.subagents.clear()
    this.closedSubagents.clear()
    this.runFinished = false
    this.runError = false
    this.runStarted = true
  }

  private subagentShape(type: string, event: Fields, optionals: readonly string[]): string | undefined {
    for (const field of optionals) if (event[field] === null) return nullField(type, field)
    const outcome = event.outcome as { type?: unknown; interruptIds?: unknown } | null | undefined
    if (outcome !== undefined && outcome !== null && outcome.type !== 'success' && outcome.type !== 'suspended') {
      return `Cannot send '${type}' with outcome type '${String(outcome.type)}'. The outcome is either { type: "success" } or { type: "suspended" }.`
    }
    if (outcome && outcome.interruptIds === null) return nullField(type, 'outcome.interruptIds')
    if (outcome && Array.isArray(outcome.interruptIds) && outcome.interruptIds.some((id) => typeof id !== 'string')) {
      return `Cannot send '${type}' with a non-string entry in 'outcome.interruptIds'. Interrupt ids are strings.`
    }
    return undefined
  }

  private order(type: string, event: Fields, tag: string | undefined): string | undefined {
    switch (type) {
      case 'TEXT_MESSAGE_START':
        return this.open(
          type,
          event.messageId as string,
          tag,
          this.messages,
          this.owners.message,
          'message',
          () =>
            `Cannot send 'TEXT_MESSAGE_START' event: A text message with ID '${event.messageId}' is already in progress. Complete it with 'TEXT_MESSAGE_END' first.`,
        )
      case 'TEXT_MESSAGE_CONTENT':
      case 'TEXT_MESSAGE_END': {
        const id = event.messageId as string
        if (!this.messages.has(id)) {
          return type === 'TEXT_MESSAGE_END'
            ? `Cannot send 'TEXT_MESSAGE_END' event: No active text message found with ID '${id}'. A 'TEXT_MESSAGE_START' event must be sent first.`
            : `Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID '${id}'. Start a text message with 'TEXT_MESSAGE_START' first.`
        }
        const wrong = tagError(type, tag, this.owners.message.get(id), 'message', id)
        if (!wrong && type === 'TEXT_MESSAGE_END') this.messages.delete(id)
        return wrong
      }
      case 'TOOL_CALL_START':
        return this.startToolCall(event, tag)
      case 'TOOL_CALL_ARGS':
      case 'TOOL_CALL_END': {
        const id = event.toolCallId as string
        if (!this.toolCalls.has(id)) {
          return type === 'TOOL_CALL_END'
            ? `Cannot send 'TOOL_CALL_END' event: No active tool call found with ID '${id}'. A 'TOOL_CALL_START' event must be sent first.`
            : `Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID '${id}'. Start a tool call with 'TOOL_CALL_START' first.`
        }
        const wrong = tagError(type, tag, this.owners.toolCall.get(id), 'tool call', id)
        if (!wrong && type === 'TOOL_CALL_END') this.toolCalls.delete(id)
        return wrong
      }
      case 'STEP_STARTED':
        return this.startStep(event.stepName as string, tag)
      case 'STEP_FINISHED':
        return this.finishStep(event.stepName as string, tag)
      case 'ACTIVITY_SNAPSHOT': {
        const id = event.messageId as string
        if (!this.owners.activity.has(id) || event.replace !== false) this.owners.activity.set(id, { subagentRunId: tag })
        return undefined
      }
      case 'TOOL_CALL_RESULT':
        if (typeof event.messageId === 'string') this.owners.message.set(event.messageId, { subagentRunId: tag })
        return undefined
      case 'REASONING_START':
      case 'REASONING_MESSAGE_START': {
        const span = type === 'REASONING_START'
        return this.open(
          type,
          event.messageId as string,
          tag,
          span ? this.reasoningSpans : this.reasoningMessages,
          this.owners.reasoning,
          'reasoning message',
          () =>
            span
              ? `Cannot send 'REASONING_START' event: A reasoning span with ID '${event.messageId}' is already in progress. Complete it with 'REASONING_END' first.`
              : `Cannot send 'REASONING_MESSAGE_START' event: A reasoning message with ID '${event.messageId}' is already in progress. Complete it with 'REASONING_MESSAGE_END' first.`,
        )
      }
      case 'REASONING_MESSAGE_CONTENT':
      case 'REASONING_MESSAGE_END':
      case 'REASONING_END': {
        const id = event.messageId as string
        const span = type === 'REASONING_END'
        const open = span ? this.reasoningSpans : this.reasoningMessages
        if (!open.has(id)) {
          return span
            ? `Cannot send 'REASONING_END' event: No active reasoning span found with ID '${id}'. A 'REASONING_START' event must be sent first.`
            : `Cannot send '${type}' event: No active reasoning message found with ID '${id}'. Start a reasoning message with 'REASONING_MESSAGE_START' first.`
        }
        const wrong = tagError(type, tag, this.owners.reasoning.get(id), 'reasoning message', id)
        if (!wrong && type !== 'REASONING_MESSAGE_CONTENT') open.delete(id)
        return wrong
      }
      case 'REASONING_ENCRYPTED_VALUE': {
        const id = event.entityId as string
        const { subtype } = event
        const owner =
          subtype === 'tool-call'
            ? this.owners.toolCall.get(id)
            : subtype === 'message'
              ? (this.owners.message.get(id) ?? this.owners.reasoning.get(id))
              : this.owners.reasoning.get(id)
        const kind = subtype === 'tool-call' ? 'tool call' : subtype === 'message' ? 'message' : 'reasoning message'
        return tagError(type, tag, owner, kind, id)
      }
      case 'ACTIVITY_DELTA':
        return tagError(type, tag, this.owners.activity.get(event.messageId as string), 'activity', event.messageId as string)
      case 'SUBAGENT_STARTED':
        return this.startSubagent(event)
      case 'SUBAGENT_FINISHED':
      case 'SUBAGENT_ERROR':
        return this.finishSubagent(type, event)
      case 'MESSAGES_SNAPSHOT':
        return this.seedOwners(event.messages, true)
      case 'RUN_STARTED':
        this.runStarted = true
        return this.seedOwners((event.input as { messages?: unknown } | undefined)?.messages, false)
      case 'RUN_FINISHED':
        return this.finishRun()
      case 'RUN_ERROR':
        this.runError = true
        return undefined
      default:
        return undefined
    }
  }

  /** A START of something that streams: not open already, and under the subagent that first opened that id. */
  private open(type: string, id: string, tag: string | undefined, open: Set<string>, owners: Map<string, Owner>, kind: string, already: () => string) {
    if (open.has(id)) return already()
    const owner = owners.get(id)
    if (owner) {
      const wrong = tagError(type, tag, owner, kind, id)
      if (wrong) return wrong
    }
    open.add(id)
    if (!owner) owners.set(id, { subagentRunId: tag })
    return undefined
  }

  private startToolCall(event: Fields, tag: string | undefined): string | undefined {
    const id = event.toolCallId as string
    if (this.toolCalls.has(id)) {
      return `Cannot send 'TOOL_CALL_START' event: A tool call with ID '${id}' is already in progress. Complete it with 'TOOL_CALL_END' first.`
    }
    const parentId = event.parentMessageId as string | undefined
    let inherited: Owner | undefined
    if (parentId !== undefined) {
      const parent = this.owners.message.get(parentId)
      if (parent) {
        if (tag !== undefined && tag !== parent.subagentRunId) {
          return `Cannot send 'TOOL_CALL_START': subagentRunId '${tag}' does not match its parent message '${parentId}' owner '${ownerName(parent.subagentRunId)}'. A tool call belongs to the message that carries it.`
        }
        inherited = parent
      }
    }
    const existing = this.owners.toolCall.get(id)
    if (existing) {
      const wrong = tagError('TOOL_CALL_START', tag, existing, 'tool call', id)
      if (wrong) return wrong
      if (tag === undefined && inherited && inherited.subagentRunId !== existing.subagentRunId) {
        return `Cannot send 'TOOL_CALL_START': tool call '${id}' is owned by '${ownerName(existing.subagentRunId)}' but its parent message '${parentId}' is owned by '${ownerName(inherited.subagentRunId)}'. A tool call belongs to the message that carries it.`
      }
    }
    this.toolCalls.add(id)
    if (!existing) this.owners.toolCall.set(id, tag !== undefined ? { subagentRunId: tag } : (inherited ?? { subagentRunId: undefined }))
    return undefined
  }

  private stepsOf(owner: string | undefined) {
    let names = this.steps.get(owner)
    if (!names) {
      names = new Set()
      this.steps.set(owner, names)
    }
    return names
  }

  private startStep(name: string, owner: string | undefined): string | undefined {
    const names = this.stepsOf(owner)
    if (names.has(name)) return `Step "${name}" is already active for 'STEP_STARTED'${owner !== undefined ? ` in subagent '${owner}'` : ''}`
    names.add(name)
    return undefined
  }

  private finishStep(name: string, owner: string | undefined): string | undefined {
    const names = this.stepsOf(owner)
    if (!names.has(name)) {
      for (const [other, open] of this.steps) {
        if (other !== owner && open.has(name)) {
          const by = owner !== undefined ? `subagent '${owner}'` : 'the parent agent'
          const under = other !== undefined ? `subagent '${other}'` : 'the parent agent'
          return `Cannot send 'STEP_FINISHED' for step "${name}" attributed to ${by}: that step is open under ${under}. A step must be finished by whoever started it.`
        }
      }
      return `Cannot send 'STEP_FINISHED' for step "${name}" that was not started`
    }
    names.delete(name)
    return undefined
  }

  private startSubagent(event: Fields): string | undefined {
    if (typeof event.subagentRunId !== 'string') return `Cannot send 'SUBAGENT_STARTED' without a 'subagentRunId'.`
    if (typeof event.name !== 'string') return `Cannot send 'SUBAGENT_STARTED' without a 'name'.`
    const id = event.subagentRunId
    const parent = event.parentSubagentRunId as string | undefined
    if (this.subagents.has(id)) return `Cannot send 'SUBAGENT_STARTED': subagent '${id}' is already active. Finish it with 'SUBAGENT_FINISHED' first.`
    if (this.closedSubagents.has(id)) {
      return `Cannot send 'SUBAGENT_STARTED': subagent '${id}' has already finished in this run. Subagent IDs are per-invocation and cannot be reused.`
    }
    if (parent !== undefined && !this.subagents.has(parent) && !this.closedSubagents.has(parent)) {
      return `Cannot send 'SUBAGENT_STARTED': parentSubagentRunId '${parent}' has not been started in this run.`
    }
    this.subagents.add(id)
    return undefined
  }

  private finishSubagent(type: string, event: Fields): string | undefined {
    if (typeof event.subagentRunId !== 'string') return `Cannot send '${type}' without a 'subagentRunId'.`
    if (type === 'SUBAGENT_ERROR' && typeof event.message !== 'string') return `Cannot send 'SUBAGENT_ERROR' without a 'message'.`
    const id = event.subagentRunId
    if (!this.subagents.has(id)) {
      return `Cannot send '${type}': no active subagent found with ID '${id}'. A 'SUBAGENT_STARTED' event must be sent first.`
    }
    this.subagents.delete(id)
    this.closedSubagents.add(id)
    return undefined
  }

  private finishRun(): string | undefined {
    const steps = [...this.steps].flatMap(([owner, names]) => [...names].map((name) => (owner !== undefined ? `${name} (subagent '${owner}')` : name)))
    if (steps.length > 0) return `Cannot send 'RUN_FINISHED' while steps are still active: ${steps.join(', ')}`
    const still = (what: string, open: Set<string>) =>
      open.size > 0 ? `Cannot send 'RUN_FINISHED' while ${what} are still active: ${[...open].join(', ')}` : undefined
    const open =
      still('text messages', this.messages) ??
      still('reasoning messages', this.reasoningMessages) ??
      still('reasoning spans', this.reasoningSpans) ??
      still('tool calls', this.toolCalls) ??
      still('subagents', this.subagents)
    if (open) return open
    this.runFinished = true
    return undefined
  }

  /** The owners of what a run's input or a messages snapshot holds, so later events are checked against them. */
  private seedOwners(raw: unknown, authoritative: boolean): string | undefined {
    const messages = (raw ?? []) as { id?: unknown; role?: unknown; subagentRunId?: string | null; toolCalls?: { id?: unknown }[] }[]
    if (!Array.isArray(messages)) return undefined
    for (const message of messages) {
      if (!message || typeof message.id !== 'string') continue
      if (message.subagentRunId === null) {
        return `Cannot send a message (id '${message.id}') with 'subagentRunId: null'. The field is optional — omit it entirely.`
      }
      const owners = message.role === 'reasoning' ? this.owners.reasoning : message.role === 'activity' ? this.owners.activity : this.owners.message
      if (authoritative || !owners.has(message.id)) owners.set(message.id, { subagentRunId: message.subagentRunId })
      for (const call of message.toolCalls ?? []) {
        if (call && typeof call.id === 'string' && (authoritative || !this.owners.toolCall.has(call.id))) {
          this.owners.toolCall.set(call.id, { subagentRunId: message.subagentRunId ?? undefined })
        }
      }
    }
    return undefined
  }
}

/** An event tagged with a subagent other than the one that opened its entity. */
function tagError(type: string, tag: string | undefined, owner: Owner | undefined, kind: string, id: string): string | undefined {
  if (tag === undefined || !owner || owner.subagentRunId === tag) return undefined
  return `Cannot send '${type}': subagentRunId '${tag}' does not match the ${kind} '${id}' opener's subagent '${ownerName(owner.subagentRunId)}'.`
}
