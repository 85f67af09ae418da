// A saved thread outlives the code that saved it. Threads saved by every format the library has
// written are kept as fixtures and must restore exactly, whatever the internals become; a new
// format reads the older ones. The app's own version (`persist.version`) travels with the thread:
// when it differs, `persist.migrate` turns the saved thread into the current one, and without a
// migrate (or with one that throws) the thread is refused and the store starts clean.
import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { type AgentStoreError, createAgentStore, createAgentThreads, type PersistOptions, persistThread, type SavedThread, serializeThread } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import { type Doc, initialState, nextRun, runOptions, savedThreadAgent, savedThreadOptions, savedThreadRuns, THREAD } from './support-saved-thread'
import { MapStorage, throughJson } from './support-threads'

const ids = vi.hoisted(() => ({ next: 0 }))
vi.mock('../../src/ids', () => ({ createId: () => `id-${ids.next++}` }))

const fixture = (name: string) => readFileSync(new URL(`../fixtures/saved-threads/${name}`, import.meta.url), 'utf8')
const formats = { 1: fixture('format-1.json'), 2: fixture('format-2.json'), 3: fixture('format-3.json') }
/** What the store showed when the fixtures were saved, and the body its approve() sent then. */
const shown = JSON.parse(fixture('format-1.snapshot.json')) as Record<string, unknown>
const approveBody = JSON.parse(fixture('approve-body.json')) as Record<string, unknown>

const KEY = 'saved'

/** A store persisted under KEY whose storage holds `text`, with the agent that continues the fixture's conversation. */
function restoredFrom(text: string, persist: Partial<PersistOptions> = {}) {
  const storage = new MapStorage()
  storage.items.set(KEY, text)
  const errors: AgentStoreError[] = []
  // The fixture's conversation had two runs: the next one is its third.
  const agent = new ScriptedAgent({ threadId: THREAD, runs: [savedThreadRuns[2]!] })
  const store = createAgentStore<Doc>(
    savedThreadOptions(agent, { persist: persistThread({ storage, key: KEY, ...persist }), onError: (error) => errors.push(error) }),
  )
  return { store, agent, storage, errors }
}

/** The thread the fixture's conversation leaves, saved now by a store of app version `version`. */
async function savedNow(version?: number): Promise<string> {
  const persist = version === undefined ? undefined : persistThread({ storage: new MapStorage(), version })
  const store = createAgentStore(savedThreadOptions(savedThreadAgent(), persist ? { persist } : {}))
  ids.next = 100
  await store.run(runOptions)
  ids.next = 200
  await store.respond({ id: 'int-tone', payload: { tone: 'calm' } })
  store.setState((doc) => ({ ...doc, title: 'The sea' }))
  return JSON.stringify(serializeThread(store))
}

/** App version 1 renamed the state's `title` to `heading`: every place the saved state appears at rest. */
const renameTitle = (saved: SavedThread): SavedThread => {
  const rename = (state: unknown) => {
    const { title, ...rest } = state as Doc
    return { ...rest, heading: title }
  }
  const { snapshot } = saved.model
  return {
    ...saved,
    model: {
      ...saved.model,
      server: rename(saved.model.server),
      snapshot: { ...snapshot, state: rename(snapshot.state), committed: rename(snapshot.committed) },
      tree: saved.model.tree && {
        ...saved.model.tree,
        sent: Object.fromEntries(Object.entries(saved.model.tree.sent).map(([id, sent]) => [id, { ...sent, committed: rename(sent.committed) }])),
      },
    },
  }
}

describe('saved threads: every format the library has written restores exactly', () => {
  for (const [format, text] of Object.entries(formats)) {
    it(`format ${format}: the snapshot comes back as it was shown, and approve() sends exactly the body it sent then`, async () => {
      const { store, agent, errors } = restoredFrom(text, format === '1' ? {} : { version: 1 })
      expect(errors).toStrictEqual([])
      expect(throughJson(store.getState())).toMatchObject(shown)
      expect(store.getState()).toMatchObject({
        status: 'interrupted',
        requesting: false,
        state: { document: 'A calm document about the sea.', title: 'The sea' },
        committed: { document: 'The old document.', title: 'The sea' },
        confirmations: [{ id: 'int-approve', stateKeys: ['document'], toolCallId: 'call-1' }],
        error: undefined,
      })
      expect(store.getState().messages.map((message) => message.id)).toStrictEqual(['u1', 'a1', 'a2'])
      ids.next = 300
      await store.approve()
      expect(agent.inputs).toHaveLength(1)
      expect(throughJson(agent.inputs[0])).toStrictEqual(approveBody)
      expect(store.getState()).toMatchObject({ status: 'idle', state: { document: 'A calm document about the sea.', title: 'The sea' }, confirmations: [] })
    })
  }

  it('format 1, saved mid-run with a user edit: it comes back as that release restored it, and the next run sends the same body', async () => {
    const storage = new MapStorage()
    storage.items.set(KEY, fixture('format-1-mid-run.json'))
    const errors: AgentStoreError[] = []
    const agent = new ScriptedAgent({ threadId: THREAD, runs: [savedThreadRuns[2]!] })
    const store = createAgentStore<Doc>(savedThreadOptions(agent, { persist: persistThread({ storage, key: KEY }), onError: (error) => errors.push(error) }))
    expect(errors).toStrictEqual([])
    expect(throughJson(store.getState())).toMatchObject(JSON.parse(fixture('format-1-mid-run.snapshot.json')))
    // As abort() leaves a run: idle, the half-written draft gone, the user's edit and the text kept.
    expect(store.getState()).toMatchObject({ status: 'idle', state: { document: 'The old document.', title: 'The sea' }, predictions: [] })
    ids.next = 300
    await store.run(nextRun)
    expect(throughJson(agent.inputs)).toStrictEqual([JSON.parse(fixture('mid-run-next-body.json'))])
  })

  it('format 1 is written again as format 3 at the first change, with the app version', async () => {
    const { store, storage } = restoredFrom(formats[1], { version: 0 })
    store.setState((doc) => ({ ...doc, title: 'Waves' }))
    await Promise.resolve()
    const written = JSON.parse(storage.items.get(KEY)!) as Record<string, unknown>
    expect([written.version, written.appVersion, written.threadId]).toStrictEqual([3, 0, THREAD])
  })

  it('the store writes today the very format of the format-3 fixture (a model change must not change it silently)', async () => {
    const { savedAt: _now, ...written } = JSON.parse(await savedNow(1)) as Record<string, unknown>
    const { savedAt: _then, ...kept } = JSON.parse(formats[3]) as Record<string, unknown>
    expect(written).toStrictEqual(kept)
  })

  it('serializeThread carries the app version of persist (default 0), and none without persist', async () => {
    expect(JSON.parse(await savedNow(3)).appVersion).toBe(3)
    expect(serializeThread(createAgentStore({ initialState, persist: persistThread({ storage: new MapStorage() }) })).appVersion).toBe(0)
    const bare = serializeThread(createAgentStore({ initialState }))
    expect(bare.version).toBe(3)
    expect('appVersion' in bare).toBe(false)
  })
})

describe("saved threads: the app's version and migrate", () => {
  it('a thread of another app version goes through migrate, called once with it and its version; the result is the thread', async () => {
    const calls: [SavedThread, number][] = []
    const migrate = (saved: SavedThread, fromVersion: number) => {
      calls.push([saved, fromVersion])
      return renameTitle(saved)
    }
    const { store, storage, errors } = restoredFrom(formats[2].replace('"appVersion": 1', '"appVersion": 0'), { version: 1, migrate })
    expect(errors).toStrictEqual([])
    expect(calls).toHaveLength(1)
    const [saved, fromVersion] = calls[0]!
    expect(fromVersion).toBe(0)
    expect([saved.version, saved.threadId, saved.appVersion]).toStrictEqual([3, THREAD, 0])
    expect(saved.model.snapshot.state).toStrictEqual({ document: 'A calm document about the sea.', title: 'The sea' })
    expect(saved.model.snapshot.error).toBeUndefined()
    expect(store.getState()).toMatchObject({
      status: 'interrupted',
      state: { document: 'A calm document about the sea.', heading: 'The sea' },
      committed: { document: 'The old document.', heading: 'The sea' },
    })
    expect(store.getState().state).not.toHaveProperty('title')
    // Saved again as the current version: the next reload does not migrate it twice.
    store.setState((doc) => ({ ...doc, heading: 'Waves' }))
    await Promise.resolve()
    expect(JSON.parse(storage.items.get(KEY)!).appVersion).toBe(1)
  })

  it('a format-1 thread is app version 0: migrate gets fromVersion 0', () => {
    const fromVersions: number[] = []
    const { store, errors } = restoredFrom(formats[1], {
      version: 1,
      migrate: (saved, fromVersion) => {
        fromVersions.push(fromVersion)
        return renameTitle(saved)
      },
    })
    expect(errors).toStrictEqual([])
    expect(fromVersions).toStrictEqual([0])
    expect(store.getState().state).toStrictEqual({ document: 'A calm document about the sea.', heading: 'The sea' })
  })

  it('the same app version is not migrated', () => {
    const migrate = vi.fn(renameTitle)
    const { store, errors } = restoredFrom(formats[2], { version: 1, migrate })
    expect(errors).toStrictEqual([])
    expect(migrate).not.toHaveBeenCalled()
    expect(store.getState().state).toStrictEqual({ document: 'A calm document about the sea.', title: 'The sea' })
  })

  it('another app version with no migrate is refused (RESTORE no-migrate): the store starts clean and works', async () => {
    const { store, errors } = restoredFrom(formats[2], { version: 2 })
    expect(errors.map((error) => [error.code, error.reason])).toStrictEqual([['RESTORE', 'no-migrate']])
    expect(store.getState()).toMatchObject({ state: initialState, messages: [], confirmations: [], error: { code: 'RESTORE', reason: 'no-migrate' } })
    await store.run({ message: 'Again' })
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
  })

  it('a migrate that throws is refused (RESTORE migrate-failed, with its error as the cause): nothing throws', () => {
    const thrown = new Error('cannot read version 1')
    const { store, errors } = restoredFrom(formats[2], {
      version: 2,
      migrate: () => {
        throw thrown
      },
    })
    expect(errors.map((error) => [error.code, error.reason, error.cause])).toStrictEqual([['RESTORE', 'migrate-failed', thrown]])
    expect(store.getState()).toMatchObject({ state: initialState, messages: [] })
  })

  it('a migrate that returns no thread, or a damaged one, is refused too', () => {
    const none = restoredFrom(formats[2], { version: 2, migrate: () => undefined as unknown as SavedThread })
    expect(none.errors.map((error) => error.reason)).toStrictEqual(['migrate-failed'])
    const asynchronous = restoredFrom(formats[2], { version: 2, migrate: (saved) => Promise.resolve(saved) as unknown as SavedThread })
    expect(asynchronous.errors.map((error) => error.reason)).toStrictEqual(['migrate-failed'])
    const damaged = restoredFrom(formats[2], {
      version: 2,
      migrate: (saved) => ({ ...saved, model: { ...saved.model, drafts: 'none' } }) as unknown as SavedThread,
    })
    expect(damaged.errors.map((error) => [error.reason, error.message.includes('model.drafts')])).toStrictEqual([['damaged', true]])
    expect(damaged.store.getState().state).toBe(initialState)
  })

  it('a thread serialized by a store without persist (a server render) has no app version: a versioned store takes it as current', async () => {
    const text = await savedNow()
    expect('appVersion' in JSON.parse(text)).toBe(false)
    const { store, errors } = restoredFrom(text, { version: 4 })
    expect(errors).toStrictEqual([])
    expect(store.getState().confirmations.map((confirmation) => confirmation.id)).toStrictEqual(['int-approve'])
  })
})

describe('saved threads: the threads registry passes version and migrate on', () => {
  /** Storage with the format-1 fixture under the registry's key, listed as running (the page closed mid-run). */
  function registryStorage() {
    const storage = new MapStorage()
    storage.items.set(`agent-state:${THREAD}`, formats[1])
    const summary = { id: THREAD, title: 'Write about the sea.', status: 'running', updatedAt: 1, hasConfirmation: false }
    storage.items.set('agent-state:threads', JSON.stringify({ threads: [summary], activeThreadId: undefined, deleted: [] }))
    return storage
  }

  it('its list and its stores read a thread of an older app version through migrate', async () => {
    const fromVersions: number[] = []
    const migrate = (saved: SavedThread, fromVersion: number) => {
      fromVersions.push(fromVersion)
      return renameTitle(saved)
    }
    const storage = registryStorage()
    const errors: AgentStoreError[] = []
    const threads = createAgentThreads<Doc>({
      initialState,
      predict: savedThreadOptions(savedThreadAgent()).predict,
      persist: persistThread({ storage, version: 1, migrate }),
      onError: (error) => errors.push(error),
    })
    await threads.whenRestored()
    // The list shows the thread as it will open: its confirmation open again, read through migrate.
    expect(threads.getState().threads).toMatchObject([{ id: THREAD, status: 'interrupted', hasConfirmation: true }])
    expect(fromVersions).toStrictEqual([0])
    const store = threads.open(THREAD)
    expect(errors).toStrictEqual([])
    expect(fromVersions).toStrictEqual([0, 0])
    expect(store.getState()).toMatchObject({ status: 'interrupted', state: { document: 'A calm document about the sea.', heading: 'The sea' } })
    store.setState((doc) => ({ ...doc, heading: 'Waves' }))
    await threads.flush()
    expect(JSON.parse(storage.items.get(`agent-state:${THREAD}`)!)).toMatchObject({ version: 3, appVersion: 1 })
    await threads.dispose()
  })

  it('without migrate, its list and its stores refuse the thread alike (RESTORE no-migrate)', async () => {
    const storage = registryStorage()
    const errors: AgentStoreError[] = []
    const threads = createAgentThreads<Doc>({ initialState, persist: persistThread({ storage, version: 1 }), onError: (error) => errors.push(error) })
    await threads.whenRestored()
    // Listed as it opens: refused, so blank (idle, nothing to answer).
    expect(threads.getState().threads).toMatchObject([{ id: THREAD, status: 'idle', hasConfirmation: false }])
    const store = threads.open(THREAD)
    expect(errors.map((error) => [error.code, error.reason])).toStrictEqual([['RESTORE', 'no-migrate']])
    expect(store.getState()).toMatchObject({ state: initialState, messages: [] })
    await threads.dispose()
  })
})
