import { type Input, type Model, storeInternals } from '@agent-state/core/internals'
import { inputType } from './describe'

// The Redux DevTools browser extension's documented API (`window.__REDUX_DEVTOOLS_EXTENSION__.connect`):
// each input is an action whose state is the snapshot after it; a jump in the extension puts the store there.

/** A message from the extension: a jump is a `DISPATCH` whose payload's `type` is `JUMP_TO_STATE` or `JUMP_TO_ACTION`. */
export interface ReduxDevtoolsMessage {
  type: string
  payload?: { type?: string; actionId?: number; index?: number }
  state?: string
}

/** One instance in the extension, as `ReduxDevtoolsExtension.connect` returns it: the part used here. */
export interface ReduxDevtoolsConnection {
  /** Shows `state` as the instance's initial state. */
  init(state: unknown): void
  /** Adds an action to the instance's list, with the state after it. */
  send(action: { type: string; payload?: unknown }, state: unknown): void
  /** Calls `listener` with each message from the extension; returns the unsubscribe where the extension gives one. */
  subscribe(listener: (message: ReduxDevtoolsMessage) => void): (() => void) | undefined
  /** Removes every listener of this instance. */
  unsubscribe?(): void
}

/** `window.__REDUX_DEVTOOLS_EXTENSION__`: the part `connectReduxDevtools` uses, typed here, so that no types package is needed. */
export interface ReduxDevtoolsExtension {
  /** Opens an instance named `name` that keeps `maxAge` actions. */
  connect(options: { name?: string; maxAge?: number }): ReduxDevtoolsConnection
}

/** `connectReduxDevtools`'s options. */
export interface ReduxDevtoolsOptions {
  /** The instance name shown in the extension. */
  name?: string
  /** Actions the extension keeps, and models kept here to jump to (default 50, the extension's own default). */
  maxAge?: number
  /**
   * Inputs that arrive within this many milliseconds go as one action (default 16; 0: one action per
   * input). The extension serializes the whole state on every send: per token, a long draft would
   * cost its length squared.
   */
  throttleMs?: number
}

/** Connects the store to the Redux DevTools extension; with no extension it does nothing. Returns the disconnect. */
export function connectReduxDevtools(store: object, { name = 'agent-state', maxAge = 50, throttleMs = 16 }: ReduxDevtoolsOptions = {}): () => void {
  const extension = (globalThis as { __REDUX_DEVTOOLS_EXTENSION__?: ReduxDevtoolsExtension }).__REDUX_DEVTOOLS_EXTENSION__
  if (!extension) return () => {}
  const internals = storeInternals(store)
  const connection = extension.connect({ name, maxAge })
  // The extension numbers actions from 1 (0 is the initial state); the models of the last `maxAge` are kept.
  const models = new Map<number, Model<unknown>>([[0, internals.model()]])
  let nextId = 1
  let jumping = false
  let pending: { inputs: Input<unknown>[]; after: Model<unknown> } | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  connection.init(internals.model().snapshot)

  function send(inputs: readonly Input<unknown>[], after: Model<unknown>) {
    const id = nextId++
    models.set(id, after)
    models.delete(id - maxAge - 1)
    const action = inputs.length === 1 ? { type: inputType(inputs[0]!), payload: inputs[0] } : { type: batchType(inputs), payload: inputs }
    connection.send(action, after.snapshot)
  }

  function flush() {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const batch = pending
    pending = undefined
    if (batch) send(batch.inputs, batch.after)
  }

  const unobserve = internals.observe((input, _before, after) => {
    if (jumping) return
    if (throttleMs <= 0) return send([input], after)
    if (pending) {
      pending.inputs.push(input)
      pending.after = after
      return
    }
    pending = { inputs: [input], after }
    timer = setTimeout(flush, throttleMs)
  })
  const unsubscribe = connection.subscribe((message) => {
    if (message.type !== 'DISPATCH') return
    const kind = message.payload?.type
    if (kind !== 'JUMP_TO_STATE' && kind !== 'JUMP_TO_ACTION') return
    const model = models.get(message.payload?.actionId ?? message.payload?.index ?? -1)
    if (!model) return
    // Inputs still waiting were before the jump; the abort that cancels a request in flight is part of the jump.
    flush()
    jumping = true
    try {
      internals.replace(model)
    } finally {
      jumping = false
    }
  })
  return () => {
    if (timer !== undefined) clearTimeout(timer)
    pending = undefined
    unobserve()
    unsubscribe?.()
    connection.unsubscribe?.()
  }
}

/** `event/TOOL_CALL_ARGS ×36, event/TOOL_CALL_END`: the types in a batch, in order, runs counted. */
function batchType(inputs: readonly Input<unknown>[]): string {
  const runs: [string, number][] = []
  for (const input of inputs) {
    const type = inputType(input)
    const last = runs[runs.length - 1]
    if (last?.[0] === type) last[1]++
    else runs.push([type, 1])
  }
  return runs.map(([type, count]) => (count === 1 ? type : `${type} ×${count}`)).join(', ')
}
