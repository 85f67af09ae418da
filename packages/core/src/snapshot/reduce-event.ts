import type { BaseEvent, Event } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { EventType } from '../event-types'
import { defaultLimits } from '../limits'
import { isObjectLike } from '../state/protocol-shapes'
import { checkEventValues } from '../state/value-limits'
import type { AgentSnapshot, AgentStoreLimits } from '../types'
import { reduceActivityDelta, reduceActivitySnapshot } from './activities'
import { checkHotEvent } from './event-check'
import { eventShapes } from './event-shapes'
import { reduceRunError, reduceRunFinished, reduceRunStarted, reduceStepFinished, reduceStepStarted } from './lifecycle'
import {
  appendContent,
  endMessage,
  invalidEvent,
  reduceMessagesSnapshot,
  reduceTextMessageStart,
  reduceToolCallArgs,
  reduceToolCallEnd,
  reduceToolCallResult,
  reduceToolCallStart,
} from './messages'
import { reduceReasoningEncryptedValue, reduceReasoningMessageStart } from './reasoning'
import { reduceSubagentError, reduceSubagentFinished, reduceSubagentStarted } from './subagents'

// Each known type to its constant. JSON.parse leaves strings of more than a few characters out of
// V8's string table, so an event's `type` equals a constant only character by character; the
// constant this lookup returns compares by identity in the checks below.
const knownTypes = new Map<string, EventType>(Object.values(EventType).map((type) => [type, type]))

/**
 * Checks an event from outside against AG-UI's shapes (@ag-ui/core's schemas, rule for rule), and
 * returns its type as the protocol's own constant, which the machine compares by identity wherever it asks what an event
 * is. Returns undefined for an event type the protocol does not know (ignored without harm);
 * throws INVALID_EVENT for a malformed one, and LIMIT_EXCEEDED for one that brings a value deeper
 * or larger than the store keeps.
 */
export function checkedType(event: unknown, limits: AgentStoreLimits = defaultLimits): EventType | undefined {
  const type = isObjectLike(event) ? event.type : undefined
  if (typeof type !== 'string') throw new AgentStoreError('INVALID_EVENT', 'An AG-UI event must be an object with a string "type"')
  const known = knownTypes.get(type)
  if (known === undefined) return undefined
  const fields = event as Record<string, unknown> & { type: string }
  // Reasoning streams by the token like text, and its schema is TEXT_MESSAGE_CONTENT's rule for rule.
  const hot = checkHotEvent(known === EventType.REASONING_MESSAGE_CONTENT ? EventType.TEXT_MESSAGE_CONTENT : known, fields)
  if (hot) throw invalidEvent(fields, `Malformed ${type} event at ${hot}`)
  const misfit = hot === null ? eventShapes[known](event) : undefined
  if (misfit) throw invalidEvent(fields, `Malformed ${type} event${misfit.path.length ? ` at ${misfit.path.join('.')}` : ''}: ${misfit.message}`)
  // A streamed token's delta is a string: only its metadata, rarely there, can bring a deep value.
  if (hot === undefined && fields.metadata === undefined) return known
  // The event itself stays as it came: values keep their identity and nothing is cloned.
  const exceeded = checkEventValues(known, fields, limits)
  if (exceeded) throw exceeded
  return known
}

type Reducer<E> = <S>(snapshot: AgentSnapshot<S>, event: E, limits: AgentStoreLimits) => AgentSnapshot<S>

/**
 * The reducer of each event type that changes messages or the lifecycle, but the three streamed
 * ones that reduceEvent calls directly. STATE_* (the shell's), REASONING_START / REASONING_END
 * (spans), CUSTOM and RAW have none; listeners still see them through onEvent. Nor do the chunks:
 * the machine expands each into its long forms (chunks.ts), which pass their own reducers.
 */
const reducers: { [T in EventType]?: Reducer<Extract<Event, { type: T }>> } = {
  TEXT_MESSAGE_START: reduceTextMessageStart,
  TEXT_MESSAGE_END: endMessage,
  TOOL_CALL_START: reduceToolCallStart,
  TOOL_CALL_END: reduceToolCallEnd,
  TOOL_CALL_RESULT: reduceToolCallResult,
  MESSAGES_SNAPSHOT: reduceMessagesSnapshot,
  ACTIVITY_SNAPSHOT: reduceActivitySnapshot,
  ACTIVITY_DELTA: reduceActivityDelta,
  RUN_STARTED: reduceRunStarted,
  RUN_FINISHED: reduceRunFinished,
  RUN_ERROR: reduceRunError,
  STEP_STARTED: reduceStepStarted,
  STEP_FINISHED: reduceStepFinished,
  REASONING_MESSAGE_START: reduceReasoningMessageStart,
  REASONING_MESSAGE_END: endMessage,
  REASONING_ENCRYPTED_VALUE: reduceReasoningEncryptedValue,
  SUBAGENT_STARTED: reduceSubagentStarted,
  SUBAGENT_FINISHED: reduceSubagentFinished,
  SUBAGENT_ERROR: reduceSubagentError,
}

/**
 * The messages and lifecycle of one event, into one snapshot: pure, and throws AgentStoreError
 * rather than half-applying anything. State events are the store's (they pass through drafts and
 * edits); `limits` bound activity content as they bound state.
 */
export function reduceEvent<S>(snapshot: AgentSnapshot<S>, event: Event, limits: AgentStoreLimits = defaultLimits): AgentSnapshot<S> {
  // The events that stream by the thousand are reduced by a direct call, which costs them less than one through the table.
  if (event.type === EventType.TEXT_MESSAGE_CONTENT || event.type === EventType.REASONING_MESSAGE_CONTENT) return appendContent(snapshot, event)
  if (event.type === EventType.TOOL_CALL_ARGS) return reduceToolCallArgs(snapshot, event)
  const reduce = reducers[event.type] as Reducer<Event> | undefined
  return reduce === undefined ? snapshot : reduce(snapshot, event, limits)
}

export type { BaseEvent }
