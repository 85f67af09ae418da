// An answer is given back when its request ends before the resumed run's first event (abort(), an
// HTTP or network error, a timeout, a reload): the confirmations reopen as they were. What the user
// edited meanwhile (while the request waited, or between two answers) is theirs and stays, as it
// does when an ordinary run is aborted.
import { AbstractAgent, HttpAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { startAgUiServer, type TestServer } from '../../../test/support/agui-server'
import { type AgentStore, createAgentStore, persistThread, restoreThread, type SerializedThread, serializeThread } from '../src'
import { ev } from './helpers'
import { DrivenAgent, done, interrupt, interruptOnW1, settled, until, writeDocument } from './support/scenarios'

type Doc = Record<string, unknown>

const initialState: Doc = { document: 'before', title: '' }
const predict = ev.custom('PredictState', [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }])

/** Run 1 drafts `document` and asks for the interrupts given; every later request waits, silent, until the test ends it. */
class AnsweringAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  private waiting: Subscriber<BaseEvent> | undefined

  constructor(private readonly interrupts: Record<string, unknown>[]) {
    super()
  }

  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    const first = this.inputs.length === 1
    return new Observable<BaseEvent>((subscriber) => {
      if (!first) {
        this.waiting = subscriber
        return
      }
      for (const event of [
        ev.runStarted(input.runId),
        predict,
        ev.toolStart('w1', 'write_document', 'm1'),
        ev.toolArgs('w1', '{"document":"draft text"}'),
        ev.toolEnd('w1'),
        ev.runFinished(input.runId, 't1', { type: 'interrupt', interrupts: this.interrupts }),
      ])
        subscriber.next(event)
      subscriber.complete()
    })
  }

  /** The waiting request fails as a dropped connection does. */
  fail() {
    this.waiting?.error(new Error('socket hang up'))
  }

  /** The waiting request's run starts and finishes. */
  finish() {
    const input = this.inputs.at(-1)!
    this.waiting?.next(ev.runStarted(input.runId))
    this.waiting?.next(ev.runFinished(input.runId))
    this.waiting?.complete()
  }
}

const onDocument = { id: 'i1', reason: 'tool_call', toolCallId: 'w1' }
const askTitle = { id: 'i2', reason: 'input_required', message: 'Which title?' }

async function waitingFor(interrupts: Record<string, unknown>[]) {
  const agent = new AnsweringAgent(interrupts)
  const errors: string[] = []
  const store = createAgentStore<Doc>({ agent, initialState, threadId: 't1', onError: (error) => errors.push(error.code) })
  await store.run({ message: 'write' })
  expect(store.getState()).toMatchObject({ status: 'interrupted', state: { document: 'draft text' }, committed: { document: 'before' } })
  return { agent, store, errors, asked: store.getState() }
}

type Ending = 'abort' | 'failed' | 'timeout'

/** Ends the answer's request before its first event, the way `ending` says; resolves when the store has let it go. */
async function giveBack(store: AgentStore<Doc>, agent: AnsweringAgent, answering: Promise<void>, ending: Ending) {
  if (ending === 'abort') store.abort()
  if (ending === 'failed') agent.fail()
  await answering
}

const answerOptions = (ending: Ending) => (ending === 'timeout' ? { timeoutMs: 30 } : undefined)

describe('an edit made while the answer waits for its first event', () => {
  for (const ending of ['abort', 'failed', 'timeout'] as Ending[]) {
    it(`${ending}: the confirmation reopens with the draft held, and the edit stays in the view and in what is committed`, async () => {
      const { agent, store, asked } = await waitingFor([onDocument])
      const answering = store.approve({ id: 'i1', ...answerOptions(ending) })
      expect(store.getState().status).toBe('running')
      store.setState((state) => ({ ...state, title: 'mine' }))
      expect(store.getState().state).toStrictEqual({ document: 'draft text', title: 'mine' })
      await giveBack(store, agent, answering, ending)

      const after = store.getState()
      expect(after.status).toBe('interrupted')
      expect(after.error?.code).toBe(ending === 'abort' ? undefined : 'TRANSPORT')
      expect(after.confirmations).toStrictEqual(asked.confirmations)
      expect(after.state).toStrictEqual({ document: 'draft text', title: 'mine' })
      expect(after.committed).toStrictEqual({ document: 'before', title: 'mine' })
      expect(after.predictions.map((p) => [p.stateKey, p.value])).toStrictEqual([['document', 'draft text']])

      // Answering again sends the edit with the approved draft.
      const again = store.approve({ id: 'i1' })
      expect(agent.inputs.at(-1)!.state).toStrictEqual({ document: 'draft text', title: 'mine' })
      agent.finish()
      await again
      expect(store.getState()).toMatchObject({ status: 'idle', committed: { document: 'draft text', title: 'mine' } })
    })
  }

  it('an edit of the drafted key itself wins over the draft it reopens: the user’s value is shown and committed', async () => {
    const { agent, store } = await waitingFor([onDocument])
    const answering = store.approve({ id: 'i1' })
    store.setState((state) => ({ ...state, document: 'my own text' }))
    await giveBack(store, agent, answering, 'abort')
    const after = store.getState()
    expect(after.status).toBe('interrupted')
    expect(after.state).toStrictEqual({ document: 'my own text', title: '' })
    expect(after.committed).toStrictEqual({ document: 'my own text', title: '' })
    expect(after.predictions).toStrictEqual([])
  })

  it('a reload in that window: the saved thread holds the edit, and the restored store shows and sends it', async () => {
    const { agent, store, asked } = await waitingFor([onDocument])
    const answering = store.approve({ id: 'i1' })
    store.setState((state) => ({ ...state, title: 'mine' }))
    const saved = JSON.parse(JSON.stringify(serializeThread(store))) as SerializedThread
    store.abort()
    await answering

    const next = new AnsweringAgent([onDocument])
    next.inputs.push(agent.inputs[0]!)
    const reloaded = createAgentStore<Doc>({ agent: next, initialState, threadId: 't1', restore: restoreThread(saved) })
    const shown = reloaded.getState()
    expect(shown.status).toBe('interrupted')
    expect(shown.confirmations).toStrictEqual(asked.confirmations)
    expect(shown.state).toStrictEqual({ document: 'draft text', title: 'mine' })
    expect(shown.committed).toStrictEqual({ document: 'before', title: 'mine' })
    // Saved again after the reload, it still holds the edit.
    const twice = createAgentStore<Doc>({ initialState, threadId: 't1', restore: restoreThread(JSON.parse(JSON.stringify(serializeThread(reloaded)))) })
    expect(twice.getState().state).toStrictEqual({ document: 'draft text', title: 'mine' })
    const again = reloaded.approve({ id: 'i1' })
    expect(next.inputs.at(-1)!.state).toStrictEqual({ document: 'draft text', title: 'mine' })
    next.finish()
    await again
  })

  it('a page persisted to a storage and closed in that window: the next page restores the confirmation and the edit from the storage', async () => {
    const items = new Map<string, string>()
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    }
    const agent = new AnsweringAgent([onDocument])
    const store = createAgentStore<Doc>({ agent, initialState, threadId: 't1', persist: persistThread({ storage, throttleMs: 0 }) })
    await store.run({ message: 'write' })
    const asked = store.getState()
    void store.approve({ id: 'i1' })
    store.setState((state) => ({ ...state, title: 'mine' }))
    await new Promise((resolve) => setTimeout(resolve, 0))
    // The page closes here: the request never ends on this page.
    const next = createAgentStore<Doc>({
      agent: new AnsweringAgent([onDocument]),
      initialState,
      threadId: 't1',
      persist: persistThread({ storage, throttleMs: 0 }),
    })
    expect(next.getState()).toMatchObject({
      status: 'interrupted',
      state: { document: 'draft text', title: 'mine' },
      committed: { document: 'before', title: 'mine' },
    })
    expect(next.getState().confirmations).toStrictEqual(asked.confirmations)
    store.abort()
  })
})

describe('an edit made between two answers', () => {
  for (const ending of ['abort', 'failed', 'timeout'] as Ending[]) {
    it(`${ending}: both confirmations reopen, and the edit made after the first answer stays`, async () => {
      const { agent, store, asked } = await waitingFor([onDocument, askTitle])
      await store.approve({ id: 'i1' })
      expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i2'])
      store.setState((state) => ({ ...state, title: 'mine' }))
      const answering = store.respond({ id: 'i2', payload: { title: 'theirs' }, ...answerOptions(ending) })
      expect(store.getState().status).toBe('running')
      await giveBack(store, agent, answering, ending)

      const after = store.getState()
      expect(after.status).toBe('interrupted')
      expect(after.confirmations).toStrictEqual(asked.confirmations)
      expect(after.state).toStrictEqual({ document: 'draft text', title: 'mine' })
      expect(after.committed).toStrictEqual({ document: 'before', title: 'mine' })

      await store.approve({ id: 'i1' })
      const again = store.respond({ id: 'i2', payload: { title: 'theirs' } })
      expect(agent.inputs.at(-1)!.state).toStrictEqual({ document: 'draft text', title: 'mine' })
      expect(agent.inputs.at(-1)!.resume?.map((entry) => entry.interruptId)).toStrictEqual(['i1', 'i2'])
      agent.finish()
      await again
    })
  }

  it('a reload between the answers, then the second answer given back: the edit stays', async () => {
    const { agent, store } = await waitingFor([onDocument, askTitle])
    await store.approve({ id: 'i1' })
    store.setState((state) => ({ ...state, title: 'mine' }))
    const reloaded = createAgentStore<Doc>({ agent, initialState, threadId: 't1', restore: restoreThread(JSON.parse(JSON.stringify(serializeThread(store)))) })
    expect(reloaded.getState().state).toStrictEqual({ document: 'draft text', title: 'mine' })
    const answering = reloaded.respond({ id: 'i2', payload: { title: 'theirs' } })
    reloaded.abort()
    await answering
    expect(reloaded.getState().state).toStrictEqual({ document: 'draft text', title: 'mine' })
    expect(reloaded.getState().committed).toStrictEqual({ document: 'before', title: 'mine' })
  })
})

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('a resumed request that ends before its first event', () => {
  it('an HTTP 503 gives the answer back: confirmation reopened, draft held, approve() resends', async () => {
    server = await startAgUiServer([
      (input) => [ev.runStarted(input.runId), ...writeDocument(), ...interruptOnW1(input)],
      (_input, response) => {
        response.writeHead(503, { 'Content-Type': 'text/plain' })
        response.end('busy')
      },
      done,
    ])
    const agent = new HttpAgent({ url: server.url, threadId: 't-503' })
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    await store.run()
    const before = store.getState()
    expect(before.confirmations).toHaveLength(1)
    expect(await settled(store.approve())).toBe('resolved')
    const failed = store.getState()
    expect(failed.status).toBe('interrupted')
    expect(failed.error).toMatchObject({ code: 'TRANSPORT', status: 503 })
    expect(failed.confirmations).toStrictEqual(before.confirmations)
    expect(failed.state).toStrictEqual({ document: 'draft text' })
    expect(failed.committed).toStrictEqual({ document: 'before' })
    expect(failed.predictions).toStrictEqual(before.predictions)
    expect(failed.messages).toStrictEqual(before.messages)
    await store.approve()
    expect(server.requests).toHaveLength(3)
    expect(server.requests[2]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
    expect(server.requests[2]!.resume).toStrictEqual(server.requests[1]!.resume)
    expect(server.requests[2]!.state).toStrictEqual({ document: 'draft text' })
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, committed: { document: 'draft text' }, confirmations: [] })
  })

  it('a network error, abort() or a timeout gives the answer back: the confirmation reopens; answering again resends', async () => {
    type Failure = 'network' | 'abort' | 'timeout'
    for (const failure of ['network', 'abort', 'timeout'] as Failure[]) {
      const held: (() => void)[] = []
      server = await startAgUiServer([
        (input) => [ev.runStarted(input.runId), ...writeDocument(), ...interruptOnW1(input)],
        (_input, response) => {
          if (failure === 'network') response.socket?.destroy()
          // abort / timeout: no headers, ever (until the server closes).
          else held.push(() => response.destroy())
        },
        done,
      ])
      const agent = new HttpAgent({ url: server.url, threadId: `t-${failure}` })
      const store = createAgentStore({ agent, initialState: { document: 'before' } })
      await store.run()
      const before = store.getState()
      // The timeout only for the resumed request: a loaded machine must not time the first run out.
      const answering = failure === 'timeout' ? store.approve({ timeoutMs: 200 }) : store.approve()
      if (failure === 'abort') {
        await until(() => server!.requests.length === 2)
        store.abort()
      }
      expect({ failure, outcome: await settled(answering, 3000) }).toStrictEqual({ failure, outcome: 'resolved' })
      const failed = store.getState()
      expect({ failure, status: failed.status }).toStrictEqual({ failure, status: 'interrupted' })
      if (failure === 'abort') expect(failed.error).toBeUndefined()
      else expect(failed.error).toMatchObject({ code: 'TRANSPORT', ...(failure === 'timeout' ? { reason: 'timeout' } : {}) })
      expect(failed.confirmations).toStrictEqual(before.confirmations)
      expect(failed.state).toStrictEqual({ document: 'draft text' })
      expect(failed.committed).toStrictEqual({ document: 'before' })
      expect(failed.messages).toStrictEqual(before.messages)
      for (const release of held) release()
      await store.approve()
      expect(server.requests).toHaveLength(3)
      expect(server.requests[2]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
      expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], committed: { document: 'draft text' } })
      await server.close()
      server = undefined
    }
  })

  it('a confirm_changes tool message that gets HTTP 503 leaves the conversation as it was; the resend carries one tool message', async () => {
    server = await startAgUiServer([
      (input) => [
        ev.runStarted(input.runId),
        ...writeDocument(),
        ev.toolStart('cc1', 'confirm_changes', 'm1'),
        ev.toolArgs('cc1', JSON.stringify({ function_call_id: 'w1' })),
        ev.toolEnd('cc1'),
        ev.runFinished(input.runId),
      ],
      (_input, response) => {
        response.writeHead(503, { 'Content-Type': 'text/plain' })
        response.end('busy')
      },
      done,
    ])
    const store = createAgentStore({ agent: new HttpAgent({ url: server.url, threadId: 't-cc' }), initialState: { document: 'before' } })
    await store.run()
    const before = store.getState()
    await store.approve()
    expect(store.getState().status).toBe('interrupted')
    expect(store.getState().messages).toStrictEqual(before.messages)
    expect(store.getState().confirmations).toStrictEqual(before.confirmations)
    await store.approve()
    const tool = server.requests[2]!.messages.filter((m) => m.role === 'tool')
    expect(tool.map((m) => [m.toolCallId, m.content])).toStrictEqual([['cc1', '{"accepted":true}']])
    expect(server.requests[2]!.state).toStrictEqual({ document: 'draft text' })
  })

  it('a timeoutMs given with the answer times the resumed request out, and the answer is given back', async () => {
    const agent = new DrivenAgent()
    agent.autoStart = false
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    const first = store.run()
    await until(() => agent.open)
    agent.push(ev.runStarted(agent.input.runId))
    agent.finish(interrupt(agent.input.runId, [{ id: 'i1', reason: 'tool_call' }]))
    await first
    const answered = store.approve({ timeoutMs: 50 })
    expect(await settled(answered)).toBe('resolved')
    expect(agent.inputs).toHaveLength(2)
    expect(store.getState()).toMatchObject({ status: 'interrupted', error: { code: 'TRANSPORT', reason: 'timeout' } })
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i1'])
  })

  it('abort() of a resumed request still waiting for its first event gives the answer back with no error', async () => {
    const agent = new DrivenAgent()
    agent.autoStart = false
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    const first = store.run()
    await until(() => agent.open)
    agent.push(ev.runStarted(agent.input.runId), ...writeDocument())
    agent.finish(interrupt(agent.input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]))
    await first
    const before = store.getState()
    const answered = store.approve()
    await until(() => agent.inputs.length === 2)
    store.abort()
    expect(await settled(answered)).toBe('resolved')
    expect(store.getState()).toMatchObject({ status: 'interrupted', error: undefined })
    expect(store.getState().confirmations).toStrictEqual(before.confirmations)
    expect(store.getState().state).toStrictEqual(before.state)
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
  })

  it('once the first event arrived the answer is delivered: a resumed run that then fails leaves no confirmation to answer again', async () => {
    server = await startAgUiServer([
      (input) => [ev.runStarted(input.runId), ...writeDocument(), ...interruptOnW1(input)],
      (input, response) => {
        response.writeHead(200, { 'Content-Type': 'text/event-stream' })
        // RUN_STARTED, then the stream ends: truncated.
        response.end(`data: ${JSON.stringify(ev.runStarted(input.runId, input.threadId))}\n\n`)
      },
      done,
    ])
    const store = createAgentStore({ agent: new HttpAgent({ url: server.url, threadId: 't-late' }), initialState: { document: 'before' } })
    await store.run()
    expect(await settled(store.approve())).toBe('resolved')
    const snapshot = store.getState()
    expect(snapshot.status).toBe('error')
    expect(snapshot.error).toMatchObject({ code: 'TRANSPORT' })
    expect(snapshot.confirmations).toStrictEqual([])
    // What the server received stays what the next run sends.
    expect(snapshot.committed).toStrictEqual({ document: 'draft text' })
    await expect(store.approve()).rejects.toMatchObject({ code: 'NO_CONFIRMATION' })
    await store.run({ message: 'go on' })
    expect(server.requests).toHaveLength(3)
    expect(server.requests[2]!.resume).toBeUndefined()
    expect(server.requests[2]!.state).toStrictEqual({ document: 'draft text' })
  })
})
