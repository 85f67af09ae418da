// Tearing a registry down (a test's teardown, a hot module reload): dispose() stops following
// other tabs, aborts what runs, writes what is pending, and saves nothing afterwards.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { createAgentThreads, type PersistOptions, persistThread } from '../../src'
import { type Doc, MapStorage, SteppedAgent, sleep } from './support-threads'

/** A registry whose storage tells, through `watch`, of the writes of another tab. */
function watchedRegistry() {
  const storage = new MapStorage()
  const hooks = { changed: [] as (() => void)[], stopped: 0 }
  const watch: PersistOptions['watch'] = (_key, changed) => {
    hooks.changed.push(changed)
    return () => {
      hooks.stopped++
    }
  }
  const agents = new Map<string, SteppedAgent>()
  const threads = createAgentThreads<Doc>({
    initialState: { document: 'first' },
    persist: persistThread({ storage, watch, throttleMs: 10_000 }),
    createAgent: (id) => agents.set(id, new SteppedAgent({ threadId: id })).get(id)!,
  })
  return { storage, hooks, agents, threads }
}

/** What another tab writes: its list, with a thread of its own. */
const otherTabsList = (id: string) =>
  JSON.stringify({ threads: [{ id, title: 'theirs', status: 'idle', updatedAt: Date.now(), hasConfirmation: false }], deleted: [] })

describe('dispose()', () => {
  it('aborts the runs in flight and writes every pending change: a new registry over the storage has them', async () => {
    const { storage, agents, threads } = watchedRegistry()
    const a = threads.open('a')
    void a.run({ message: 'write' })
    const input = agents.get('a')!.inputs[0]!
    agents.get('a')!.push({ type: 'RUN_STARTED', threadId: 'a', runId: input.runId } as BaseEvent)
    agents.get('a')!.push({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' } as BaseEvent)
    // A streamed token waits on the throttle (10 s): only dispose() writes it.
    agents.get('a')!.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Half a sentence' } as BaseEvent)

    await threads.dispose()

    expect(agents.get('a')!.open).toBe(false)
    expect(a.getState().status).toBe('idle')
    const again = createAgentThreads<Doc>({ initialState: { document: 'first' }, persist: persistThread({ storage }) })
    expect(again.getState().threads.map((s) => [s.id, s.status])).toEqual([['a', 'idle']])
    expect(
      again
        .store('a')!
        .getState()
        .messages.map((m) => m.content),
    ).toEqual(['write', 'Half a sentence'])
  })

  it('saves nothing afterwards: a store the app still holds works on in memory only', async () => {
    const { storage, threads } = watchedRegistry()
    const a = threads.open('a')
    a.setState({ document: 'before' })
    await threads.dispose()
    const writes = storage.writes.length

    a.setState({ document: 'after' })
    await sleep(10)

    expect(a.getState().state).toEqual({ document: 'after' })
    expect(storage.writes.length).toBe(writes)
    expect(JSON.parse(storage.items.get('agent-state:a')!).model.snapshot.state).toEqual({ document: 'before' })
  })

  it("stops following other tabs: watch's unsubscribe is called, and a change heard afterwards is not taken", async () => {
    const { storage, hooks, threads } = watchedRegistry()
    threads.open('a')
    const seen: string[][] = []
    threads.subscribe((snapshot) => seen.push(snapshot.threads.map((s) => s.id)))
    await threads.dispose()
    expect(hooks.stopped).toBe(1)

    // A storage whose watch cannot stop (it returned nothing): the registry ignores it.
    storage.items.set('agent-state:threads', otherTabsList('b'))
    for (const changed of hooks.changed) changed()
    await sleep(0)

    expect(threads.getState().threads.map((s) => s.id)).toEqual(['a'])
    expect(seen.filter((ids) => ids.includes('b'))).toEqual([])
  })

  it('is the end of the registry: open() and store() throw, a second dispose() does nothing', async () => {
    const { hooks, threads } = watchedRegistry()
    threads.open('a')
    await threads.dispose()
    await threads.dispose()
    expect(hooks.stopped).toBe(1)
    expect(() => threads.open('b')).toThrow(/disposed/)
    expect(() => threads.store('a')).toThrow(/disposed/)
  })
})
