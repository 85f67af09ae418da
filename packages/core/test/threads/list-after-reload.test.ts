// The thread list after a reload shows each thread as it will be when opened: a thread that was
// streaming in the background when the page closed is not `running` any more (no request outlives
// the page), and one whose answer had not reached the server shows its confirmation again.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { type AgentThreads, createAgentThreads, type PersistStorage, persistThread, type ThreadSummary } from '../../src'
import { type Doc, MapStorage, SteppedAgent } from './support-threads'

const started = (id: string, runId: string) => ({ type: 'RUN_STARTED', threadId: id, runId }) as BaseEvent
const finished = (id: string, runId: string) => ({ type: 'RUN_FINISHED', threadId: id, runId }) as BaseEvent

/** A page: a registry on the storage, an agent per thread the test streams into. */
function page(storage: PersistStorage) {
  const agents = new Map<string, SteppedAgent>()
  const threads = createAgentThreads<Doc>({
    initialState: {},
    persist: persistThread({ storage }),
    createAgent: (id) => agents.set(id, new SteppedAgent({ threadId: id })).get(id)!,
  })
  return { threads, agents }
}

const summaryOf = (threads: AgentThreads<Doc>, id: string) => threads.getState().threads.find((summary) => summary.id === id)
const listed = ({ status, hasConfirmation }: ThreadSummary) => ({ status, hasConfirmation })

/** Thread a streams in the background (b is shown) when the page closes; c waits for its answer to arrive. */
async function closedWhileBusy(storage: PersistStorage) {
  const { threads, agents } = page(storage)
  await threads.whenRestored()
  void threads.open('a').run({ message: { id: 'u1', role: 'user', content: 'Write' } })
  agents.get('a')!.push(started('a', 'r1'))
  agents.get('a')!.push({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' } as BaseEvent)
  const c = threads.open('c')
  void c.run({ message: { id: 'u2', role: 'user', content: 'Change it' } })
  const agentC = agents.get('c')!
  agentC.push(started('c', 'r2'))
  agentC.push({ type: 'TOOL_CALL_START', toolCallId: 'k1', toolCallName: 'confirm_changes' } as BaseEvent)
  agentC.push({ type: 'TOOL_CALL_END', toolCallId: 'k1' } as BaseEvent)
  agentC.push(finished('c', 'r2'))
  void c.approve({ id: 'k1' })
  threads.open('b')
  await threads.flush()
  expect(listed(summaryOf(threads, 'a')!)).toStrictEqual({ status: 'running', hasConfirmation: false })
  expect(listed(summaryOf(threads, 'c')!)).toStrictEqual({ status: 'running', hasConfirmation: false })
}

describe('the thread list after a reload', () => {
  it('shows a thread that streamed in the background as it will open: idle, or its confirmation open again', async () => {
    const storage = new MapStorage()
    await closedWhileBusy(storage)
    const { threads } = page(storage)
    await threads.whenRestored()
    expect(listed(summaryOf(threads, 'a')!)).toStrictEqual({ status: 'idle', hasConfirmation: false })
    expect(listed(summaryOf(threads, 'c')!)).toStrictEqual({ status: 'interrupted', hasConfirmation: true })
    expect(summaryOf(threads, 'a')!.title).toBe('Write')
    // Opening them shows what the list said.
    for (const id of ['a', 'c']) {
      const opened = threads.store(id)!.getState()
      expect({ status: opened.status, hasConfirmation: opened.confirmations.length > 0 }).toStrictEqual(listed(summaryOf(threads, id)!))
    }
  })

  it('with an async storage, once whenRestored() resolves; the corrected list is saved', async () => {
    const items = new MapStorage()
    await closedWhileBusy(items)
    const slow: PersistStorage = {
      getItem: (key) => new Promise((resolve) => setTimeout(() => resolve(items.getItem(key)), 2)),
      setItem: (key, value) => items.setItem(key, value),
      removeItem: (key) => items.removeItem(key),
    }
    const { threads } = page(slow)
    await threads.whenRestored()
    expect(listed(summaryOf(threads, 'a')!)).toStrictEqual({ status: 'idle', hasConfirmation: false })
    expect(listed(summaryOf(threads, 'c')!)).toStrictEqual({ status: 'interrupted', hasConfirmation: true })
    await threads.flush()
    const saved = JSON.parse(items.items.get('agent-state:threads')!) as { threads: ThreadSummary[] }
    expect(saved.threads.map((summary) => [summary.id, summary.status, summary.hasConfirmation])).toStrictEqual([
      ['b', 'idle', false],
      ['c', 'interrupted', true],
      ['a', 'idle', false],
    ])
  })

  it('leaves out a damaged entry of the stored list and lists the others', async () => {
    const storage = new MapStorage()
    const good = { id: 'a', title: 'Soup', status: 'idle', updatedAt: 1, hasConfirmation: false }
    const damaged = [{ id: 'b', status: 'sleeping', updatedAt: 1, hasConfirmation: false }, { id: 'c' }, null, 'd']
    storage.items.set('agent-state:threads', JSON.stringify({ threads: [good, ...damaged] }))
    const { threads } = page(storage)
    await threads.whenRestored()
    expect(threads.getState().threads).toStrictEqual([good])
    expect(threads.store('b')).toBeUndefined()
  })
})
