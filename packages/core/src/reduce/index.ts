import { type BaseEvent, type Event, EventType } from '@ag-ui/core'
import { EventSchemas } from '@ag-ui/core/schemas'
import { AgentStoreError } from '../errors'
import type { AgentSnapshot } from '../types'
import { checkHotEvent } from './event-check'
import { reduceRunError, reduceRunFinished, reduceRunStarted, reduceStepFinished, reduceStepStarted } from './lifecycle'
import {
  reduceMessagesSnapshot,
  reduceTextMessageContent,
  reduceTextMessageStart,
  reduceToolCallArgs,
  reduceToolCallResult,
  reduceToolCallStart,
} from './messages'

const knownTypes = new Set<string>(Object.values(EventType))

/**
 * Checks an event from outside against @ag-ui/core's schemas. Returns undefined for an event
 * type the protocol does not know (ignored without harm); throws INVALID_EVENT for a malformed one.
 */
export function checkEvent(event: unknown): Event | undefined {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new AgentStoreError('INVALID_EVENT', 'An AG-UI event must be an object with a "type"')
  }
  const type = (event as { type?: unknown }).type
  if (typeof type !== 'string') throw new AgentStoreError('INVALID_EVENT', 'An AG-UI event must have a string "type"')
  if (!knownTypes.has(type)) return undefined
  const hot = checkHotEvent(type, event as Record<string, unknown>)
  if (hot !== null) {
    if (hot === undefined) return event as Event
    throw new AgentStoreError('INVALID_EVENT', `Malformed ${type} event at ${hot}`, { eventType: type })
  }
  const parsed = EventSchemas.safeParse(event)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : ''
    throw new AgentStoreError('INVALID_EVENT', `Malformed ${type} event${where}: ${issue?.message ?? 'invalid'}`, { eventType: type })
  }
  // The event itself, not zod's copy: values keep their identity and nothing is cloned.
  return event as Event
}

/**
 * The messages and lifecycle of one event, into one snapshot: pure, and throws AgentStoreError
 * rather than half-applying anything. State events are the store's (they pass through drafts and edits).
 */
export function reduceEvent<S>(snapshot: AgentSnapshot<S>, event: Event): AgentSnapshot<S> {
  switch (event.type) {
    case EventType.RUN_STARTED:
      return reduceRunStarted(snapshot, event)
    case EventType.RUN_FINISHED:
      return reduceRunFinished(snapshot, event)
    case EventType.RUN_ERROR:
      return reduceRunError(snapshot, event)
    case EventType.STEP_STARTED:
      return reduceStepStarted(snapshot, event)
    case EventType.STEP_FINISHED:
      return reduceStepFinished(snapshot, event)
    case EventType.TEXT_MESSAGE_START:
      return reduceTextMessageStart(snapshot, event)
    case EventType.TEXT_MESSAGE_CONTENT:
      return reduceTextMessageContent(snapshot, event)
    case EventType.TOOL_CALL_START:
      return reduceToolCallStart(snapshot, event)
    case EventType.TOOL_CALL_ARGS:
      return reduceToolCallArgs(snapshot, event)
    case EventType.TOOL_CALL_RESULT:
      return reduceToolCallResult(snapshot, event)
    case EventType.MESSAGES_SNAPSHOT:
      return reduceMessagesSnapshot(snapshot, event)
    default:
      // STATE_*, TEXT_MESSAGE_END, TOOL_CALL_END, CUSTOM, RAW, reasoning and activity events change
      // no messages; listeners still see them through onEvent.
      return snapshot
  }
}

export type { BaseEvent }
