// Random AG-UI 1.0 conversations that @ag-ui/client's verifyEvents accepts: text, tool calls,
// reasoning (spans, messages, chunks, encrypted values), activities with deltas, subagents with
// their steps, MESSAGES_SNAPSHOTs, several runs. Each run is a list of small "intents" (four
// numbers) that a model of the conversation turns into valid events, so fast-check can shrink a
// failure by dropping intents and the stream stays valid.
import type { BaseEvent, Message } from '@ag-ui/core'
import fc from 'fast-check'

export type Intent = readonly [number, number, number, number]
export type Tag = string | undefined

interface Known {
  role: Message['role']
  owner: Tag
  /** Activity content, exactly as both reducers hold it. */
  content?: Record<string, unknown>
  activityType?: string
  /** Tool call ids of an assistant message. */
  calls?: string[]
  toolCallId?: string
}

interface Lane {
  kind: 'text' | 'tool' | 'reasoning'
  id: string
}

const ROLES = ['assistant', 'assistant', 'assistant', 'user', 'system', 'developer'] as const
const TYPES = ['progress', 'a2ui-surface', 'card'] as const
const KEYS = ['a', 'b', 'c', 'title'] as const
const WORDS = ['', 'a', 'The ', 'plan', ' é', '"q"', '\n', '🙂', 'x y', 'thinking…']
const TOOLS = ['search', 'write_document', 'plan']

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!
const ownerKey = (tag: Tag) => (tag === undefined ? '\u0000parent' : tag)

/** Builds one conversation's runs from intents; `runs[i]` is the events of run i. */
export class ConversationBuilder {
  private seq = 0
  private readonly known = new Map<string, Known>()
  private readonly toolCalls = new Map<string, { message: string | undefined; name: string }>()
  private readonly suspended = new Set<string>()
  private runIndex = 0
  // Per run, as verifyEvents keeps them.
  private events: BaseEvent[] = []
  private openText = new Map<string, Tag>()
  private openTools = new Map<string, Tag>()
  private openReasoning = new Map<string, Tag>()
  private openSpans = new Map<string, Tag>()
  private lanes = new Map<string, Lane>()
  private active = new Set<string>()
  private closed = new Set<string>()
  private steps = new Map<string, Set<string>>()
  private started = new Set<string>()

  private id(prefix: string) {
    return `${prefix}${++this.seq}`
  }

  private metadata(n: number): Record<string, unknown> | undefined {
    if (n % 5 !== 0) return undefined
    return pick([{ usage: { tokens: n % 97 } }, { trace: `t${n % 7}` }, { finish: 'stop', trace: null }, { usage: { tokens: 1 }, x: [n % 3] }], n >> 3)
  }

  private tag(n: number): Tag {
    const choices: Tag[] = [undefined, undefined, ...this.active, 'ghost']
    return pick(choices, n)
  }

  private with(event: Record<string, unknown>, fields: { metadata?: unknown; subagentRunId?: Tag }): BaseEvent {
    if (fields.subagentRunId !== undefined) event.subagentRunId = fields.subagentRunId
    if (fields.metadata !== undefined) event.metadata = fields.metadata
    return event as unknown as BaseEvent
  }

  /** Pushes an event, first closing the chunk lanes @ag-ui/client's transformChunks closes before it. */
  private emit(event: BaseEvent) {
    const type = event.type as string
    const tag = (event as { subagentRunId?: string }).subagentRunId
    if (['RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'MESSAGES_SNAPSHOT'].includes(type)) this.lanes.clear()
    else if (type === 'SUBAGENT_FINISHED' || type === 'SUBAGENT_ERROR') this.lanes.delete(ownerKey(tag))
    else if (!['RAW', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA', 'REASONING_ENCRYPTED_VALUE', 'SUBAGENT_STARTED'].includes(type) && !type.endsWith('_CHUNK')) {
      this.lanes.delete(ownerKey(tag))
    }
    this.events.push(event)
  }

  private inLane(id: string) {
    for (const lane of this.lanes.values()) if (lane.id === id) return true
    return false
  }

  private startRun(n: number) {
    this.events = []
    this.openText = new Map()
    this.openTools = new Map()
    this.openReasoning = new Map()
    this.openSpans = new Map()
    this.lanes = new Map()
    this.active = new Set()
    this.closed = new Set()
    this.steps = new Map()
    this.started = new Set()
    const runId = `run${++this.runIndex}`
    const event: Record<string, unknown> = { type: 'RUN_STARTED', threadId: 'thread', runId }
    if (n % 4 === 1) event.parentRunId = `run${this.runIndex - 1}`
    if (n % 3 === 2) {
      // The input echo: a new user message, and one already held (appended only when absent).
      const user = this.id('u')
      const messages: Message[] = [{ id: user, role: 'user', content: `hi ${n}` }]
      const held = [...this.known].find(([, k]) => k.role === 'user')
      if (held) messages.push({ id: held[0], role: 'user', content: 'restated' })
      this.known.set(user, { role: 'user', owner: undefined })
      event.input = { threadId: 'thread', runId, messages }
    }
    this.emit(event as unknown as BaseEvent)
    return runId
  }

  private endRun(runId: string, n: number) {
    if (n % 10 === 9) {
      this.emit(this.with({ type: 'RUN_ERROR', message: 'boom', ...(n % 3 === 0 ? { code: 'E1' } : {}) }, { metadata: this.metadata(n) }))
      return
    }
    for (const [id, tag] of this.openText) this.emit(this.with({ type: 'TEXT_MESSAGE_END', messageId: id }, { subagentRunId: tag }))
    for (const [id] of this.openTools) this.emit({ type: 'TOOL_CALL_END', toolCallId: id } as BaseEvent)
    for (const [id] of this.openReasoning) this.emit({ type: 'REASONING_MESSAGE_END', messageId: id } as BaseEvent)
    for (const [id] of this.openSpans) this.emit({ type: 'REASONING_END', messageId: id } as BaseEvent)
    for (const [owner, names] of this.steps) {
      for (const stepName of names) this.emit(this.with({ type: 'STEP_FINISHED', stepName }, { subagentRunId: owner === '\u0000parent' ? undefined : owner }))
    }
    for (const id of this.active) this.emit({ type: 'SUBAGENT_FINISHED', subagentRunId: id } as BaseEvent)
    const event: Record<string, unknown> = { type: 'RUN_FINISHED', threadId: 'thread', runId }
    if (n % 4 === 1) event.result = { answer: n % 11 }
    if (n % 5 === 2) event.usage = [{ provider: 'p', model: 'm', inputTokens: n % 50, outputTokens: n % 20 }]
    if (n % 7 === 3) event.outcome = { type: 'success' }
    if (n % 13 === 5) event.outcome = { type: 'cancelled' }
    this.emit(this.with(event, { metadata: this.metadata(n) }))
  }

  /** The events of one run. */
  run(intents: readonly Intent[], end: number): BaseEvent[] {
    const runId = this.startRun(end)
    for (const [op, a, b, c] of intents) this.intent(op % 23, a, b, c)
    this.endRun(runId, end)
    return this.events
  }

  private knownOf(role: Message['role'], n: number, usable: (id: string, k: Known) => boolean = () => true): string | undefined {
    const ids = [...this.known].filter(([id, k]) => k.role === role && usable(id, k)).map(([id]) => id)
    return ids.length === 0 ? undefined : pick(ids, n)
  }

  private intent(op: number, a: number, b: number, c: number) {
    switch (op) {
      case 0:
      case 1: {
        // TEXT_MESSAGE_START: a new message, or the assistant message a tool call created.
        const join = a % 4 === 0 ? this.knownOf('assistant', b, (id) => !this.openText.has(id) && !this.inLane(id)) : undefined
        if (join) {
          this.emit(this.with({ type: 'TEXT_MESSAGE_START', messageId: join, role: 'assistant' }, { metadata: this.metadata(c) }))
          this.openText.set(join, undefined)
          return
        }
        const id = this.id('m')
        const role = pick(ROLES, b)
        const tag = this.tag(c)
        this.emit(
          this.with(
            { type: 'TEXT_MESSAGE_START', messageId: id, role, ...(a % 7 === 1 ? { name: 'bot' } : {}) },
            { subagentRunId: tag, metadata: this.metadata(a) },
          ),
        )
        this.openText.set(id, tag)
        this.known.set(id, { role, owner: tag, ...(role === 'assistant' ? { calls: [] } : {}) })
        return
      }
      case 2:
      case 3: {
        const open = [...this.openText.keys()]
        if (open.length === 0) return
        const id = pick(open, a)
        this.emit(this.with({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: pick(WORDS, b) }, { metadata: this.metadata(c) }))
        return
      }
      case 4: {
        const open = [...this.openText.keys()]
        if (open.length === 0) return
        const id = pick(open, a)
        this.emit(this.with({ type: 'TEXT_MESSAGE_END', messageId: id }, { metadata: this.metadata(b) }))
        this.openText.delete(id)
        return
      }
      case 5: {
        // TOOL_CALL_START under an open or held assistant message, an unknown parent, or none.
        const id = this.id('call')
        const mode = a % 4
        let parent: string | undefined
        let tag: Tag
        if (mode === 0) parent = this.knownOf('assistant', b)
        if (mode === 1) parent = this.id('p')
        if (mode === 2) parent = ''
        const attaches = parent !== undefined && parent !== '' && this.known.get(parent)?.role === 'assistant'
        if (!attaches) tag = this.tag(c)
        const name = pick(TOOLS, b)
        this.emit(
          this.with(
            { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name, ...(parent === undefined ? {} : { parentMessageId: parent }) },
            {
              subagentRunId: tag,
              metadata: this.metadata(c >> 2),
            },
          ),
        )
        this.openTools.set(id, tag)
        const holder = attaches ? parent! : parent ? parent : id
        if (!attaches) this.known.set(holder, { role: 'assistant', owner: tag, calls: [] })
        this.known.get(holder)?.calls?.push(id)
        this.toolCalls.set(id, { message: holder, name })
        return
      }
      case 6: {
        const open = [...this.openTools.keys()]
        if (open.length === 0) return
        this.emit(
          this.with(
            { type: 'TOOL_CALL_ARGS', toolCallId: pick(open, a), delta: pick(['{"q":', '"x"', '}', '', '[1,', '2]'], b) },
            { metadata: this.metadata(c) },
          ),
        )
        return
      }
      case 7: {
        const open = [...this.openTools.keys()]
        if (open.length === 0) return
        const id = pick(open, a)
        this.emit(this.with({ type: 'TOOL_CALL_END', toolCallId: id }, { metadata: this.metadata(b) }))
        this.openTools.delete(id)
        return
      }
      case 8: {
        // TOOL_CALL_RESULT for a call of any run (or none known): placed after its call.
        const calls = [...this.toolCalls.keys()]
        const toolCallId = calls.length === 0 || a % 9 === 0 ? this.id('ghost-call') : pick(calls, a)
        const id = this.id('r')
        const tag = this.tag(c)
        const content = b % 5 === 0 ? [{ type: 'text', text: 'part' }] : `result ${b % 13}`
        this.emit(this.with({ type: 'TOOL_CALL_RESULT', messageId: id, toolCallId, content }, { subagentRunId: tag, metadata: this.metadata(c >> 1) }))
        this.known.set(id, { role: 'tool', owner: tag, toolCallId })
        return
      }
      case 9: {
        // A reasoning span, opened or closed.
        const open = [...this.openSpans.keys()]
        if (open.length > 0 && a % 2 === 0) {
          const id = pick(open, b)
          this.emit({ type: 'REASONING_END', messageId: id } as BaseEvent)
          this.openSpans.delete(id)
          return
        }
        const id = this.id('span')
        const tag = this.tag(c)
        this.emit(this.with({ type: 'REASONING_START', messageId: id }, { subagentRunId: tag, metadata: this.metadata(b) }))
        this.openSpans.set(id, tag)
        return
      }
      case 10: {
        // REASONING_MESSAGE_START: new, or a held reasoning message again.
        const again = a % 4 === 0 ? this.knownOf('reasoning', b, (id) => !this.openReasoning.has(id) && !this.inLane(id)) : undefined
        const id = again ?? this.id('think')
        const tag = again ? undefined : this.tag(c)
        this.emit(this.with({ type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning' }, { subagentRunId: tag, metadata: this.metadata(a >> 2) }))
        this.openReasoning.set(id, tag)
        if (!again) this.known.set(id, { role: 'reasoning', owner: tag })
        return
      }
      case 11: {
        const open = [...this.openReasoning.keys()]
        if (open.length === 0) return
        const id = pick(open, a)
        if (b % 4 === 0) {
          this.emit(this.with({ type: 'REASONING_MESSAGE_END', messageId: id }, { metadata: this.metadata(c) }))
          this.openReasoning.delete(id)
          return
        }
        this.emit(this.with({ type: 'REASONING_MESSAGE_CONTENT', messageId: id, delta: pick(WORDS, b) }, { metadata: this.metadata(c) }))
        return
      }
      case 12: {
        // A burst of chunks for one new or held message / tool call.
        const kind = pick(['text', 'tool', 'reasoning'] as const, a)
        if (kind === 'tool') {
          const held = b % 3 === 0 ? [...this.toolCalls.keys()].filter((id) => !this.openTools.has(id) && !this.inLane(id)) : []
          const again = held.length > 0 ? pick(held, c) : undefined
          const id = again ?? this.id('chunk-call')
          const tag = again ? undefined : this.tag(c)
          const parent = again ? undefined : b % 2 === 0 ? this.knownOf('assistant', c, (pid) => !this.inLane(pid)) : undefined
          const attaches = parent !== undefined
          // A held call keeps its name: a chunk is no place to rename one.
          const name = again ? this.toolCalls.get(again)!.name : pick(TOOLS, c)
          const first: Record<string, unknown> = { type: 'TOOL_CALL_CHUNK', toolCallId: id, toolCallName: name, delta: '{"a":' }
          if (parent !== undefined) first.parentMessageId = parent
          this.emit(this.with(first, { subagentRunId: attaches ? undefined : tag, metadata: this.metadata(b) }))
          this.emit({ type: 'TOOL_CALL_CHUNK', toolCallId: id, delta: `${c % 10}}` } as BaseEvent)
          this.lanes.set(ownerKey(attaches ? undefined : tag), { kind, id })
          if (!again) {
            const holder = parent ?? id
            if (!attaches) this.known.set(holder, { role: 'assistant', owner: tag, calls: [] })
            this.known.get(holder)?.calls?.push(id)
            this.toolCalls.set(id, { message: holder, name })
          }
          return
        }
        const role = kind === 'text' ? 'assistant' : 'reasoning'
        const open = kind === 'text' ? this.openText : this.openReasoning
        const again = b % 3 === 0 ? this.knownOf(role, c, (id) => !open.has(id) && !this.inLane(id)) : undefined
        const id = again ?? this.id(kind === 'text' ? 'chunk-m' : 'chunk-think')
        const tag = again ? undefined : this.tag(c)
        const type = kind === 'text' ? 'TEXT_MESSAGE_CHUNK' : 'REASONING_MESSAGE_CHUNK'
        this.emit(this.with({ type, messageId: id, delta: pick(WORDS, b) }, { subagentRunId: tag, metadata: this.metadata(c >> 1) }))
        for (let i = 0; i < a % 3; i++) this.emit({ type, messageId: id, delta: pick(WORDS, b + i + 1) } as BaseEvent)
        this.lanes.set(ownerKey(tag), { kind, id })
        if (!again) this.known.set(id, { role, owner: tag, ...(role === 'assistant' ? { calls: [] } : {}) })
        return
      }
      case 13: {
        // REASONING_ENCRYPTED_VALUE on a message or a tool call.
        const value = `enc-${a % 1000}`
        if (b % 2 === 0) {
          const calls = [...this.toolCalls.keys()]
          if (calls.length === 0) return
          this.emit({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: pick(calls, c), encryptedValue: value } as BaseEvent)
          return
        }
        const ids = [...this.known].filter(([, k]) => k.role !== 'activity').map(([id]) => id)
        if (ids.length === 0) return
        this.emit(
          this.with({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: pick(ids, c), encryptedValue: value }, { metadata: this.metadata(a) }),
        )
        return
      }
      case 14:
      case 15: {
        // ACTIVITY_SNAPSHOT: a new activity, or one held (replaced, or left as it is).
        const held = a % 3 === 0 ? undefined : this.knownOf('activity', b)
        const id = held ?? this.id('act')
        const replace = held && c % 3 === 0 ? c % 2 === 0 : undefined
        const content: Record<string, unknown> = { title: `step ${b % 9}`, a: b % 4, items: [c % 3] }
        if (c % 4 === 0) content.nested = { deep: { ok: true } }
        const activityType = pick(TYPES, c)
        const tag = this.tag(a)
        this.emit(
          this.with(
            { type: 'ACTIVITY_SNAPSHOT', messageId: id, activityType, content, ...(replace === undefined ? {} : { replace }) },
            { subagentRunId: tag, metadata: this.metadata(b) },
          ),
        )
        const known = this.known.get(id)
        if (!known || replace !== false) this.known.set(id, { role: 'activity', owner: tag, content: structuredClone(content), activityType })
        return
      }
      case 16:
      case 17: {
        // ACTIVITY_DELTA: valid operations on the content as it is, or a failing test (which changes nothing).
        const id = this.knownOf('activity', a)
        if (!id) return
        const known = this.known.get(id)!
        const content = known.content!
        const key = pick(KEYS, b)
        const activityType = c % 5 === 0 ? pick(TYPES, c) : known.activityType!
        if (c % 6 === 1) {
          this.emit({
            type: 'ACTIVITY_DELTA',
            messageId: id,
            activityType: known.activityType,
            patch: [{ op: 'test', path: '/title', value: 'never this' }],
          } as BaseEvent)
          return
        }
        const patch: Record<string, unknown>[] = []
        if (Object.hasOwn(content, key)) patch.push({ op: 'test', path: `/${key}`, value: content[key] })
        const mode = b % 4
        if (mode === 0 && Object.hasOwn(content, key)) {
          patch.push({ op: 'remove', path: `/${key}` })
          delete content[key]
        } else if (mode === 1 && Array.isArray(content.items)) {
          patch.push({ op: 'add', path: '/items/-', value: c % 10 })
          ;(content.items as unknown[]).push(c % 10)
        } else {
          const value = mode === 2 ? { n: c % 5 } : `v${c % 17}`
          patch.push({ op: Object.hasOwn(content, key) && c % 2 === 0 ? 'replace' : 'add', path: `/${key}`, value })
          content[key] = structuredClone(value)
        }
        known.activityType = activityType
        this.emit(this.with({ type: 'ACTIVITY_DELTA', messageId: id, activityType, patch }, { metadata: this.metadata(a) }))
        return
      }
      case 18: {
        // SUBAGENT_STARTED: a new invocation, or a suspended one continued by a later run.
        const resumable = [...this.suspended].filter((id) => !this.started.has(id))
        const id = a % 3 === 0 && resumable.length > 0 ? pick(resumable, b) : this.id('sub')
        const parents = [...this.active, ...this.closed]
        const event: Record<string, unknown> = { type: 'SUBAGENT_STARTED', subagentRunId: id, name: pick(['researcher', 'writer', 'critic'], b) }
        if (b % 3 === 1) event.description = 'does work'
        if (parents.length > 0 && c % 2 === 0) event.parentSubagentRunId = pick(parents, c)
        const calls = [...this.toolCalls.keys()]
        if (calls.length > 0 && c % 3 === 0) event.parentToolCallId = pick(calls, a)
        if (c % 5 === 0) event.parentMessageId = 'm-parent'
        this.emit(this.with(event, { metadata: this.metadata(a) }))
        this.active.add(id)
        this.started.add(id)
        this.suspended.delete(id)
        return
      }
      case 19: {
        const running = [...this.active]
        if (running.length === 0) return
        const id = pick(running, a)
        if (b % 4 === 0) {
          this.emit(
            this.with({ type: 'SUBAGENT_ERROR', subagentRunId: id, message: 'failed', ...(c % 2 === 0 ? { code: 'X' } : {}) }, { metadata: this.metadata(c) }),
          )
        } else {
          const suspended = b % 4 === 1
          const event: Record<string, unknown> = { type: 'SUBAGENT_FINISHED', subagentRunId: id }
          if (c % 3 === 0) event.result = { summary: `done ${c % 7}` }
          if (suspended) event.outcome = { type: 'suspended', ...(c % 2 === 0 ? { interruptIds: ['i1'] } : {}) }
          else if (c % 4 === 1) event.outcome = { type: 'success' }
          this.emit(this.with(event, { metadata: this.metadata(c >> 1) }))
          if (suspended) this.suspended.add(id)
        }
        this.active.delete(id)
        this.closed.add(id)
        return
      }
      case 20: {
        // A step, started or finished by its owner.
        const tag = this.tag(a)
        const names = this.steps.get(ownerKey(tag)) ?? new Set<string>()
        const name = pick(['plan', 'tools', 'write'], b)
        if (names.has(name)) {
          this.emit(this.with({ type: 'STEP_FINISHED', stepName: name }, { subagentRunId: tag, metadata: this.metadata(c) }))
          names.delete(name)
        } else {
          this.emit(this.with({ type: 'STEP_STARTED', stepName: name }, { subagentRunId: tag, metadata: this.metadata(c) }))
          names.add(name)
        }
        this.steps.set(ownerKey(tag), names)
        return
      }
      case 21: {
        this.messagesSnapshot(a, b, c)
        return
      }
      case 22: {
        // Events that change no message.
        const tag = this.tag(a)
        if (b % 3 === 0) this.emit(this.with({ type: 'CUSTOM', name: 'progress', value: { n: c % 9 } }, { subagentRunId: tag }))
        else if (b % 3 === 1) this.emit(this.with({ type: 'RAW', event: { provider: 'x', n: c % 9 }, source: 'test' }, { subagentRunId: tag }))
        else {
          // State: one document per thread, whichever agent sends it.
          this.emit(this.with({ type: 'STATE_SNAPSHOT', snapshot: { n: c % 5, by: tag ?? 'parent' } }, { subagentRunId: tag }))
          this.emit(this.with({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: a % 7 }] }, { subagentRunId: tag }))
        }
        return
      }
    }
  }

  /** A MESSAGES_SNAPSHOT restating some held messages (same roles), leaving others out, adding new ones. */
  private messagesSnapshot(a: number, b: number, c: number) {
    const messages: Message[] = []
    const held = [...this.known]
    held.forEach(([id, known], i) => {
      if ((a >> (i % 16)) % 3 === 0) return
      messages.push(this.restate(id, known, b + i))
    })
    const added = c % 4
    for (let i = 0; i < added; i++) {
      const role = pick(['user', 'assistant', 'reasoning', 'activity', 'system'] as const, b + i)
      const id = this.id('snap')
      const known: Known =
        role === 'activity'
          ? { role, owner: undefined, content: { title: 'from server' }, activityType: pick(TYPES, c + i) }
          : { role, owner: undefined, ...(role === 'assistant' ? { calls: [] } : {}) }
      messages.push(this.restate(id, known, c + i))
      this.known.set(id, known)
    }
    const event: Record<string, unknown> = { type: 'MESSAGES_SNAPSHOT', messages }
    const declared = b % 6
    if (declared === 1) event.metadata = { '@ag-ui/client': { authoritativeActivityTypes: null } }
    if (declared === 2) event.metadata = { '@ag-ui/client': { authoritativeActivityTypes: [pick(TYPES, c)] } }
    if (declared === 3) event.metadata = { '@ag-ui/client': 'invalid' }
    this.emit(event as unknown as BaseEvent)
    // Held messages the snapshot left out are gone, or kept as client-only: never named again.
    const restated = new Set(messages.map((message) => message.id))
    for (const [id] of held) {
      if (restated.has(id)) continue
      this.known.delete(id)
    }
  }

  private restate(id: string, known: Known, n: number): Message {
    const extra: Record<string, unknown> = {}
    if (known.owner !== undefined) extra.subagentRunId = known.owner
    // Activity messages have no encryptedValue (@ag-ui/client strips fields a schema does not name).
    if (n % 7 === 3 && known.role !== 'activity') extra.encryptedValue = `snap-enc-${n % 5}`
    if (n % 9 === 4) extra.metadata = { from: 'snapshot' }
    switch (known.role) {
      case 'activity':
        return { id, role: 'activity', activityType: known.activityType!, content: structuredClone(known.content!), ...extra } as Message
      case 'tool':
        return { id, role: 'tool', toolCallId: known.toolCallId ?? 'unknown', content: `restated ${n % 4}`, ...extra } as Message
      case 'assistant': {
        const calls = (known.calls ?? []).map((callId) => ({
          id: callId,
          type: 'function' as const,
          function: { name: this.toolCalls.get(callId)?.name ?? 'search', arguments: '{}' },
        }))
        return {
          id,
          role: 'assistant',
          ...(n % 2 === 0 ? { content: `said ${n % 6}` } : {}),
          ...(calls.length > 0 ? { toolCalls: calls } : {}),
          ...extra,
        } as Message
      }
      default:
        return { id, role: known.role, content: `restated ${n % 4}`, ...extra } as Message
    }
  }
}

const intent = fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat())
const run = fc.record({ intents: fc.array(intent, { maxLength: 24 }), end: fc.nat() })

/** One conversation: 1–4 runs of intents. */
export const conversationArbitrary = fc.array(run, { minLength: 1, maxLength: 4 }).map((runs) => {
  const builder = new ConversationBuilder()
  return runs.map(({ intents, end }) => builder.run(intents, end))
})
