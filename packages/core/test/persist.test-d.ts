import {
  type AgentStoreOptions,
  createAgentStore,
  createAgentThreads,
  type PersistOptions,
  type PersistStorage,
  type SavedThread,
  type SerializedThread,
} from '@agent-state/core'
import { describe, expectTypeOf, it } from 'vitest'

// Saving a thread and continuing it after a reload (checked by tsc).

const initialState = { document: '' }

describe('persist', () => {
  it('takes a storage, with an optional key, throttle, watch, app version and migrate', () => {
    expectTypeOf<keyof PersistOptions>().toEqualTypeOf<'storage' | 'key' | 'throttleMs' | 'watch' | 'version' | 'migrate'>()
    expectTypeOf<PersistOptions['version']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<PersistOptions['migrate']>().toEqualTypeOf<((saved: SavedThread, fromVersion: number) => SavedThread) | undefined>()
    createAgentStore({ initialState, persist: { storage: localStorage, version: 2, migrate: (saved, from) => (from < 2 ? saved : saved) } })
    expectTypeOf<PersistOptions['key']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<PersistOptions['throttleMs']>().toEqualTypeOf<number | undefined>()
    createAgentStore({ initialState, persist: { storage: localStorage } })
    createAgentStore({ initialState, persist: { storage: sessionStorage, key: 'draft', throttleMs: 100 } })
    // @ts-expect-error: the storage is required
    createAgentStore({ initialState, persist: { key: 'draft' } })
    // @ts-expect-error: not a persist option
    createAgentStore({ initialState, persist: { storage: localStorage, debounceMs: 100 } })
  })

  it('takes localStorage, or any Web-Storage-shaped storage, sync or async', () => {
    expectTypeOf(localStorage).toExtend<PersistStorage>()
    const map = new Map<string, string>()
    const asyncStorage: PersistStorage = {
      getItem: async (key) => map.get(key) ?? null,
      setItem: async (key, value) => void map.set(key, value),
      removeItem: async (key) => void map.delete(key),
    }
    const syncStorage: PersistStorage = {
      getItem: (key) => map.get(key),
      setItem: (key, value) => void map.set(key, value),
      removeItem: (key) => void map.delete(key),
    }
    createAgentStore({ initialState, persist: { storage: asyncStorage } })
    createAgentThreads({ initialState, persist: { storage: syncStorage } })
    // @ts-expect-error: a storage holds text
    const numbers: PersistStorage = { getItem: () => 1, setItem: () => {}, removeItem: () => {} }
    // @ts-expect-error: a storage can remove
    const partial: PersistStorage = { getItem: () => null, setItem: () => {} }
    expectTypeOf([numbers, partial]).toEqualTypeOf<PersistStorage[]>()
  })

  it('watch is told the key and what to call when another writer changed it; it may return an unsubscribe', () => {
    expectTypeOf<NonNullable<PersistOptions['watch']>>().toEqualTypeOf<(key: string, changed: () => void) => unknown>()
    const channel = { on: (_listener: () => void) => () => {} }
    createAgentThreads({
      initialState,
      persist: {
        storage: localStorage,
        watch: (key, changed) => {
          expectTypeOf(key).toEqualTypeOf<string>()
          expectTypeOf(changed).toEqualTypeOf<() => void>()
          return channel.on(changed)
        },
      },
    })
    createAgentThreads({ initialState, persist: { storage: localStorage, watch: () => undefined } })
    // @ts-expect-error: the key is the storage's key, a string
    createAgentThreads({ initialState, persist: { storage: localStorage, watch: (key: number) => key } })
  })
})

describe('serialize and restore', () => {
  it('serialize() gives a versioned plain value that restore takes back', () => {
    const store = createAgentStore({ initialState })
    const saved = store.serialize()
    expectTypeOf(saved).toEqualTypeOf<SerializedThread>()
    expectTypeOf(saved.version).toEqualTypeOf<2>()
    expectTypeOf(saved.appVersion).toEqualTypeOf<number | undefined>()
    expectTypeOf(saved.threadId).toEqualTypeOf<string>()
    expectTypeOf(saved.savedAt).toEqualTypeOf<number>()
    expectTypeOf(saved.model).toBeUnknown()
    expectTypeOf<AgentStoreOptions<unknown>['restore']>().toEqualTypeOf<SerializedThread | null | undefined>()
    createAgentStore({ initialState, restore: saved })
    createAgentStore({ initialState, restore: JSON.parse(JSON.stringify(saved)) })
    // @ts-expect-error: the saved thread, not its text
    createAgentStore({ initialState, restore: JSON.stringify(saved) })
    // @ts-expect-error: a saved thread of another version
    createAgentStore({ initialState, restore: { ...saved, version: 3 } })
    // @ts-expect-error: the saved thread is read-only
    saved.threadId = 'other'
  })
})
