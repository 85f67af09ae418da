// Issue 10's regression tests: one per numbered defect of its "Why", one per point of its
// "Behaviour", one per behaviour its mutation run found unpinned, and the maxStateBytes bound.
// Every wait is bounded; every promise the store hands out must settle.
import { AbstractAgent, HttpAgent } from '@ag-ui/client'
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import fc from 'fast-check'
import { Observable, type Subscriber } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { startAgUiServer, type TestServer } from '../../../test/support/agui-server'
import { type AgentSnapshot, AgentStoreError, type AgentStoreOptions, createAgentStore } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'

type Doc = Record<string, unknown>

const predict = (stateKey: string, tool: string, toolArgument?: string) =>
  ev.custom('PredictState', [{ state_key: stateKey, tool, ...(toolArgument ? { tool_argument: toolArgument } : {}) }])
const interrupt = (runId: string, interrupts: Record<string, unknown>[]) => ev.runFinished(runId, 't1', { type: 'interrupt', interrupts })
const done = (input: RunAgentInput): BaseEvent[] => [ev.runStarted(input.runId), ev.runFinished(input.runId)]
/** A document drafted from write_document's `document` argument (call w1). */
const writeDocument = (text = 'draft text', id = 'w1'): BaseEvent[] => [
  predict('document', 'write_document', 'document'),
  ev.toolStart(id, 'write_document', 'm1'),
  ev.toolArgs(id, JSON.stringify({ document: text })),
  ev.toolEnd(id),
]

/** Run 1 drafts `document` and ends as `ending` says; later runs just finish. */
function writerAgent(ending: (input: RunAgentInput) => BaseEvent[], later: ((input: RunAgentInput) => BaseEvent[])[] = [done]) {
  return new ScriptedAgent({ runs: [(input) => [ev.runStarted(input.runId), ...writeDocument(), ...ending(input)], ...later] })
}
const interruptOnW1 = (input: RunAgentInput) => [interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])]

function withErrors<S>(options: AgentStoreOptions<S>) {
  const errors: AgentStoreError[] = []
  const store = createAgentStore<S>({ ...options, onError: (error) => errors.push(error) })
  return { store, errors }
}

/** A promise made inside a listener is checked later: it must not count as unhandled meanwhile. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {})
  return promise
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How a promise ended within `ms`: a promise that never settles is a defect, not a hung test. */
async function settled(promise: Promise<unknown> | undefined, ms = 2000): Promise<'resolved' | 'rejected' | 'pending' | 'none'> {
  if (promise === undefined) return 'none'
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)))
  const outcome = promise.then(
    () => 'resolved' as const,
    () => 'rejected' as const,
  )
  const result = await Promise.race([outcome, timeout])
  clearTimeout(timer)
  return result
}

async function until(condition: () => boolean, ms = 2000) {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await pause(5)
  }
}

/** An agent the test drives by hand; each run starts with RUN_STARTED unless told otherwise. */
class DrivenAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  autoStart = true
  private subscriber: Subscriber<BaseEvent> | undefined
  get open() {
    return this.subscriber !== undefined && !this.subscriber.closed
  }
  get input() {
    return this.inputs[this.inputs.length - 1]!
  }
  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    return new Observable<BaseEvent>((subscriber) => {
      this.subscriber = subscriber
      if (this.autoStart) subscriber.next(ev.runStarted(input.runId, input.threadId))
    })
  }
  push(...events: BaseEvent[]) {
    for (const event of events) this.subscriber?.next(event)
  }
  finish(event?: BaseEvent) {
    this.subscriber?.next(event ?? ev.runFinished(this.input.runId, this.input.threadId))
    this.subscriber?.complete()
  }
  complete() {
    this.subscriber?.complete()
  }
}

const byInterrupt = (entries: readonly { interruptId: string }[] | undefined) => [...(entries ?? [])].sort((a, b) => a.interruptId.localeCompare(b.interruptId))

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('issue 10 defects, each reproduced', () => {
  it('1. reentrancy: approve() from a listener for the second of two interrupts sends one resumed run carrying both answers, and every promise settles', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          interrupt(input.runId, [
            { id: 'a', reason: 'tool_call' },
            { id: 'b', reason: 'input_required' },
          ]),
        ],
        done,
      ],
    })
    const store = createAgentStore({ agent, initialState: {} })
    await store.run()
    let inner: Promise<void> | undefined
    store.subscribe((snapshot) => {
      if (inner === undefined && snapshot.confirmations.length === 1 && snapshot.confirmations[0]!.id === 'b') inner = handled(store.approve({ id: 'b' }))
    })
    const outer = store.approve({ id: 'a' })
    expect(await settled(outer)).toBe('resolved')
    expect(await settled(inner)).toBe('resolved')
    await until(() => store.getState().status === 'idle')
    await pause(30)
    expect(agent.inputs).toHaveLength(2)
    expect(byInterrupt(agent.inputs[1]!.resume)).toStrictEqual([
      { interruptId: 'a', status: 'resolved', payload: { accepted: true } },
      { interruptId: 'b', status: 'resolved', payload: { accepted: true } },
    ])
    expect(store.getState().confirmations).toStrictEqual([])
  })

  it('1. reentrancy: run() from a listener that sees the run end sends exactly one more request, and its promise settles', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore({ agent, initialState: {} })
    let second: Promise<void> | undefined
    store.subscribe((snapshot, previous) => {
      if (second === undefined && previous.status === 'running' && snapshot.status === 'idle') second = handled(store.run({ message: 'again' }))
    })
    expect(await settled(store.run({ message: 'first' }))).toBe('resolved')
    expect(await settled(second)).toBe('resolved')
    await until(() => store.getState().status === 'idle')
    await pause(30)
    expect(agent.inputs).toHaveLength(2)
    expect(agent.inputs[1]!.messages.map((m) => m.content)).toStrictEqual(['first', 'again'])
  })

  it('1. reentrancy: a nested run() from a listener while a run is active is refused with RUN_ACTIVE and sends nothing', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore({ agent, initialState: {} })
    let nested: Promise<void> | undefined
    store.subscribe((snapshot) => {
      if (nested === undefined && snapshot.status === 'running') nested = handled(store.run())
    })
    expect(await settled(store.run())).toBe('resolved')
    expect(await settled(nested)).toBe('rejected')
    await expect(nested).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
    await pause(30)
    expect(agent.inputs).toHaveLength(1)
    expect(store.getState().status).toBe('idle')
  })

  it('2. coherence: a listener that sees `interrupted` after RUN_FINISHED can approve() at once, and the resumed run carries the answer', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    let answered: Promise<void> | undefined
    store.subscribe((snapshot) => {
      if (answered === undefined && snapshot.status === 'interrupted') answered = handled(store.approve())
    })
    expect(await settled(store.run())).toBe('resolved')
    expect(await settled(answered)).toBe('resolved')
    await until(() => agent.inputs.length === 2 && store.getState().status === 'idle')
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'draft text' })
    expect(store.getState().committed).toStrictEqual({ document: 'draft text' })
  })

  it('2. coherence: a listener that sees `idle` (or `error`) after the run ended can run() at once: no RUN_ACTIVE', async () => {
    for (const ending of ['idle', 'error'] as const) {
      const agent = new ScriptedAgent({
        runs: [(input) => [ev.runStarted(input.runId), ending === 'idle' ? ev.runFinished(input.runId) : ev.runError('boom')], done],
      })
      const { store, errors } = withErrors({ agent, initialState: {} })
      let next: Promise<void> | undefined
      store.subscribe((snapshot, previous) => {
        if (next === undefined && previous.status === 'running' && snapshot.status === ending) next = handled(store.run())
      })
      await store.run()
      expect(await settled(next)).toBe('resolved')
      await until(() => agent.inputs.length === 2 && store.getState().status === 'idle')
      expect(errors.filter((error) => error.code === 'RUN_ACTIVE')).toStrictEqual([])
    }
  })

  it('2. coherence: abort() from a listener that sees `interrupted` changes nothing: still interrupted, the confirmation open, the draft held', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    let aborted = false
    store.subscribe((snapshot) => {
      if (!aborted && snapshot.status === 'interrupted') {
        aborted = true
        store.abort()
      }
    })
    await store.run()
    await pause(10)
    expect(aborted).toBe(true)
    const snapshot = store.getState()
    expect(snapshot.status).toBe('interrupted')
    expect(snapshot.confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([['i1', ['document']]])
    expect(snapshot.state).toStrictEqual({ document: 'draft text' })
    expect(snapshot.committed).toStrictEqual({ document: 'before' })
    await store.approve()
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { accepted: true } }])
  })

  it('3. a RUN_ERROR without `message` ends the run: status `error` (INVALID_EVENT), the draft discarded, run() resolves and the next run works', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          predict('document', 'write_document', 'document'),
          ev.toolStart('w1', 'write_document'),
          ev.toolArgs('w1', '{"document":"half'),
          { type: 'RUN_ERROR' } as BaseEvent,
        ],
        done,
      ],
    })
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    expect(await settled(store.run())).toBe('resolved')
    const snapshot = store.getState()
    expect(snapshot.status).toBe('error')
    expect(snapshot.error).toMatchObject({ code: 'INVALID_EVENT' })
    expect(snapshot.state).toStrictEqual({ document: 'before' })
    expect(snapshot.committed).toStrictEqual({ document: 'before' })
    expect(snapshot.predictions).toStrictEqual([])
    expect(await settled(store.run())).toBe('resolved')
    expect(store.getState().status).toBe('idle')
  })

  it('4. an answer whose request fails with HTTP 503 before the run starts is given back: confirmation reopened, draft held, approve() resends', async () => {
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

  it('5. approve({ id, edits: { document } }) on a draft the server deltas wrote replaces the mapped argument: state.document is the edit, not { document: edit }', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          predict('document', 'write_document', 'document'),
          ev.delta({ op: 'replace', path: '/document', value: 'server draft' }),
          interrupt(input.runId, [{ id: 'i1', reason: 'tool_call' }]),
        ],
        done,
      ],
    })
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    await store.run()
    expect(store.getState().state).toStrictEqual({ document: 'server draft' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().confirmations[0]!.stateKeys).toStrictEqual(['document'])
    await store.approve({ id: 'i1', edits: { document: 'edited' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'edited' })
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { document: 'edited', accepted: true } }])
    expect(store.getState().committed).toStrictEqual({ document: 'edited' })
  })

  it('6. cancelling an interrupt that names no call, then approving the one naming w1, commits w1’s draft and sends it', async () => {
    const agent = writerAgent((input) => [
      interrupt(input.runId, [
        { id: 'a', reason: 'tool_call', toolCallId: 'w1' },
        { id: 'b', reason: 'input_required' },
      ]),
    ])
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    await store.run()
    expect(store.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([
      ['a', ['document']],
      ['b', []],
    ])
    await store.cancel({ id: 'b' })
    expect(store.getState().state).toStrictEqual({ document: 'draft text' })
    await store.approve({ id: 'a' })
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'draft text' })
    expect(byInterrupt(agent.inputs[1]!.resume)).toStrictEqual([
      { interruptId: 'a', status: 'resolved', payload: { accepted: true } },
      { interruptId: 'b', status: 'cancelled' },
    ])
  })

  it('7. a user edit of one array element during a run stays on that element when the server inserts an item before it, with no EDIT_CONFLICT', async () => {
    const agent = new DrivenAgent()
    const { store, errors } = withErrors({
      agent,
      initialState: {
        items: [
          { id: 'x', text: 'a' },
          { id: 'y', text: 'b' },
        ],
      },
    })
    const running = store.run()
    await until(() => agent.open)
    store.setState((s) => ({ ...s, items: s.items.map((item) => (item.id === 'y' ? { ...item, text: 'B' } : item)) }))
    agent.push(ev.delta({ op: 'add', path: '/items/0', value: { id: 'w', text: 'new' } }))
    const expected = [
      { id: 'w', text: 'new' },
      { id: 'x', text: 'a' },
      { id: 'y', text: 'B' },
    ]
    expect(store.getState().state.items).toStrictEqual(expected)
    agent.finish()
    await running
    expect(store.getState().committed.items).toStrictEqual(expected)
    expect(errors.filter((e) => e.code === 'EDIT_CONFLICT')).toStrictEqual([])
  })

  it('7. a user’s append survives the server removing another item, and a user’s deletion survives the server inserting one', async () => {
    const agent = new DrivenAgent()
    const initialState = {
      items: [
        { id: 'x', text: 'a' },
        { id: 'y', text: 'b' },
      ],
    }
    const { store, errors } = withErrors({ agent, initialState })
    let running = store.run()
    await until(() => agent.open)
    store.setState((s) => ({ ...s, items: [...s.items, { id: 'u', text: 'mine' }] }))
    agent.push(ev.delta({ op: 'remove', path: '/items/0' }))
    expect(store.getState().state.items).toStrictEqual([
      { id: 'y', text: 'b' },
      { id: 'u', text: 'mine' },
    ])
    agent.finish()
    await running
    running = store.run()
    await until(() => agent.open)
    store.setState((s) => ({ ...s, items: s.items.filter((item) => item.id !== 'y') }))
    agent.push(ev.delta({ op: 'add', path: '/items/0', value: { id: 'w', text: 'new' } }))
    expect(store.getState().state.items).toStrictEqual([
      { id: 'w', text: 'new' },
      { id: 'u', text: 'mine' },
    ])
    agent.finish()
    await running
    expect(agent.inputs).toHaveLength(2)
    expect(agent.inputs[1]!.state).toStrictEqual({
      items: [
        { id: 'y', text: 'b' },
        { id: 'u', text: 'mine' },
      ],
    })
    expect(errors.filter((e) => e.code === 'EDIT_CONFLICT')).toStrictEqual([])
  })

  it('8. the run started by approve() sends the tools, context and forwardedProps of the run it resumes', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore({ agent, initialState: { document: '' } })
    const tools = [{ name: 'pick_color', description: 'Pick a colour', parameters: { type: 'object', properties: {} } }]
    const context = [{ description: 'user', value: 'Ada' }]
    await store.run({ message: 'write', tools, context, forwardedProps: { mode: 'fast' } })
    await store.approve()
    expect(agent.inputs[1]!.tools).toStrictEqual(tools)
    expect(agent.inputs[1]!.context).toStrictEqual(context)
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ mode: 'fast' })
  })

  it('9. a mid-draft STATE_SNAPSHOT holding the old value keeps the draft, wherever the chunk boundary falls (every split)', () => {
    const args = JSON.stringify({ document: 'new text' })
    for (let cut = 0; cut <= args.length; cut++) {
      const store = createAgentStore({ initialState: { document: 'before', other: 0 } })
      store.apply([
        ev.runStarted('r1'),
        predict('document', 'write_document', 'document'),
        ev.toolStart('w1', 'write_document'),
        ...(cut > 0 ? [ev.toolArgs('w1', args.slice(0, cut))] : []),
        ev.snapshot({ document: 'before', other: 1 }),
        ...(cut < args.length ? [ev.toolArgs('w1', args.slice(cut))] : []),
        ev.toolEnd('w1'),
        ev.snapshot({ document: 'before', other: 1 }),
        interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
      ])
      const snapshot = store.getState()
      expect({ cut, state: snapshot.state }).toStrictEqual({ cut, state: { document: 'new text', other: 1 } })
      expect(snapshot.committed).toStrictEqual({ document: 'before', other: 1 })
      expect(snapshot.predictions.map((p) => [p.stateKey, p.value])).toStrictEqual([['document', 'new text']])
      expect(snapshot.confirmations.map((c) => c.stateKeys)).toStrictEqual([['document']])
    }
  })

  it('10. a PredictState after TOOL_CALL_START but before any argument still drafts the key', () => {
    const store = createAgentStore({ initialState: { document: 'before' } })
    store.apply([
      ev.runStarted('r1'),
      ev.toolStart('w1', 'write_document'),
      predict('document', 'write_document', 'document'),
      ev.toolArgs('w1', '{"document":"Hel'),
    ])
    expect(store.getState().state).toStrictEqual({ document: 'Hel' })
    store.apply([ev.toolArgs('w1', 'lo"}'), ev.toolEnd('w1'), interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])])
    expect(store.getState().state).toStrictEqual({ document: 'Hello' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().confirmations[0]!.stateKeys).toStrictEqual(['document'])
  })

  it('11. respond({ id, payload: undefined }) on a confirm_changes call is refused (INVALID_ANSWER), nothing changed, nothing sent', async () => {
    const agent = writerAgent((input) => [
      ev.toolStart('cc1', 'confirm_changes', 'm1'),
      ev.toolArgs('cc1', JSON.stringify({ function_call_id: 'w1' })),
      ev.toolEnd('cc1'),
      ev.runFinished(input.runId),
    ])
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    await store.run()
    const before = store.getState()
    expect(before.confirmations.map((c) => c.id)).toStrictEqual(['cc1'])
    await expect(store.respond({ id: 'cc1', payload: undefined })).rejects.toMatchObject({ code: 'INVALID_ANSWER' })
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
    await store.respond({ id: 'cc1', payload: { accepted: true } })
    const tool = agent.inputs[1]!.messages.filter((m) => m.role === 'tool')
    expect(tool.map((m) => [m.toolCallId, m.content])).toStrictEqual([['cc1', '{"accepted":true}']])
  })

  it('12. approve() edits holding a Date are refused (INVALID_ANSWER) before anything changes: committed stays JSON and later setState works', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run()
    const before = store.getState()
    await expect(store.approve({ edits: { document: new Date(0) } })).rejects.toMatchObject({ code: 'INVALID_ANSWER' })
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
    await store.approve({ edits: { document: 'fine' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'fine' })
    store.setState((s) => ({ ...s, title: 'x' }))
    expect(store.getState().committed).toStrictEqual({ document: 'fine', title: 'x' })
    expect(store.getState().error).toBeUndefined()
  })

  it('13. a draft opened by apply() without a run end is discarded when run() starts; no prediction outlives it', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore({ agent, initialState: { document: 'before' } })
    store.apply([
      ev.runStarted('r0'),
      predict('document', 'write_document', 'document'),
      ev.toolStart('w1', 'write_document'),
      ev.toolArgs('w1', '{"document":"half'),
    ])
    expect(store.getState().predictions).toHaveLength(1)
    await store.run()
    expect(agent.inputs[0]!.state).toStrictEqual({ document: 'before' })
    expect(store.getState().predictions).toStrictEqual([])
    expect(store.getState().state).toStrictEqual({ document: 'before' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().status).toBe('idle')
  })

  it('14. an object passed to apply() is owned by the store: mutating it afterwards changes nothing', () => {
    const store = createAgentStore<Doc>({ initialState: {} })
    const value = { items: [{ id: 'a' }] }
    const message = { id: 'm1', role: 'assistant' as const, content: 'hi' }
    store.apply([ev.snapshot(value), { type: 'MESSAGES_SNAPSHOT', messages: [message] } as BaseEvent, ev.delta({ op: 'add', path: '/extra', value: { n: 1 } })])
    const json = JSON.stringify(store.getState().state)
    // A store that freezes what it owns (development builds) makes these throw instead: also fine.
    try {
      value.items.push({ id: 'b' })
      value.items[0]!.id = 'changed'
      message.content = 'changed'
    } catch {}
    expect(JSON.stringify(store.getState().state)).toBe(json)
    expect(store.getState().state).toStrictEqual({ items: [{ id: 'a' }], extra: { n: 1 } })
    expect(store.getState().messages).toStrictEqual([{ id: 'm1', role: 'assistant', content: 'hi' }])
  })
})

describe('issue 10 behaviour', () => {
  it('reentrancy: approve() and reject() called from listeners during one answer give exactly one resumed run with every answer', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          interrupt(input.runId, [
            { id: 'a', reason: 'tool_call' },
            { id: 'b', reason: 'tool_call' },
            { id: 'c', reason: 'tool_call' },
          ]),
        ],
        done,
      ],
    })
    const store = createAgentStore({ agent, initialState: {} })
    await store.run()
    const promises: Promise<void>[] = []
    // Listeners are called synchronously, inside approve('a'): they answer once each.
    let answered = 0
    store.subscribe((snapshot) => {
      const ids = snapshot.confirmations.map((c) => c.id)
      if (ids.length === 2 && answered === 0) promises.push((answered++, handled(store.reject({ id: 'b' }))))
      else if (ids.length === 1 && answered === 1) promises.push((answered++, handled(store.approve({ id: 'c' }))))
    })
    promises.push(store.approve({ id: 'a' }))
    await until(() => promises.length === 3)
    for (const promise of promises) expect(await settled(promise)).toBe('resolved')
    await until(() => store.getState().status === 'idle')
    await pause(30)
    expect(agent.inputs).toHaveLength(2)
    expect(byInterrupt(agent.inputs[1]!.resume)).toStrictEqual([
      { interruptId: 'a', status: 'resolved', payload: { accepted: true } },
      { interruptId: 'b', status: 'resolved', payload: { accepted: false } },
      { interruptId: 'c', status: 'resolved', payload: { accepted: true } },
    ])
  })

  it('coherence: abort() with no active request changes nothing: same snapshot, no notification, no error', async () => {
    const agent = writerAgent(interruptOnW1)
    const { store, errors } = withErrors({ agent, initialState: { document: 'before' } })
    let notified = 0
    store.subscribe(() => notified++)
    const fresh = store.getState()
    store.abort()
    expect(store.getState()).toBe(fresh)
    await store.run()
    const interrupted = store.getState()
    const count = notified
    store.abort()
    expect(store.getState()).toBe(interrupted)
    expect(notified).toBe(count)
    expect(errors).toStrictEqual([])
    await store.approve()
    const idle = store.getState()
    store.abort()
    expect(store.getState()).toBe(idle)
    expect(idle.status).toBe('idle')
  })

  it('terminal events: a malformed RUN_ERROR or RUN_FINISHED fed to apply() ends the run as `error`, its drafts discarded', () => {
    const malformed: BaseEvent[] = [
      { type: 'RUN_ERROR', code: 42 } as unknown as BaseEvent,
      { type: 'RUN_FINISHED', threadId: 't1', runId: 7 } as unknown as BaseEvent,
    ]
    for (const terminal of malformed) {
      const store = createAgentStore({ initialState: { document: 'before' } })
      store.apply([
        ev.runStarted('r1'),
        predict('document', 'write_document', 'document'),
        ev.toolStart('w1', 'write_document'),
        ev.toolArgs('w1', '{"document":"x'),
      ])
      expect(store.getState().status).toBe('running')
      store.apply(terminal)
      const snapshot = store.getState()
      expect({ type: terminal.type, status: snapshot.status }).toStrictEqual({ type: terminal.type, status: 'error' })
      expect(snapshot.error).toBeInstanceOf(AgentStoreError)
      expect(snapshot.state).toStrictEqual({ document: 'before' })
      expect(snapshot.predictions).toStrictEqual([])
      expect(snapshot.steps).toStrictEqual([])
    }
  })

  it('answers are given back: a resume request that fails with a network error, is aborted, or times out before its first event reopens the confirmation; answering again resends', async () => {
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

  it('answers are given back: a confirm_changes tool message whose request gets HTTP 503 leaves the conversation as it was; the resend carries one tool message', async () => {
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

  it('answers are delivered once the first event arrived: a resumed run that then fails leaves no confirmation to answer again', async () => {
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

  it('approve({ id, edits }): only a `*` mapping merges the edits into the object; a named argument replaces the value', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          ev.custom('PredictState', [
            { state_key: 'recipe', tool: 'update_recipe', tool_argument: '*' },
            { state_key: 'title', tool: 'update_recipe', tool_argument: 'title' },
          ]),
          ev.toolStart('u1', 'update_recipe'),
          ev.toolArgs('u1', JSON.stringify({ title: 'Soup', servings: 2 })),
          ev.toolEnd('u1'),
          interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'u1' }]),
        ],
        done,
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: { recipe: { title: 'Old', servings: 1 }, title: 'Old' } })
    await store.run()
    expect(store.getState().state).toStrictEqual({ recipe: { title: 'Soup', servings: 2 }, title: 'Soup' })
    await store.approve({ edits: { title: 'Stew' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ recipe: { title: 'Stew', servings: 2 }, title: 'Stew' })
    expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { title: 'Stew', accepted: true } }])
  })

  it('approve({ id, edits }): edits that make the state pass maxStateBytes (LIMIT_EXCEEDED) or that validate refuses (VALIDATION) are refused; nothing changes and nothing is sent', async () => {
    const cases: { options: Partial<AgentStoreOptions<Doc>>; initialState?: Doc; edits: Doc; code: string }[] = [
      // The edit alone fits; the state it makes does not.
      {
        options: { limits: { maxStateBytes: 200 } },
        initialState: { document: 'before', other: 'y'.repeat(100) },
        edits: { document: 'x'.repeat(120) },
        code: 'LIMIT_EXCEEDED',
      },
      {
        options: {
          validate: (value) => {
            if ((value as Doc).document === 'bad') throw new Error('no')
            return value as Doc
          },
        },
        edits: { document: 'bad' },
        code: 'VALIDATION',
      },
    ]
    for (const { options, initialState = { document: 'before' }, edits, code } of cases) {
      const agent = writerAgent(interruptOnW1)
      const store = createAgentStore<Doc>({ agent, initialState, ...options })
      await store.run()
      const before = store.getState()
      await expect(store.approve({ edits })).rejects.toMatchObject({ code })
      expect(store.getState()).toBe(before)
      expect(agent.inputs).toHaveLength(1)
    }
  })

  it('governance: an interrupt naming no tool call governs only the drafts no other confirmation of the run names', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'd0', title: 't0' } })
    store.apply([
      ev.runStarted('r1'),
      ev.custom('PredictState', [
        { state_key: 'document', tool: 'write_document', tool_argument: 'document' },
        { state_key: 'title', tool: 'set_title', tool_argument: 'title' },
      ]),
      ev.toolStart('w1', 'write_document'),
      ev.toolArgs('w1', '{"document":"D"}'),
      ev.toolEnd('w1'),
      ev.toolStart('w2', 'set_title'),
      ev.toolArgs('w2', '{"title":"T"}'),
      ev.toolEnd('w2'),
      interrupt('r1', [
        { id: 'a', reason: 'tool_call', toolCallId: 'w1' },
        { id: 'b', reason: 'input_required' },
      ]),
    ])
    expect(store.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([
      ['a', ['document']],
      ['b', ['title']],
    ])
  })

  it('governance: on_interrupt takes the tool call id from its value (`toolCallId`) and governs only that call’s drafts', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'd0', steps: [] } })
    store.apply([
      ev.runStarted('r1'),
      ev.custom('PredictState', [
        { state_key: 'document', tool: 'write_document', tool_argument: 'document' },
        { state_key: 'steps', tool: 'plan', tool_argument: 'steps' },
      ]),
      ev.toolStart('w1', 'write_document'),
      ev.toolArgs('w1', '{"document":"D"}'),
      ev.toolEnd('w1'),
      ev.toolStart('p1', 'plan'),
      ev.toolArgs('p1', '{"steps":["a"]}'),
      ev.toolEnd('p1'),
      ev.custom('on_interrupt', JSON.stringify({ toolCallId: 'p1', question: 'Run these steps?' })),
      ev.runFinished('r1'),
    ])
    const [confirmation] = store.getState().confirmations
    expect(store.getState().confirmations).toHaveLength(1)
    expect(confirmation).toMatchObject({ source: 'on_interrupt', toolCallId: 'p1', stateKeys: ['steps'] })
  })

  it('governance: an interrupt naming the confirmation tool call governs the drafts that call confirms', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'd0' } })
    store.apply([
      ev.runStarted('r1'),
      ...writeDocument('D'),
      ev.toolStart('cc1', 'confirm_changes'),
      ev.toolArgs('cc1', JSON.stringify({ function_name: 'write_document', function_call_id: 'w1' })),
      ev.toolEnd('cc1'),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'cc1' }]),
    ])
    expect(store.getState().confirmations.map((c) => [c.id, c.stateKeys])).toStrictEqual([['i1', ['document']]])
    expect(store.getState().committed).toStrictEqual({ document: 'd0' })
  })

  it('drafts against server state: a server value that differs from the baseline becomes the draft; reject restores the value from before the run', async () => {
    const agent = new ScriptedAgent({ runs: [done] })
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    store.apply([
      ev.runStarted('r1'),
      predict('document', 'write_document', 'document'),
      ev.snapshot({ document: 'mid' }),
      ev.toolStart('w1', 'write_document'),
      ev.toolArgs('w1', '{"document":"abc"}'),
      ev.toolEnd('w1'),
      ev.snapshot({ document: 'server version' }),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call' }]),
    ])
    expect(store.getState().state).toStrictEqual({ document: 'server version' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().predictions.map((p) => [p.stateKey, p.value])).toStrictEqual([['document', 'server version']])
    await store.reject({ id: 'i1' })
    expect(agent.inputs[0]!.state).toStrictEqual({ document: 'before' })
    expect(store.getState().state).toStrictEqual({ document: 'before' })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('drafts against server state: the result never depends on chunk boundaries (property: any document, any split, echoes of the old value anywhere)', () => {
    const piece = fc.stringMatching(/^[a-z "\\é\n{}:,]{0,6}$/)
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(40), { maxLength: 6 }),
        fc.array(fc.nat(40), { maxLength: 3 }),
        fc.boolean(),
        (parts, cuts, echoes, interrupted) => {
          const args = JSON.stringify({ document: parts.join(''), other: 1 })
          const points = [...new Set(cuts.map((cut) => cut % args.length))].sort((x, y) => x - y)
          const chunks = [0, ...points, args.length].flatMap((start, i, all) =>
            i + 1 < all.length && all[i + 1]! > start ? [args.slice(start, all[i + 1])] : [],
          )
          const echoAt = new Set(echoes.map((echo) => echo % (chunks.length + 1)))
          const ending = interrupted ? interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]) : ev.runFinished('r1')
          const feed = (pieces: string[], echo: ReadonlySet<number>) => {
            const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
            const events: BaseEvent[] = [ev.runStarted('r1'), predict('document', 'write_document', 'document'), ev.toolStart('w1', 'write_document')]
            pieces.forEach((chunk, i) => {
              if (echo.has(i)) events.push(ev.snapshot({ document: 'before' }))
              events.push(ev.toolArgs('w1', chunk))
            })
            if (echo.has(pieces.length)) events.push(ev.snapshot({ document: 'before' }))
            store.apply([...events, ev.toolEnd('w1'), ev.snapshot({ document: 'before' }), ending])
            const { state, committed, predictions, confirmations, error } = store.getState()
            return { state, committed, predictions, stateKeys: confirmations.map((c) => c.stateKeys), error }
          }
          const whole = feed([args], new Set())
          expect(whole.state).toStrictEqual({ document: parts.join('') })
          expect(whole.committed).toStrictEqual({ document: interrupted ? 'before' : parts.join('') })
          expect(feed(chunks, echoAt)).toStrictEqual(whole)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('drafts against server state: LangGraph’s end-of-run snapshot with the old value, at every split of the arguments, keeps the draft for on_interrupt', () => {
    const args = JSON.stringify({ document: 'Once upon a time' })
    const results = new Set<string>()
    for (let cut = 1; cut < args.length; cut++) {
      const store = createAgentStore<Doc>({ initialState: { document: 'old' } })
      store.apply([
        ev.runStarted('r1'),
        predict('document', 'write_document', 'document'),
        ev.toolStart('w1', 'write_document'),
        ev.toolArgs('w1', args.slice(0, cut)),
        ev.toolArgs('w1', args.slice(cut)),
        ev.toolEnd('w1'),
        ev.snapshot({ document: 'old' }),
        ev.custom('on_interrupt', '{"question":"ok?"}'),
        ev.runFinished('r1'),
      ])
      results.add(JSON.stringify([store.getState().state, store.getState().committed, store.getState().confirmations.map((c) => c.stateKeys)]))
    }
    expect([...results]).toStrictEqual([JSON.stringify([{ document: 'Once upon a time' }, { document: 'old' }, [['document']]])])
  })

  it('a failed run changes nothing the user had: STATE_SNAPSHOT({}) then RUN_ERROR rolls the state back, the conversation keeps the text and the error', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          ev.snapshot({}),
          ev.delta({ op: 'add', path: '/x', value: 1 }),
          ev.textStart('a1'),
          ev.text('a1', 'Working'),
          ev.textEnd('a1'),
          ev.runError('boom'),
        ],
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'keep', n: 1 } })
    await store.run({ message: 'go' })
    const snapshot = store.getState()
    expect(snapshot.status).toBe('error')
    expect(snapshot.error).toMatchObject({ code: 'RUN_ERROR', message: expect.stringContaining('boom') })
    expect(snapshot.state).toStrictEqual({ document: 'keep', n: 1 })
    expect(snapshot.committed).toStrictEqual({ document: 'keep', n: 1 })
    expect(snapshot.messages.map((m) => [m.role, m.content])).toStrictEqual([
      ['user', 'go'],
      ['assistant', 'Working'],
    ])
  })

  it('a failed run changes nothing the user had: after a truncated stream or a timeout the server’s changes and drafts roll back, the user’s own edit stays', async () => {
    for (const failure of ['truncated', 'timeout'] as const) {
      const agent = new DrivenAgent()
      const store = createAgentStore<Doc>({ agent, initialState: { document: 'before', n: 1 }, ...(failure === 'timeout' ? { timeoutMs: 300 } : {}) })
      const running = store.run()
      await until(() => agent.open)
      agent.push(ev.delta({ op: 'replace', path: '/n', value: 2 }), ...writeDocument('draft'))
      store.setState((s) => ({ ...s, title: 'mine' }))
      expect(store.getState().state).toStrictEqual({ document: 'draft', n: 2, title: 'mine' })
      if (failure === 'truncated') agent.complete()
      expect(await settled(running)).toBe('resolved')
      const snapshot = store.getState()
      expect({ failure, status: snapshot.status, code: snapshot.error?.code }).toStrictEqual({ failure, status: 'error', code: 'TRANSPORT' })
      expect(snapshot.state).toStrictEqual({ document: 'before', n: 1, title: 'mine' })
      expect(snapshot.committed).toStrictEqual({ document: 'before', n: 1, title: 'mine' })
      expect(snapshot.predictions).toStrictEqual([])
    }
  })

  it('a failed run keeps the user’s own edit even when the server then sent the same value (found by the fuzz test)', async () => {
    const agent = new DrivenAgent()
    const store = createAgentStore<Doc>({ agent, initialState: { a: 0 } })
    const running = store.run()
    await until(() => agent.open)
    store.setState((s) => ({ ...s, a: 6 }))
    agent.push(ev.delta({ op: 'replace', path: '/a', value: 6 }))
    agent.complete()
    await running
    expect(store.getState().status).toBe('error')
    expect(store.getState().state).toStrictEqual({ a: 6 })
    expect(store.getState().committed).toStrictEqual({ a: 6 })
  })

  it('a failed run keeps the user’s deletion of a record even when the server removed it too (found by the fuzz test)', async () => {
    const agent = new DrivenAgent()
    const store = createAgentStore<Doc>({ agent, initialState: { items: [{ id: 'x' }, { id: 'y' }] } })
    const running = store.run()
    await until(() => agent.open)
    store.setState((s) => ({ ...s, items: [{ id: 'y' }] }))
    agent.push(ev.delta({ op: 'remove', path: '/items/0' }))
    agent.finish(ev.runError('boom'))
    await running
    expect(store.getState().status).toBe('error')
    expect(store.getState().committed).toStrictEqual({ items: [{ id: 'y' }] })
  })

  it('a failed run with keepFailedRunChanges: true keeps the server’s changes and its drafts, committed', async () => {
    const agent = new ScriptedAgent({
      runs: [(input) => [ev.runStarted(input.runId), ev.delta({ op: 'replace', path: '/n', value: 2 }), ...writeDocument('draft'), ev.runError('boom')]],
    })
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before', n: 1 }, keepFailedRunChanges: true } as AgentStoreOptions<Doc>)
    await store.run()
    expect(store.getState().status).toBe('error')
    expect(store.getState().state).toStrictEqual({ document: 'draft', n: 2 })
    expect(store.getState().committed).toStrictEqual({ document: 'draft', n: 2 })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('a PredictState arriving while a mapped call is still streaming drafts at once from the text received so far', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([ev.runStarted('r1'), ev.toolStart('w1', 'write_document'), ev.toolArgs('w1', '{"document":"Hel')])
    expect(store.getState().state).toStrictEqual({ document: 'before' })
    store.apply(predict('document', 'write_document', 'document'))
    expect(store.getState().state).toStrictEqual({ document: 'Hel' })
    expect(store.getState().predictions.map((p) => [p.toolCallId, p.stateKey, p.value, p.complete])).toStrictEqual([['w1', 'document', 'Hel', false]])
    store.apply([ev.toolArgs('w1', 'lo"}'), ev.toolEnd('w1'), ev.runFinished('r1')])
    expect(store.getState().committed).toStrictEqual({ document: 'Hello' })
  })

  it('a new apply() run settles drafts an earlier apply() sequence left open (discarded, as a truncated run)', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([
      ev.runStarted('r0'),
      predict('document', 'write_document', 'document'),
      ev.toolStart('w1', 'write_document'),
      ev.toolArgs('w1', '{"document":"half'),
    ])
    store.apply([ev.runStarted('r1'), ev.runFinished('r1')])
    expect(store.getState().state).toStrictEqual({ document: 'before' })
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
    expect(store.getState().predictions).toStrictEqual([])
    expect(store.getState().status).toBe('idle')
  })

  it('answer run options: approve/reject/respond/cancel take a last argument that overrides the resumed run’s tools, context and forwardedProps field by field', async () => {
    const tools = [{ name: 'a', description: 'A', parameters: {} }]
    const context = [{ description: 'c', value: '1' }]
    type Answer = (store: ReturnType<typeof createAgentStore<Doc>>) => Promise<void>
    const answers: [string, Answer][] = [
      ['approve', (store) => store.approve({ tools: [], forwardedProps: { mode: 'slow' } })],
      ['reject', (store) => store.reject({ tools: [], forwardedProps: { mode: 'slow' } })],
      ['respond', (store) => store.respond({ id: 'i1', payload: { ok: true }, tools: [], forwardedProps: { mode: 'slow' } })],
      ['cancel', (store) => store.cancel({ tools: [], forwardedProps: { mode: 'slow' } })],
    ]
    for (const [name, answer] of answers) {
      const agent = writerAgent(interruptOnW1)
      const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
      await store.run({ tools, context, forwardedProps: { mode: 'fast' } })
      await answer(store)
      const sent = agent.inputs[1]!
      expect({ name, tools: sent.tools, context: sent.context, forwardedProps: sent.forwardedProps }).toStrictEqual({
        name,
        tools: [],
        context,
        forwardedProps: { mode: 'slow' },
      })
    }
  })

  it('answer run options: on_interrupt’s command is merged into the resumed run’s forwardedProps, which keeps the original run’s props', async () => {
    const agent = new ScriptedAgent({
      runs: [(input) => [ev.runStarted(input.runId), ev.custom('on_interrupt', '{"q":1}'), ev.runFinished(input.runId)], done],
    })
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    await store.run({ forwardedProps: { mode: 'fast' } })
    await store.approve()
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ mode: 'fast', command: { resume: { accepted: true } } })
  })

  it('respond(): a payload that is not JSON (a Date, a function, NaN, a class instance) is refused (INVALID_ANSWER); a JSON string becomes a tool message holding its JSON', async () => {
    class Point {
      x = 1
    }
    for (const payload of [new Date(0), () => 1, Number.NaN, new Point(), { nested: undefined }]) {
      const agent = writerAgent((input) => [ev.toolStart('cc1', 'confirm_changes'), ev.toolEnd('cc1'), ev.runFinished(input.runId)])
      const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
      await store.run()
      const before = store.getState()
      const refused = await store.respond({ id: 'cc1', payload }).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused).toBeInstanceOf(AgentStoreError)
      expect(refused).toMatchObject({ code: 'INVALID_ANSWER' })
      expect(store.getState()).toBe(before)
      expect(agent.inputs).toHaveLength(1)
    }
    const agent = writerAgent((input) => [ev.toolStart('cc1', 'confirm_changes'), ev.toolEnd('cc1'), ev.runFinished(input.runId)])
    const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
    await store.run()
    await store.respond({ id: 'cc1', payload: 'plain text' })
    expect(agent.inputs[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toStrictEqual(['"plain text"'])
  })

  it('edits follow what they edited: an edit of a string in an array follows it when the server inserts before it (minimal diff)', async () => {
    const agent = new DrivenAgent()
    const { store, errors } = withErrors({ agent, initialState: { tags: ['a', 'b', 'c'] } })
    const running = store.run()
    await until(() => agent.open)
    store.setState((s) => ({ ...s, tags: ['a', 'B', 'c'] }))
    agent.push(ev.delta({ op: 'add', path: '/tags/0', value: 'z' }))
    expect(store.getState().state.tags).toStrictEqual(['z', 'a', 'B', 'c'])
    agent.push(ev.delta({ op: 'remove', path: '/tags/3' }))
    expect(store.getState().state.tags).toStrictEqual(['z', 'a', 'B'])
    agent.finish()
    await running
    expect(store.getState().committed.tags).toStrictEqual(['z', 'a', 'B'])
    expect(errors.filter((e) => e.code === 'EDIT_CONFLICT')).toStrictEqual([])
  })

  it('edits follow what they edited: with arrayKeys: [`uid`], records are matched by uid when the server reorders them', async () => {
    const agent = new DrivenAgent()
    const initialState = {
      rows: [
        { uid: 1, text: 'one' },
        { uid: 2, text: 'two' },
        { uid: 3, text: 'three' },
      ],
    }
    const { store } = withErrors({ agent, initialState, arrayKeys: ['uid'] } as AgentStoreOptions<typeof initialState>)
    const running = store.run()
    await until(() => agent.open)
    store.setState((s) => ({ ...s, rows: s.rows.map((row) => (row.uid === 3 ? { ...row, text: 'THREE' } : row)) }))
    agent.push(ev.snapshot({ rows: [initialState.rows[2], initialState.rows[0], initialState.rows[1]] }))
    expect(store.getState().state.rows).toStrictEqual([
      { uid: 3, text: 'THREE' },
      { uid: 1, text: 'one' },
      { uid: 2, text: 'two' },
    ])
    agent.finish()
    await running
  })

  it('edits follow what they edited: an edit whose element the server removed is an EDIT_CONFLICT naming the path the user edited and carrying the user’s value', async () => {
    const agent = new DrivenAgent()
    const initialState = {
      items: [
        { id: 'x', text: 'a' },
        { id: 'y', text: 'b' },
      ],
    }
    const { store, errors } = withErrors({ agent, initialState })
    const running = store.run()
    await until(() => agent.open)
    store.setState((s) => ({ ...s, items: s.items.map((item) => (item.id === 'y' ? { ...item, text: 'B' } : item)) }))
    agent.push(ev.delta({ op: 'remove', path: '/items/1' }))
    expect(store.getState().state.items).toStrictEqual([{ id: 'x', text: 'a' }])
    const conflicts = errors.filter((e) => e.code === 'EDIT_CONFLICT')
    expect(conflicts).toHaveLength(1)
    expect(conflicts[0]).toMatchObject({ path: '/items/1/text', value: 'B' })
    expect(store.getState().error).toBe(conflicts[0])
    agent.finish()
    await running
    expect(store.getState().committed.items).toStrictEqual([{ id: 'x', text: 'a' }])
  })

  it('edits follow what they edited: an edit of a value the server changed under it is an EDIT_CONFLICT carrying the user’s value; the server’s value stays and no other element changes', async () => {
    for (const shape of ['records', 'strings'] as const) {
      const agent = new DrivenAgent()
      const initialState: Doc =
        shape === 'records'
          ? {
              list: [
                { id: 'x', text: 'a' },
                { id: 'y', text: 'b' },
              ],
            }
          : { list: ['a', 'b', 'c'] }
      const { store, errors } = withErrors<Doc>({ agent, initialState })
      const running = store.run()
      await until(() => agent.open)
      if (shape === 'records') {
        store.setState((s) => ({
          ...s,
          list: [
            { id: 'x', text: 'a' },
            { id: 'y', text: 'B' },
          ],
        }))
        agent.push(ev.delta({ op: 'replace', path: '/list/1/text', value: 'server' }))
        expect(store.getState().state.list).toStrictEqual([
          { id: 'x', text: 'a' },
          { id: 'y', text: 'server' },
        ])
      } else {
        store.setState((s) => ({ ...s, list: ['a', 'B', 'c'] }))
        agent.push(ev.delta({ op: 'replace', path: '/list/1', value: 'q' }))
        expect(store.getState().state.list).toStrictEqual(['a', 'q', 'c'])
      }
      const conflicts = errors.filter((e) => e.code === 'EDIT_CONFLICT')
      expect({ shape, conflicts: conflicts.length }).toStrictEqual({ shape, conflicts: 1 })
      expect(conflicts[0]).toMatchObject({ path: shape === 'records' ? '/list/1/text' : '/list/1', value: 'B' })
      agent.finish()
      await running
    }
  })

  it('values handed to setState, approve and respond are owned by the store: mutating them afterwards changes nothing', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
    const edited = { list: [1] }
    store.setState((s) => ({ ...s, edited }))
    try {
      edited.list.push(2)
    } catch {}
    expect(store.getState().state).toStrictEqual({ document: '', edited: { list: [1] } })
    await store.run()
    const edits = { document: { text: 'mine' } }
    const approving = store.approve({ edits })
    try {
      edits.document.text = 'changed'
    } catch {}
    await approving
    expect(agent.inputs[1]!.state).toStrictEqual({ document: { text: 'mine' }, edited: { list: [1] } })
    expect(store.getState().committed).toStrictEqual({ document: { text: 'mine' }, edited: { list: [1] } })

    const agent2 = new ScriptedAgent({ runs: [(input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'q', reason: 'input_required' }])], done] })
    const store2 = createAgentStore<Doc>({ agent: agent2, initialState: {} })
    await store2.run()
    const payload = { answer: ['yes'] }
    const responding = store2.respond({ id: 'q', payload })
    try {
      payload.answer.push('no')
    } catch {}
    await responding
    expect(agent2.inputs[1]!.resume).toStrictEqual([{ interruptId: 'q', status: 'resolved', payload: { answer: ['yes'] } }])
  })
})

describe('issue 10 behaviour, in more detail', () => {
  it('approve({ id, edits }) under a mapping without tool_argument (the whole arguments) merges the edits into the object', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          ev.custom('PredictState', [{ state_key: 'recipe', tool: 'update_recipe' }]),
          ev.toolStart('u1', 'update_recipe'),
          ev.toolArgs('u1', JSON.stringify({ title: 'Soup', servings: 2 })),
          ev.toolEnd('u1'),
          interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'u1' }]),
        ],
        done,
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: { recipe: { title: 'Old', servings: 1 } } })
    await store.run()
    expect(store.getState().state).toStrictEqual({ recipe: { title: 'Soup', servings: 2 } })
    await store.approve({ edits: { title: 'Stew' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ recipe: { title: 'Stew', servings: 2 } })
  })

  it('approve({ id, edits }) on a draft the server wrote under a whole-arguments mapping merges the edits too', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          ev.custom('PredictState', [{ state_key: 'recipe', tool: 'update_recipe', tool_argument: '*' }]),
          ev.delta({ op: 'replace', path: '/recipe', value: { title: 'Soup', servings: 2 } }),
          interrupt(input.runId, [{ id: 'i1', reason: 'tool_call' }]),
        ],
        done,
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: { recipe: { title: 'Old', servings: 1 } } })
    await store.run()
    expect(store.getState().confirmations[0]!.stateKeys).toStrictEqual(['recipe'])
    await store.approve({ edits: { title: 'Stew' } })
    expect(agent.inputs[1]!.state).toStrictEqual({ recipe: { title: 'Stew', servings: 2 } })
  })

  it('approve({ id, edits }): edits that are not an object keyed like the arguments are refused (INVALID_ANSWER)', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run()
    const before = store.getState()
    for (const edits of [['x'], 'text', 42]) {
      await expect(store.approve({ edits: edits as unknown as Record<string, unknown> })).rejects.toMatchObject({ code: 'INVALID_ANSWER' })
    }
    expect(store.getState()).toBe(before)
    expect(agent.inputs).toHaveLength(1)
  })

  it('answer run options given with an earlier answer of several still apply to the resumed run', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          interrupt(input.runId, [
            { id: 'a', reason: 'tool_call' },
            { id: 'b', reason: 'tool_call' },
          ]),
        ],
        done,
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    const context = [{ description: 'c', value: '1' }]
    await store.run({ context, forwardedProps: { mode: 'fast' } })
    await store.approve({ id: 'a', tools: [{ name: 't', description: 'T', parameters: {} }] })
    await store.reject({ id: 'b' })
    const sent = agent.inputs[1]!
    expect({ tools: sent.tools, context: sent.context, forwardedProps: sent.forwardedProps }).toStrictEqual({
      tools: [{ name: 't', description: 'T', parameters: {} }],
      context,
      forwardedProps: { mode: 'fast' },
    })
  })

  it('answer run options: a timeoutMs given with the answer times the resumed request out, and the answer is given back', async () => {
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

  it('answer run options: on_interrupt’s resume joins a command the resumed run’s forwardedProps already had', async () => {
    const agent = new ScriptedAgent({
      runs: [(input) => [ev.runStarted(input.runId), ev.custom('on_interrupt', '{"q":1}'), ev.runFinished(input.runId)], done],
    })
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    await store.run({ forwardedProps: { command: { goto: 'review' }, mode: 'fast' } })
    await store.respond({ payload: 'yes' })
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ command: { goto: 'review', resume: 'yes' }, mode: 'fast' })
  })

  it('answers without an agent apply locally: the draft committed, nothing sent, the promise resolves', async () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([ev.runStarted('r1'), ...writeDocument(), interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }])])
    expect(await settled(store.approve())).toBe('resolved')
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], predictions: [] })
    expect(store.getState().committed).toStrictEqual({ document: 'draft text' })
  })

  it('an interrupt whose answer reached the server opens again when the resumed run asks it once more: a live run’s interrupts are its own', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'i1', reason: 'tool_call' }])],
        (input) => [ev.runStarted(input.runId), interrupt(input.runId, [{ id: 'i1', reason: 'tool_call' }])],
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: {} })
    await store.run()
    await store.approve()
    expect(store.getState()).toMatchObject({ status: 'interrupted' })
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['i1'])
  })

  it('an event type from a newer protocol is ignored: no error, no change, onEvent still sees it', () => {
    const store = createAgentStore<Doc>({ initialState: { n: 1 } })
    const seen: string[] = []
    store.onEvent((event) => seen.push(event.type))
    const before = store.getState()
    store.apply({ type: 'SOMETHING_NEW', payload: 1 } as unknown as BaseEvent)
    expect(store.getState()).toBe(before)
    expect(seen).toStrictEqual(['SOMETHING_NEW'])
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

  it('reset() while a resumed request is open settles its promise, clears the outbox and ignores the request’s late events', async () => {
    const agent = new DrivenAgent()
    agent.autoStart = false
    const store = createAgentStore<Doc>({ agent, initialState: { n: 0 } })
    const first = store.run()
    await until(() => agent.open)
    agent.push(ev.runStarted(agent.input.runId))
    agent.finish(interrupt(agent.input.runId, [{ id: 'i1', reason: 'tool_call' }]))
    await first
    const answered = store.approve()
    await until(() => agent.inputs.length === 2)
    store.reset()
    expect(await settled(answered)).toBe('resolved')
    agent.push(ev.runStarted(agent.input.runId), ev.snapshot({ n: 9 }))
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], state: { n: 0 }, error: undefined })
  })

  it('a RUN_FINISHED with a cancelled outcome rolls the run back like a failure, as idle', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          ev.delta({ op: 'replace', path: '/n', value: 2 }),
          ...writeDocument(),
          ev.runFinished(input.runId, 't1', { type: 'cancelled' }),
        ],
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before', n: 1 } })
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [], predictions: [] })
    expect(store.getState().state).toStrictEqual({ document: 'before', n: 1 })
    expect(store.getState().committed).toStrictEqual({ document: 'before', n: 1 })
  })
})

describe('confirmations, in more detail', () => {
  const twoDrafts = [
    ev.custom('PredictState', [
      { state_key: 'document', tool: 'write_document', tool_argument: 'document' },
      { state_key: 'title', tool: 'set_title', tool_argument: 'title' },
    ]),
    ev.toolStart('w1', 'write_document'),
    ev.toolArgs('w1', '{"document":"D"}'),
    ev.toolEnd('w1'),
    ev.toolStart('w2', 'set_title'),
    ev.toolArgs('w2', '{"title":"T"}'),
    ev.toolEnd('w2'),
  ]

  it('on_interrupt names its tool call in any of the spellings servers use: toolCallId, tool_call_id, function_call_id, tool_call.id, toolCall.id', () => {
    const spellings = [{ toolCallId: 'w2' }, { tool_call_id: 'w2' }, { function_call_id: 'w2' }, { tool_call: { id: 'w2' } }, { toolCall: { id: 'w2' } }]
    for (const named of spellings) {
      const store = createAgentStore<Doc>({ initialState: { document: 'd0', title: 't0' } })
      store.apply([ev.runStarted('r1'), ...twoDrafts, ev.custom('on_interrupt', JSON.stringify({ ...named, question: '?' })), ev.runFinished('r1')])
      const confirmations = store.getState().confirmations.map((c) => ({ toolCallId: c.toolCallId, stateKeys: c.stateKeys }))
      expect({ named, confirmations }).toStrictEqual({ named, confirmations: [{ toolCallId: 'w2', stateKeys: ['title'] }] })
      // The draft nobody has to confirm is committed.
      expect(store.getState().committed).toStrictEqual({ document: 'D', title: 't0' })
    }
  })

  it('confirm_changes calls: one naming function_call_id governs that call’s drafts; one naming none governs the rest', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'd0', title: 't0' } })
    store.apply([
      ev.runStarted('r1'),
      ...twoDrafts,
      ev.toolStart('cc1', 'confirm_changes'),
      ev.toolArgs('cc1', '{"function_call_id":"w1"}'),
      ev.toolEnd('cc1'),
      ev.toolStart('cc2', 'confirm_changes'),
      ev.toolArgs('cc2', '{}'),
      ev.toolEnd('cc2'),
      ev.runFinished('r1'),
    ])
    expect(store.getState().confirmations.map((c) => [c.id, c.source, c.stateKeys])).toStrictEqual([
      ['cc1', 'tool', ['document']],
      ['cc2', 'tool', ['title']],
    ])
    expect(store.getState().committed).toStrictEqual({ document: 'd0', title: 't0' })
  })

  it('the decision field: the first boolean property when none is required; `accepted` when the schema has no boolean', async () => {
    const cases: [unknown, Record<string, unknown>][] = [
      [{ type: 'object', properties: { note: { type: 'string' }, confirmed: { type: 'boolean' } } }, { confirmed: true }],
      [{ type: 'object', properties: { note: { type: 'string' } }, required: ['note'] }, { accepted: true }],
      [{ type: 'object', properties: { ok: { type: 'boolean' }, approved: { type: 'boolean' } }, required: ['note', 'approved'] }, { approved: true }],
    ]
    for (const [responseSchema, payload] of cases) {
      const agent = writerAgent((input) => [interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1', responseSchema }])])
      const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
      await store.run()
      await store.approve()
      expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload }])
    }
  })

  it('a confirmation tool call from an earlier run, or one already answered by a tool message, opens nothing', () => {
    const store = createAgentStore<Doc>({ initialState: {} })
    store.apply([ev.runStarted('r1'), ev.toolStart('cc1', 'confirm_changes'), ev.toolEnd('cc1'), ev.runFinished('r1')])
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['cc1'])
    // A later run fed through apply() does not open the earlier run's call a second time.
    store.apply([ev.runStarted('r2'), ev.runFinished('r2')])
    expect(store.getState().confirmations.map((c) => c.id)).toStrictEqual(['cc1'])
    store.reset()
    store.apply([
      ev.runStarted('r1'),
      ev.toolStart('cc1', 'confirm_changes', 'm1'),
      ev.toolEnd('cc1'),
      ev.toolResult('t1', 'cc1', '{"accepted":true}'),
      ev.runFinished('r1'),
    ])
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [] })
    store.apply([ev.runStarted('r2'), ev.runFinished('r2')])
    expect(store.getState()).toMatchObject({ status: 'idle', confirmations: [] })
  })
})

describe('edits and drafts against the server, in more detail', () => {
  /** Runs `during` while a run streams, then finishes it; returns the store and its errors. */
  async function duringRun<S extends Doc>(initialState: S, during: (store: ReturnType<typeof createAgentStore<S>>, agent: DrivenAgent) => void) {
    const agent = new DrivenAgent()
    const { store, errors } = withErrors<S>({ agent, initialState })
    const running = store.run()
    await until(() => agent.open)
    during(store, agent)
    agent.finish()
    await running
    return { store, errors: errors.filter((e) => e.code === 'EDIT_CONFLICT') }
  }
  const item = (id: string, text = id) => ({ id, text })

  it('an element the user inserted after another stays after it when the server inserts elsewhere; the user’s append stays last', async () => {
    const { store, errors } = await duringRun({ items: [item('x'), item('y')] }, (store, agent) => {
      store.setState((s) => ({ ...s, items: [item('x'), item('mid'), item('y'), item('end')] }))
      agent.push(ev.delta({ op: 'add', path: '/items/0', value: item('w') }), ev.delta({ op: 'add', path: '/items/-', value: item('z') }))
    })
    expect(store.getState().committed.items).toStrictEqual([item('w'), item('x'), item('mid'), item('y'), item('z'), item('end')])
    expect(errors).toStrictEqual([])
  })

  it('a record the user removed but the server changed meanwhile stays, as the server has it, with an EDIT_CONFLICT', async () => {
    const { store, errors } = await duringRun({ items: [item('x'), item('y')] }, (store, agent) => {
      store.setState((s) => ({ ...s, items: [item('x')] }))
      agent.push(ev.delta({ op: 'replace', path: '/items/1/text', value: 'server' }))
    })
    expect(store.getState().committed.items).toStrictEqual([item('x'), item('y', 'server')])
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ path: '/items/1' })
  })

  it('outside arrays, the user’s key and the server’s other keys of the same object are both kept', async () => {
    const { store, errors } = await duringRun({ settings: { theme: 'light', size: 1 } }, (store, agent) => {
      store.setState((s) => ({ ...s, settings: { ...s.settings, theme: 'dark' } }))
      agent.push(ev.delta({ op: 'replace', path: '/settings/size', value: 2 }))
    })
    expect(store.getState().committed).toStrictEqual({ settings: { theme: 'dark', size: 2 } })
    expect(errors).toStrictEqual([])
  })

  it('an edit of a key the server then removed is an EDIT_CONFLICT with the user’s value; the key stays removed', async () => {
    const { store, errors } = await duringRun({ settings: { theme: 'light', size: 1 } }, (store, agent) => {
      store.setState((s) => ({ ...s, settings: { ...s.settings, theme: 'dark' } }))
      agent.push(ev.delta({ op: 'remove', path: '/settings/theme' }))
    })
    expect(store.getState().committed).toStrictEqual({ settings: { size: 1 } })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ path: '/settings/theme', value: 'dark' })
  })

  it('a user’s edit of a mapped key during a run wins: later arguments and server values of that key change nothing; no prediction remains', async () => {
    const { store } = await duringRun({ document: 'before' }, (store, agent) => {
      agent.push(...writeDocument('draft').slice(0, 3))
      store.setState((s) => ({ ...s, document: 'mine' }))
      agent.push(ev.toolArgs('w1', 'more'), ev.toolEnd('w1'), ev.delta({ op: 'replace', path: '/document', value: 'server' }))
      expect(store.getState().state).toStrictEqual({ document: 'mine' })
      expect(store.getState().predictions).toStrictEqual([])
    })
    expect(store.getState().committed).toStrictEqual({ document: 'mine' })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('a draft only the server wrote goes away when the server puts the value from before the run back', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([ev.runStarted('r1'), predict('document', 'write_document', 'document'), ev.delta({ op: 'replace', path: '/document', value: 'server' })])
    expect(store.getState().predictions.map((p) => [p.toolCallId, p.value])).toStrictEqual([[undefined, 'server']])
    store.apply(ev.delta({ op: 'replace', path: '/document', value: 'before' }))
    expect(store.getState().predictions).toStrictEqual([])
    expect(store.getState().state).toStrictEqual({ document: 'before' })
  })

  it('a server change to a mapped key while that tool’s call streams is attributed to the call', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'before' } })
    store.apply([
      ev.runStarted('r1'),
      predict('document', 'write_document', 'document'),
      ev.toolStart('w1', 'write_document'),
      ev.delta({ op: 'replace', path: '/document', value: 'server' }),
    ])
    expect(store.getState().predictions.map((p) => [p.toolCallId, p.tool, p.stateKey, p.value])).toStrictEqual([['w1', 'write_document', 'document', 'server']])
    expect(store.getState().committed).toStrictEqual({ document: 'before' })
  })

  it('LangGraph’s opening STATE_SNAPSHOT({}) does not blank what the user sees while the run goes on; the next snapshot shows', async () => {
    const agent = new DrivenAgent()
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'keep', n: 1 } })
    const running = store.run()
    await until(() => agent.open)
    agent.push(ev.snapshot({}))
    expect(store.getState().state).toStrictEqual({ document: 'keep', n: 1 })
    agent.push(ev.snapshot({ document: 'keep', n: 2 }))
    expect(store.getState().state).toStrictEqual({ document: 'keep', n: 2 })
    agent.finish()
    await running
    expect(store.getState().committed).toStrictEqual({ document: 'keep', n: 2 })
  })
})

describe('behaviours the mutation run found unpinned', () => {
  it('reject() of an on_interrupt sends { accepted: false } as the resume command and discards the drafts', async () => {
    const agent = new ScriptedAgent({
      runs: [
        (input) => [
          ev.runStarted(input.runId),
          predict('steps', 'plan', 'steps'),
          ev.toolStart('p1', 'plan'),
          ev.toolArgs('p1', '{"steps":["a"]}'),
          ev.toolEnd('p1'),
          ev.custom('on_interrupt', '{"question":"ok?"}'),
          ev.runFinished(input.runId),
        ],
        done,
      ],
    })
    const store = createAgentStore<Doc>({ agent, initialState: { steps: [] } })
    await store.run()
    await store.reject()
    expect(agent.inputs[1]!.forwardedProps).toStrictEqual({ command: { resume: { accepted: false } } })
    expect(agent.inputs[1]!.resume).toBeUndefined()
    expect(agent.inputs[1]!.state).toStrictEqual({ steps: [] })
  })

  it('respond() to a confirmation tool call sends its payload as the content: {"accepted":false} stays false', async () => {
    const agent = writerAgent((input) => [
      ev.toolStart('cc1', 'confirm_changes'),
      ev.toolArgs('cc1', '{"function_call_id":"w1"}'),
      ev.toolEnd('cc1'),
      ev.runFinished(input.runId),
    ])
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run()
    await store.respond({ id: 'cc1', payload: { accepted: false } })
    const tool = agent.inputs[1]!.messages.filter((m): m is Message & { role: 'tool' } => m.role === 'tool')
    expect(tool.map((m) => [m.toolCallId, m.content])).toStrictEqual([['cc1', '{"accepted":false}']])
  })

  it('a user edit to one key while a draft awaits confirmation does not commit the draft of another key', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { document: 'before' } })
    await store.run()
    store.setState((s) => ({ ...s, title: 'mine' }))
    expect(store.getState().state).toStrictEqual({ document: 'draft text', title: 'mine' })
    expect(store.getState().committed).toStrictEqual({ document: 'before', title: 'mine' })
    expect(store.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['document'])
    await store.reject()
    expect(agent.inputs[1]!.state).toStrictEqual({ document: 'before', title: 'mine' })
  })

  it('one tool’s arguments never write another tool’s mapped keys', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'd0', title: 't0' } })
    store.apply([
      ev.runStarted('r1'),
      ev.custom('PredictState', [
        { state_key: 'document', tool: 'write_document', tool_argument: 'document' },
        { state_key: 'title', tool: 'set_title', tool_argument: 'title' },
      ]),
      ev.toolStart('s1', 'set_title'),
      ev.toolArgs('s1', '{"title":"T","document":"not mine"}'),
      ev.toolEnd('s1'),
    ])
    expect(store.getState().state).toStrictEqual({ document: 'd0', title: 'T' })
    expect(store.getState().predictions.map((p) => p.stateKey)).toStrictEqual(['title'])
  })

  it('the decision goes in the boolean field the responseSchema requires, and no other', async () => {
    const responseSchema = { type: 'object', properties: { notify: { type: 'boolean' }, approved: { type: 'boolean' } }, required: ['approved'] }
    for (const kind of ['approve', 'reject'] as const) {
      const agent = writerAgent((input) => [interrupt(input.runId, [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1', responseSchema }])])
      const store = createAgentStore<Doc>({ agent, initialState: { document: '' } })
      await store.run()
      await (kind === 'approve' ? store.approve() : store.reject())
      expect(agent.inputs[1]!.resume).toStrictEqual([{ interruptId: 'i1', status: 'resolved', payload: { approved: kind === 'approve' } }])
    }
  })

  it('a rejected draft of a key that did not exist leaves the key absent, not undefined, in state, committed and the next input', async () => {
    const agent = writerAgent(interruptOnW1)
    const store = createAgentStore<Doc>({ agent, initialState: { other: 1 } })
    await store.run()
    expect(store.getState().state).toStrictEqual({ other: 1, document: 'draft text' })
    expect(store.getState().committed).toStrictEqual({ other: 1 })
    await store.reject()
    expect(agent.inputs[1]!.state).toStrictEqual({ other: 1 })
    expect(store.getState().state).toStrictEqual({ other: 1 })
    expect(Object.hasOwn(store.getState().committed as object, 'document')).toBe(false)
  })

  it('a key removed by setState during a run does not come back with the next server event, nor in the next input', async () => {
    const agent = new DrivenAgent()
    const store = createAgentStore<Doc>({ agent, initialState: { a: 1, b: 2 } })
    const running = store.run()
    await until(() => agent.open)
    store.setState(({ b: _b, ...rest }) => rest)
    agent.push(ev.delta({ op: 'replace', path: '/a', value: 5 }))
    expect(store.getState().state).toStrictEqual({ a: 5 })
    agent.push(ev.snapshot({ a: 6, b: 2 }))
    expect(store.getState().state).toStrictEqual({ a: 6 })
    agent.finish()
    await running
    expect(store.getState().committed).toStrictEqual({ a: 6 })
    const next = handled(store.run())
    await until(() => agent.inputs.length === 2)
    expect(agent.inputs[1]!.state).toStrictEqual({ a: 6 })
    agent.finish()
    await next
  })

  it('an async Standard Schema validator is refused (VALIDATION), never treated as accepting everything', () => {
    const asyncSchema = { '~standard': { version: 1 as const, vendor: 'test', validate: async (value: unknown) => ({ value }) } }
    let store: ReturnType<typeof createAgentStore<Doc>> | undefined
    let thrown: unknown
    try {
      store = createAgentStore<Doc>({ initialState: { n: 1 }, validate: asyncSchema })
    } catch (error) {
      thrown = error
    }
    if (store) {
      store.setState({ n: 2 })
      expect(store.getState().state).toStrictEqual({ n: 1 })
      thrown = store.getState().error
    }
    expect(thrown).toBeInstanceOf(AgentStoreError)
    expect(thrown).toMatchObject({ code: 'VALIDATION' })
  })

  it('reset(state) runs the validator: a refused state is not installed', () => {
    const validate = (value: unknown) => {
      if ((value as { n: number }).n < 0) throw new Error('negative')
      return value as { n: number }
    }
    const store = createAgentStore({ initialState: { n: 1 }, validate })
    let thrown: unknown
    try {
      store.reset({ n: -1 })
    } catch (error) {
      thrown = error
    }
    expect(store.getState().state).toStrictEqual({ n: 1 })
    expect(thrown ?? store.getState().error).toMatchObject({ code: 'VALIDATION' })
    store.reset({ n: 3 })
    expect(store.getState().state).toStrictEqual({ n: 3 })
  })

  it('agent.run() that throws synchronously ends run() as TRANSPORT; one that emits synchronously ends it normally', async () => {
    class Throwing extends AbstractAgent {
      run(): Observable<BaseEvent> {
        throw new Error('sync boom')
      }
    }
    class Synchronous extends AbstractAgent {
      run(input: RunAgentInput) {
        return new Observable<BaseEvent>((subscriber) => {
          subscriber.next(ev.runStarted(input.runId))
          subscriber.next(ev.snapshot({ n: 2 }))
          subscriber.next(ev.runFinished(input.runId))
          subscriber.complete()
        })
      }
    }
    const throwing = createAgentStore({ agent: new Throwing(), initialState: { n: 1 } })
    expect(await settled(throwing.run())).toBe('resolved')
    expect(throwing.getState()).toMatchObject({ status: 'error', error: { code: 'TRANSPORT' }, state: { n: 1 } })
    const synchronous = createAgentStore({ agent: new Synchronous(), initialState: { n: 1 } })
    expect(await settled(synchronous.run())).toBe('resolved')
    expect(synchronous.getState()).toMatchObject({ status: 'idle', error: undefined, state: { n: 2 } })
    expect(await settled(synchronous.run())).toBe('resolved')
  })

  it('a BOM right before the first `data:` line is skipped: the stream is read as usual', async () => {
    server = await startAgUiServer([
      (input, response) => {
        response.writeHead(200, { 'Content-Type': 'text/event-stream' })
        const line = (event: BaseEvent) => `data: ${JSON.stringify(event)}\n\n`
        response.end(
          `\uFEFF${line(ev.runStarted(input.runId, input.threadId))}${line(ev.snapshot({ n: 2 }))}${line(ev.runFinished(input.runId, input.threadId))}`,
        )
      },
    ])
    const store = createAgentStore({ agent: new HttpAgent({ url: server.url, threadId: 't-bom' }), initialState: { n: 1 } })
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { n: 2 } })
  })

  it('earlier snapshots are never mutated in place: their arrays and objects stay as they were published', () => {
    const store = createAgentStore<Doc>({ initialState: { list: [1] } })
    const kept: { snapshot: AgentSnapshot<Doc>; json: string }[] = []
    const json = (s: AgentSnapshot<Doc>) =>
      JSON.stringify([s.state, s.committed, s.status, s.steps, s.messages, s.predictions, s.confirmations.map(({ id, stateKeys }) => [id, stateKeys])])
    store.subscribe((snapshot) => kept.push({ snapshot, json: json(snapshot) }))
    store.apply([
      ev.runStarted('r1'),
      ev.stepStarted('one'),
      ev.textStart('a1'),
      ev.text('a1', 'Hel'),
      ev.text('a1', 'lo'),
      ev.textEnd('a1'),
      ev.delta({ op: 'add', path: '/list/-', value: 2 }),
      ev.stepStarted('two'),
      predict('document', 'write_document', 'document'),
      ev.toolStart('w1', 'write_document', 'a1'),
      ev.toolArgs('w1', '{"document":"a'),
      ev.toolArgs('w1', 'b"}'),
      ev.toolEnd('w1'),
      ev.stepFinished('one'),
      ev.toolStart('w2', 'other', 'a1'),
      ev.toolEnd('w2'),
      ev.delta({ op: 'add', path: '/list/0', value: 0 }),
      interrupt('r1', [{ id: 'i1', reason: 'tool_call', toolCallId: 'w1' }]),
    ])
    store.approve().catch(() => {})
    store.setState((s) => ({ ...s, list: [...(s.list as number[]), 3] }))
    expect(kept.length).toBeGreaterThan(15)
    for (const { snapshot, json: then } of kept) expect(json(snapshot)).toBe(then)
  })
})

describe('maxStateBytes is a bound that holds for every op', () => {
  const limit = 1000
  const longKey = (i: number) => `k${String(i).padStart(3, '0')}${'x'.repeat(89)}`
  /** Feeds delta after delta; the state's JSON never passes the limit, and the excess is refused with LIMIT_EXCEEDED. */
  function feed(initialState: Doc, deltas: BaseEvent[]) {
    const { store, errors } = withErrors<Doc>({ initialState, limits: { maxStateBytes: limit } })
    let largest = 0
    for (const delta of deltas) {
      store.apply(delta)
      const size = JSON.stringify(store.getState().state).length
      largest = Math.max(largest, size, JSON.stringify(store.getState().committed).length)
    }
    const refused = errors.filter((e) => e.code === 'LIMIT_EXCEEDED')
    return { largest, refused, errors, store }
  }
  const ops = (count: number, make: (i: number) => unknown[]) => Array.from({ length: count }, (_, i) => ev.delta(...make(i)))

  it('add: 100 deltas each adding a 93-character key are refused before the JSON passes 1000 UTF-16 units', () => {
    const { largest, refused, errors, store } = feed(
      {},
      ops(100, (i) => [{ op: 'add', path: `/${longKey(i)}`, value: 1 }]),
    )
    expect(largest).toBeLessThanOrEqual(limit)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.every((e) => e.limit === 'maxStateBytes')).toBe(true)
    expect(errors).toStrictEqual(refused)
    expect(Object.keys(store.getState().state).length).toBeGreaterThan(0)
  })

  it('replace: values with long keys replacing a small one are refused before the JSON passes the limit', () => {
    const { largest, refused } = feed(
      { v: 0 },
      ops(30, (i) => [{ op: 'replace', path: '/v', value: Object.fromEntries(Array.from({ length: i + 1 }, (_, j) => [longKey(j), j])) }]),
    )
    expect(largest).toBeLessThanOrEqual(limit)
    expect(refused.length).toBeGreaterThan(0)
  })

  it('copy: copying a value under ever more long keys is refused before the JSON passes the limit', () => {
    const { largest, refused } = feed(
      { src: 'x' },
      ops(100, (i) => [{ op: 'copy', from: '/src', path: `/${longKey(i)}` }]),
    )
    expect(largest).toBeLessThanOrEqual(limit)
    expect(refused.length).toBeGreaterThan(0)
  })

  it('move: moving a small value to ever more long keys is refused before the JSON passes the limit', () => {
    const { largest, refused } = feed(
      {},
      ops(100, (i) => [
        { op: 'add', path: '/t', value: 1 },
        { op: 'move', from: '/t', path: `/${longKey(i)}` },
      ]),
    )
    expect(largest).toBeLessThanOrEqual(limit)
    expect(refused.length).toBeGreaterThan(0)
  })

  it('keys and values with characters JSON escapes are counted as their escaped JSON', () => {
    const control = (i: number) => `${String(i).padStart(3, '0')}${'\u0001'.repeat(14)}`
    const quoted = (i: number) => `${String(i).padStart(3, '0')}${'"\\'.repeat(20)}`
    for (const deltas of [
      ops(100, (i) => [{ op: 'add', path: `/${control(i)}`, value: 1 }]),
      ops(100, (i) => [{ op: 'add', path: `/${quoted(i).replace(/~/g, '~0').replace(/\//g, '~1')}`, value: 1 }]),
      ops(100, (i) => [{ op: 'add', path: `/v${i}`, value: '"'.repeat(40) }]),
      ops(100, (i) => [{ op: 'add', path: `/v${i}`, value: '\n\u0002'.repeat(10) }]),
    ]) {
      const { largest, refused } = feed({}, deltas)
      expect(largest).toBeLessThanOrEqual(limit)
      expect(refused.length).toBeGreaterThan(0)
    }
  })

  it('STATE_SNAPSHOT and setState with escaped keys are measured exactly too', () => {
    const { store, errors } = withErrors<Doc>({ initialState: {}, limits: { maxStateBytes: limit } })
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}${'\u0001'.repeat(10)}`, 1]))
    expect(JSON.stringify(big).length).toBeGreaterThan(limit)
    store.apply(ev.snapshot(big))
    store.setState(big)
    expect(store.getState().state).toStrictEqual({})
    expect(errors.map((e) => [e.code, e.limit])).toStrictEqual([
      ['LIMIT_EXCEEDED', 'maxStateBytes'],
      ['LIMIT_EXCEEDED', 'maxStateBytes'],
    ])
  })

  it('a draft from tool arguments never makes the state’s JSON pass the limit', () => {
    const { store, errors } = withErrors<Doc>({ initialState: { big: 'x'.repeat(800) }, limits: { maxStateBytes: limit } })
    store.apply([
      ev.runStarted('r1'),
      predict('document', 'write_document', 'document'),
      ev.toolStart('w1', 'write_document'),
      ev.toolArgs('w1', '{"document":"'),
    ])
    for (let i = 0; i < 30; i++) {
      store.apply(ev.toolArgs('w1', 'y'.repeat(20)))
      expect(JSON.stringify(store.getState().state).length).toBeLessThanOrEqual(limit)
    }
    expect(errors.some((e) => e.code === 'LIMIT_EXCEEDED' && e.limit === 'maxStateBytes')).toBe(true)
  })
})

describe('drafts made before RUN_STARTED (found by the machine mutation run)', () => {
  it('take the run id RUN_STARTED gives, so RUN_FINISHED commits them and no prediction stays', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'old' } })
    store.apply([...writeDocument('a'), ev.runStarted('r5'), ev.runFinished('r5')])
    expect(store.getState().status).toBe('idle')
    expect(store.getState().state).toStrictEqual({ document: 'a' })
    expect(store.getState().committed).toStrictEqual({ document: 'a' })
    expect(store.getState().predictions).toStrictEqual([])
  })

  it('are discarded with their run when a later RUN_STARTED supersedes it', () => {
    const store = createAgentStore<Doc>({ initialState: { document: 'old' } })
    store.apply([...writeDocument('a'), ev.runStarted('r5'), ev.runStarted('r6'), ev.runFinished('r6')])
    expect(store.getState().state).toStrictEqual({ document: 'old' })
    expect(store.getState().committed).toStrictEqual({ document: 'old' })
    expect(store.getState().predictions).toStrictEqual([])
  })
})
