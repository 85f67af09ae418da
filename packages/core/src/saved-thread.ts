import type { Context, Message, ResumeEntry, Tool, ToolMessage } from '@ag-ui/core'
import type { AgentStoreError } from './errors'
import type { Model } from './model'
import type { Confirmation, Prediction, PredictionMapping, RunInfo, RunStatus, Subagent, SubagentStep } from './types'

// The saved-thread format, declared apart from the model: these types are what storage holds, and
// `savedFromModel` / `modelFromSaved` are the only places that know both. The compiler checks the
// two against each other, so a change to the model that would change the format fails here: map
// the new field to the old saved one, or bump FORMAT_VERSION and read the older format in
// `thread.ts` (`upgradeFormat`). Today the two have the same layout and the mapping copies nothing.

/** The layout storage holds today; format 1 is read too (it had no `appVersion`). */
export const FORMAT_VERSION = 2

/** A saved thread as `persist.migrate` receives and returns it: format `FORMAT_VERSION`, its values decoded. */
export interface SavedThread {
  /** The library's saved-thread format. */
  readonly version: typeof FORMAT_VERSION
  readonly threadId: string
  /** `Date.now()` when it was saved. */
  readonly savedAt: number
  /** The app's `persist.version` when it was saved; undefined for a thread serialized by a store without `persist`. */
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
 * `server`, and while a run or an answer is pending also in the drafts' baselines, `edit`,
 * `userEdits`, `run.base`, `outbox.restore`, `request` and `rejoin`.
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
}

/** The model in the saved layout. */
export const savedFromModel = (model: Model<unknown>): SavedModel => model

/** A saved conversation (checked already) as the model. */
export function modelFromSaved<S>(saved: SavedModel): Model<S> {
  const model: Model<unknown> = saved
  return model as Model<S>
}
