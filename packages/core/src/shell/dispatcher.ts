import { AgentStoreError, messageOf } from '../errors'
import type { Model } from '../machine/model'
import { type Effect, type Input, type MachineConfig, type Memo, type Step, transition } from '../machine/transition'
import type { AgentSnapshot } from '../types'
import { createListenerSet, type ListenerSet } from './listeners'

// The mailbox: one input at a time through the transition, then the new snapshot published, then
// the effects carried out. An input sent meanwhile (by a listener, an observer or an effect) waits
// in the queue and runs after it, so nothing re-enters a half-done transition; every command's
// promise settles.

/** How a command's promise settles. */
export interface Command {
  resolve(): void
  reject(error: unknown): void
}

/** What carries out each kind of effect, given the input whose step asked for it. */
export type EffectHandlers<S> = { readonly [K in Effect['type']]: (effect: Extract<Effect, { type: K }>, input: Input<S>) => void }

/** Called after every transition with its input and the models around it. */
export type Observer<S> = (input: Input<S>, before: Model<S>, after: Model<S>) => void

export interface Dispatcher<S> {
  model(): Model<S>
  /** `replaying`: an input fed again (the devtools), which opens no request. */
  dispatch(input: Input<S>, command?: Command, replaying?: boolean): void
  /** Shows a model no transition made (a late restore, time travel). */
  publish(model: Model<S>): void
  observe(observer: Observer<S>): () => void
  /** Whether any transition has changed the model. */
  touched(): boolean
}

export interface DispatcherOptions<S> {
  readonly model: Model<S>
  readonly config: MachineConfig<S>
  readonly memo: Memo<S>
  readonly listeners: ListenerSet<AgentSnapshot<S>, AgentSnapshot<S>>
  readonly effects: EffectHandlers<S>
  /** A command whose transition opened a request settles once that request is released. */
  readonly awaitRelease: (requestId: string, settle: () => void) => void
  readonly report: (error: AgentStoreError) => void
}

interface Queued<S> {
  input: Input<S>
  command?: Command
}

export function createDispatcher<S>({ model: start, config, memo, listeners, effects, awaitRelease, report }: DispatcherOptions<S>): Dispatcher<S> {
  let model = start
  let busy = false
  let touched = false
  const queue: Queued<S>[] = []
  // A replay opens no request, so the transition need not refuse one for want of an agent.
  const replayConfig: MachineConfig<S> = { ...config, hasAgent: true }
  // An observer that throws stops the step, as a defect in the devtools should.
  const observers = createListenerSet<Input<S>, { before: Model<S>; after: Model<S> }>((error) => {
    throw error
  })

  function dispatch(input: Input<S>, command?: Command, replaying?: boolean) {
    if (busy) {
      queue.push(command ? { input, command } : { input })
      return
    }
    busy = true
    try {
      step(input, command, replaying)
      for (let next = queue.shift(); next; next = queue.shift()) step(next.input, next.command)
    } finally {
      busy = false
    }
  }

  function step(input: Input<S>, command: Command | undefined, replaying?: boolean) {
    // Resolved here so an observer records the value, which replays, not the function.
    if (input.type === 'setState' && typeof input.update === 'function')
      input = { type: 'setState', update: resolveUpdate(input.update as (previous: S) => S, model.snapshot.state) }
    const before = model
    let result: Step<S>
    try {
      result = transition(model, input, replaying ? replayConfig : config, memo)
    } catch (error) {
      // A defect in the store itself: reported, and no promise is left waiting.
      report(new AgentStoreError('INVALID_STATE', `The store failed to apply ${input.type}: ${messageOf(error)}`, { cause: error }))
      return command?.reject(error)
    }
    if (result.refusal) return command?.reject(result.refusal)
    if (command) settleWhenDone(command, result.effects)
    publish(result.model)
    // A command that changed nothing (abort() when idle, React StrictMode's cleanup) leaves the store untouched.
    if (result.model !== before) touched = true
    if (observers.size > 0) observers.notify(input, { before, after: result.model })
    // By index: nearly every event has no effect, and a for…of sets up an iterator even then (bench/hand-tuned.ts).
    const done = result.effects
    for (let i = 0; i < done.length; i++) perform(done[i]!, input, replaying)
  }

  /** A switch rather than a lookup: each handler is called from a site of its own, which stays monomorphic. */
  function perform(effect: Effect, input: Input<S>, replaying: boolean | undefined) {
    switch (effect.type) {
      case 'show':
        return effects.show(effect, input)
      case 'persist':
        return effects.persist(effect, input)
      case 'start':
        return replaying ? undefined : effects.start(effect, input)
      case 'connect':
        return effects.connect(effect, input)
      case 'release':
        return effects.release(effect, input)
      case 'report':
        return effects.report(effect, input)
    }
  }

  function settleWhenDone(command: Command, done: readonly Effect[]) {
    const opened = done.find((effect) => effect.type === 'start' || effect.type === 'connect')
    if (opened) awaitRelease(opened.requestId, command.resolve)
    else command.resolve()
  }

  function publish(next: Model<S>) {
    const previous = model.snapshot
    model = next
    if (next.snapshot !== previous) listeners.notify(next.snapshot, previous)
  }

  return {
    model: () => model,
    dispatch,
    publish,
    observe: (observer) => observers.add((input, { before, after }) => observer(input, before, after)),
    touched: () => touched,
  }
}

/** The function's value; one that throws becomes a function that throws the same error, which the transition reports. */
function resolveUpdate<S>(update: (previous: S) => S, previous: S): S | (() => S) {
  try {
    return update(previous)
  } catch (error) {
    return () => {
      throw error
    }
  }
}
