import type { Context, Message, ResumeEntry, RunAgentInput, Tool, ToolMessage } from '@ag-ui/core'
import type { AgentStoreError } from '../errors'
import type { Edit } from '../state/edit-merge'
import type { AgentSnapshot, Confirmation, Prediction, PredictionMapping } from '../types'

// Everything the store knows, as one plain value: the machine's transitions take one and return
// the next; nothing in it is mutated. (The partial-JSON readers of streaming tool calls are in
// the memo beside it, config.ts, rebuilt from a tool call's argument text whenever they are missing.)

/** A top-level key whose value in `state` is a draft; `committed` keeps `baseline` until it is confirmed. */
export interface Draft {
  readonly stateKey: string
  readonly runId: string | undefined
  /** The tool call whose arguments wrote it last; undefined when only the server changed it. */
  readonly toolCallId: string | undefined
  readonly tool: string | undefined
  /** The argument its mapping follows ('*': the whole arguments object). */
  readonly toolArgument: string
  readonly complete: boolean
  /** False when the key did not exist before the draft: discarding the draft removes it. */
  readonly existed: boolean
  readonly baseline: unknown
}

/** One of LangGraph's CUSTOM on_interrupt events. */
export interface OnInterrupt {
  /** Its value, parsed when it is JSON. */
  readonly value: unknown
  /** LangGraph's id of the interrupt, when the event carries it (`rawEvent.id`): the key of its answer when several go together. */
  readonly interruptId: string | undefined
}

/** What the store knows about the run in progress, or about events fed through apply() since the last run ended. */
export interface RunContext {
  readonly runId: string | undefined
  /** The request streaming it; undefined for events fed through apply(). */
  readonly requestId: string | undefined
  /** `committed` when the run started: the baseline of its drafts, and what a failed run returns to. */
  readonly base: unknown
  /** From the `predict` option and this run's PredictState events. */
  readonly mappings: readonly PredictionMapping[]
  /** Tool calls that existed before the run: a confirmation tool call among them is not this run's. */
  readonly toolCallsBefore: readonly string[]
  /** Messages that existed before the run: one the run made for a call it never finished goes with the call. */
  readonly messagesBefore: readonly string[]
  /** LangGraph's CUSTOM on_interrupt events in this run. */
  readonly onInterrupts: readonly OnInterrupt[]
  /** Keys the user edited during this run: the user wins, so they are no longer drafted. */
  readonly userKeys: readonly string[]
  /** This run's tool calls whose arguments are still streaming, by id: the tool's name. */
  readonly streaming: Readonly<Record<string, string>>
  /** Mapped tool calls whose drafts stopped at a limit. */
  readonly stopped: readonly string[]
  /** Whether a state event of this run has arrived yet. */
  readonly sawState: boolean
  /** The view still shows the state from before the run's opening empty snapshot. */
  readonly holding: boolean
  /** Tool calls named by the confirmations this run answers. */
  readonly resumedCalls: readonly string[]
}

/** The options a run was started with; the run an answer starts sends them again. */
export interface RunSettings {
  readonly tools: readonly Tool[]
  readonly context: readonly Context[]
  readonly forwardedProps: unknown
}

/** What one answer adds to the resumed run's input. */
export interface WireAnswer {
  readonly resume?: ResumeEntry
  readonly message?: ToolMessage
  /** LangGraph's `forwardedProps.command.resume`. */
  readonly command?: unknown
}

/** The parts of the model an answer changes, kept so they can be put back if it never reaches the server. */
export interface AnswerRestorePoint<S> {
  readonly server: S
  readonly drafts: readonly Draft[]
  readonly state: S
  readonly committed: S
  readonly predictions: readonly Prediction[]
  readonly confirmations: readonly Confirmation[]
  readonly messages: readonly Message[]
}

/** Answers given and not yet delivered: they leave when the resumed run's first event arrives. */
export interface Outbox<S> {
  readonly answers: readonly WireAnswer[]
  readonly answered: readonly Confirmation[]
  /** Run options given with the answers, over the settings of the run they resume. */
  readonly settings: Partial<RunSettings>
  readonly restore: AnswerRestorePoint<S>
}

/** The request in flight. */
export interface Request<S = unknown> {
  readonly id: string
  /** Set at its first event: from then on the server has the answers it carried. */
  readonly delivered: boolean
  /** The model as the run began: what a reconnect rebuilds the run from. */
  readonly start?: Model<S> | undefined
  /** A reconnect that has not reached the dropped run yet: a replay of earlier runs, or nothing so far. */
  readonly rejoining?: Rejoin<S> | undefined
  /** The reconnect's first event was a RUN_STARTED: the server replays runs, and this run comes again from its start. */
  readonly replaying?: boolean
  /** The snapshot a reconnect showed and the one before it: a reconnect that ends having changed nothing gives that one back. */
  readonly unchanged?: { readonly shown: AgentSnapshot<S>; readonly before: AgentSnapshot<S> } | undefined
}

/** A run whose stream dropped after it had begun: reconnect() can re-attach it. */
export interface Rejoin<S> {
  readonly runId: string
  /** The model as the run began: a replay brings the run back from there. */
  readonly start: Model<S>
  /** The model when the stream dropped, without its request: a server resuming from a cursor continues from there. */
  readonly cut?: Model<S> | undefined
  /** `committed` right after the drop: the user's edits since then are made again on the re-attached run. */
  readonly after?: S
  /** The SSE id of the last event received, sent as `Last-Event-ID`. */
  readonly lastEventId?: string | undefined
}

export interface Model<S> {
  /** What listeners see. */
  readonly snapshot: AgentSnapshot<S>
  /** The state as the server last said it, without drafts or the user's edits of this run. */
  readonly server: S
  readonly drafts: readonly Draft[]
  /** The user's edits during the run in progress, as one edit relative to `server`. */
  readonly edit: Edit | undefined
  /** The same edits as made (the view seen, the state set), for a failed run to replay on the state from before it. */
  readonly userEdits: readonly Edit[]
  readonly run: RunContext | undefined
  readonly request: Request<S> | undefined
  readonly rejoin: Rejoin<S> | undefined
  readonly outbox: Outbox<S> | undefined
  readonly settings: RunSettings
  /** Interrupt ids whose answers reached the server: never opened again. */
  readonly answeredInterrupts: readonly string[]
  /** The user messages sent, and the other versions and their branches once the conversation forks (tree.ts). */
  readonly tree: Tree<S> | undefined
}

// The conversation tree (tree.ts): the current branch is the model itself.

/** A branch away from the view: what `switchBranch` puts back. */
export interface Branch<S> {
  readonly snapshot: AgentSnapshot<S>
  readonly server: S
  readonly drafts: readonly Draft[]
  readonly settings: RunSettings
  /** Branching 'new-thread': the server thread the branch is sent on, when not the store's own. */
  readonly thread?: string | undefined
}

/** A user message as it was sent: what an edit of it, or a new answer to it, starts from. */
export interface Sent<S> {
  readonly committed: S
  readonly subagents: AgentSnapshot<S>['subagents']
  /** The run before it on its branch: the run a new version branches from. */
  readonly parentRunId: string | undefined
}

export interface Tree<S> {
  readonly sent: Readonly<Record<string, Sent<S>>>
  /** The versions of the message after each fork point (the id of the message before them, '' at the start), oldest first. */
  readonly versions: Readonly<Record<string, readonly string[]>>
  /** The branch of every version not on the current branch, as last shown. */
  readonly shelved: Readonly<Record<string, Branch<S>>>
  /** A regenerated answer whose first message has not come yet: the message it answers, and the version it replaces. */
  readonly pending?: { readonly after: string; readonly replaced: string } | undefined
  /** Branching 'langgraph': the id the server knows an edited message by, the one it replaced (local id → server id). */
  readonly wireIds?: Readonly<Record<string, string>> | undefined
  /** Branching 'langgraph': the server ids of the branch the server's thread holds, once the view has left it. */
  readonly serverBranch?: readonly string[] | undefined
  /** Branching 'new-thread': the server thread the current branch is sent on, when not the store's own. */
  readonly thread?: string | undefined
  /** Branching 'new-thread': for each server thread of a branch, the id each message has there (local id → id on that thread). */
  readonly threadWireIds?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined
}

export const noSettings: RunSettings = { tools: [], context: [], forwardedProps: {} }

export function initialModel<S>(snapshot: AgentSnapshot<S>): Model<S> {
  return {
    snapshot,
    server: snapshot.state,
    drafts: [],
    edit: undefined,
    userEdits: [],
    run: undefined,
    request: undefined,
    rejoin: undefined,
    outbox: undefined,
    settings: noSettings,
    answeredInterrupts: [],
    tree: undefined,
  }
}

/**
 * A copy of the model to fill in. Field by field on purpose, like `copySnapshot`: it runs once per
 * token, and one literal shape keeps V8's copies on its fast path (bench/hand-tuned.ts).
 */
export function copyModel<S>(model: Model<S>): { -readonly [K in keyof Model<S>]: Model<S>[K] } {
  return {
    snapshot: model.snapshot,
    server: model.server,
    drafts: model.drafts,
    edit: model.edit,
    userEdits: model.userEdits,
    run: model.run,
    request: model.request,
    rejoin: model.rejoin,
    outbox: model.outbox,
    settings: model.settings,
    answeredInterrupts: model.answeredInterrupts,
    tree: model.tree,
  }
}

/** The model with a new snapshot (the per-token case). */
export function withSnapshot<S>(model: Model<S>, snapshot: AgentSnapshot<S>): Model<S> {
  if (model.snapshot === snapshot) return model
  const next = copyModel(model)
  next.snapshot = snapshot
  return next
}

// What a transition returns (transition.ts): here, beside the model, so the commands it calls need not import it.

export type Effect =
  | { type: 'start'; requestId: string; input: RunAgentInput; timeoutMs: number | undefined }
  /** Like start, through the agent's `connect`: a replay of the thread, then the live rest. */
  | { type: 'connect'; requestId: string; input: RunAgentInput; timeoutMs: number | undefined; lastEventId?: string }
  /** The request is over for the store: `drain` lets the server close the response, `cancel` cuts it; its promise settles. */
  | { type: 'release'; requestId: string; how: 'drain' | 'cancel' | 'none' }
  | { type: 'report'; error: AgentStoreError }
  /**
   * The step's input was an event the store took in (applied, or ignored as unknown): the onEvent
   * listeners see it. Always the last effect. It names no event: the input's is the one, and a
   * token's step allocates nothing for it.
   */
  | { type: 'show' }
  /**
   * The model changed and the store persists: `urgent` for a change a reload must not lose (every
   * command, and an event that delivers answers, changes the run's status or its confirmations),
   * written at once; the others are written when the writer gets to them. Always the first effect.
   */
  | { type: 'persist'; urgent: boolean }

/**
 * What a transition returns: the next model and the effects the shell carries out after publishing
 * it, or a refusal: a command the store refused, whose promise rejects with it; nothing changed.
 * A command that starts a request (a `start` or `connect` effect) settles when that request is released.
 */
export interface Step<S> {
  readonly model: Model<S>
  readonly effects: readonly Effect[]
  readonly refusal?: AgentStoreError
}

export const noEffects: readonly Effect[] = Object.freeze([])

/** A step that changes nothing. */
export const unchanged = <S>(model: Model<S>): Step<S> => ({ model, effects: noEffects })

/** A command the store refused: nothing changes, and the command's promise rejects with `refusal`. */
export const refused = <S>(model: Model<S>, refusal: AgentStoreError): Step<S> => ({ model, effects: noEffects, refusal })

export type Report = Extract<Effect, { type: 'report' }>

export const report = (error: AgentStoreError): Report => ({ type: 'report', error })

export const release = (requestId: string, how: 'drain' | 'cancel' | 'none'): Effect => ({ type: 'release', requestId, how })

/** An input that fails without stopping the store: its error is shown in the snapshot and reported, nothing else changes. */
export const withError = <S>(model: Model<S>, error: AgentStoreError): Step<S> => ({
  model: { ...model, snapshot: { ...model.snapshot, error } },
  effects: [report(error)],
})
