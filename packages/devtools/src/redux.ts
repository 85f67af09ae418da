import { type Model, storeInternals } from '@agent-state/core/internals'
import { inputType } from './describe'

// The Redux DevTools browser extension's documented API (`window.__REDUX_DEVTOOLS_EXTENSION__.connect`):
// each input is an action whose state is the snapshot after it; a jump in the extension puts the store there.

export interface ReduxDevtoolsMessage {
  type: string
  payload?: { type?: string; actionId?: number; index?: number }
  state?: string
}

export interface ReduxDevtoolsConnection {
  init(state: unknown): void
  send(action: { type: string; payload?: unknown }, state: unknown): void
  subscribe(listener: (message: ReduxDevtoolsMessage) => void): (() => void) | undefined
  unsubscribe?(): void
}

export interface ReduxDevtoolsExtension {
  connect(options: { name?: string; maxAge?: number }): ReduxDevtoolsConnection
}

export interface ReduxDevtoolsOptions {
  /** The instance name shown in the extension. */
  name?: string
  /** Actions the extension keeps, and models kept here to jump to (default 50, the extension's own default). */
  maxAge?: number
}

/** Connects the store to the Redux DevTools extension; with no extension it does nothing. Returns the disconnect. */
export function connectReduxDevtools(store: object, { name = 'agent-state', maxAge = 50 }: ReduxDevtoolsOptions = {}): () => void {
  const extension = (globalThis as { __REDUX_DEVTOOLS_EXTENSION__?: ReduxDevtoolsExtension }).__REDUX_DEVTOOLS_EXTENSION__
  if (!extension) return () => {}
  const internals = storeInternals(store)
  const connection = extension.connect({ name, maxAge })
  // The extension numbers actions from 1 (0 is the initial state); the models of the last `maxAge` are kept.
  const models = new Map<number, Model<unknown>>([[0, internals.model()]])
  let nextId = 1
  let jumping = false
  connection.init(internals.model().snapshot)
  const unobserve = internals.observe((input, _before, after) => {
    if (jumping) return
    const id = nextId++
    models.set(id, after)
    models.delete(id - maxAge - 1)
    connection.send({ type: inputType(input), payload: input }, after.snapshot)
  })
  const unsubscribe = connection.subscribe((message) => {
    if (message.type !== 'DISPATCH') return
    const kind = message.payload?.type
    if (kind !== 'JUMP_TO_STATE' && kind !== 'JUMP_TO_ACTION') return
    const model = models.get(message.payload?.actionId ?? message.payload?.index ?? -1)
    if (!model) return
    // The abort that cancels a request in flight is part of the jump, not a new action.
    jumping = true
    try {
      internals.replace(model)
    } finally {
      jumping = false
    }
  })
  return () => {
    unobserve()
    unsubscribe?.()
    connection.unsubscribe?.()
  }
}
