import {
  type AgentStore,
  type AgentStoreOptions,
  createAgentStore,
  createAgentThreads,
  type PersistOptions,
  type PersistStorage,
  persistThread,
  type ReadableAgentStore,
  restoreThread,
  type SavedModel,
  type SavedThread,
  type SavedTree,
  type SavedView,
  type SerializedThread,
  serializeThread,
  type ThreadPersistence,
  type ThreadRestore,
} from '@agent-state/core'
import { describe, expectTypeOf, it } from 'vitest'
import type { Tree } from '../src/machine/model'

// Saving a thread and continuing it after a reload (checked by tsc).

const initialState = { document: '' }

describe('persistThread', () => {
  it('takes a storage, with an optional key, throttle, watch, app version and migrate', () => {
    expectTypeOf(persistThread).parameters.toEqualTypeOf<[PersistOptions]>()
    expectTypeOf(persistThread).returns.toEqualTypeOf<ThreadPersistence>()
    expectTypeOf<keyof PersistOptions>().toEqualTypeOf<'storage' | 'key' | 'throttleMs' | 'watch' | 'version' | 'migrate'>()
    expectTypeOf<PersistOptions['version']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<PersistOptions['migrate']>().toEqualTypeOf<((saved: SavedThread, fromVersion: number) => SavedThread) | undefined>()
    createAgentStore({ initialState, persist: persistThread({ storage: localStorage, version: 2, migrate: (saved, from) => (from < 2 ? saved : saved) }) })
    expectTypeOf<PersistOptions['key']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<PersistOptions['throttleMs']>().toEqualTypeOf<number | undefined>()
    createAgentStore({ initialState, persist: persistThread({ storage: localStorage }) })
    createAgentStore({ initialState, persist: persistThread({ storage: sessionStorage, key: 'draft', throttleMs: 100 }) })
    // @ts-expect-error: the storage is required
    persistThread({ key: 'draft' })
    // @ts-expect-error: not a persist option
    persistThread({ storage: localStorage, debounceMs: 100 })
  })

  it('is what persist takes: the options themselves are refused, and its parts are not public', () => {
    expectTypeOf<AgentStoreOptions<unknown>['persist']>().toEqualTypeOf<ThreadPersistence | undefined>()
    // @ts-expect-error: persist takes persistThread's value, not its options
    createAgentStore({ initialState, persist: { storage: localStorage } })
    // @ts-expect-error: the registry too
    createAgentThreads({ initialState, persist: { storage: localStorage } })
    // @ts-expect-error: a restore value is not a persist value
    createAgentStore({ initialState, persist: restoreThread(null) })
    // @ts-expect-error: its parts are internal
    persistThread({ storage: localStorage }).options
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
    createAgentStore({ initialState, persist: persistThread({ storage: asyncStorage }) })
    createAgentThreads({ initialState, persist: persistThread({ storage: syncStorage }) })
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
      persist: persistThread({
        storage: localStorage,
        watch: (key, changed) => {
          expectTypeOf(key).toEqualTypeOf<string>()
          expectTypeOf(changed).toEqualTypeOf<() => void>()
          return channel.on(changed)
        },
      }),
    })
    createAgentThreads({ initialState, persist: persistThread({ storage: localStorage, watch: () => undefined }) })
    // @ts-expect-error: the key is the storage's key, a string
    persistThread({ storage: localStorage, watch: (key: number) => key })
  })
})

describe('the saved conversation tree', () => {
  it('is importable and holds the messages sent and the branches put away, each with the state a migrate rewrites', () => {
    expectTypeOf<SavedModel['tree']>().toEqualTypeOf<SavedTree | undefined>()
    // Every field the store's tree has is declared: what is saved is what the type says.
    expectTypeOf<keyof SavedTree>().toEqualTypeOf<keyof Tree<unknown>>()
    expectTypeOf<keyof SavedTree>().toEqualTypeOf<'sent' | 'versions' | 'shelved' | 'pending' | 'wireIds' | 'serverBranch' | 'thread' | 'threadWireIds'>()
    expectTypeOf<SavedTree['shelved'][string]['thread']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<SavedTree['threadWireIds']>().toEqualTypeOf<Readonly<Record<string, Readonly<Record<string, string>>>> | undefined>()
    expectTypeOf<SavedTree['sent'][string]['committed']>().toBeUnknown()
    expectTypeOf<SavedTree['sent'][string]['parentRunId']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<SavedTree['versions'][string]>().toEqualTypeOf<readonly string[]>()
    expectTypeOf<SavedTree['shelved'][string]['snapshot']>().toEqualTypeOf<SavedView>()
    expectTypeOf<SavedTree['shelved'][string]['server']>().toBeUnknown()
    expectTypeOf<SavedTree['pending']>().toEqualTypeOf<{ readonly after: string; readonly replaced: string } | undefined>()
    // A migrate renames the state where the tree holds it too.
    const renamed = (state: unknown) => ({ document: (state as { text?: string }).text ?? '' })
    const migrateTree = (tree: SavedTree): SavedTree => ({
      ...tree,
      sent: Object.fromEntries(Object.entries(tree.sent).map(([id, sent]) => [id, { ...sent, committed: renamed(sent.committed) }])),
    })
    expectTypeOf(migrateTree).returns.toEqualTypeOf<SavedTree>()
    const tree = {} as SavedTree
    // @ts-expect-error: the saved tree is read-only
    tree.versions = {}
  })
})

describe('serializeThread and restoreThread', () => {
  it('serializeThread takes a store and gives a versioned plain value', () => {
    const store = createAgentStore({ initialState })
    expectTypeOf(serializeThread<{ document: string }>).parameters.toEqualTypeOf<
      [ReadableAgentStore<{ document: string }> | AgentStore<{ document: string }>]
    >()
    const saved = serializeThread(store)
    expectTypeOf(saved).toEqualTypeOf<SerializedThread>()
    expectTypeOf(saved.version).toEqualTypeOf<3>()
    expectTypeOf(saved.appVersion).toEqualTypeOf<number | undefined>()
    expectTypeOf(saved.threadId).toEqualTypeOf<string>()
    expectTypeOf(saved.savedAt).toEqualTypeOf<number>()
    expectTypeOf(saved.model).toBeUnknown()
    // A store typed by its read contract only (what a binding holds) serializes too.
    const readable: ReadableAgentStore<{ document: string }> = store
    expectTypeOf(serializeThread(readable)).toEqualTypeOf<SerializedThread>()
    // @ts-expect-error: the method is gone: an app that does not save threads does not ship the code
    store.serialize()
    // @ts-expect-error: the saved thread is read-only
    saved.threadId = 'other'
  })

  it('restoreThread takes what serializeThread gave (or nothing) and is what restore takes', () => {
    const saved = serializeThread(createAgentStore({ initialState }))
    expectTypeOf(restoreThread).parameters.toEqualTypeOf<[SerializedThread | null | undefined]>()
    expectTypeOf(restoreThread(saved)).toEqualTypeOf<ThreadRestore>()
    expectTypeOf<AgentStoreOptions<unknown>['restore']>().toEqualTypeOf<ThreadRestore | undefined>()
    createAgentStore({ initialState, restore: restoreThread(saved) })
    createAgentStore({ initialState, restore: restoreThread(JSON.parse(JSON.stringify(saved))) })
    createAgentStore({ initialState, restore: restoreThread(null) })
    createAgentStore({ initialState, restore: restoreThread(saved), persist: persistThread({ storage: localStorage }) })
    // @ts-expect-error: the saved thread goes through restoreThread
    createAgentStore({ initialState, restore: saved })
    // @ts-expect-error: the saved thread, not its text
    restoreThread(JSON.stringify(saved))
    // @ts-expect-error: a saved thread of another version
    restoreThread({ ...saved, version: 4 })
    // @ts-expect-error: a persist value is not a restore value
    createAgentStore({ initialState, restore: persistThread({ storage: localStorage }) })
  })
})
