import type { BaseEvent, Message } from '@ag-ui/core'
import { type AgentSnapshot, type AgentStoreError, createAgentStore } from '../../src'

// Scenario builders for the event tests: an event written as plain fields, a snapshot to hand a
// reducer, a store after some events, and what a refusal carries.

/** An event as plain fields: the tests send shapes (missing, null or extra fields) the protocol types refuse. */
export const event = <TEvent extends BaseEvent = BaseEvent>(fields: Record<string, unknown>) => fields as unknown as TEvent

/** A fresh store's snapshot holding these messages: the input of a reducer under test. */
export function snapshotHolding<TState = Record<string, unknown>>(...messages: Message[]): AgentSnapshot<TState> {
  return { ...createAgentStore<TState>({ initialState: {} as TState }).getState(), messages }
}

/** A store after these events, with every error it reported. */
export function storeAfter<TState = Record<string, unknown>>(...events: BaseEvent[]) {
  const errors: AgentStoreError[] = []
  const store = createAgentStore<TState>({ initialState: {} as TState, onError: (error) => errors.push(error) })
  if (events.length > 0) store.apply(events)
  return { store, errors }
}

/** Every field a refusal sets, with its message; a call that throws nothing fails the test. */
export function refusalFields(run: () => unknown) {
  try {
    run()
  } catch (error) {
    // The error class declares its optional fields as undefined: keep the ones set.
    const set = Object.entries(error as AgentStoreError).filter(([, value]) => value !== undefined)
    return { ...Object.fromEntries(set), message: (error as Error).message }
  }
  throw new Error('not refused')
}
