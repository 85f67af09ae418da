// The options given to run() and to an answer (tools, context, forwardedProps) are the store's own
// once given: a later run that sends them again (the run an answer starts, a reconnect) sends what
// was given, whatever the app does to its objects afterwards.
import type { BaseEvent, Context, Tool } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'

const interrupted = (runId: string, ...ids: string[]): BaseEvent[] => [
  ev.runStarted(runId),
  ev.runFinished(runId, 't1', { type: 'interrupt', interrupts: ids.map((id) => ({ id, reason: 'input_required' })) }),
]

function given() {
  const tools: Tool[] = [{ name: 'search', description: 'Searches', parameters: { type: 'object', properties: { q: { type: 'string' } } } }]
  const context: Context[] = [{ description: 'user', value: 'Ada' }]
  const forwardedProps = { mode: 'fast', nested: { level: 1 } }
  return { tools, context, forwardedProps }
}

/** What the app does to its objects after handing them over. */
function mutate({ tools, context, forwardedProps }: ReturnType<typeof given>) {
  tools[0]!.description = 'changed'
  ;(tools[0]!.parameters as { properties: Record<string, unknown> }).properties.q = { type: 'number' }
  tools.push({ name: 'extra', description: 'x', parameters: {} })
  context[0]!.value = 'changed'
  forwardedProps.mode = 'changed'
  forwardedProps.nested.level = 2
}

describe('run options are owned by the store', () => {
  it("the run an answer starts resends run()'s options as they were given", async () => {
    const agent = new ScriptedAgent({ runs: [interrupted('r1', 'i1'), [ev.runStarted('r2'), ev.runFinished('r2')]] })
    const store = createAgentStore({ agent, initialState: {}, threadId: 't1' })
    const options = given()
    await store.run({ message: 'go', ...options })
    mutate(options)
    await store.respond({ payload: { ok: true } })
    const sent = agent.inputs[1]!
    expect(sent.tools).toEqual(given().tools)
    expect(sent.context).toEqual(given().context)
    expect(sent.forwardedProps).toEqual(given().forwardedProps)
  })

  it("an answer's options, kept while other confirmations are open, are sent as they were given", async () => {
    const agent = new ScriptedAgent({ runs: [interrupted('r1', 'i1', 'i2'), [ev.runStarted('r2'), ev.runFinished('r2')]] })
    const store = createAgentStore({ agent, initialState: {}, threadId: 't1' })
    await store.run({ message: 'go' })
    const options = given()
    await store.respond({ id: 'i1', payload: { ok: true }, ...options })
    mutate(options)
    await store.respond({ id: 'i2', payload: { ok: false } })
    const sent = agent.inputs[1]!
    expect(sent.tools).toEqual(given().tools)
    expect(sent.context).toEqual(given().context)
    expect(sent.forwardedProps).toEqual(given().forwardedProps)
    expect(sent.resume).toHaveLength(2)
  })
})
