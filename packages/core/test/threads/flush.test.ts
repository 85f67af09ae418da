// threads.flush() resolves once storage has every thread's last change, including a thread just
// dropped from memory (least recently used) whose last write has not landed yet: an app flushing
// on `pagehide` loses nothing.
import { describe, expect, it } from 'vitest'
import { createAgentThreads, persistThread } from '../../src'
import { GatedStorage, settle } from './support-storages'
import type { Doc } from './support-threads'

describe('threads.flush()', () => {
  it('waits for the last write of a thread just dropped from memory', async () => {
    const storage = new GatedStorage()
    const threads = createAgentThreads<Doc>({ initialState: {}, persist: persistThread({ storage }), maxThreads: 1 })
    await threads.whenRestored()
    threads.open('a').setState({ title: 'Soup' })
    // Opening b drops a (maxThreads 1): a's last change is written as it leaves.
    threads.open('b')
    let flushed = false
    const flushing = threads.flush().then(() => {
      flushed = true
    })
    for (let i = 0; i < 5; i++) {
      await settle()
      storage.release('agent-state:threads')
      storage.release('agent-state:b')
    }
    expect(flushed).toBe(false)
    expect(storage.items.has('agent-state:a')).toBe(false)
    expect(storage.release('agent-state:a')).toBe(1)
    await flushing
    expect(JSON.parse(storage.items.get('agent-state:a')!).model.snapshot.state).toStrictEqual({ title: 'Soup' })
  })
})
