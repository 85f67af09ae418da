import { HttpAgent } from '@ag-ui/client'
import type { BaseEvent } from '@ag-ui/core'
import { type AgentStoreError, createAgentStore } from '@agent-state/core'
import { afterEach, describe, expect, it } from 'vitest'
import { startAgUiServer, type TestServer } from './support/agui-server'

// Every TRANSPORT failure says which kind it is as a slug: the prose is the message.

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const e = (event: Record<string, unknown>) => event as unknown as BaseEvent

/** The store's TRANSPORT error after one run against `url`, as the fields a UI matches on. */
async function transportFailure(url: string) {
  const errors: AgentStoreError[] = []
  const store = createAgentStore({ agent: new HttpAgent({ url }), initialState: {}, onError: (error) => errors.push(error) })
  await store.run()
  const error = store.getState().error
  expect(errors).toEqual([error])
  if (error?.code !== 'TRANSPORT') throw new Error(`expected TRANSPORT, got ${error?.code}`)
  return { reason: error.reason, status: error.status, message: error.message }
}

describe('TRANSPORT errors carry a reason slug', () => {
  it('an HTTP error: reason http with the status', async () => {
    server = await startAgUiServer([
      (_input, response) => {
        response.writeHead(503, { 'Content-Type': 'text/plain' })
        response.end('busy')
      },
    ])
    expect(await transportFailure(server.url)).toEqual({ reason: 'http', status: 503, message: 'The agent answered HTTP 503' })
  })

  it('a stream that ends before the run does: reason incomplete', async () => {
    server = await startAgUiServer([(input) => [e({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId })]])
    expect(await transportFailure(server.url)).toEqual({
      reason: 'incomplete',
      status: undefined,
      message: 'The stream ended before RUN_FINISHED or RUN_ERROR',
    })
  })

  it('a server that is not there: reason network', async () => {
    server = await startAgUiServer([])
    const { url } = server
    await server.close()
    server = undefined
    const failure = await transportFailure(url)
    expect(failure).toMatchObject({ reason: 'network', status: undefined })
    expect(failure.message).toMatch(/^The connection to the agent failed: /)
  })
})
