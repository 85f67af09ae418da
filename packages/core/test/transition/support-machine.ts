import type { Message } from '@ag-ui/core'
import { AgentStoreError } from '../../src/errors'
import { defaultLimits } from '../../src/limits'
import { createMemo, type MachineConfig, type Memo } from '../../src/machine/config'
import { initialModel, type Model } from '../../src/machine/model'
import { type Effect, type Input, type Step, transition } from '../../src/machine/transition'
import { blankSnapshot } from '../../src/snapshot/copy'
import { messagesForServer } from '../../src/snapshot/messages'
import { ev } from '../helpers'

// Scenario builders for the transition as the pure function it is: a machine that holds a model
// and steps it, and the models the tests start from (a run dropped, a run interrupted).

export type S = Record<string, unknown>

export const config = (over: Partial<MachineConfig<S>> = {}): MachineConfig<S> => ({
  rules: { limits: { ...defaultLimits }, validate: undefined },
  confirmTools: new Set(['confirm_changes']),
  predict: [],
  merge: { arrayKeys: ['id', 'key'] },
  keepFailedRunChanges: false,
  hasAgent: true,
  persists: false,
  timeoutMs: undefined,
  initial: blankSnapshot('th', { n: 0 } as S),
  messagesForServer,
  branching: 'history',
  ...over,
})

/** A model stepped through the transition, starting from the config's blank thread ({ n: 0 } in thread 'th'). */
export function machine(over: Partial<MachineConfig<S>> = {}) {
  const given = config(over)
  const memo: Memo<S> = createMemo(given)
  let model: Model<S> = initialModel(given.initial)
  let last: Step<S> | undefined
  const step = (input: Input<S>) => {
    last = transition(model, input, given, memo)
    model = last.model
    return last
  }
  return {
    config: given,
    memo,
    step,
    get model() {
      return model
    },
    set model(next: Model<S>) {
      model = next
    },
    /** Events through apply() (no request), or of request `requestId`. */
    events: (events: unknown[], requestId?: string) => events.map((event) => step({ type: 'event', event, ...(requestId ? { requestId } : {}) })),
    run: (runId = 'q1', options: Record<string, unknown> = {}, messages: Message[] = []) => step({ type: 'run', runId, messages, options }),
    failed: (requestId: string, error: AgentStoreError = networkError()) => step({ type: 'failed', requestId, error }),
    get last() {
      return last!
    },
  }
}

export type Machine = ReturnType<typeof machine>

export const release = (requestId: string, how: 'drain' | 'cancel' | 'none'): Effect => ({ type: 'release', requestId, how })

/** The `show` effect: the step took in its event, for the onEvent listeners. */
export const show: Effect = { type: 'show' }

/** The effects of a step without its `show`: what it asks of the requests and the reports. */
export const withoutShow = (step: Step<S>) => step.effects.filter((effect) => effect.type !== 'show')

export const networkError = (message = 'network') => new AgentStoreError('TRANSPORT', message, { reason: 'network' })

/** Run q1 through a request, with its own tools, context and forwardedProps, dropped after its first events: rejoinable. */
export function dropped(over: Partial<MachineConfig<S>> = {}) {
  const m = machine(over)
  m.run('q1', { tools: [{ name: 't', description: 'd', parameters: {} }], context: [{ description: 'c', value: 'v' }], forwardedProps: { f: 1 } })
  m.events([ev.runStarted('srv1'), ev.delta({ op: 'replace', path: '/n', value: 1 })], 'q1')
  m.failed('q1')
  return m
}

/** A run left interrupted by `interrupts`, through apply(). */
export function interrupted(interrupts: Record<string, unknown>[], over: Partial<MachineConfig<S>> = {}) {
  const m = machine(over)
  m.events([ev.runStarted('r1'), ev.runFinished('r1', 't1', { type: 'interrupt', interrupts })])
  return m
}

export const approve = (id: string, runId = 'q2'): Input<S> => ({
  type: 'answer',
  id,
  answer: { kind: 'approve', edits: undefined },
  options: undefined,
  now: 0,
  runId,
  messageId: `m-${runId}`,
})
