import { HttpAgent } from '@ag-ui/client'
import type { BaseEvent } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { afterEach, describe, expect, it } from 'vitest'
import { startAgUiServer, type TestServer } from './support/agui-server'

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const e = (event: Record<string, unknown>) => event as unknown as BaseEvent

describe('over real HTTP + SSE with HttpAgent', () => {
  it('applies the stream and sends the state back on the next run', async () => {
    server = await startAgUiServer([
      (input) => [
        e({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }),
        e({ type: 'STATE_SNAPSHOT', snapshot: { todos: [{ title: 'buy milk', done: false }], seen: input.messages.length } }),
        e({ type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' }),
        e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Added ' }),
        e({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'a todo.' }),
        e({ type: 'TEXT_MESSAGE_END', messageId: 'a1' }),
        e({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId }),
      ],
      (input) => [
        e({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }),
        e({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/todos/0/done', value: true }] }),
        e({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId }),
      ],
    ])
    const agent = new HttpAgent({ url: server.url, threadId: 'thread-http' })
    const store = createAgentStore({ agent, initialState: { todos: [] as { title: string; done: boolean }[], seen: 0 } })

    await store.run({ message: 'add milk' })
    expect(store.getState()).toMatchObject({
      status: 'idle',
      error: undefined,
      threadId: 'thread-http',
      state: { todos: [{ title: 'buy milk', done: false }], seen: 1 },
    })
    expect(store.getState().messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'add milk'],
      ['assistant', 'Added a todo.'],
    ])

    store.setState((s) => ({ ...s, todos: [...s.todos, { title: 'call mum', done: false }] }))
    await store.run({ message: 'mark the first done' })

    const [first, second] = server.requests
    expect(first).toMatchObject({ threadId: 'thread-http', state: { todos: [], seen: 0 }, tools: [], context: [] })
    expect(first!.messages).toEqual([{ id: expect.any(String), role: 'user', content: 'add milk' }])
    // The second request carries the committed state, local edit included, and the whole conversation.
    expect(second!.state).toEqual({
      todos: [
        { title: 'buy milk', done: false },
        { title: 'call mum', done: false },
      ],
      seen: 1,
    })
    expect(second!.messages.map((m) => m.content)).toEqual(['add milk', 'Added a todo.', 'mark the first done'])
    expect(second!.runId).not.toBe(first!.runId)
    expect(store.getState().state.todos).toEqual([
      { title: 'buy milk', done: true },
      { title: 'call mum', done: false },
    ])
  })

  it('ends with a TRANSPORT error and the last good state on HTTP 500, then runs again', async () => {
    server = await startAgUiServer([
      (input) => [
        e({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }),
        e({ type: 'STATE_SNAPSHOT', snapshot: { n: 1 } }),
        e({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId }),
      ],
      (_input, response) => {
        response.writeHead(500, { 'Content-Type': 'text/html' })
        response.end('<html><body>Internal Server Error</body></html>')
      },
      (input) => [
        e({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }),
        e({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: 3 }] }),
        e({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId }),
      ],
    ])
    const store = createAgentStore({ agent: new HttpAgent({ url: server.url }), initialState: { n: 0 } })
    await store.run()
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'error', state: { n: 1 }, error: { code: 'TRANSPORT', status: 500 } })
    expect(store.getState().error!.message).not.toContain('<html>')
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'idle', state: { n: 3 }, error: undefined })
    expect(server.requests.map((r) => r.state)).toEqual([{ n: 0 }, { n: 1 }, { n: 1 }])
  })

  it('abort() cancels a request that is still waiting for headers', async () => {
    let closed = false
    server = await startAgUiServer([
      (_input, response) => {
        response.on('close', () => (closed = true))
        return new Promise<void>(() => {})
      },
    ])
    const store = createAgentStore({ agent: new HttpAgent({ url: server.url }), initialState: {} })
    const done = store.run()
    await waitFor(() => server!.requests.length === 1)
    store.abort()
    await done
    expect(store.getState().status).toBe('idle')
    await waitFor(() => closed)
    expect(closed).toBe(true)
  })
})

async function waitFor(condition: () => boolean, timeoutMs = 5_000) {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
