import type { Message } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { createId } from '../ids'
import { ownCopy, ownEvent } from '../machine/owned'
import type { Input } from '../machine/transition'
import type { AgentStore, AnswerRunOptions, CancelOptions, RunOptions } from '../types'
import type { Dispatcher } from './dispatcher'
import type { AgentLink } from './requests'

// The store's commands, each made into an input: the ids and the time an input needs are made
// here, and the app's objects are copied, so the transition reads neither a clock nor the app's
// later changes. A command whose promise waits settles through the dispatcher.

export type StoreCommands<S> = Pick<
  AgentStore<S>,
  'apply' | 'run' | 'setState' | 'approve' | 'reject' | 'respond' | 'cancel' | 'abort' | 'reconnect' | 'reset' | 'edit' | 'regenerate' | 'switchBranch'
>

export interface CommandOptions<S> {
  readonly dispatcher: Dispatcher<S>
  /** How the store reaches its agent, if it has one. */
  readonly link: AgentLink | undefined
  /** The thread a reset returns to, until a reset starts a new one. */
  readonly threadId: string
  /** What reset() with no state returns to. */
  readonly initialState: S
  readonly report: (error: AgentStoreError) => void
}

export function storeCommands<S>({ dispatcher, link, threadId, initialState, report }: CommandOptions<S>): StoreCommands<S> {
  const { dispatch } = dispatcher
  let home = threadId
  const command = (input: Input<S>) => new Promise<void>((resolve, reject) => dispatch(input, { resolve, reject }))

  const answer = (given: CancelOptions, kind: () => Extract<Input<S>, { type: 'answer' }>['answer']) => {
    // A JavaScript caller of the positional 0.1 form (`approve('c1')`) is told, not answered.
    if (typeof given !== 'object' || given === null || Array.isArray(given))
      return Promise.reject(new AgentStoreError('INVALID_ANSWER', `An answer takes one object, as in approve({ id }): got ${typeof given}`))
    const { id, tools, context, forwardedProps, timeoutMs } = given
    const runOptions: AnswerRunOptions = { tools, context, forwardedProps, timeoutMs }
    const options = hasRunOptions(given) ? ownOptions(runOptions) : undefined
    return command({ type: 'answer', id, answer: kind(), options, now: Date.now(), runId: createId(), messageId: createId() })
  }

  return {
    apply(events) {
      for (const event of Array.isArray(events) ? events : [events]) dispatch({ type: 'event', event: ownEvent(event) })
    },
    run: (runOptions = {}) => command({ type: 'run', runId: createId(), messages: toMessages(runOptions), options: ownOptions(runOptions) }),
    setState: (update) => dispatch({ type: 'setState', update }),
    approve: (given = {}) => answer(given, () => ({ kind: 'approve', edits: given.edits })),
    reject: (given = {}) => answer(given, () => ({ kind: 'reject', reason: given.reason })),
    respond: (given) => answer(given, () => ({ kind: 'respond', payload: given.payload })),
    cancel: (given = {}) => answer(given, () => ({ kind: 'cancel' })),
    abort: () => dispatch({ type: 'abort' }),
    edit: ({ messageId, content, ...options }) =>
      command({ type: 'edit', messageId, content, newMessageId: createId(), runId: createId(), options: ownOptions(options) }),
    regenerate: ({ messageId, ...options } = {}) => command({ type: 'regenerate', messageId, runId: createId(), options: ownOptions(options) }),
    switchBranch: ({ messageId, index }) => command({ type: 'switchBranch', messageId, index }),
    reconnect() {
      const cannot = link ? link.cannotConnect : 'reconnect() needs an agent'
      if (cannot !== undefined) return Promise.reject(new AgentStoreError('RECONNECT', cannot, { reason: 'not-supported' }))
      return command({ type: 'reconnect', requestId: createId() })
    },
    reset(state, resetOptions) {
      // A new conversation on the server too: the agent gets a thread id it has never seen.
      const next = resetOptions?.newThread ? createId() : home
      // A state the transition refuses is thrown to the caller; one queued behind a transition in
      // progress (a reset from a listener) is refused once the caller has returned, and reported.
      let calling = true
      let refusal: unknown
      dispatch(
        { type: 'reset', state: state === undefined ? initialState : state, threadId: next },
        {
          resolve: () => {
            home = next
          },
          reject: (error) => {
            if (calling) refusal = error
            else report(error as AgentStoreError)
          },
        },
      )
      calling = false
      if (refusal !== undefined) throw refusal
    },
  }
}

/** The options a run keeps and may send again (an answer's run resends them). */
const KEPT_OPTIONS = ['tools', 'context', 'forwardedProps'] as const

/** The kept options copied, so the app's objects stay its own; the same object when there are none. */
function ownOptions<T extends RunOptions>(runOptions: T): T {
  let owned = runOptions
  for (const key of KEPT_OPTIONS) {
    if (runOptions[key] !== undefined) owned = { ...owned, [key]: ownCopy(runOptions[key], undefined) }
  }
  return owned
}

/** No run options given: the answer's run keeps those of the run it resumes, as a recording shows. */
const hasRunOptions = (given: AnswerRunOptions) => given.timeoutMs !== undefined || KEPT_OPTIONS.some((key) => given[key] !== undefined)

function toMessages(runOptions: RunOptions): Message[] {
  const added = [...(runOptions.messages ?? [])]
  const { message } = runOptions
  if (typeof message === 'string') added.push({ id: createId(), role: 'user', content: message })
  else if (message) added.push(message)
  return added.map((one) => ownCopy(one, undefined))
}
