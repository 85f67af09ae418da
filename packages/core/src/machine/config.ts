import type { Message } from '@ag-ui/core'
import type { PartialJsonReader } from '../json/partial-json'
import { defaultLimits } from '../limits'
import { messagesForServer } from '../snapshot/messages'
import type { MergeOptions } from '../state/edit-merge'
import { type StateRules, toValidator } from '../state/state-rules'
import type { AgentSnapshot, AgentStoreLimits, AgentStoreOptions, Branching, PredictionMapping } from '../types'

// What the transition takes besides the model and the input: a read-only config, fixed for the
// store's life, and a memo of caches it fills. The memo holds nothing the model does not already
// say: every entry is rebuilt from the model when it is missing, so a transition given a fresh
// memo returns the same model.

/** The store's options as the transition reads them. */
export interface MachineConfig<S> {
  readonly rules: { readonly limits: Readonly<AgentStoreLimits>; readonly validate: ((value: unknown) => S) | undefined }
  readonly confirmTools: ReadonlySet<string>
  readonly predict: readonly PredictionMapping[]
  readonly merge: MergeOptions
  readonly keepFailedRunChanges: boolean
  readonly hasAgent: boolean
  /** The store persists its thread: a transition that changes the model asks for a write. */
  readonly persists: boolean
  readonly timeoutMs: number | undefined
  /** The blank thread a reset returns to. */
  readonly initial: AgentSnapshot<S>
  readonly messagesForServer: (messages: readonly Message[]) => Message[]
  /** How a forked run is sent (tree.ts). */
  readonly branching: Branching
}

/** The caches beside the model. */
export interface Memo<S> {
  /** One incremental reader per streaming mapped tool call; `consumed` is the argument text it has read. */
  readonly readers: Map<string, { reader: PartialJsonReader; consumed: number }>
  /** The config's rules as state/ takes them, with the size of the last state measured, which state/ keeps in them. */
  readonly rules: StateRules<S>
}

export function machineConfig<S>(from: AgentStoreOptions<S>, initial: AgentSnapshot<S>): MachineConfig<S> {
  return {
    rules: Object.freeze(stateRules(from)),
    confirmTools: new Set(from.confirmTools ?? ['confirm_changes']),
    predict: [...(from.predict ?? [])],
    merge: { arrayKeys: from.arrayKeys ?? ['id', 'key'] },
    keepFailedRunChanges: from.keepFailedRunChanges ?? false,
    hasAgent: from.agent !== undefined || from.url !== undefined,
    persists: Boolean(from.persist),
    timeoutMs: from.timeoutMs,
    initial,
    messagesForServer,
    branching: from.branching ?? 'history',
  }
}

export const createMemo = <S>(config: MachineConfig<S>): Memo<S> => ({ readers: new Map(), rules: { ...config.rules } })

export const stateRules = <S>(from: AgentStoreOptions<S>): StateRules<S> => ({
  limits: { ...defaultLimits, ...from.limits },
  validate: toValidator(from.validate),
})
