// The store and the threads registry notify their listeners alike: a listener removed during a
// notification (by another listener) is not called, one added during it waits for the next change,
// and one that throws is reported without keeping the others from their call.
import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore, createAgentThreads } from '../src'

type Doc = Record<string, unknown>

interface Subscribable {
  subscribe(listener: () => void): () => void
}

/** Two readers subscribed in order; the first unsubscribes the second the first time it is called. */
function unsubscribingPair(target: Subscribable) {
  const calls: string[] = []
  let second: () => void = () => undefined
  target.subscribe(() => {
    calls.push('first')
    second()
  })
  second = target.subscribe(() => calls.push('second'))
  return calls
}

const sources: { name: string; make(onError: (error: AgentStoreError) => void): { target: Subscribable; change(): void } }[] = [
  {
    name: 'store',
    make(onError) {
      const store = createAgentStore<Doc>({ initialState: { n: 0 }, onError })
      let n = 0
      return { target: store, change: () => store.setState({ n: ++n }) }
    },
  },
  {
    name: 'threads registry',
    make(onError) {
      const threads = createAgentThreads<Doc>({ initialState: { n: 0 }, onError })
      // An edit of the active thread: one notification of the registry.
      const active = threads.open('thread')
      let n = 0
      return { target: threads, change: () => active.setState({ n: ++n }) }
    },
  },
]

describe.each(sources)('listeners of the $name', ({ make }) => {
  it('a listener another one unsubscribed during the same notification is not called', () => {
    const { target, change } = make(() => undefined)
    const calls = unsubscribingPair(target)
    change()
    change()
    expect(calls).toStrictEqual(['first', 'first'])
  })

  it('a listener added during a notification is first called on the next change', () => {
    const { target, change } = make(() => undefined)
    const calls: string[] = []
    let added = false
    target.subscribe(() => {
      calls.push('outer')
      if (added) return
      added = true
      target.subscribe(() => calls.push('inner'))
    })
    change()
    expect(calls).toStrictEqual(['outer'])
    change()
    expect(calls).toStrictEqual(['outer', 'outer', 'inner'])
  })

  it('a listener that throws is reported as LISTENER and the next one is still called', () => {
    const errors: AgentStoreError[] = []
    const { target, change } = make((error) => errors.push(error))
    const calls: string[] = []
    target.subscribe(() => {
      throw new Error('boom')
    })
    target.subscribe(() => calls.push('after'))
    change()
    expect(calls).toStrictEqual(['after'])
    expect(errors.map((error) => [error.code, (error.cause as Error).message])).toStrictEqual([['LISTENER', 'boom']])
  })

  it('unsubscribing twice removes only that listener', () => {
    const { target, change } = make(() => undefined)
    const calls: string[] = []
    const off = target.subscribe(() => calls.push('a'))
    target.subscribe(() => calls.push('b'))
    off()
    off()
    change()
    expect(calls).toStrictEqual(['b'])
  })
})
