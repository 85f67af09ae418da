import type { AgentSnapshot } from '@agent-state/core'
import { type Input, type Model, storeInternals } from '@agent-state/core/internals'
import { diffJson, type JsonPatchOperation } from './json-diff'
import { writeRecording } from './recording'

/** One input the store processed, and where it left the store. */
export interface RecordedEntry<S = unknown> {
  /** Counts every input since the recorder was attached, dropped ones included. */
  readonly index: number
  readonly input: Input<S>
  /** `Date.now()` when the store processed it. */
  readonly time: number
  /** The model after it: what `jumpTo` puts back. Shares every unchanged part with its neighbours. */
  readonly model: Model<S>
  /** `model.snapshot`: what listeners saw after it. */
  readonly snapshot: AgentSnapshot<S>
  /** A jump just before it let go of the request the model had: a replay lets go of it too. */
  readonly detached?: true
}

export interface RecorderState<S = unknown> {
  /** The kept entries, oldest first. */
  readonly entries: readonly RecordedEntry<S>[]
  /** Entries dropped from the front to stay within `limit`. */
  readonly dropped: number
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

export interface Recorder<S = unknown> {
  /** The read contract of every binding: `useAgentStore(recorder)` works on it. */
  getState(): RecorderState<S>
  getInitialState(): RecorderState<S>
  /** Listeners are told once per batch of inputs (a microtask), never once per token. */
  subscribe(listener: (state: RecorderState<S>, previous: RecorderState<S>) => void): () => void
  /** Computed when asked, never while the store streams. */
  diff(index: number): EntryDiff
  entry(index: number): RecordedEntry<S> | undefined
  /** JSON Lines: a header (package versions, plain-data options, the start model), then one input per line. */
  exportRecording(): string
  /**
   * Puts the store at its model after entry `index` (`first index - 1`: the start), cancelling a
   * request in flight. The entries after it stay until the store takes a new input, which replaces them.
   */
  jumpTo(index: number): void
  dispose(): void
}

export interface RecorderOptions {
  /** Most entries kept (default 5,000); older ones are dropped and counted. */
  limit?: number
}

export const DEFAULT_LIMIT = 5000

const snapshotParts = ['state', 'committed', 'messages', 'confirmations', 'predictions'] as const

export function createRecorder<S = unknown>(store: object, { limit = DEFAULT_LIMIT }: RecorderOptions = {}): Recorder<S> {
  if (!(limit >= 1)) throw new RangeError(`limit must be at least 1, got ${limit}`)
  const internals = storeInternals<S>(store)
  // A plain array with a moving head, compacted now and then: recording a token costs one push.
  const items: RecordedEntry<S>[] = []
  let head = 0
  let nextIndex = 0
  let dropped = 0
  let start = internals.model()
  let current: number | undefined
  let jumping = false
  /** The jump put the store at a model whose request it cancelled. */
  let detached = false
  let listeners: readonly ((state: RecorderState<S>, previous: RecorderState<S>) => void)[] = []
  const initial: RecorderState<S> = { entries: [], dropped: 0, limit, start, current: undefined }
  let published = initial
  let cached: RecorderState<S> | undefined = initial
  let scheduled = false

  const firstIndex = () => nextIndex - (items.length - head)
  const at = (index: number) => items[head + index - firstIndex()]

  const unobserve = internals.observe((input, _before, after) => {
    if (jumping) return
    if (current !== undefined) {
      // A new input after a jump: the entries after that point are another history now.
      items.length = head + current - firstIndex() + 1
      nextIndex = current + 1
      current = undefined
    }
    const time = Date.now()
    if (detached) {
      detached = false
      items.push({ index: nextIndex++, input, time, model: after, snapshot: after.snapshot, detached: true })
    } else items.push({ index: nextIndex++, input, time, model: after, snapshot: after.snapshot })
    if (items.length - head > limit) {
      start = items[head]!.model
      head++
      dropped++
      if (head >= limit) {
        items.splice(0, head)
        head = 0
      }
    }
    changed()
  })

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
    cached ??= { entries: items.slice(head), dropped, limit, start, current }
    return cached
  }

  function entry(index: number) {
    return Number.isInteger(index) && index >= firstIndex() && index < nextIndex ? at(index) : undefined
  }

  /** The entries an export holds: up to the jumped-to one after a jump. */
  function recorded(): readonly RecordedEntry<S>[] {
    const end = current === undefined ? items.length : head + current - firstIndex() + 1
    return items.slice(head, end)
  }

  return {
    getState,
    getInitialState: () => initial,
    subscribe(listener) {
      listeners = [...listeners, listener]
      published = getState()
      return () => {
        listeners = listeners.filter((other) => other !== listener)
      }
    },
    entry,
    diff(index) {
      const found = entry(index)
      if (!found) throw new RangeError(`No entry ${index}: the recorder holds ${firstIndex()}…${nextIndex - 1}`)
      const before = index === firstIndex() ? start.snapshot : at(index - 1)!.snapshot
      return diffSnapshots(before, found.snapshot)
    },
    exportRecording: () => writeRecording(internals.options, store, start, recorded(), dropped),
    jumpTo(index) {
      const target = index === firstIndex() - 1 ? start : entry(index)?.model
      if (!target) throw new RangeError(`No entry ${index} to jump to: the recorder holds ${firstIndex()}…${nextIndex - 1}`)
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
