import type { ActivityDeltaEvent, ActivityMessage, ActivitySnapshotEvent } from '@ag-ui/core'
import { AgentStoreError } from '../errors'
import { mergeMetadata } from '../event-types'
import { isPlainObject, measureJson } from '../json/json-value'
import { acceptState, measureError, patchWithin } from '../state/state-rules'
import type { AgentSnapshot, AgentStoreLimits } from '../types'
import { attribution, indexOfMessage, outOfOrder, ownMetadata, withMessage, withMessageMetadata, withMetadata } from './messages'

// Activities are messages with `role: 'activity'`, an `activityType` and structured `content`
// (A2UI surfaces, progress cards). Their content is checked like state (depth, size, plain JSON)
// and patched by the store's own patcher: atomic and structurally shared, like STATE_DELTA.

type Content = ActivityMessage['content']

/** Creates the activity, or replaces its content (`replace`, default true), as @ag-ui/client does. */
export function reduceActivitySnapshot<S>(snapshot: AgentSnapshot<S>, event: ActivitySnapshotEvent, limits: AgentStoreLimits): AgentSnapshot<S> {
  const index = indexOfMessage(snapshot.messages, event.messageId)
  const existing = snapshot.messages[index]
  const replace = event.replace ?? true
  const accepted = (previous: Content | undefined) =>
    acceptState<Content>(previous as Content, event.content, { limits, validate: undefined }, 'ACTIVITY_SNAPSHOT content')
  if (existing?.role === 'activity') {
    if (!replace) return withMessageMetadata(snapshot, index, event)
    const content = accepted(existing.content)
    // The metadata gathered so far stays; the owner is the snapshot's, which re-mints the activity.
    const { subagentRunId: _owner, ...rest } = existing
    const replaced: ActivityMessage = { ...rest, activityType: event.activityType, content, ...attribution(event) }
    return withMessage(snapshot, index, withMetadata(replaced, event))
  }
  // An id held by another kind of message is taken over only by a replacing snapshot.
  if (existing && !replace) return snapshot
  const message: ActivityMessage = {
    id: event.messageId,
    role: 'activity',
    activityType: event.activityType,
    content: accepted(undefined),
    ...attribution(event),
    ...ownMetadata(event),
  }
  return withMessage(snapshot, existing ? index : snapshot.messages.length, message)
}

/** A JSON Patch on an activity's content: all of it or none of it (metadata included). */
export function reduceActivityDelta<S>(snapshot: AgentSnapshot<S>, event: ActivityDeltaEvent, limits: AgentStoreLimits): AgentSnapshot<S> {
  const index = indexOfMessage(snapshot.messages, event.messageId)
  const existing = snapshot.messages[index]
  if (!existing) throw outOfOrder(event, `activity "${event.messageId}", which does not exist`)
  if (existing.role !== 'activity') throw outOfOrder(event, `message "${event.messageId}", which is not an activity`)
  const eventType = event.type
  const on = ` on "${event.messageId}"`
  const result = patchWithin(existing.content, event.patch, limits, { name: eventType, on, details: { eventType } })
  const content = result.value
  // Unchanged content was accepted under these same limits: only a change is checked again.
  if (result.changed) {
    // An activity's content is an object (the schema says so): a patch may not replace it with anything else.
    if (!isPlainObject(content)) throw new AgentStoreError('PATCH_FAILED', `${eventType}${on} would make its content a non-object`, { eventType, path: '' })
    // The patcher bounds depth op by op and refuses values that are not JSON: in practice only the size fails here.
    const measured = measureJson(content, limits.maxDepth, limits.maxStateBytes)
    if (!measured.ok) throw measureError(measured, `${eventType}${on}`, { eventType })
  }
  if (!result.changed && existing.activityType === event.activityType && event.metadata === undefined) return snapshot
  const next = { ...existing }
  next.content = content
  // As @ag-ui/client: the delta's activityType becomes the message's.
  next.activityType = event.activityType
  if (event.metadata !== undefined) next.metadata = mergeMetadata(existing.metadata, event.metadata)
  return withMessage(snapshot, index, next)
}
