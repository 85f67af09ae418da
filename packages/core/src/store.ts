import { type BaseEvent, type Event, EventType, type Message, type ResumeEntry, type RunAgentInput } from '@ag-ui/core'
import { diffState, type EditOperation, replayEdits } from './edits'
import { AgentStoreError } from './errors'
import { createId } from './ids'
import { createPartialJsonReader } from './partial-json'
import { checkEvent, reduceEvent } from './reduce'
import { expandChunk } from './reduce/chunks'
import { type Answer, collectConfirmations, parseOnInterrupt, toWire, type WireAnswer } from './reduce/confirmations'
import {
  deriveCommitted,
  derivePredictions,
  mappedKeys,
  type Pending,
  type PendingKey,
  parsePredictState,
  type RunContext,
  valueAt,
  withKey,
} from './reduce/drafts'
import { acceptState, applyDelta, checkState, defaultLimits, type StateRules, toValidator } from './reduce/state'
import { connectRun, type RunConnection } from './run'
import { blankSnapshot, copySnapshot, type Mutable } from './snapshot'
import type { AgentSnapshot, AgentStore, AgentStoreOptions, Confirmation, Listener, RunOptions, StateUpdate } from './types'

const noSteps: readonly string[] = Object.freeze([])
const noPending: Pending = new Map()

interface ActiveRun {
  connection: RunConnection | undefined
  /** Set once RUN_FINISHED or RUN_ERROR arrived: a stream that ends without one was cut short. */
  ended: boolean
  resolve: () => void
}

/** Everything an event may change, swapped in whole once the event has applied without error. */
interface Model<S> {
  snapshot: AgentSnapshot<S>
  /** The state as the server sees it, with drafts from tool arguments written in. */
  server: S
  /** The user's edits during the run in progress, replayed on top of `server` after every event. */
  edits: readonly EditOperation[]
  pending: Pending
}

interface ResumeParts {
  resume?: ResumeEntry[]
  forwardedProps?: unknown
}

export function createAgentStore<TState>(options: AgentStoreOptions<TState>): AgentStore<TState> {
  const rules: StateRules<TState> = {
    limits: { ...defaultLimits, ...options.limits },
    validate: toValidator(options.validate),
  }
  const confirmTools = new Set(options.confirmTools ?? ['confirm_changes'])
  let threadId = options.threadId ?? options.agent?.threadId ?? createId()
  const blank = (state: TState): AgentSnapshot<TState> => blankSnapshot(threadId, state)
  // A bad initialState is a programming error: it throws here rather than becoming a store error.
  const initialState = acceptState(undefined as TState, options.initialState, rules, 'initialState')
  checkState(initialState, rules)
  const initial = blank(initialState)
  let model: Model<TState> = { snapshot: initial, server: initialState, edits: [], pending: noPending }
  let run: RunContext | undefined
  let active: ActiveRun | undefined
  /** Answers given so far; the resumed run sends them together once the last confirmation is answered. */
  let answers: WireAnswer[] = []
  // Copied on subscribe and unsubscribe, never per notification: a notification costs no allocation.
  let listeners: readonly { listener: Listener<TState>; active: boolean }[] = []
  const eventListeners = new Set<(event: BaseEvent, snapshot: AgentSnapshot<TState>) => void>()

  // Not zustand's setState: its notification loop stops at the first listener that throws.
  let notifying = false
  function commit(next: Model<TState>) {
    const previous = model.snapshot
    model = next
    if (next.snapshot === previous || notifying) return
    // A commit made by a listener is published after this round, so every listener sees the
    // snapshots in order and ends on the latest one.
    notifying = true
    try {
      for (let from = previous; from !== model.snapshot; ) {
        const to = model.snapshot
        // This round's listeners: one subscribed during it waits for the next change (subscribing
        // replaces the array); one removed during it is not called.
        for (const entry of listeners) {
          if (!entry.active) continue
          try {
            entry.listener(to, from)
          } catch (error) {
            report(new AgentStoreError('LISTENER', `A store listener threw: ${messageOf(error)}`, { cause: error }))
          }
        }
        from = to
      }
    } finally {
      notifying = false
    }
  }

  function report(error: AgentStoreError) {
    try {
      options.onError?.(error)
    } catch {
      // An onError that throws must not break the store either.
    }
  }

  function fail(error: AgentStoreError, patch: Partial<AgentSnapshot<TState>> = {}) {
    report(error)
    commit({ ...model, snapshot: { ...model.snapshot, ...patch, error } })
  }

  function newRun(runId: string | undefined): RunContext {
    const toolCallsBefore = new Set<string>()
    for (const message of model.snapshot.messages) {
      if (message.role === 'assistant') for (const call of message.toolCalls ?? []) toolCallsBefore.add(call.id)
    }
    return { runId, mappings: [...(options.predict ?? [])], toolCallsBefore, onInterrupts: [], userKeys: new Set(), readers: new Map() }
  }

  /**
   * Derives `state`, `committed` and `predictions` from the model's parts and checks the result.
   * Throws (changing nothing) when the committed state fails the user's validator.
   */
  function settle(next: Model<TState>, snapshot: AgentSnapshot<TState>, conflicts?: AgentStoreError[], onlyDrafts = false): Model<TState> {
    let { server, edits } = next
    let view = server
    if (edits.length > 0 && server === model.server && edits === model.edits) view = model.snapshot.state
    else if (edits.length > 0) {
      // Only when the server state or the edits changed: a text token must not rebuild the state.
      const replayed = replayEdits(server, edits)
      view = replayed.state
      edits = replayed.kept
      if (replayed.conflicts.length > 0) conflicts = [...(conflicts ?? []), ...replayed.conflicts]
    }
    const previous = model.snapshot
    // A chunk of tool arguments changes only drafted keys, which committed holds at their baselines.
    const committed = onlyDrafts ? previous.committed : deriveCommitted(view, next.pending, previous.committed)
    if (committed !== previous.committed) checkState(committed, rules)
    const predictions = derivePredictions(view, next.pending, previous.predictions)
    let result = snapshot
    if (view !== snapshot.state || committed !== snapshot.committed || predictions !== snapshot.predictions) {
      // Made by this event's reducer and not published yet: completed in place, not copied again.
      const fresh = snapshot === previous ? copySnapshot(snapshot) : (snapshot as Mutable<AgentSnapshot<TState>>)
      fresh.state = view
      fresh.committed = committed
      fresh.predictions = predictions
      result = fresh
    }
    if (conflicts && conflicts.length > 0) {
      for (const conflict of conflicts) report(conflict)
      result = { ...result, error: conflicts[conflicts.length - 1] }
    }
    if (next === model) return { snapshot: result, server, edits, pending: next.pending }
    // Built for this change and not yet the store's model: filled in, not copied again.
    const owned = next as Mutable<Model<TState>>
    owned.snapshot = result
    owned.server = server
    owned.edits = edits
    return owned
  }

  /** A key mapped in this run changed: it becomes a draft, its committed value held at the one before. */
  function markPending(pending: Pending, key: string, patch: Partial<PendingKey>): Pending {
    const existing = pending.get(key)
    // Every chunk of a streaming call marks its key again: nothing new, nothing copied.
    if (existing && unchanged(existing, patch)) return pending
    const entry: PendingKey = existing
      ? { ...existing, ...patch }
      : {
          baseline: valueAt(model.snapshot.committed, key),
          runId: run?.runId,
          toolCallId: undefined,
          tool: undefined,
          toolArgument: undefined,
          complete: false,
          ...patch,
        }
    const next = new Map(pending)
    next.set(key, entry)
    return next
  }

  /** Drafts the server changed on its own under a mapping (STATE_DELTA / STATE_SNAPSHOT). */
  function trackServerChanges(before: TState, after: TState, pending: Pending): Pending {
    if (before === after || !run || run.mappings.length === 0) return pending
    for (const key of mappedKeys(run)) {
      if (run.userKeys.has(key) || valueAt(before, key) === valueAt(after, key)) continue
      const writer = [...run.readers].reverse().find(([, entry]) => run!.mappings.some((m) => m.tool === entry.tool && m.stateKey === key))
      pending = markPending(pending, key, writer ? { toolCallId: writer[0], tool: writer[1].tool } : {})
    }
    return pending
  }

  /** The arguments of a mapped tool call grew: write each mapped argument's partial value into its key. */
  function draftFromArguments(toolCallId: string, delta: string | undefined, next: Model<TState>): Model<TState> {
    const entry = run?.readers.get(toolCallId)
    if (!run || !entry) return next
    const changed = delta === undefined ? entry.reader.end() : entry.reader.push(delta)
    const complete = delta === undefined
    let { server, pending } = next
    if (delta !== undefined) entry.length += delta.length
    // The draft's depth and size, bounded without walking it: the reader knows how deep it went,
    // and a partial value is never larger than the argument text it came from.
    const { maxDepth, maxStateBytes } = rules.limits
    if (entry.reader.depth + 1 > maxDepth || entry.length > maxStateBytes) {
      run.readers.delete(toolCallId)
      const limit = entry.length > maxStateBytes ? 'maxStateBytes' : 'maxDepth'
      report(
        new AgentStoreError('LIMIT_EXCEEDED', `The arguments of tool call ${toolCallId} exceed ${limit}: its draft stops at the last value within the limits`, {
          limit,
        }),
      )
      return next
    }
    for (const mapping of run.mappings) {
      if (mapping.tool !== entry.tool || run.userKeys.has(mapping.stateKey)) continue
      const value = entry.reader.argument(mapping.toolArgument)
      if (changed && value !== undefined) server = withKey(server, mapping.stateKey, value)
      const held = pending.get(mapping.stateKey)
      const written = changed && value !== undefined
      // Most chunks change only the value: the pending entry stays as it is.
      const same = held && held.toolCallId === toolCallId && held.complete === complete && held.toolArgument === mapping.toolArgument
      if (!same && (written || (complete && held?.toolCallId === toolCallId))) {
        pending = markPending(pending, mapping.stateKey, { toolCallId, tool: entry.tool, toolArgument: mapping.toolArgument, complete })
      }
    }
    if (complete) run.readers.delete(toolCallId)
    return server === next.server && pending === next.pending ? next : { snapshot: next.snapshot, server, edits: next.edits, pending }
  }

  /** Restores the baseline of the given draft keys: reject, cancel, a failed or aborted run. */
  function discard(next: Model<TState>, keys: Iterable<string>): Model<TState> {
    let { server } = next
    const pending = new Map(next.pending)
    for (const key of keys) {
      const entry = pending.get(key)
      if (!entry) continue
      server = withKey(server, key, entry.baseline)
      pending.delete(key)
    }
    return { ...next, server, pending }
  }

  /** Makes the given draft keys committed: approve, respond, or a run that ended with nothing to confirm. */
  function keep(next: Model<TState>, keys: Iterable<string>, values: Map<string, unknown> = new Map()): Model<TState> {
    let { server } = next
    const pending = new Map(next.pending)
    for (const key of keys) {
      if (values.has(key)) server = withKey(server, key, values.get(key))
      pending.delete(key)
    }
    return { ...next, server, pending }
  }

  /**
   * Commits the drafts of the given keys when a run ends. Drafts are not validated while they
   * stream; a committed state is: drafts the validator refuses are discarded instead, and said so.
   */
  function commitDrafts(next: Model<TState>, snapshot: AgentSnapshot<TState>, keys: string[]) {
    const kept = keep(next, keys)
    if (!rules.validate || keys.length === 0) return { next: kept, snapshot }
    try {
      const view = kept.edits.length > 0 ? replayEdits(kept.server, kept.edits).state : kept.server
      checkState(deriveCommitted(view, kept.pending, model.snapshot.committed), rules)
      return { next: kept, snapshot }
    } catch (error) {
      const refused = error instanceof AgentStoreError ? error : new AgentStoreError('VALIDATION', messageOf(error), { cause: error })
      report(refused)
      return { next: discard(next, keys), snapshot: { ...snapshot, error: refused } }
    }
  }

  const runKeys = (pending: Pending, runId: string | undefined, except: ReadonlySet<string> = new Set()) =>
    [...pending].filter(([key, entry]) => entry.runId === runId && !except.has(key)).map(([key]) => key)

  /** The end of a run: edits fold into the server state, drafts are committed, held or discarded. */
  function endOfRun(next: Model<TState>, snapshot: AgentSnapshot<TState>, event: Event | undefined, failed: boolean) {
    // A recording fed to apply() may end a run it never started: its interrupts still count.
    const ending = run ?? (event ? newRun(undefined) : undefined)
    run = undefined
    // Edits survive the run: they become part of the state the next run starts from.
    if (next.edits.length > 0) {
      const replayed = replayEdits(next.server, next.edits)
      next = { ...next, server: replayed.state, edits: [] }
    }
    const runId = ending?.runId
    if (!ending) return { next, snapshot }
    if (failed) {
      return options.keepDraftsOnError
        ? commitDrafts(next, snapshot, runKeys(next.pending, runId))
        : { next: discard(next, runKeys(next.pending, runId)), snapshot }
    }
    const finished = event?.type === EventType.RUN_FINISHED ? event : undefined
    if (finished?.outcome?.type === 'cancelled') return { next: discard(next, runKeys(next.pending, runId)), snapshot }
    const confirmations = finished && ending ? collectConfirmations(finished, ending, snapshot.messages, confirmTools, next.pending) : []
    const held = new Set(confirmations.flatMap((c) => c.stateKeys))
    ;({ next, snapshot } = commitDrafts(next, snapshot, runKeys(next.pending, runId, held)))
    const open = [...snapshot.confirmations, ...confirmations]
    snapshot = { ...snapshot, confirmations: open, status: open.length > 0 ? 'interrupted' : snapshot.status }
    return { next, snapshot }
  }

  /** One event from anywhere: validated, applied, published; on error nothing of it is applied. */
  function receive(raw: unknown) {
    let event: Event | undefined
    // A rejected event leaves everything as it was, the run's context included.
    const runBefore = run
    try {
      event = checkEvent(raw)
      if (event === undefined) return
      if (event.type === EventType.TEXT_MESSAGE_CHUNK || event.type === EventType.TOOL_CALL_CHUNK) {
        for (const expanded of expandChunk(model.snapshot, event)) receive(expanded)
        return
      }
      let snapshot = reduceEvent(model.snapshot, event)
      let next: Model<TState> = model
      let onlyDrafts = false
      switch (event.type) {
        case EventType.RUN_STARTED:
          if (run?.runId === undefined && run) run.runId = event.runId
          else run = newRun(event.runId)
          break
        case EventType.STATE_SNAPSHOT:
        case EventType.STATE_DELTA: {
          const server =
            event.type === EventType.STATE_SNAPSHOT
              ? acceptState(next.server, event.snapshot, rules, 'STATE_SNAPSHOT')
              : applyDelta(next.server, event.delta, rules)
          next = { snapshot: next.snapshot, server, edits: next.edits, pending: trackServerChanges(next.server, server, next.pending) }
          break
        }
        case EventType.CUSTOM:
          if (event.name === 'PredictState') (run ??= newRun(undefined)).mappings.push(...parsePredictState(event.value))
          else if (event.name === 'on_interrupt') (run ??= newRun(undefined)).onInterrupts.push(parseOnInterrupt(event.value))
          break
        case EventType.TOOL_CALL_START: {
          const { toolCallId, toolCallName } = event
          if (run?.mappings.some((mapping) => mapping.tool === toolCallName)) {
            run.readers.set(toolCallId, { tool: toolCallName, reader: createPartialJsonReader(), length: 0 })
          }
          break
        }
        case EventType.TOOL_CALL_ARGS:
          next = draftFromArguments(event.toolCallId, event.delta, next)
          onlyDrafts = true
          break
        case EventType.TOOL_CALL_END:
          next = draftFromArguments(event.toolCallId, undefined, next)
          onlyDrafts = true
          break
        case EventType.RUN_FINISHED:
        case EventType.RUN_ERROR:
          ;({ next, snapshot } = endOfRun(next, snapshot, event, event.type === EventType.RUN_ERROR))
          break
      }
      commit(settle(next, snapshot, undefined, onlyDrafts))
      if (event.type === EventType.RUN_ERROR && model.snapshot.error) report(model.snapshot.error)
    } catch (error) {
      run = runBefore
      fail(error instanceof AgentStoreError ? error : new AgentStoreError('INVALID_EVENT', messageOf(error), { cause: error }))
      return
    }
    if (eventListeners.size === 0) return
    for (const listener of eventListeners) {
      try {
        listener(event, model.snapshot)
      } catch (error) {
        report(new AgentStoreError('LISTENER', `An event listener threw: ${messageOf(error)}`, { cause: error }))
      }
    }
  }

  /** A run that stopped without RUN_FINISHED: transport error, truncated stream, or abort(). */
  function stopRun(error: AgentStoreError | undefined) {
    const { next, snapshot } = endOfRun(model, { ...model.snapshot, status: error ? 'error' : 'idle', steps: noSteps }, undefined, true)
    const settled = settle(next, error ? { ...snapshot, error } : snapshot)
    if (error) report(error)
    commit(settled)
  }

  function endRun(stream: ActiveRun, error: AgentStoreError | undefined) {
    if (active !== stream) return
    active = undefined
    if (error) stopRun(error)
    else if (!stream.ended) stopRun(new AgentStoreError('TRANSPORT', 'The stream ended before RUN_FINISHED or RUN_ERROR'))
    stream.resolve()
  }

  function toMessages(runOptions: RunOptions): Message[] {
    const added = [...(runOptions.messages ?? [])]
    const { message } = runOptions
    if (typeof message === 'string') added.push({ id: createId(), role: 'user', content: message })
    else if (message) added.push(message)
    return added
  }

  function startRun(runOptions: RunOptions, resume: ResumeParts): Promise<void> {
    const { agent } = options
    if (!agent) return Promise.reject(new AgentStoreError('NO_AGENT', 'run() needs an agent: pass one to createAgentStore({ agent })'))
    const added = toMessages(runOptions)
    const runId = createId()
    const { snapshot } = model
    const messages = added.length > 0 ? [...snapshot.messages, ...added] : snapshot.messages
    run = newRun(undefined)
    // The server takes the state it is sent as the truth: that is where its deltas start from.
    commit({ ...model, server: snapshot.committed, edits: [], snapshot: { ...snapshot, messages, status: 'running', runId, steps: noSteps, error: undefined } })
    const input: RunAgentInput = {
      threadId,
      runId,
      state: model.snapshot.committed,
      messages: model.snapshot.messages.slice(),
      tools: runOptions.tools ?? [],
      context: runOptions.context ?? [],
      forwardedProps: resume.forwardedProps ?? runOptions.forwardedProps ?? {},
      ...(resume.resume ? { resume: resume.resume } : {}),
    }
    return new Promise<void>((resolve) => {
      const stream: ActiveRun = { connection: undefined, ended: false, resolve }
      active = stream
      stream.connection = connectRun(
        agent,
        input,
        {
          event(event) {
            if (active !== stream) return
            if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) stream.ended = true
            receive(event)
          },
          end: (error) => endRun(stream, error),
        },
        { maxEventBytes: rules.limits.maxEventBytes, timeoutMs: runOptions.timeoutMs ?? options.timeoutMs },
      )
    })
  }

  function find(id: string | undefined): Confirmation {
    const open = model.snapshot.confirmations
    if (id === undefined) {
      if (open.length === 1) return open[0]!
      throw new AgentStoreError(
        'NO_CONFIRMATION',
        open.length === 0 ? 'There is no open confirmation to answer' : `${open.length} confirmations are open: pass the id of the one to answer`,
      )
    }
    const found = open.find((confirmation) => confirmation.id === id)
    if (!found) throw new AgentStoreError('NO_CONFIRMATION', `No open confirmation has the id "${id}"`)
    return found
  }

  /** Edits keyed like the tool's arguments, as values for the state keys those arguments are mapped to. */
  function editedValues(keys: readonly string[], edits: Record<string, unknown> | undefined): Map<string, unknown> {
    const values = new Map<string, unknown>()
    if (!edits) return values
    const { state } = model.snapshot
    for (const key of keys) {
      const entry = model.pending.get(key)
      if (!entry) continue
      const argument = entry.toolArgument
      if (argument === undefined || argument === '*') {
        const current = valueAt(state, key)
        values.set(key, { ...(typeof current === 'object' && current !== null ? current : {}), ...edits })
      } else if (Object.hasOwn(edits, argument)) values.set(key, edits[argument])
    }
    return values
  }

  function answer(id: string | undefined, given: Answer): Promise<void> {
    try {
      if (active) throw new AgentStoreError('RUN_ACTIVE', 'A run is active: confirmations are answered once it has ended')
      const confirmation = find(id)
      if (given.kind !== 'cancel' && confirmation.expiresAt !== undefined && Date.parse(confirmation.expiresAt) <= Date.now()) {
        throw new AgentStoreError('EXPIRED', `The confirmation "${confirmation.id}" expired at ${confirmation.expiresAt}: it can only be cancelled`)
      }
      const keys = confirmation.stateKeys.filter((key) => model.pending.has(key))
      const accepted = given.kind === 'approve' || given.kind === 'respond'
      let next = accepted ? keep(model, keys, editedValues(keys, given.kind === 'approve' ? given.edits : undefined)) : discard(model, keys)
      const confirmations = model.snapshot.confirmations.filter((c) => c !== confirmation)
      const snapshot = { ...model.snapshot, confirmations, status: confirmations.length > 0 ? ('interrupted' as const) : ('idle' as const), error: undefined }
      next = settle(next, snapshot)
      answers.push(toWire(confirmation, given))
      commit(next)
    } catch (error) {
      return Promise.reject(error)
    }
    if (model.snapshot.confirmations.length > 0 || !options.agent) {
      if (model.snapshot.confirmations.length === 0) answers = []
      return Promise.resolve()
    }
    // The last one is answered: the thread goes on with every answer in one input.
    const wires = answers
    answers = []
    const resume = wires.flatMap((wire) => (wire.resume ? [wire.resume] : []))
    const commands = wires.filter((wire) => 'command' in wire)
    return startRun(
      { messages: wires.flatMap((wire) => (wire.message ? [wire.message] : [])) },
      {
        ...(resume.length > 0 ? { resume } : {}),
        ...(commands.length > 0 ? { forwardedProps: { command: { resume: commands[commands.length - 1]!.command } } } : {}),
      },
    )
  }

  const store: AgentStore<TState> = {
    getState: () => model.snapshot,
    getInitialState: () => initial,
    subscribe(listener) {
      const entry = { listener, active: true }
      listeners = [...listeners, entry]
      return () => {
        if (!entry.active) return
        entry.active = false
        listeners = listeners.filter((other) => other !== entry)
      }
    },
    onEvent(listener) {
      eventListeners.add(listener)
      return () => {
        eventListeners.delete(listener)
      }
    },

    apply(events) {
      const list = Array.isArray(events) ? events : [events]
      for (const event of list) receive(event)
    },

    run(runOptions = {}) {
      if (active) return Promise.reject(new AgentStoreError('RUN_ACTIVE', 'A run is already active on this store: await it or abort() it first'))
      if (model.snapshot.confirmations.length > 0) {
        return Promise.reject(
          new AgentStoreError('PENDING_CONFIRMATION', 'Confirmations are open: answer them with approve(), reject(), respond() or cancel() first'),
        )
      }
      return startRun(runOptions, {})
    },

    setState(update: StateUpdate<TState>) {
      const { snapshot } = model
      try {
        const next = typeof update === 'function' ? (update as (previous: TState) => TState)(snapshot.state) : update
        const state = acceptState(snapshot.state, next, rules, 'setState')
        if (state === snapshot.state) return
        const { ops, keys } = diffState(snapshot.state, state)
        // The user wins: an edited key is no longer a draft, in this run or awaiting confirmation.
        const touched = new Set(keys.includes('*') ? [...model.pending.keys()] : keys)
        const pending = new Map([...model.pending].filter(([key]) => !touched.has(key)))
        const streaming = run !== undefined && snapshot.status === 'running'
        if (streaming) for (const key of touched) run!.userKeys.add(key)
        const draft: Model<TState> = streaming ? { ...model, edits: [...model.edits, ...ops], pending } : { ...model, server: state, pending }
        commit(settle(draft, snapshot))
      } catch (error) {
        fail(error instanceof AgentStoreError ? error : new AgentStoreError('VALIDATION', messageOf(error), { cause: error }))
      }
    },

    approve: (id, edits) => answer(id, { kind: 'approve', edits }),
    reject: (id, reason) => answer(id, { kind: 'reject', reason }),
    respond: (id, payload) => answer(id, { kind: 'respond', payload }),
    cancel: (id) => answer(id, { kind: 'cancel' }),

    abort() {
      const stream = active
      if (!stream) return
      active = undefined
      stream.connection?.cancel()
      stopRun(undefined)
      stream.resolve()
    },

    reset(state?: TState, resetOptions?: { newThread?: boolean }) {
      store.abort()
      run = undefined
      answers = []
      // A new conversation on the server too: the agent gets a thread id it has never seen.
      if (resetOptions?.newThread) threadId = createId()
      const fresh = state === undefined && threadId === initial.threadId
      const snapshot = fresh ? initial : blank(state === undefined ? initial.state : acceptState(model.snapshot.committed, state, rules, 'reset'))
      if (state !== undefined) checkState(snapshot.state, rules)
      commit({ snapshot, server: snapshot.state, edits: [], pending: noPending })
    },
  }
  return store
}

function unchanged(entry: PendingKey, patch: Partial<PendingKey>): boolean {
  for (const field in patch) if (entry[field as keyof PendingKey] !== patch[field as keyof PendingKey]) return false
  return true
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
