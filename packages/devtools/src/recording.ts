import { type AgentSnapshot, type AgentStore, AgentStoreError, type AgentStoreOptions, type ReadableAgentStore } from '@agent-state/core'
import { createStoreFrom, decodeModel, encodeModel, type Input, type Model, storeInternals } from '@agent-state/core/internals'

// A recording is JSON Lines: a header, then one line per input. Values go through the core's
// model encoding (undefined and errors tagged), so a replayed input is the recorded one.

/**
 * One input the store processed, and where it left the store: what a recorder keeps and a recording writes.
 * `input` and `model` are the core's own types (`@agent-state/core/internals`), not its public API: they
 * may change with any release of the core.
 */
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
  /** A jump just before it cut the connection of the request the model had (the request stays open until it ends, or abort() ends it). */
  readonly detached?: true
}

/** The `format` of a recording's header: `parseRecording` reads nothing else. */
export const RECORDING_FORMAT = 'agent-state-recording'
/** The version of the recording format this devtools writes and reads; `parseRecording` refuses any other. */
export const RECORDING_VERSION = 1
/** Kept equal to the package.json files by a test. */
export const DEVTOOLS_VERSION = '0.1.0'
/** The core this devtools release is built and tested against (the core has no runtime version). */
export const CORE_VERSION = '0.1.0'

/** The store options that are plain data; functions (`validate`, `onError`) and the agent are not recorded. */
export type RecordedOptions = Pick<AgentStoreOptions<unknown>, 'predict' | 'confirmTools' | 'arrayKeys' | 'limits' | 'keepFailedRunChanges' | 'timeoutMs'>

/** The first line of a recording: what it is, what wrote it, and the store it starts from. */
export interface RecordingHeader {
  readonly format: typeof RECORDING_FORMAT
  readonly version: typeof RECORDING_VERSION
  /** By package name: the devtools version that wrote it, and the core version that devtools is built against. */
  readonly packages: Readonly<Record<string, string>>
  /** The recorded store's options that are plain data: a replay's store is made with them. */
  readonly options: RecordedOptions
  /** The store's initial state and thread id: what `reset()` without a state returns to. */
  readonly initialState: unknown
  readonly threadId: string
  /** The store validated states: a replay needs the same `validate` to refuse the same events. */
  readonly validated: boolean
  /** Inputs dropped before the first one here (the recorder's limit). */
  readonly dropped: number
  /** The encoded model the recording starts from. */
  readonly model: unknown
}

/** A line of a recording after its header: one input, encoded, and when the store processed it. */
export interface RecordedLine {
  /** `Date.now()` when the store processed the input. */
  readonly time: number
  /** The input, encoded: `undefined` and errors tagged, so that it decodes to the recorded one. */
  readonly input: unknown
  /** As `RecordedEntry.detached`. */
  readonly detached?: true
}

/** A recording as `parseRecording` reads it: its header, the model it starts from, and its inputs, decoded. */
export interface Recording<S = unknown> {
  readonly header: RecordingHeader
  /** The model before the first input, decoded from the header. */
  readonly start: Model<S>
  readonly entries: readonly { time: number; input: Input<S>; detached?: true }[]
}

const THROWS = '$agent-state:throws'

export function writeRecording<S>(
  options: AgentStoreOptions<S>,
  store: object,
  start: Model<S>,
  entries: readonly RecordedEntry<S>[],
  dropped: number,
): string {
  const initial = (store as ReadableAgentStore<S>).getInitialState()
  const plain: Record<string, unknown> = {}
  for (const key of ['predict', 'confirmTools', 'arrayKeys', 'limits', 'timeoutMs'] as const) if (options[key] !== undefined) plain[key] = options[key]
  const keep = options.keepFailedRunChanges
  if (keep !== undefined) plain.keepFailedRunChanges = keep
  const header: RecordingHeader = {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    packages: { '@agent-state/core': CORE_VERSION, '@agent-state/devtools': DEVTOOLS_VERSION },
    options: plain as RecordedOptions,
    initialState: encode(initial.state),
    threadId: initial.threadId,
    validated: options.validate !== undefined,
    dropped,
    model: encode(start),
  }
  const lines = [JSON.stringify(header)]
  for (const entry of entries) {
    const line: RecordedLine = { time: entry.time, input: encodeInput(entry.input), ...(entry.detached ? { detached: true as const } : {}) }
    lines.push(JSON.stringify(line))
  }
  return `${lines.join('\n')}\n`
}

// Errors are tagged here, before the core's encoding sees them: it keeps an AgentStoreError's code
// and details but not its `cause` (often the transport's own error), which a replay must show too.
const ERROR = '$agent-state:devtools-error'
const MAX_DEPTH = 1024
// Deeper than any value the store keeps (its default limit is half as deep): only a refused input
// reaches it. It is cut there, so the export never recurses without bound, and replays refused still.
const CUT = '$agent-state:devtools-cut'

const encode = (value: unknown) => encodeModel(tagErrors(value, 0) as Model<unknown>)
const decode = (value: unknown) => untagErrors(decodeModel(value), 0)

function tagErrors(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (depth > MAX_DEPTH) return CUT
  if (value instanceof Error) {
    const own: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) own[key] = tagErrors(item, depth + 1)
    const cause = 'cause' in value ? { cause: tagErrors(value.cause, depth + 1) } : {}
    return { [ERROR]: { ...own, name: value.name, message: value.message, ...cause } }
  }
  if (Array.isArray(value)) return value.map((item) => tagErrors(item, depth + 1))
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, key, { value: tagErrors(item, depth + 1), enumerable: true, writable: true, configurable: true })
  return out
}

function untagErrors(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value
  if (Array.isArray(value)) return value.map((item) => untagErrors(item, depth + 1))
  if (Object.hasOwn(value, ERROR)) {
    const { name, message, code, cause, ...details } = untagErrors((value as Record<string, unknown>)[ERROR], depth + 1) as Record<string, unknown>
    const withCause = 'cause' in ((value as Record<string, Record<string, unknown>>)[ERROR] ?? {}) ? { cause } : {}
    if (name === 'AgentStoreError') return new AgentStoreError(code as AgentStoreError['code'], String(message), { ...details, ...withCause })
    // The class is not kept: an Error with the same name, message, cause and fields.
    const error = new Error(String(message), withCause)
    if (name !== 'Error') error.name = String(name)
    return Object.assign(error, code === undefined ? details : { ...details, code })
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, key, { value: untagErrors(item, depth + 1), enumerable: true, writable: true, configurable: true })
  return out
}

function encodeInput(input: Input<unknown>): unknown {
  // A setState function that threw is kept by the store as a function rethrowing its error: written as that error's message.
  if (input.type === 'setState' && typeof input.update === 'function')
    return { type: 'setState', update: { [THROWS]: thrownBy(input.update as (previous: unknown) => unknown) } }
  return encode(input)
}

function thrownBy(update: (previous: unknown) => unknown): string {
  try {
    update(undefined)
    return 'setState function'
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

function decodeInput(value: unknown): Input<unknown> {
  const update = (value as { type?: unknown; update?: unknown }).update
  if ((value as { type?: unknown }).type === 'setState' && typeof update === 'object' && update !== null && Object.hasOwn(update, THROWS)) {
    const message = String((update as Record<string, unknown>)[THROWS])
    return {
      type: 'setState',
      update: () => {
        throw new Error(message)
      },
    }
  }
  return decode(value) as Input<unknown>
}

/** Reads a recording; throws a SyntaxError naming the line that is not one. */
export function parseRecording<S = unknown>(text: string): Recording<S> {
  const lines = text.split('\n').filter((line) => line.trim() !== '')
  const parse = (line: string, number: number) => {
    try {
      return JSON.parse(line) as unknown
    } catch (error) {
      throw new SyntaxError(`Recording line ${number} is not JSON: ${(error as Error).message}`)
    }
  }
  const header = parse(lines[0] ?? '', 1) as RecordingHeader
  if (header?.format !== RECORDING_FORMAT) throw new SyntaxError('Not an agent-state recording: its first line has no "format": "agent-state-recording"')
  if (header.version !== RECORDING_VERSION)
    throw new SyntaxError(`Recording version ${JSON.stringify(header.version)}; this devtools reads version ${RECORDING_VERSION}`)
  const entries = lines.slice(1).map((line, i) => {
    const read = parse(line, i + 2) as RecordedLine
    return { time: read.time, input: decodeInput(read.input) as Input<S>, ...(read.detached ? { detached: true as const } : {}) }
  })
  return { header, start: decode(header.model) as Model<S>, entries }
}

/** What `replayRecording` returns: the store every input went through, and the snapshots it showed. */
export interface Replay<S> {
  /** The fresh store, as the last input left it. */
  readonly store: AgentStore<S>
  /** The snapshot before the first input. */
  readonly start: AgentSnapshot<S>
  /** The snapshot after each input, in order: what the recorded store showed. */
  readonly snapshots: readonly AgentSnapshot<S>[]
  /** The recording, as `parseRecording` read it. */
  readonly recording: Recording<S>
}

/** Functions a recording cannot hold: give the same `validate` for a recording whose header says `validated`. */
export type ReplayOptions<S> = Pick<AgentStoreOptions<S>, 'validate' | 'onError'>

/**
 * A fresh store, from the recording's start model, through every recorded input; no request is
 * made. A recording that starts inside a request (attached mid-run, or its front dropped) starts
 * with that request open, as the recorded store had it, and never connected: its events and its
 * end replay as they were recorded.
 */
export function replayRecording<S = unknown>(text: string, options: ReplayOptions<S> = {}): Replay<S> {
  const recording = parseRecording<S>(text)
  const { header, start } = recording
  // Made without the request (a store restores one as a run cut short), then put at the start as it was.
  const from = start.request === undefined ? start : { ...start, request: undefined }
  const store = createStoreFrom<S>({ ...header.options, initialState: decode(header.initialState) as S, threadId: header.threadId, ...options }, from)
  const internals = storeInternals<S>(store)
  if (start.request !== undefined) internals.replace(start)
  const first = store.getState()
  const snapshots: AgentSnapshot<S>[] = []
  // A jump keeps the request the model had (only its connection goes), and a replay never opens one: nothing to redo at a `detached` entry.
  for (const { input } of recording.entries) {
    internals.feed(input)
    snapshots.push(store.getState())
  }
  return { store, start: first, snapshots, recording }
}
