// Category 4: listeners under faults, during real HTTP runs.
import type { AgentSnapshot } from '@agent-state/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countSubscriptions } from '../support/count-subscriptions'
import { ev, gate, type HostileServer, reply, sse, startHostileServer, waitFor } from './hostile-server'
import { type Doc, storeOn } from './scenario'

let server: HostileServer
beforeAll(async () => {
  server = await startHostileServer()
})
afterAll(() => server.close())

const TOKENS = 40
/** A run of TOKENS text tokens, each its own event (and its own notification). */
const streaming = reply((input) => [
  ev.started(input),
  ev.textStart('m1'),
  ...Array.from({ length: TOKENS }, (_, i) => ev.text('m1', `t${i} `)),
  ev.textEnd('m1'),
  ev.delta({ op: 'replace', path: '/count', value: 1 }),
  ev.finished(input),
])
const fullText = Array.from({ length: TOKENS }, (_, i) => `t${i} `).join('')

describe('listeners that misbehave', () => {
  it('isolates a listener that throws on every update: the others see every snapshot, each throw is reported', async () => {
    server.handle(streaming)
    const { store, errors } = storeOn(server)
    const seen: AgentSnapshot<Doc>[] = []
    store.subscribe(() => {
      throw new Error('render failed')
    })
    store.subscribe((snapshot) => seen.push(snapshot))
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { count: 1 } })
    expect(store.getState().messages[0]!.content).toBe(fullText)
    // One notification per change: running, RUN_STARTED (run id), the message start, every token, the delta, the end.
    expect(seen.length).toBeGreaterThanOrEqual(TOKENS + 3)
    expect(seen.at(-1)).toBe(store.getState())
    expect(errors).toHaveLength(seen.length)
    expect(errors.every((e) => e.code === 'LISTENER' && e.message.includes('render failed'))).toBe(true)
  })

  it('lets a listener unsubscribe others mid-stream: they are not called again, not even in the same round', async () => {
    server.handle(streaming)
    const { store } = storeOn(server)
    const calls = { a: 0, b: 0, c: 0 }
    const unsubscribes: (() => void)[] = []
    store.subscribe(() => {
      if (++calls.a === 5) for (const unsubscribe of unsubscribes) unsubscribe()
    })
    unsubscribes.push(store.subscribe(() => calls.b++))
    unsubscribes.push(store.subscribe(() => calls.c++))
    await store.run()
    expect(calls.b).toBe(4)
    expect(calls.c).toBe(4)
    expect(calls.a).toBeGreaterThan(TOKENS)
  })

  it('lets a listener unsubscribe itself mid-notification, and calling unsubscribe twice is harmless', async () => {
    server.handle(streaming)
    const { store } = storeOn(server)
    let selfCalls = 0
    let otherCalls = 0
    const unsubscribe = store.subscribe(() => {
      selfCalls++
      unsubscribe()
      unsubscribe()
    })
    store.subscribe(() => otherCalls++)
    await store.run()
    expect(selfCalls).toBe(1)
    expect(otherCalls).toBeGreaterThan(TOKENS)
  })

  it('first calls a listener subscribed during a notification on the next change', async () => {
    server.handle(streaming)
    const { store } = storeOn(server)
    // A "wait for the next change" helper that re-arms itself: a common pattern.
    const changes: AgentSnapshot<Doc>[] = []
    let armed = 0
    const nextChange = () => {
      if (++armed > 1_000) return // bounds the test if every new listener runs in the same round
      const unsubscribe = store.subscribe((snapshot) => {
        unsubscribe()
        changes.push(snapshot)
        nextChange()
      })
    }
    nextChange()
    const all: AgentSnapshot<Doc>[] = []
    store.subscribe((snapshot) => all.push(snapshot))
    await store.run()
    // One call per change, each with a new snapshot.
    expect(new Set(changes).size).toBe(changes.length)
    expect(changes).toEqual(all)
  })

  it('ends every listener on the current snapshot when one of them edits the state during a notification', async () => {
    server.handle(streaming)
    const { store } = storeOn(server)
    let edited = false
    store.subscribe((snapshot) => {
      // A listener that reacts to the server by editing the state (say, a default it fills in).
      if (!edited && snapshot.messages.length > 0) {
        edited = true
        store.setState((state) => ({ ...state, doc: 'filled in' }))
      }
    })
    const last: { snapshot?: AgentSnapshot<Doc>; previous?: AgentSnapshot<Doc> } = {}
    const order: boolean[] = []
    store.subscribe((snapshot, previous) => {
      // Each notification must continue from the one before it.
      if (last.snapshot) order.push(previous === last.snapshot)
      last.snapshot = snapshot
    })
    await store.run()
    expect(edited).toBe(true)
    expect(last.snapshot).toBe(store.getState())
    expect(order.every(Boolean)).toBe(true)
  })

  it('isolates onEvent listeners and an onError that throws', async () => {
    server.handle(streaming)
    let onErrorCalls = 0
    const { store } = storeOn(server, {
      onError: () => {
        onErrorCalls++
        throw new Error('logging is down')
      },
    })
    const types: string[] = []
    store.onEvent(() => {
      throw new Error('analytics failed')
    })
    store.onEvent((event) => types.push(event.type))
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, state: { count: 1 } })
    expect(types).toHaveLength(TOKENS + 5)
    expect(onErrorCalls).toBe(TOKENS + 5)
  })
})

describe('subscriptions are released', () => {
  it('balances subscribe/unsubscribe cycles during a stream: none is left, none is called after', async () => {
    const release = gate()
    server.handle(async (exchange) => {
      exchange.start()
      await exchange.write(sse([ev.started(exchange.input), ev.textStart('m1')]))
      for (let i = 0; i < 20; i++) await exchange.write(sse([ev.text('m1', `${i} `)]))
      await release.promise
      exchange.end(sse([ev.textEnd('m1'), ev.finished(exchange.input)]))
    })
    const { store: raw } = storeOn(server)
    const { store, active } = countSubscriptions(raw)
    let ghostCalls = 0
    const run = store.run()
    const holders: (() => void)[] = []
    for (let i = 0; i < 200; i++) {
      holders.push(store.subscribe(() => ghostCalls++))
      if (i % 3 === 0) holders.shift()!()
      if (i % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 1))
    }
    expect(active()).toBe(holders.length)
    for (const unsubscribe of holders.splice(0)) unsubscribe()
    expect(active()).toBe(0)
    // The rest of the run and a local edit notify a fresh probe, and none of the released listeners.
    const released = ghostCalls
    let probe = 0
    const stop = raw.subscribe(() => probe++)
    release.open()
    await run
    raw.setState({ doc: 'after', count: 2 })
    stop()
    expect(probe).toBeGreaterThanOrEqual(3)
    expect(ghostCalls).toBe(released)
  })

  it('a listener that aborts the run mid-stream gets no update after the one that ended it', async () => {
    server.handle(streaming)
    const { store } = storeOn(server)
    const statuses: string[] = []
    store.subscribe((snapshot) => {
      statuses.push(snapshot.status)
      if ((snapshot.messages[0]?.content as string | undefined)?.includes('t9 ')) store.abort()
    })
    await store.run()
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
    expect(store.getState().messages[0]!.content).toBe(Array.from({ length: 10 }, (_, i) => `t${i} `).join(''))
    expect(statuses.at(-1)).toBe('idle')
    expect(statuses.filter((s) => s === 'idle')).toHaveLength(1)
    await waitFor(() => server.activeResponses() === 0)
  })
})
