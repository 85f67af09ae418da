import { describe, expect, it } from 'vitest'
import { type AgentStoreError, createAgentStore, persistThread } from '../src'
import { ev, ManualAgent, recordedStore } from './helpers'

// What each error carries is keyed by its code, and a reason is a short slug: the prose is in the message.

const fields = (error: AgentStoreError) => ({ ...error, message: error.message })

describe('error details by code', () => {
  it('PATCH_FAILED names the op and where; why is in the message, not in a reason', () => {
    const { store, errors } = recordedStore({ initialState: { a: 1 } })
    store.apply([ev.delta({ op: 'remove', path: '/missing' })])
    expect(errors.map((error) => fields(error as AgentStoreError))).toStrictEqual([
      {
        name: 'AgentStoreError',
        code: 'PATCH_FAILED',
        opIndex: 0,
        op: 'remove',
        path: '/missing',
        message: 'STATE_DELTA op 0 (remove /missing) failed: path not found',
      },
    ])
  })

  it('LIMIT_EXCEEDED names the limit; the patcher prose is in the message', () => {
    const { store, errors } = recordedStore({ initialState: {}, limits: { maxOpsPerDelta: 1 } })
    store.apply([ev.delta({ op: 'add', path: '/a', value: 1 }, { op: 'add', path: '/b', value: 2 })])
    expect(errors.map((error) => fields(error as AgentStoreError))).toStrictEqual([
      {
        name: 'AgentStoreError',
        code: 'LIMIT_EXCEEDED',
        limit: 'maxOpsPerDelta',
        opIndex: 1,
        op: 'add',
        path: '/b',
        message: 'STATE_DELTA op 1 (add /b): more than 1 operations',
      },
    ])
  })

  it('EDIT_CONFLICT: the reason is a slug, the value the user set comes back', async () => {
    const agent = new ManualAgent()
    const { store, errors } = recordedStore({ agent, initialState: { items: [{ id: 1, n: 0 }] } })
    const running = store.run()
    store.setState({ items: [{ id: 1, n: 5 }] })
    agent.push(ev.snapshot({ items: [] }))
    agent.finish()
    await running
    expect(errors.map((error) => fields(error as AgentStoreError))).toStrictEqual([
      {
        name: 'AgentStoreError',
        code: 'EDIT_CONFLICT',
        path: '/items/0/n',
        value: 5,
        reason: 'removed',
        message: 'Your edit at /items/0/n was not applied: the element it changed is gone',
      },
    ])
  })

  it('PERSIST says what failed: a write that the storage refuses is reason write', async () => {
    const errors: AgentStoreError[] = []
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('quota exceeded')
      },
      removeItem: () => {},
    }
    const store = createAgentStore({
      initialState: { n: 0 },
      persist: persistThread({ storage, key: 'k', throttleMs: 0 }),
      onError: (error) => errors.push(error),
    })
    await store.whenRestored()
    store.setState({ n: 1 })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(errors.map((error) => [error.code, error.reason, error.message])).toEqual([['PERSIST', 'write', 'The thread could not be saved: quota exceeded']])
  })
})
