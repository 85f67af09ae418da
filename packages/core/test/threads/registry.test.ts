// createAgentThreads: many threads in one app. Each thread streams through its own agent, runs go
// on in the background, no event of one thread reaches another, and beyond maxThreads the least
// recently used idle threads are saved and dropped from memory, to come back complete.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type AgentStore, type AgentStoreError, createAgentThreads, persistThread } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { ev } from '../helpers'

type Doc = { notes: string[] }

/** A run that streams `words` one event at a time, then records them in the state. */
function answer(threadId: string, words: number) {
  return (input: RunAgentInput): BaseEvent[] => {
    const id = `${threadId}-${input.runId}`
    const parts = Array.from({ length: words }, (_, i) => `${threadId}:${i} `)
    return [
      ev.runStarted(input.runId, threadId),
      ev.textStart(id),
      ...parts.map((part) => ev.text(id, part)),
      ev.textEnd(id),
      ev.delta({ op: 'add', path: '/notes/-', value: `from ${threadId}` }),
      ev.runFinished(input.runId, threadId),
    ]
  }
}

function memoryStorage() {
  const items = new Map<string, string>()
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
  return { items, storage }
}

const agents = new Map<string, ScriptedAgent>()
const createAgent = (words: number, delay: number) => (threadId: string) => {
  const agent = new ScriptedAgent({ threadId, delay, runs: [answer(threadId, words)] })
  agents.set(threadId, agent)
  return agent
}

/** Every text of a thread's assistant messages names that thread only. */
function ownTextOnly(store: AgentStore<Doc>, threadId: string) {
  for (const message of store.getState().messages) {
    if (message.role !== 'assistant' || typeof message.content !== 'string') continue
    for (const word of message.content.trim().split(' ')) expect(word.split(':')[0], `a word in ${threadId}`).toBe(threadId)
  }
  for (const note of store.getState().state.notes) expect(note).toBe(`from ${threadId}`)
}

describe('createAgentThreads', () => {
  it('switching 100 times between 5 streaming threads: each ends complete, with only its own events', async () => {
    const ids = ['t0', 't1', 't2', 't3', 't4']
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 100, maxLength: 100 }), async (switches) => {
        const threads = createAgentThreads<Doc>({ initialState: { notes: [] }, createAgent: createAgent(30, 0) })
        const runs = ids.map((id) => threads.open(id).run({ message: `hello ${id}` }))
        const seen: string[] = []
        const stop = threads.subscribe((snapshot) => {
          // The registry shows the active thread, and only it.
          const active = snapshot.activeThreadId!
          seen.push(active)
          expect(snapshot.messages).toBe(threads.store(active)!.getState().messages)
        })
        for (const index of switches) {
          threads.open(ids[index])
          await Promise.resolve()
        }
        await Promise.all(runs)
        stop()
        for (const id of ids) {
          const store = threads.store(id)!
          expect(store.getState().status).toBe('idle')
          expect(store.getState().messages.map((m) => m.role)).toEqual(['user', 'assistant'])
          expect(store.getState().messages[1]!.content).toBe(Array.from({ length: 30 }, (_, i) => `${id}:${i} `).join(''))
          ownTextOnly(store, id)
        }
        expect(threads.getState().threads.map((t) => [t.id, t.status, t.title])).toEqual([...ids].reverse().map((id) => [id, 'idle', `hello ${id}`]))
        expect(seen.length).toBeGreaterThan(0)
      }),
      { numRuns: 5 },
    )
  })

  it('a run goes on in the background, and its thread is complete when revisited', async () => {
    const threads = createAgentThreads<Doc>({ initialState: { notes: [] }, createAgent: createAgent(20, 1) })
    const a = threads.open('a')
    const running = a.run({ message: 'first' })
    await new Promise((resolve) => setTimeout(resolve, 5))
    const b = threads.open('b')
    expect(threads.getState().activeThreadId).toBe('b')
    expect(threads.getState().threads.find((t) => t.id === 'a')!.status).toBe('running')
    await running
    // Its summary followed it while it was not shown; the registry still shows b.
    expect(threads.getState().threads.find((t) => t.id === 'a')!.status).toBe('idle')
    expect(threads.getState().messages).toBe(b.getState().messages)
    expect(threads.open('a')).toBe(a)
    expect(threads.getState().messages).toHaveLength(2)
    expect(threads.getState().state).toEqual({ notes: ['from a'] })
  })

  it('summarizes without following every token: the list changes only when a status, a message count or a confirmation does', async () => {
    const threads = createAgentThreads<Doc>({ initialState: { notes: [] }, createAgent: createAgent(50, 0) })
    const lists: unknown[] = []
    threads.subscribe((snapshot, previous) => {
      if (snapshot.threads !== previous.threads) lists.push(snapshot.threads)
    })
    await threads.open('a').run({ message: 'hi' })
    // Created, the user's message with running, the assistant's message, idle at the end.
    expect(lists.length).toBeLessThanOrEqual(5)
    expect(threads.getState().threads).toEqual([expect.objectContaining({ id: 'a', status: 'idle', title: 'hi', hasConfirmation: false })])
  })

  it('titles a thread with its first user message as first sent, cut at 80 characters; an edit of that message keeps the title', async () => {
    const threads = createAgentThreads<Doc>({ initialState: { notes: [] }, createAgent: createAgent(1, 0) })
    const store = threads.open('a')
    await store.run({ message: `${'long '.repeat(20)}question` })
    const title = threads.getState().threads[0]!.title!
    expect([title.length, title]).toStrictEqual([80, `${'long '.repeat(20).slice(0, 79)}…`])
    await store.edit({ messageId: store.getState().messages[0]!.id, content: 'short' })
    expect(store.getState().messages[0]!.content).toBe('short')
    expect(threads.getState().threads[0]!.title).toBe(title)
  })

  it('keeps at most maxThreads live stores: the least recently used idle ones are saved and come back complete', async () => {
    const { items, storage } = memoryStorage()
    const threads = createAgentThreads<Doc>({ initialState: { notes: [] }, createAgent: createAgent(5, 0), persist: persistThread({ storage }), maxThreads: 2 })
    const first = new Map<string, AgentStore<Doc>>()
    for (const id of ['a', 'b', 'c', 'd']) {
      const store = threads.open(id)
      first.set(id, store)
      await store.run({ message: `about ${id}` })
    }
    await threads.flush()
    for (const id of ['a', 'b', 'c', 'd']) expect(items.has(`agent-state:${id}`), id).toBe(true)
    // d and c are live; a and b were dropped and come back complete (the same store while the app
    // still holds it, as this test does: a second store of one thread would answer twice).
    expect(threads.store('d')).toBe(first.get('d'))
    const a = threads.store('a')!
    expect(a).toBe(first.get('a'))
    expect(a.getState().messages).toEqual(first.get('a')!.getState().messages)
    expect(a.getState().state).toEqual({ notes: ['from a'] })
    expect(threads.store('never-seen')).toBeUndefined()
  })

  it('never drops a thread while its run streams', async () => {
    const threads = createAgentThreads<Doc>({ initialState: { notes: [] }, createAgent: createAgent(40, 1), maxThreads: 1 })
    const a = threads.open('a')
    const running = a.run({ message: 'long' })
    await new Promise((resolve) => setTimeout(resolve, 3))
    threads.open('b')
    threads.open('c')
    expect(threads.store('a')).toBe(a)
    await running
    expect(a.getState().messages).toHaveLength(2)
  })

  it('a reload finds every thread in the list and the one shown, and each opens with its conversation', async () => {
    const { storage } = memoryStorage()
    const before = createAgentThreads<Doc>({ initialState: { notes: [] }, createAgent: createAgent(3, 0), persist: persistThread({ storage }) })
    await before.open('x').run({ message: 'first thread' })
    await before.open('y').run({ message: 'second thread' })
    await before.flush()

    const after = createAgentThreads<Doc>({ initialState: { notes: [] }, createAgent: createAgent(3, 0), persist: persistThread({ storage }) })
    expect(after.getState().threads.map((t) => [t.id, t.title, t.status])).toEqual([
      ['y', 'second thread', 'idle'],
      ['x', 'first thread', 'idle'],
    ])
    // The thread shown before the reload is shown again.
    expect(after.getState().activeThreadId).toBe('y')
    expect(after.getState().messages.map((m) => m.content)).toEqual(
      before
        .store('y')!
        .getState()
        .messages.map((m) => m.content),
    )
    const x = after.open('x')
    expect(x.getState().messages.map((m) => m.content)).toEqual(
      before
        .store('x')!
        .getState()
        .messages.map((m) => m.content),
    )
    expect(after.getState().state).toEqual({ notes: ['from x'] })
  })

  it('delete() stops the run and forgets the thread, in memory and in storage', async () => {
    const { items, storage } = memoryStorage()
    const errors: AgentStoreError[] = []
    const threads = createAgentThreads<Doc>({
      initialState: { notes: [] },
      createAgent: createAgent(40, 1),
      persist: persistThread({ storage }),
      onError: (error) => errors.push(error),
    })
    const a = threads.open('a')
    const running = a.run({ message: 'to be deleted' })
    await threads.flush()
    expect(items.has('agent-state:a')).toBe(true)
    await threads.delete('a')
    await running
    expect(a.getState().status).toBe('idle')
    expect(threads.getState().threads).toEqual([])
    expect(threads.getState().activeThreadId).toBeUndefined()
    await threads.flush()
    expect(items.has('agent-state:a')).toBe(false)
    expect(JSON.parse(items.get('agent-state:threads')!)).toEqual({ threads: [], deleted: ['a'] })
    expect(threads.store('a')).toBeUndefined()
    expect(errors).toEqual([])
  })

  it('holds 50 threads in bounded memory: only maxThreads of them live', () => {
    const script = fileURLToPath(new URL('./support-memory.ts', import.meta.url))
    const output = execFileSync(process.execPath, ['--expose-gc', '--conditions=source', '--import', 'tsx', script], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    const { live, dropped } = JSON.parse(output.trim().split('\n').at(-1)!) as { live: number; dropped: number }
    // 50 threads of ~40 kB of conversation each, 5 live: the heap grows by about 5 of them, not 50.
    expect(dropped).toBeLessThan(live * 2)
    expect(dropped).toBeLessThan(50 * 40_000 * 0.5)
  })
})
