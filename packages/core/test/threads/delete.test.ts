// threads.delete(id) while that thread's save is in flight: with a storage whose writes can land
// out of order, the save must not land after the removal and bring the conversation back.
import { describe, expect, it } from 'vitest'
import { createAgentThreads, persistThread } from '../../src'
import { GatedStorage, settle } from './support-storages'
import type { Doc } from './support-threads'

describe('threads.delete(id)', () => {
  it('removes the thread after its save in flight, so the save cannot land after the removal', async () => {
    const storage = new GatedStorage()
    const threads = createAgentThreads<Doc>({ initialState: {}, persist: persistThread({ storage }) })
    await threads.whenRestored()
    threads.open('a').setState({ title: 'Secret' })
    await settle()
    // a's save has started and is held by the storage.
    expect(storage.held.map((write) => write.key)).toContain('agent-state:a')
    const deleting = threads.delete('a')
    await settle()
    storage.release('agent-state:a')
    await deleting
    expect(storage.items.has('agent-state:a')).toBe(false)
    expect(storage.log.filter((entry) => entry.endsWith(':a'))).toStrictEqual(['set agent-state:a', 'remove agent-state:a'])
    expect(threads.getState().threads).toStrictEqual([])
    expect(threads.store('a')).toBeUndefined()
  })
})
