// The persistence fuzz's promises over real HTTP, shorter: a store on an HttpAgent against an AG-UI
// server on 127.0.0.1 that finishes, asks through an interrupt, answers HTTP 503 or drops the
// stream, while the user runs, answers and edits (an edit made while the request is on its way).
// After each request: nothing the user set is lost, live or after a reload from storage, the
// reload shows the same confirmations, and nothing is left running.

import type { ServerResponse } from 'node:http'
import { HttpAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgUiServer, type TestServer } from '../../../../test/support/agui-server'
import { createAgentStore, persistThread, restoreThread } from '../../src'
import { MapStorage } from '../threads/support-threads'
import { scriptFor } from './persistence-world'

type Doc = Record<string, unknown>
type Reply = 'finish' | 'interrupt' | 'http 503' | 'drop'
const initialState: Doc = { document: 'first' }
// Each case makes up to 8 requests over loopback: FUZZ_RUNS counts for a fiftieth here.
const NUM_RUNS = Math.max(1, Math.round(process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) / 50 : 20))

let server: TestServer
/** What the server does with its next requests, in order. */
const replies: Reply[] = []
let count = 0

function reply(input: RunAgentInput, response: ServerResponse): readonly BaseEvent[] | undefined {
  const next = replies.shift() ?? 'finish'
  const n = ++count
  if (next === 'http 503') {
    response.writeHead(503, { 'Content-Type': 'text/plain' })
    response.end('busy')
    return undefined
  }
  if (next === 'drop') return scriptFor('finish', input, n, undefined).slice(0, 3)
  return scriptFor(next, input, n, undefined)
}

beforeAll(async () => {
  server = await startAgUiServer([reply])
})
afterAll(() => server.close())

const step = fc.record({
  answer: fc.constantFrom('approve', 'reject', 'cancel') as fc.Arbitrary<'approve' | 'reject' | 'cancel'>,
  reply: fc.constantFrom<Reply>('finish', 'interrupt', 'http 503', 'drop'),
  edit: fc.boolean(),
})

describe('persistence over real HTTP', () => {
  it(
    'runs, answers and edits against a server that finishes, interrupts, fails or drops: nothing set is lost, live or after a reload',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
          const storage = new MapStorage()
          const threadId = `http-${++count}`
          const agent = new HttpAgent({ url: server.url, threadId })
          const store = createAgentStore<Doc>({ agent, initialState, threadId, persist: persistThread({ storage, throttleMs: 0 }), onError: () => {} })
          let note: string | undefined
          for (const { answer, reply: next, edit } of steps) {
            replies.length = 0
            replies.push(next)
            const open = store.getState().confirmations
            const request = open.length > 0 ? store[answer]({ id: open[0]!.id }) : store.run({ message: 'go' })
            // Made while the request waits for its first event.
            if (edit) {
              note = `note ${++count}`
              store.setState((previous) => ({ ...previous, note }))
            }
            await request.catch(() => {})
            await new Promise((resolve) => setTimeout(resolve, 0))
            const now = store.getState()
            expect(now.status).not.toBe('running')
            if (note !== undefined) expect(now.state.note).toBe(note)
            const text = storage.items.get('agent-state')
            const back = createAgentStore<Doc>({ initialState, threadId, ...(text ? { restore: restoreThread(JSON.parse(text)) } : {}) }).getState()
            expect(back.status).not.toBe('running')
            if (note !== undefined) expect(back.state.note).toBe(note)
            expect(back.confirmations.map((c) => c.id)).toEqual(now.confirmations.map((c) => c.id))
          }
        }),
        { numRuns: NUM_RUNS, seed: 2122 },
      )
    },
    Math.max(30_000, NUM_RUNS * 1_000),
  )
})
