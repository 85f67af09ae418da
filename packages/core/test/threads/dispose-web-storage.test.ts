// @vitest-environment jsdom
// With localStorage the registry follows the page's `storage` event by itself; dispose() removes
// that listener, so a registry torn down (a hot module reload) no longer takes another tab's list.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AgentThreads, createAgentThreads, persistThread } from '../../src'
import { settle } from './support-storages'
import type { Doc } from './support-threads'

afterEach(() => {
  localStorage.clear()
  vi.restoreAllMocks()
})

/** What another tab does: writes its list, and the page hears the `storage` event. */
function otherTabLists(id: string) {
  const list = { threads: [{ id, title: 'theirs', status: 'idle', updatedAt: Date.now(), hasConfirmation: false }], deleted: [] }
  localStorage.setItem('agent-state:threads', JSON.stringify(list))
  window.dispatchEvent(new StorageEvent('storage', { key: 'agent-state:threads', storageArea: localStorage }))
}

const listedIds = (threads: AgentThreads<Doc>) =>
  threads
    .getState()
    .threads.map((s) => s.id)
    .sort()

describe('dispose() over localStorage', () => {
  it("removes the page's storage listener: another tab's list is taken before, not after", async () => {
    const threads = createAgentThreads<Doc>({ initialState: {}, persist: persistThread({ storage: localStorage }) })
    threads.open('mine')
    await threads.flush()
    otherTabLists('b')
    await settle()
    expect(listedIds(threads)).toEqual(['b', 'mine'])

    await threads.dispose()
    const reads = vi.spyOn(Storage.prototype, 'getItem')
    otherTabLists('c')
    await settle()

    // Not even read: nothing is left listening.
    expect(reads).not.toHaveBeenCalled()
    expect(listedIds(threads)).toEqual(['b', 'mine'])
  })
})
