import type { BaseEvent, Context, Message, ResumeEntry, RunAgentInput, TokenUsage, Tool, ToolMessage } from '@ag-ui/core'
import type { AgentStoreError } from './errors'

/** Where the conversation stands: no run in progress, a run streaming, waiting on a confirmation, or ended by an error. */
export type RunStatus = 'idle' | 'running' | 'interrupted' | 'error'

/** One immutable view of everything the agent has told the UI. A new object only when something changed. */
export interface AgentSnapshot<TState = unknown> {
  /** What to render: the committed state plus any drafts in flight. */
  readonly state: TState
  /** Exactly what the next run sends as `RunAgentInput.state`. */
  readonly committed: TState
  readonly status: RunStatus
  /**
   * A request to the agent is open (a run, the run an answer starts, or a reconnect): `run()` and
   * the answers are refused until it ends, and `abort()` ends it. `status` says what the conversation
   * shows: a reconnect re-attaches with the status the drop left, and events fed through `apply()`
   * can make a run 'running' with no request.
   */
  readonly requesting: boolean
  /** Names of the steps that have started and not finished, in start order. */
  readonly steps: readonly string[]
  readonly messages: readonly Message[]
  readonly threadId: string
  /** The run in progress, or the last one. */
  readonly runId: string | undefined
  /** The last error; cleared when a new run starts or the store is reset. */
  readonly error: AgentStoreError | undefined
  /** Drafts: values predicted from tool calls (or changed by the server under a prediction) not yet confirmed. */
  readonly predictions: readonly Prediction[]
  /** What the user must answer before the thread can go on; `status` is 'interrupted' while any is open. */
  readonly confirmations: readonly Confirmation[]
  /** One entry per SUBAGENT_STARTED, in start order; kept across runs like the messages that name them. */
  readonly subagents: readonly Subagent[]
  /** Steps open in subagents (`steps` holds the parent agent's), in start order. */
  readonly subagentSteps: readonly SubagentStep[]
  /** What the server said about the run in progress, or the last one. */
  readonly run: RunInfo | undefined
  /**
   * Every message of the current branch that has other versions (an edit, a regenerated answer),
   * by id: which version it is, oldest first, and how many there are (itself included). `{}` for a
   * conversation never forked.
   */
  readonly branches: Readonly<Record<string, BranchPosition>>
}

/** Where a message stands among its versions: `index` (0-based, oldest first) of `count`. */
export interface BranchPosition {
  readonly index: number
  readonly count: number
}

/** Where a subagent stands: `suspended` while it waits on interrupts (`interruptIds`). */
export type SubagentStatus = 'running' | 'finished' | 'error' | 'suspended'

/** One subagent invocation (SUBAGENT_STARTED … SUBAGENT_FINISHED / SUBAGENT_ERROR). */
export interface Subagent {
  readonly subagentRunId: string
  readonly name: string
  readonly description?: string
  readonly parentSubagentRunId?: string
  /** The tool call that spawned it: a UI nests the subagent's messages under that call. */
  readonly parentToolCallId?: string
  readonly parentMessageId?: string
  readonly status: SubagentStatus
  /** SUBAGENT_FINISHED.result. */
  readonly result?: unknown
  /** SUBAGENT_ERROR's message and code. */
  readonly error?: { readonly message: string; readonly code?: string }
  /** The interrupts a suspended subagent waits on. */
  readonly interruptIds?: readonly string[]
  /** The events' metadata, merged key by key (last write wins). */
  readonly metadata?: Record<string, unknown>
  /** The run that started (or last continued) it. */
  readonly runId: string | undefined
}

/** A step a subagent started and has not finished. */
export interface SubagentStep {
  readonly subagentRunId: string
  readonly stepName: string
}

/** The run's own data from RUN_STARTED, RUN_FINISHED and RUN_ERROR. */
export interface RunInfo {
  readonly runId: string | undefined
  readonly parentRunId?: string
  /** RUN_STARTED.input: the input the server says it ran with. */
  readonly input?: RunAgentInput
  /** undefined while the run is in progress. */
  readonly outcome?: 'success' | 'interrupt' | 'cancelled' | 'error'
  /** RUN_FINISHED.result. */
  readonly result?: unknown
  /** RUN_FINISHED.usage or RUN_ERROR.usage. */
  readonly usage?: readonly TokenUsage[]
  /** The run events' metadata, merged key by key (last write wins). */
  readonly metadata?: Record<string, unknown>
}

/** Maps one argument of one tool to one top-level state key (AG-UI's `PredictState`). */
export interface PredictionMapping {
  stateKey: string
  tool: string
  /** The argument to follow; absent or '*' means the whole arguments object. */
  toolArgument?: string
}

/** One draft: the value a tool call is writing into `state[stateKey]`, shown before it is confirmed. */
export interface Prediction {
  /** The tool call writing it; undefined when the server changed a predicted key on its own. */
  toolCallId: string | undefined
  tool: string | undefined
  stateKey: string
  /** The latest value; `committed[stateKey]` keeps the value from before the run. */
  value: unknown
  /** True once the tool call's arguments are complete. */
  complete: boolean
}

/** Where a confirmation came from; each is answered on the wire in its own way. */
export type ConfirmationSource = 'interrupt' | 'tool' | 'on_interrupt'

/** One thing the user must answer: an AG-UI interrupt, a confirmation tool call, or LangGraph's on_interrupt. */
export interface Confirmation {
  /** The interrupt id, the confirmation tool call's id, or for on_interrupt LangGraph's interrupt id (from the event's `rawEvent`), else one made from the run's id. */
  readonly id: string
  readonly source: ConfirmationSource
  readonly runId: string | undefined
  readonly reason?: string
  readonly message?: string
  /** The tool call it asks about, if it names one; its drafts are the ones it governs. */
  readonly toolCallId?: string
  /** JSON Schema of the expected answer (interrupts). */
  readonly responseSchema?: unknown
  /** ISO 8601; past it, the confirmation can only be cancelled. */
  readonly expiresAt?: string
  readonly metadata?: Record<string, unknown>
  /** The confirmation tool call's arguments, or the on_interrupt value (parsed when it is JSON). */
  readonly value?: unknown
  /** The state keys whose drafts approve commits and reject discards. */
  readonly stateKeys: readonly string[]
  /** The subagent whose run asked, when a subagent's interrupt. */
  readonly subagentRunId?: string
}

/** Called after each change with the new snapshot and the one before it. */
export type Listener<TState> = (snapshot: AgentSnapshot<TState>, previous: AgentSnapshot<TState>) => void

/**
 * The read contract every binding types against. It is the read half of zustand's `StoreApi`,
 * so `useStore` from zustand works on an agent store as it is.
 */
export interface ReadableAgentStore<TState = unknown> {
  /** The current snapshot: the same object until something changes. */
  getState(): AgentSnapshot<TState>
  /** The store's first snapshot (a restored thread's, else the blank one): what a server render showed. */
  getInitialState(): AgentSnapshot<TState>
  /** Calls `listener` after every change; returns the function that unsubscribes it. */
  subscribe(listener: Listener<TState>): () => void
}

/** A Standard Schema v1 validator (zod 4, valibot, arktype, …), typed structurally so none is a dependency. */
export interface StandardSchemaV1<TOutput = unknown> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    /** Checks `value`: its output, or the issues that refuse it; a promise (an async schema) is refused as VALIDATION. */
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: TOutput; readonly issues?: undefined }
      | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<unknown> }> }
      | Promise<unknown>
  }
}

/**
 * Checks a state before the store accepts it: a function that returns it or throws, or a Standard Schema.
 * Either must be synchronous; a refusal is reported as VALIDATION.
 */
export type StateValidator<TState> = ((state: unknown) => TState) | StandardSchemaV1<TState>

/** Bounds on what the store accepts from the agent (`AgentStoreOptions.limits`); past one, LIMIT_EXCEEDED. */
export interface AgentStoreLimits {
  /** Deepest nesting of the state, counting from the root (default 512); every other value the store keeps is held to it too. */
  maxDepth: number
  /** Most operations in one STATE_DELTA (default 10,000). */
  maxOpsPerDelta: number
  /** Largest state, measured as UTF-16 code units of its JSON text (default 16 MiB). */
  maxStateBytes: number
  /** Largest single event the transport may receive, as UTF-8 bytes of its SSE data (default 16 MiB); also bounds an applied event and a run's options, as JSON text. */
  maxEventBytes: number
}

/** Headers sent with every request of the built-in transport: an object, or a function called once per run (a token that expires). */
export type AgentHeaders = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>)

/**
 * What the store reads of an `@ag-ui/client` agent (every `AbstractAgent` has it): typed here, so
 * an app that posts to `url` type-checks without `@ag-ui/client` installed.
 */
export interface AgUiAgent {
  threadId: string
  /** Starts a run with the input the store builds; the store subscribes to the events it returns. */
  run(input: RunAgentInput): AgUiEventStream
}

/** The part of the rxjs Observable an agent's `run` returns that the store uses. */
export interface AgUiEventStream {
  /** Delivers the run's events to `observer`; `unsubscribe()` stops them. */
  subscribe(observer: { next(event: BaseEvent): void; error(error: unknown): void; complete(): void }): {
    /** Stops the run's events: how the store cancels a run (`abort()`, a timeout). */
    unsubscribe(): void
  }
}

/** How a forked run is sent (`AgentStoreOptions.branching`). */
export type Branching = 'history' | 'langgraph' | 'new-thread'

/** `createAgentStore`'s one argument: where the agent is, the initial state, and how the store behaves. */
export interface AgentStoreOptions<TState> {
  /**
   * Any @ag-ui/client agent (`HttpAgent`, `LangGraphAgent`, a custom one). Not with `url`: a store
   * given both throws NO_AGENT at creation. `run()` needs one of the two, `apply()` neither.
   */
  agent?: AgUiAgent
  /**
   * The AG-UI endpoint runs are POSTed to, read by the store's own SSE reader (the built-in
   * transport: no `@ag-ui/client` needed). Not with `agent`: a store given both throws NO_AGENT.
   */
  url?: string
  /** With `url`: sent with every request; a function is called once per request and may return a promise. */
  headers?: AgentHeaders
  /** With `url`: the fetch to use (credentials, `expo/fetch`); the global one by default. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>
  /**
   * With `url`: how the answer is read. `fetch` streams `response.body`, `xhr` reads
   * XMLHttpRequest progress events (React Native, old WebViews). By default `fetch` where it can
   * stream (or when `fetch` is given), `xhr` where it cannot.
   */
  reader?: 'fetch' | 'xhr'
  /**
   * With `url`: where `reconnect()` (and the re-attach of a restored run) POSTs its connect request,
   * a replay of the thread and then the live rest, resumed from the last SSE `id:` seen as
   * `Last-Event-ID`. Without it, `reconnect()` rejects with RECONNECT `not-supported`.
   */
  connectUrl?: string
  initialState: TState
  /** Defaults to the agent's threadId, else a new id. */
  threadId?: string
  /** Checks every state the store accepts; a snapshot or delta whose result fails is rejected. */
  validate?: StateValidator<TState>
  limits?: Partial<AgentStoreLimits>
  /** Called with each error the store reports; one that throws does not break the store. */
  onError?: (error: AgentStoreError) => void
  /** Predictions for servers that announce none (no `PredictState`); they apply to every run. */
  predict?: readonly PredictionMapping[]
  /** Names of confirmation tools (default `['confirm_changes']`). */
  confirmTools?: readonly string[]
  /**
   * Keep what a failed run changed (RUN_ERROR, a transport failure, truncation, a timeout, abort(),
   * a cancelled outcome) instead of rolling the state back to the committed state from before the
   * run (default false: rolled back, keeping the user's own edits made during it).
   */
  keepFailedRunChanges?: boolean
  /**
   * How a forked run (edit(), regenerate()) is sent. `'history'` (default): the branch as the store
   * holds it, for servers that take the history they are sent as the truth (CopilotKit, any stateless
   * server). `'langgraph'`: for `@ag-ui/langgraph`, which keeps the thread and forks from a checkpoint
   * only on a request that starts with a system message it has never seen: that message is added, an
   * edited message goes under the id of the message it replaces (the store keeps its own id and maps
   * the server's snapshots back), and a request the server would append to another branch than the
   * one shown is refused with `BRANCH` (`server-branch`): run() on a branch switched to, and a fork
   * below where that branch parts from the server's (a fork at or above it is sent, and continues).
   * `'new-thread'`: for servers that keep each thread's history by message id (Mastra with memory):
   * a fork is sent on a server thread of its own (`<threadId>~<runId>`) with every message before it
   * under a fresh id there (`<messageId>~<runId>`), mapped back to the store's ids; each branch
   * keeps its server thread, so run() after a switch goes on where that branch's history is. The
   * old thread is left as it was; `threadId` in the snapshot stays the store's own.
   */
  branching?: Branching
  /** Fields that identify array elements when the user's edits are carried over the server's changes (default `['id', 'key']`). */
  arrayKeys?: readonly string[]
  /** Fails a run (TRANSPORT, `reason: 'timeout'`) once the agent has sent nothing, not even a keep-alive, for this long. Default: none. */
  timeoutMs?: number
  /**
   * A thread saved by `serializeThread(store)` to continue from, given as `restoreThread(saved)`
   * (on the client after a server render, or after a reload). One of an unknown format, damaged,
   * or of another app version without a working `persist` `migrate` is refused (RESTORE, through
   * `onError` and `error`) and the store starts from `initialState`. A factory rather than the
   * value itself: an app that restores no thread does not ship the code that reads one.
   */
  restore?: ThreadRestore | undefined
  /**
   * `persistThread({ storage, key, … })`: saves the thread after changes and restores it on
   * creation (when `restore` is not given). Streaming is written at most once per `throttleMs`; a
   * storage that fails reports PERSIST and the store goes on. A factory rather than the options
   * themselves: an app that does not save threads does not ship the code.
   */
  persist?: ThreadPersistence | undefined
}

declare const persistence: unique symbol
declare const restoring: unique symbol

/** What `persistThread` makes, for `persist`: the options with the code that reads and writes a saved thread. Its parts are internal. */
export interface ThreadPersistence {
  readonly [persistence]: true
}

/** What `restoreThread` makes, for `restore`: a saved thread with the code that checks and reads it. Its parts are internal. */
export interface ThreadRestore {
  readonly [restoring]: true
}

/** The Web Storage shape, sync or async: `localStorage`, `sessionStorage`, an IndexedDB or server wrapper. */
export interface PersistStorage {
  /** The value saved under `key`; `null` or `undefined` when there is none. */
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>
  /** Saves `value` under `key`. */
  setItem(key: string, value: string): void | Promise<void>
  /** Deletes what is saved under `key`. */
  removeItem(key: string): void | Promise<void>
}

/** `persistThread`'s one argument: where threads are saved, under which key, and the app's saved-state version. */
export interface PersistOptions {
  storage: PersistStorage
  /** Default `'agent-state'`. */
  key?: string
  /** Streaming changes are written at most once per this many milliseconds (default 250); answers and run ends at once. */
  throttleMs?: number
  /**
   * For a storage other tabs or processes write too: call `changed` whenever `key` was written
   * elsewhere. The thread list follows it until the registry's `dispose()`, which calls what `watch`
   * returns when it is a function (an unsubscribe). With `localStorage` the page's `storage` event is followed without it.
   */
  watch?: (key: string, changed: () => void) => unknown
  /**
   * The version of the app's saved state (default 0), saved with each thread. Raise it when the
   * state's shape changes, and give `migrate`: a thread saved by another version is refused without it.
   */
  version?: number
  /**
   * Turns a thread saved by app version `fromVersion` into one of `version` (its state, wherever
   * `SavedModel` says it appears). Called on restore, synchronously; one that throws, or a thread of
   * another version with no `migrate`, is refused (RESTORE) and the store starts from `initialState`.
   */
  migrate?: (saved: SavedThread, fromVersion: number) => SavedThread
}

/** Everything a store needs to continue a conversation: `JSON.stringify` round-trips it. */
export interface SerializedThread {
  /** The saved-thread format (see `SavedThread`). */
  readonly version: 3
  readonly threadId: string
  /** `Date.now()` when it was taken. */
  readonly savedAt: number
  /** The app's persist `version` (default 0); absent when the store has no `persist`. */
  readonly appVersion?: number
  /**
   * The conversation in the `SavedModel` layout, as JSON: a value that is `undefined` is written
   * `{ "$agent-state:undefined": true }`, an error `{ "$agent-state:error": { code, message, … } }`.
   */
  readonly model: unknown
}

/** A saved thread as `migrate` (of `persistThread`) receives and returns it: format `FORMAT_VERSION`, its values decoded. */
export interface SavedThread {
  /** The library's saved-thread format. */
  readonly version: 3
  readonly threadId: string
  /** `Date.now()` when it was saved. */
  readonly savedAt: number
  /** The app's persist `version` when it was saved; undefined for a thread serialized by a store without `persist`. */
  readonly appVersion: number | undefined
  readonly model: SavedModel
}

/** What the view showed: the snapshot's parts. */
export interface SavedView {
  /** The app's state, as shown (the committed state plus drafts). */
  readonly state: unknown
  /** The app's state, as the next run sends it. */
  readonly committed: unknown
  readonly status: RunStatus
  readonly requesting: boolean
  readonly steps: readonly string[]
  readonly messages: readonly Message[]
  readonly threadId: string
  readonly runId: string | undefined
  readonly error: AgentStoreError | undefined
  readonly predictions: readonly Prediction[]
  readonly confirmations: readonly Confirmation[]
  readonly subagents: readonly Subagent[]
  readonly subagentSteps: readonly SubagentStep[]
  readonly run: RunInfo | undefined
  readonly branches: Readonly<Record<string, BranchPosition>>
}

/** The conversation tree (`SavedModel.tree`, since saved-thread format 3): the user messages sent, and every version's branch away from the view. */
export interface SavedTree {
  /** By user message id: the committed state it was sent with, the subagents then, and the run before it. */
  readonly sent: Readonly<Record<string, { readonly committed: unknown; readonly subagents: readonly Subagent[]; readonly parentRunId: string | undefined }>>
  /** By fork point (the id of the message before, '' at the start): the versions of the message after it, oldest first. */
  readonly versions: Readonly<Record<string, readonly string[]>>
  /** By version: its branch as last shown. */
  readonly shelved: Readonly<
    Record<
      string,
      {
        readonly snapshot: SavedView
        readonly server: unknown
        readonly drafts: readonly SavedDraft[]
        readonly settings: SavedSettings
        /** `branching: 'new-thread'`: the server thread this branch is sent on, when not the store's own. */
        readonly thread?: string | undefined
      }
    >
  >
  /** A regenerated answer not begun yet. */
  readonly pending?: { readonly after: string; readonly replaced: string } | undefined
  /** `branching: 'langgraph'`: the id the server knows an edited message by (local id → server id). */
  readonly wireIds?: Readonly<Record<string, string>> | undefined
  /** `branching: 'langgraph'`: the server ids of the branch the server's thread holds, once the view has left it. */
  readonly serverBranch?: readonly string[] | undefined
  /** `branching: 'new-thread'`: the server thread the current branch is sent on, when not the store's own. */
  readonly thread?: string | undefined
  /** `branching: 'new-thread'`: for each server thread of a branch, the id each message has there (local id → id there). */
  readonly threadWireIds?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined
}

/** A top-level state key whose shown value is a tool call's draft. */
export interface SavedDraft {
  readonly stateKey: string
  readonly runId: string | undefined
  readonly toolCallId: string | undefined
  readonly tool: string | undefined
  readonly toolArgument: string
  readonly complete: boolean
  readonly existed: boolean
  /** The key's value before the draft (the app's state). */
  readonly baseline: unknown
}

/** The user's edits relative to a server state. */
export interface SavedEdit {
  readonly base: unknown
  readonly mine: unknown
  readonly whole: readonly string[]
}

/** The run in progress when the thread was saved: what the store needs to go on with it. */
export interface SavedRunContext {
  readonly runId: string | undefined
  readonly requestId: string | undefined
  readonly base: unknown
  readonly mappings: readonly PredictionMapping[]
  readonly toolCallsBefore: readonly string[]
  readonly messagesBefore: readonly string[]
  readonly onInterrupts: readonly { readonly value: unknown; readonly interruptId: string | undefined }[]
  readonly userKeys: readonly string[]
  readonly streaming: Readonly<Record<string, string>>
  readonly stopped: readonly string[]
  readonly sawState: boolean
  readonly holding: boolean
  readonly resumedCalls: readonly string[]
}

/** The last run's tools, context and forwardedProps. */
export interface SavedSettings {
  readonly tools: readonly Tool[]
  readonly context: readonly Context[]
  readonly forwardedProps: unknown
}

/** Answers given and not yet delivered, with what to put back if they never arrive. */
export interface SavedOutbox {
  readonly answers: readonly { readonly resume?: ResumeEntry; readonly message?: ToolMessage; readonly command?: unknown }[]
  readonly answered: readonly Confirmation[]
  readonly settings: Partial<SavedSettings>
  readonly restore: {
    readonly server: unknown
    readonly drafts: readonly SavedDraft[]
    readonly state: unknown
    readonly committed: unknown
    readonly predictions: readonly Prediction[]
    readonly confirmations: readonly Confirmation[]
    readonly messages: readonly Message[]
  }
}

/** A run whose stream was cut: what a reconnect rebuilds it from. */
export interface SavedRejoin {
  readonly runId: string
  readonly start: SavedModel
  readonly cut?: SavedModel | undefined
  readonly after?: unknown
  readonly lastEventId?: string | undefined
}

/** The request that was open when the thread was saved (a restore ends it, or reconnects). */
export interface SavedRequest {
  readonly id: string
  readonly delivered: boolean
  readonly start?: SavedModel | undefined
  readonly rejoining?: SavedRejoin | undefined
  readonly replaying?: boolean
  readonly unchanged?: { readonly shown: SavedView; readonly before: SavedView } | undefined
}

/**
 * A conversation as saved. The app's state appears in `snapshot.state`, `snapshot.committed` and
 * `server`; in `tree`, as each user message was sent with it and in every branch put away; and while
 * a run or an answer is pending also in the drafts' baselines, `edit`, `userEdits`, `run.base`,
 * `outbox.restore`, `request` and `rejoin`.
 */
export interface SavedModel {
  readonly snapshot: SavedView
  /** The state as the server last said it. */
  readonly server: unknown
  readonly drafts: readonly SavedDraft[]
  readonly edit: SavedEdit | undefined
  readonly userEdits: readonly SavedEdit[]
  readonly run: SavedRunContext | undefined
  readonly request: SavedRequest | undefined
  readonly rejoin: SavedRejoin | undefined
  readonly outbox: SavedOutbox | undefined
  /** The last run's tools, context and forwardedProps: the run an answer starts sends them again. */
  readonly settings: SavedSettings
  /** Interrupts whose answers reached the server: never opened again. */
  readonly answeredInterrupts: readonly string[]
  /** The user messages sent and the branches of the conversation; undefined until a run sends a user message. */
  readonly tree: SavedTree | undefined
}

/** `run`'s one argument: what to append to the conversation, and what the run sends besides. */
export interface RunOptions {
  /** A user message to append before the run: a string, or a whole message. */
  message?: string | Message
  /** Messages to append before the run. */
  messages?: readonly Message[]
  tools?: readonly Tool[]
  context?: readonly Context[]
  forwardedProps?: unknown
  /** This run's idle timeout, overriding the store's `timeoutMs`. */
  timeoutMs?: number
}

/** `edit`'s one argument: the user message to replace with a new version, its new text, and the run's options. */
export interface EditOptions extends AnswerRunOptions {
  messageId: string
  content: string
}

/** `regenerate`'s one argument: the answer to produce again (default: the last one), and the run's options. */
export interface RegenerateOptions extends AnswerRunOptions {
  messageId?: string
}

/** `switchBranch`'s one argument: a message with versions, and the version (0-based, oldest first) to show. */
export interface SwitchBranchOptions {
  messageId: string
  index: number
}

/** Options for the run an answer starts: they replace those of the run it resumes. */
export type AnswerRunOptions = Pick<RunOptions, 'tools' | 'context' | 'forwardedProps' | 'timeoutMs'>

/** `approve`'s one argument: without `id`, the only open confirmation; the run options replace the resumed run's. */
export interface ApproveOptions extends AnswerRunOptions {
  id?: string
  /** Edits keyed like the tool's arguments. */
  edits?: Record<string, unknown>
}

/** `reject`'s one argument: without `id`, the only open confirmation. */
export interface RejectOptions extends AnswerRunOptions {
  id?: string
  reason?: string
}

/** `respond`'s one argument: without `id`, the only open confirmation; `payload` is any JSON value. */
export interface RespondOptions extends AnswerRunOptions {
  id?: string
  payload: unknown
}

/** `cancel`'s one argument: without `id`, the only open confirmation. */
export interface CancelOptions extends AnswerRunOptions {
  id?: string
}

/** `setState`'s argument: the new state, or a function from the current one to it. */
export type StateUpdate<TState> = TState | ((previous: TState) => TState)

/** A store for one conversation with an agent (`createAgentStore`): its snapshot, and the commands that change it. */
export interface AgentStore<TState = unknown> extends ReadableAgentStore<TState> {
  /** Starts a run on the agent; resolves when it ends, whatever the outcome. Rejects only if refused. */
  run(options?: RunOptions): Promise<void>
  /** Applies AG-UI events from any source (recordings, tests, another transport). */
  apply(events: BaseEvent | readonly BaseEvent[]): void
  /** A local edit of the agent state; sent with the next run. */
  setState(update: StateUpdate<TState>): void
  /**
   * Approves a confirmation (the only open one when `id` is omitted), with optional edits keyed like
   * the tool's arguments. The last answer starts the resumed run, with the tools, context and
   * forwardedProps of the run it resumes, or those given here.
   */
  approve(answer?: ApproveOptions): Promise<void>
  /** Rejects a confirmation: its drafts are discarded and the state returns to its value before the run. */
  reject(answer?: RejectOptions): Promise<void>
  /** Answers a confirmation with a free-form JSON payload (e.g. an `input_required` interrupt). */
  respond(answer: RespondOptions): Promise<void>
  /** Abandons a confirmation (allowed even after it expired); its drafts are discarded. */
  cancel(answer?: CancelOptions): Promise<void>
  /** Stops the active run, if any; its late events are ignored. */
  abort(): void
  /**
   * Re-attaches the run whose stream dropped (or that streamed when the thread was saved) through
   * the agent's AG-UI `connect`, applying only what the store has not applied. Rejects with
   * RECONNECT when the agent cannot connect; reports RECONNECT when the server no longer has the run.
   */
  reconnect(): Promise<void>
  /**
   * Replaces a user message of the current branch with a new version and runs from there: what
   * followed it stays on the old version's branch, and the state goes back to the committed state it
   * was sent with. Run options not given are those of the last run. Refused while a run is active
   * (RUN_ACTIVE) or a confirmation is open (PENDING_CONFIRMATION).
   */
  edit(options: EditOptions): Promise<void>
  /**
   * Produces a new version of an answer (default: the last one): everything its run wrote leaves the
   * current branch, the state goes back to the committed state that run started from, and the user
   * message it answered is sent again. Refused like `edit`.
   */
  regenerate(options?: RegenerateOptions): Promise<void>
  /**
   * Shows the branch through another version of a message (`snapshot.branches` lists them), as it
   * was last shown: its messages, state, committed state and drafts. Refused like `edit`.
   */
  switchBranch(options: SwitchBranchOptions): Promise<void>
  /** Back to the initial state (or the given one), with no messages and no run; `newThread` also starts a new thread id. */
  reset(state?: TState, options?: { newThread?: boolean }): void
  /** Resolves once a persisted thread has been read (at once for a sync storage or none); the store shows it from then on. */
  whenRestored(): Promise<void>
  /** Every accepted event, after it is applied (CUSTOM events included). */
  onEvent(listener: (event: BaseEvent, snapshot: AgentSnapshot<TState>) => void): () => void
}

/** The snapshot a store-like source gives: an agent store's, or a thread registry's with its list of threads. */
export type SnapshotOf<TStore> = TStore extends { getState(): infer TSnapshot } ? TSnapshot : never

/** Decides whether a selected value changed; bindings default to `Object.is` and export `shallow`. */
export type EqualityFn<T> = (a: T, b: T) => boolean
