import type { AgentSnapshot, ReadableAgentStore } from '@agent-state/core'
import { type Input, type Model, storeInternals } from '@agent-state/core/internals'
import { diffJson, type JsonPatchOperation } from './json-diff'
import { type RecordedEntry, writeRecording } from './recording'

export type { RecordedEntry } from './recording'

/** What a recorder holds: the kept entries, how many were dropped, and where a jump put the store. */
export interface RecorderState<S = unknown> {
  /** The kept entries, oldest first. */
  readonly entries: readonly RecordedEntry<S>[]
  /** Entries dropped from the front to stay within `limit`. */
  readonly dropped: number
  /** Most entries kept (`RecorderOptions.limit`). */
  readonly limit: number
  /** The model before the first kept entry: where an exported recording starts. */
  readonly start: Model<S>
  /** The entry `jumpTo` put the store at; undefined while the store is at the latest entry. */
  readonly current: number | undefined
}

/** The JSON Patch from the snapshot before an entry to the one after it, per part of the snapshot. */
export interface EntryDiff {
  readonly state: JsonPatchOperation[]
  readonly committed: JsonPatchOperation[]
  readonly messages: JsonPatchOperation[]
  readonly confirmations: JsonPatchOperation[]
  readonly predictions: JsonPatchOperation[]
  /** Everything else in the snapshot (status, steps, runId, error, subagents, run), from its root. */
  readonly other: JsonPatchOperation[]
}

/**
 * What `createRecorder` returns: the inputs the store processed, with their diffs, time travel and
 * the export. It has a store's read methods (`getState`, `getInitialState`, `subscribe`), so a UI
 * subscribes to it as to any external store; the bindings' `useAgentStore` takes agent snapshots only.
 */
export interface Recorder<S = unknown> {
  /** The current state: the same object until the store takes an input or a jump moves it. */
  getState(): RecorderState<S>
  /** The state when the recorder was attached: no entries, and the store's model then as `start`. */
  getInitialState(): RecorderState<S>
  /** Listeners are told once per batch of inputs (a microtask), never once per token. */
  subscribe(listener: (state: RecorderState<S>, previous: RecorderState<S>) => void): () => void
  /** Computed when asked, never while the store streams. */
  diff(index: number): EntryDiff
  /** The entry at `index`; undefined for an index the recorder does not hold (dropped, or not recorded). */
  entry(index: number): RecordedEntry<S> | undefined
  /** JSON Lines: a header (package versions, plain-data options, the start model), then one input per line. */
  exportRecording(): string
  /**
   * Puts the store at its model after entry `index` (`first index - 1`: the start), cutting the
   * connection of a request in flight. A moment inside a run shows as it was, its request still open:
   * `abort()` ends the run as it would have ended then. The entries after it stay until the store
   * takes a new input, which replaces them.
   */
  jumpTo(index: number): void
  /** Detaches the recorder from the store and drops its listeners; the store goes on without it. */
  dispose(): void
}

/** `createRecorder`'s options. */
export interface RecorderOptions {
  /** Most entries kept (default 5,000); older ones are dropped and counted. */
  limit?: number
}

/** Entries a recorder keeps when given no `limit`. */
export const DEFAULT_LIMIT = 5000

const snapshotParts = ['state', 'committed', 'messages', 'confirmations', 'predictions'] as const

/**
 * Attaches a recorder to the store: from now on every input the store processes is kept with the
 * model it left, up to `limit` entries. Throws a RangeError for a `limit` that is not a whole number
 * of at least 1.
 */
export function createRecorder<S = unknown>(store: ReadableAgentStore<S>, { limit = DEFAULT_LIMIT }: RecorderOptions = {}): Recorder<S> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a whole number of at least 1, got ${limit}`)
  const internals = storeInternals<S>(store)
  // Rings of `limit` slots (entry i in slot i % limit), filled as they come: recording a token
  // stores three values and allocates nothing. Entry objects are made when read, and kept.
  const models: Model<S>[] = []
  const inputs: Input<S>[] = []
  const times: number[] = []
  const made: (RecordedEntry<S> | undefined)[] = []
  const detachedAt = new Set<number>()
  let first = 0
  let nextIndex = 0
  let dropped = 0
  let start = internals.model()
  let current: number | undefined
  let jumping = false
  /** The jump put the store at a model whose request has no connection. */
  let detached = false
  let listeners: readonly ((state: RecorderState<S>, previous: RecorderState<S>) => void)[] = []
  const initial: RecorderState<S> = { entries: [], dropped: 0, limit, start, current: undefined }
  let published = initial
  let cached: RecorderState<S> | undefined = initial
  let scheduled = false

  const unobserve = internals.observe((input, before, after) => {
    // Attached by a listener while the store published this input: the start already holds it.
    if (jumping || (after === start && before !== start)) return
    if (current !== undefined) truncateAfter(current)
    const index = nextIndex++
    const slot = index % limit
    if (index - first === limit) {
      // The oldest entry's slot: its model is where the kept history now starts.
      start = models[slot]!
      detachedAt.delete(first)
      first++
      dropped++
    }
    models[slot] = after
    inputs[slot] = input
    times[slot] = Date.now()
    made[slot] = undefined
    if (detached) {
      detached = false
      detachedAt.add(index)
    }
    changed()
  })

  /** A new input after a jump: the entries after that point are another history now. */
  function truncateAfter(index: number) {
    for (let gone = index + 1; gone < nextIndex; gone++) {
      const slot = gone % limit
      models[slot] = undefined as never
      inputs[slot] = undefined as never
      made[slot] = undefined
      detachedAt.delete(gone)
    }
    nextIndex = index + 1
    current = undefined
  }

  function changed() {
    cached = undefined
    if (scheduled || listeners.length === 0) return
    scheduled = true
    queueMicrotask(notify)
  }

  function notify() {
    scheduled = false
    const state = getState()
    if (state === published) return
    const previous = published
    published = state
    for (const listener of listeners) listener(state, previous)
  }

  function getState(): RecorderState<S> {
    cached ??= { entries: range(first, nextIndex), dropped, limit, start, current }
    return cached
  }

  function at(index: number): RecordedEntry<S> {
    const slot = index % limit
    const found = made[slot]
    if (found) return found
    const model = models[slot]!
    const entry: RecordedEntry<S> = detachedAt.has(index)
      ? { index, input: inputs[slot]!, time: times[slot]!, model, snapshot: model.snapshot, detached: true }
      : { index, input: inputs[slot]!, time: times[slot]!, model, snapshot: model.snapshot }
    made[slot] = entry
    return entry
  }

  function range(from: number, to: number): RecordedEntry<S>[] {
    const entries = new Array<RecordedEntry<S>>(to - from)
    for (let index = from; index < to; index++) entries[index - from] = at(index)
    return entries
  }

  function entry(index: number) {
    return Number.isInteger(index) && index >= first && index < nextIndex ? at(index) : undefined
  }

  /** The entries an export holds: up to the jumped-to one after a jump. */
  function recorded(): readonly RecordedEntry<S>[] {
    return range(first, current === undefined ? nextIndex : current + 1)
  }

  return {
    getState,
    getInitialState: () => initial,
    subscribe(listener) {
      // The first listener starts from now; a later one must not hide a batch the others are waiting for.
      if (listeners.length === 0) published = getState()
      listeners = [...listeners, listener]
      return () => {
        listeners = listeners.filter((other) => other !== listener)
      }
    },
    entry,
    diff(index) {
      const found = entry(index)
      if (!found) throw new RangeError(`No entry ${index}: the recorder holds ${first}…${nextIndex - 1}`)
      const before = index === first ? start.snapshot : at(index - 1).snapshot
      return diffSnapshots(before, found.snapshot)
    },
    exportRecording: () => writeRecording(internals.options, store, start, recorded(), dropped),
    jumpTo(index) {
      const target = index === first - 1 ? start : entry(index)?.model
      if (!target) throw new RangeError(`No entry ${index} to jump to: the recorder holds ${first}…${nextIndex - 1}`)
      // The abort that cancels a request in flight belongs to the jump, not to the history.
      jumping = true
      try {
        internals.replace(target)
      } finally {
        jumping = false
      }
      current = index
      detached = target.request !== undefined
      changed()
    },
    dispose() {
      unobserve()
      listeners = []
    },
  }
}

/** The diff of two snapshots, part by part. */
export function diffSnapshots<S>(before: AgentSnapshot<S>, after: AgentSnapshot<S>): EntryDiff {
  const other = diffJson(restOf(before), restOf(after))
  const [state, committed, messages, confirmations, predictions] = snapshotParts.map((part) => diffJson(before[part], after[part])) as [
    JsonPatchOperation[],
    JsonPatchOperation[],
    JsonPatchOperation[],
    JsonPatchOperation[],
    JsonPatchOperation[],
  ]
  return { state, committed, messages, confirmations, predictions, other }
}

function restOf(snapshot: AgentSnapshot<unknown>): Record<string, unknown> {
  const { state: _s, committed: _c, messages: _m, confirmations: _f, predictions: _p, ...rest } = snapshot
  return rest
}
