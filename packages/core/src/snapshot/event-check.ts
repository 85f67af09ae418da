// The three event types that stream by the thousand are checked by hand, which costs less per
// token than the shape combinators of event-shapes.ts, rule for rule as @ag-ui/core's schemas
// check them and in the store's own shorter wording; test/event-check.property.test.ts compares
// them with the schemas on random input. Every other event type goes through event-shapes.ts.

import { OPS } from '../json/json-patch'
import { pointerPattern } from '../state/protocol-shapes'

type Fields = Record<string, unknown>

/** The fields every event may carry: `timestamp`, `rawEvent`, `metadata`, `subagentRunId`. */
function checkBase(event: Fields): string | undefined {
  const { timestamp, rawEvent, metadata, subagentRunId } = event
  if (timestamp !== undefined && !Number.isSafeInteger(timestamp)) return 'timestamp: expected an integer'
  if (rawEvent === null) return 'rawEvent: must not be null'
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) return 'metadata: expected an object'
  if (subagentRunId !== undefined && typeof subagentRunId !== 'string') return 'subagentRunId: expected a string'
  return undefined
}

function checkOperation(op: unknown, index: number): string | undefined {
  if (typeof op !== 'object' || op === null || Array.isArray(op)) return `delta.${index}: expected an object`
  const { op: name, path, from, value } = op as Fields
  if (typeof name !== 'string' || !OPS.has(name)) return `delta.${index}.op: invalid operation`
  if (typeof path !== 'string' || !pointerPattern.test(path)) return `delta.${index}.path: invalid JSON pointer`
  if ((name === 'move' || name === 'copy') && (typeof from !== 'string' || !pointerPattern.test(from))) return `delta.${index}.from: invalid JSON pointer`
  if ((name === 'add' || name === 'replace' || name === 'test') && value === undefined) return `delta.${index}.value: required`
  return undefined
}

const stringField = (event: Fields, field: string) => (typeof event[field] === 'string' ? undefined : `${field}: expected a string`)

/** Problems with a hot event, as the schema would report them; undefined when it is valid. Null for other types. */
export function checkHotEvent(type: string, event: Fields): string | undefined | null {
  switch (type) {
    case 'TEXT_MESSAGE_CONTENT':
      return checkBase(event) ?? stringField(event, 'messageId') ?? stringField(event, 'delta')
    case 'TOOL_CALL_ARGS':
      return checkBase(event) ?? stringField(event, 'toolCallId') ?? stringField(event, 'delta')
    case 'STATE_DELTA': {
      const base = checkBase(event)
      if (base) return base
      const { delta } = event
      if (!Array.isArray(delta)) return 'delta: expected an array'
      for (let i = 0; i < delta.length; i++) {
        const problem = checkOperation(delta[i], i)
        if (problem) return problem
      }
      return undefined
    }
    default:
      return null
  }
}
