// Two tabs on one storage: each write of the thread list merges what storage holds, so a thread
// created in one tab is never dropped by the other, `store(id)` finds it, a thread deleted in one
// tab leaves the other's list, and with a `watch` hook (the page's `storage` event for
// localStorage) a tab's list follows the other's changes without writing anything itself.
import { describe, expect, it } from 'vitest'
import { type AgentThreads, createAgentThreads, type PersistOptions, persistThread } from '../../src'
import { type Doc, MapStorage } from './support-threads'

/** One storage shared by several tabs; each tab's `watch` hears the writes of the others. */
function sharedStorage() {
  const storage = new MapStorage()
  const watchers: { tab: number; key: string; changed: () => void }[] = []
  const tab = (number: number): PersistOptions => ({
    storage: {
      getItem: (key) => storage.getItem(key),
      setItem(key, value) {
        storage.setItem(key, value)
        for (const watcher of watchers) if (watcher.tab !== number && watcher.key === key) watcher.changed()
      },
      removeItem: (key) => storage.removeItem(key),
    },
    watch: (key, changed) => void watchers.push({ tab: number, key, changed }),
  })
  return { storage, tab }
}

const ids = (threads: AgentThreads<Doc>) =>
  threads
    .getState()
    .threads.map((summary) => summary.id)
    .sort()
const storedIds = (storage: MapStorage) =>
  (JSON.parse(storage.items.get('agent-state:threads')!) as { threads: { id: string }[] }).threads.map((summary) => summary.id).sort()

function twoTabs({ watch }: { watch: boolean }) {
  const { storage, tab } = sharedStorage()
  const options = (number: number) => {
    const { watch: hook, ...rest } = tab(number)
    return watch ? { ...rest, watch: hook! } : rest
  }
  const first = createAgentThreads<Doc>({ initialState: {}, persist: persistThread(options(1)) })
  const second = createAgentThreads<Doc>({ initialState: {}, persist: persistThread(options(2)) })
  return { storage, first, second }
}

describe('two tabs on one storage', () => {
  it('a thread created in one tab stays in the list when the other writes it, and store(id) finds it', async () => {
    const { storage, first, second } = twoTabs({ watch: false })
    first.open('a').setState({ dish: 'soup' })
    await first.flush()
    second.open('b').setState({ dish: 'stew' })
    await second.flush()
    // The first tab has not heard of b; its next write keeps b all the same.
    first.open('c')
    await first.flush()
    expect(storedIds(storage)).toStrictEqual(['a', 'b', 'c'])
    expect(ids(first)).toStrictEqual(['a', 'b', 'c'])
    expect(first.store('b')?.getState().state).toStrictEqual({ dish: 'stew' })
  })

  it('store(id) finds a thread another tab created since, before this tab writes anything', async () => {
    const { first, second } = twoTabs({ watch: false })
    await first.whenRestored()
    second.open('b').setState({ dish: 'stew' })
    await second.flush()
    expect(first.store('b')?.getState().state).toStrictEqual({ dish: 'stew' })
    expect(ids(first)).toStrictEqual(['b'])
  })

  it('a thread deleted in one tab leaves the other, which does not list it again', async () => {
    const { storage, first, second } = twoTabs({ watch: false })
    first.open('a')
    first.open('b')
    await first.flush()
    expect(second.store('a')).toBeDefined()
    await second.delete('a')
    await second.flush()
    first.open('c')
    await first.flush()
    expect(storedIds(storage)).toStrictEqual(['b', 'c'])
    expect(ids(first)).toStrictEqual(['b', 'c'])
    expect(first.store('a')).toBeUndefined()
    expect(storage.items.has('agent-state:a')).toBe(false)
    // Opened again on purpose, it is a thread again in both tabs.
    first.open('a')
    await first.flush()
    second.open('d')
    await second.flush()
    expect(storedIds(storage)).toStrictEqual(['a', 'b', 'c', 'd'])
  })

  it('with watch, a tab follows the other tab’s new and deleted threads without writing', async () => {
    const { first, second } = twoTabs({ watch: true })
    const seen: string[][] = []
    await first.whenRestored()
    first.subscribe((snapshot) => seen.push(snapshot.threads.map((summary) => summary.id)))
    second.open('b')
    await second.flush()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(ids(first)).toStrictEqual(['b'])
    await second.delete('b')
    await second.flush()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(ids(first)).toStrictEqual([])
    expect(seen).toStrictEqual([['b'], []])
  })
})
