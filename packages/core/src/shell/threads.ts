import { AgentStoreError, messageOf } from '../errors'
import { createId } from '../ids'
import type { Model } from '../machine/model'
import type { AgentSnapshot, AgentStore, AgentStoreOptions, AgUiAgent, RunStatus, ThreadPersistence } from '../types'
import { persistParts } from './hydration'
import { createListenerSet } from './listeners'
import { createAgentStore, createStoreFrom, listenerError, reporter, storeInternals } from './store'

// Many conversations in one app. Each thread has its own store and its own agent (an agent holds
// its run's state), so no event of one thread can reach another; runs go on in the background.
// The registry reads like a store: its snapshot is the active thread's, with the list beside it.

/** One thread as the registry lists it (`ThreadsSnapshot.threads`): enough for a list of conversations. */
export interface ThreadSummary {
  readonly id: string
  /** The first user message, shortened; undefined until there is one. */
  readonly title: string | undefined
  /** The thread's run status, as its store last showed it. */
  readonly status: RunStatus
  /** `Date.now()` when a message was added or its status changed; always later than the summary it replaces. */
  readonly updatedAt: number
  /** The thread waits on the user: a confirmation is open. */
  readonly hasConfirmation: boolean
}

/** The active thread's snapshot (a blank one when none is active), with the list of threads. */
export type ThreadsSnapshot<S> = AgentSnapshot<S> & {
  readonly threads: readonly ThreadSummary[]
  readonly activeThreadId: string | undefined
}

/**
 * `createAgentThreads`'s one argument: the options of `createAgentStore`, which apply to every thread,
 * with an agent per thread instead of `agent` and one `persist` for all of them.
 */
export interface AgentThreadsOptions<S> extends Omit<AgentStoreOptions<S>, 'agent' | 'threadId' | 'restore' | 'persist'> {
  /**
   * A fresh agent per thread; or give `url` instead, which every thread's store uses with its own
   * thread id (not both). Without either, threads take events through `apply()` only.
   */
  createAgent?: (threadId: string) => AgUiAgent
  /** `persistThread({ storage, key, … })`: each thread is saved under `${key}:${threadId}`, the list and the thread shown under `${key}:threads`. */
  persist?: ThreadPersistence | undefined
  /** Live stores kept in memory (default 10): the least recently used idle ones are saved and dropped. */
  maxThreads?: number
}

/**
 * A registry of conversations, one store per thread, made by `createAgentThreads`. It reads like a
 * store (`getState`, `getInitialState`, `subscribe`), so every binding's `useAgentStore` takes it;
 * commands go to a thread's own store (`open()`, `store()`).
 */
export interface AgentThreads<S> {
  /** The current snapshot: the active thread's (a blank one when none is active), with the list of threads. */
  getState(): ThreadsSnapshot<S>
  /** The registry's first snapshot: a blank thread and an empty list, before any saved list was read. */
  getInitialState(): ThreadsSnapshot<S>
  /**
   * Calls `listener` after every change of the active thread or of the list; returns the function that
   * unsubscribes it. A listener that throws is reported as LISTENER and the others are still called.
   */
  subscribe(listener: (snapshot: ThreadsSnapshot<S>, previous: ThreadsSnapshot<S>) => void): () => void
  /** Makes a thread active, creating it (a new id when none is given) or restoring it. */
  open(threadId?: string): AgentStore<S>
  /** A thread's store, restored if it was dropped from memory; undefined for a thread never seen. */
  store(threadId: string): AgentStore<S> | undefined
  /** Stops the thread's run and forgets it, in memory and in storage. */
  delete(threadId: string): Promise<void>
  /** Resolves once the saved list of threads has been read. */
  whenRestored(): Promise<void>
  /** Writes every pending change to storage. */
  flush(): Promise<void>
  /**
   * Ends the registry (a test's teardown, a hot module reload): stops following other tabs, aborts
   * the runs in flight, writes every pending change, then saves nothing more. Resolves once storage
   * has it all. Stores the app still holds work on in memory only; `open()` and `store()` throw.
   */
  dispose(): Promise<void>
}

const TITLE_LENGTH = 80

interface Entry<S> {
  readonly store: AgentStore<S>
  readonly unsubscribe: () => void
}

export function createAgentThreads<S>(options: AgentThreadsOptions<S>): AgentThreads<S> {
  const { createAgent, persist: persistence, maxThreads = 10, ...shared } = options
  // The saved-thread code comes with `persist`: a registry without it ships none.
  const storage = persistParts(persistence)?.threads()
  const live = new Map<string, Entry<S>>()
  const leaving = new Map<string, Entry<S>>()
  // Dropped threads without a storage: kept as their models, which are far smaller than a live store.
  const dropped = new Map<string, Model<S>>()
  // Dropped stores, while the app may still hold one: that store, not a second one, is the thread.
  const detached = new Map<string, WeakRef<Entry<S>>>()
  const inMemoryMaps = [live, leaving, detached, dropped]
  const blank = createAgentStore<S>(shared).getState()
  let summaries: readonly ThreadSummary[] = []
  let activeThreadId: string | undefined
  const report = reporter(shared)
  const listeners = createListenerSet<ThreadsSnapshot<S>, ThreadsSnapshot<S>>((error) => report(listenerError('A threads listener', error)))
  // Another tab may write the list too: each write merges what storage holds, and a thread deleted
  // anywhere is remembered (a few hundred ids) so that no tab lists it again.
  /** Threads deleted, as storage last said plus this tab's deletions: no tab lists them again. */
  let deleted = new Set<string>()
  /** Deleted here, until a write of the list has carried the deletion to storage. */
  const deletedHere = new Set<string>()
  /** Deleted once and opened again here since: the stored record of the deletion no longer holds. */
  const revived = new Set<string>()
  /** Threads whose listed summary a change of this tab's store made (a restore is none). */
  const changedHere = new Set<string>()
  /** This tab's deletions in the write in flight: once it has landed, storage holds them. */
  let sending: readonly string[] = []
  const index = storage?.listWriter(
    indexText,
    () => {
      for (const id of sending) deletedHere.delete(id)
    },
    report,
  )
  const first: ThreadsSnapshot<S> = { ...blank, threads: summaries, activeThreadId }
  let snapshot = first
  let disposed = false
  const restoring = readIndex()
  // A list read after dispose() is not taken: the registry shows and writes nothing more.
  const unwatch = storage?.watch(() => void readStored().then((stored) => disposed || merge(stored)))

  async function indexText(): Promise<string> {
    merge(await readStored())
    sending = [...deletedHere]
    return JSON.stringify({ threads: summaries, activeThreadId, deleted: [...deleted].slice(-MAX_DELETED) })
  }

  /** The list as storage holds it now; nothing when it cannot be read (the write goes on with this tab's list). */
  async function readStored(): Promise<unknown> {
    try {
      return await storage!.readList()
    } catch {
      return undefined
    }
  }

  /**
   * Another tab's changes to the list: its new threads are added, those it deleted forgotten, and
   * a summary it updated later taken, unless this tab's store changed that thread and holds it:
   * this tab's is current. A thread merely held here (a new tab restores the one another tab
   * shows) takes the other tab's: written back, this tab's older one would list it as it no longer
   * opens. Nothing of this tab's is dropped. The list is not written for it: storage has it already.
   */
  function merge(list: unknown): void {
    const { threads, deleted: gone } = (list ?? {}) as { threads?: unknown; deleted?: unknown }
    const stored = Array.isArray(threads) ? threads.filter(isSummary) : []
    const removed = new Set(Array.isArray(gone) ? gone.filter((id): id is string => typeof id === 'string') : [])
    for (const id of revived) if (!removed.has(id)) revived.delete(id)
    deleted = new Set([...removed, ...deletedHere].filter((id) => !revived.has(id)))
    let next = summaries.filter((summary) => !deleted.has(summary.id))
    for (const summary of summaries) if (!next.includes(summary)) void forget(summary.id)
    const byId = new Map(next.map((summary) => [summary.id, summary]))
    const added = stored.filter((summary) => !byId.has(summary.id) && !deleted.has(summary.id))
    next = next.map((mine) => {
      const theirs = stored.find((summary) => summary.id === mine.id)
      if (!theirs || theirs.updatedAt <= mine.updatedAt || (changedHere.has(mine.id) && (live.has(mine.id) || leaving.has(mine.id)))) return mine
      changedHere.delete(mine.id)
      return theirs
    })
    if (added.length === 0 && next.length === summaries.length && next.every((summary, i) => summary === summaries[i])) return
    summaries = [...added, ...next]
    if (activeThreadId !== undefined && deleted.has(activeThreadId)) activeThreadId = undefined
    publish()
  }

  function readIndex(): Promise<void> {
    if (!storage) return Promise.resolve()
    const start = () => index?.start()
    try {
      const stored = storage.readList()
      if (!(stored instanceof Promise)) {
        const settling = takeIndex(stored)
        start()
        return settling
      }
      return stored.then(takeIndex, (error) => report(indexError(error))).finally(start)
    } catch (error) {
      report(indexError(error))
      start()
      return Promise.resolve()
    }
  }

  /**
   * The saved list, and the thread that was shown, opened again unless the app has opened one already.
   * Resolves once the list shows what each thread will be when opened.
   */
  function takeIndex(stored: unknown): Promise<void> {
    if (disposed) return Promise.resolve()
    const { threads, activeThreadId: shown } = (stored ?? {}) as { threads?: unknown; activeThreadId?: unknown }
    if (!Array.isArray(threads)) return Promise.resolve()
    const known = new Set(summaries.map((s) => s.id))
    const found = threads.filter((s): s is ThreadSummary => isSummary(s) && !known.has(s.id))
    if (found.length > 0) setSummaries([...summaries, ...found])
    merge(stored)
    if (activeThreadId === undefined && typeof shown === 'string' && found.some((s) => s.id === shown)) {
      activeThreadId = shown
      attach(shown)
      publish()
    }
    return Promise.all(found.filter((s) => s.status === 'running').map((s) => reread(s.id))).then(() => undefined)
  }

  /**
   * A thread listed as running when the page closed: no request outlives the page, so opened it
   * will show something else (idle, or its confirmations again). The list shows that now: at once
   * for a synchronous storage, once the thread is read for an async one.
   */
  function reread(id: string): Promise<void> | undefined {
    let value: unknown
    try {
      value = storage!.readThread(id)
    } catch {
      // Unreadable: opening it reports the error and shows a blank thread.
      value = undefined
    }
    if (!(value instanceof Promise)) return relist(id, value)
    return value.then(
      (thread) => relist(id, thread),
      () => relist(id, undefined),
    )
  }

  function relist(id: string, value: unknown): undefined {
    if (disposed || live.has(id) || leaving.has(id)) return
    const old = summaries.find((s) => s.id === id)
    if (!old) return
    // Restored as opening it would restore it (errors are reported when it is opened).
    const { onError: _onError, ...quiet } = shared
    const opening = createAgentStore<S>({ ...quiet, threadId: id, ...storage!.opening(value) }).getState()
    const hasConfirmation = opening.confirmations.length > 0
    if (opening.status === old.status && hasConfirmation === old.hasConfirmation) return
    setSummaries(summaries.map((s) => (s === old ? { ...old, status: opening.status, hasConfirmation } : s)))
  }

  function publish() {
    const active = activeThreadId === undefined ? undefined : live.get(activeThreadId)?.store.getState()
    const next: ThreadsSnapshot<S> = { ...(active ?? blank), threads: summaries, activeThreadId }
    const previous = snapshot
    snapshot = next
    listeners.notify(next, previous)
  }

  function setSummaries(next: readonly ThreadSummary[]) {
    summaries = next
    index?.changed(true)
    publish()
  }

  /** The summary only changes when the list would show something new: not per token. */
  function summarize(id: string, state: AgentSnapshot<S>, now: number, restored: boolean): void {
    const old = summaries.find((s) => s.id === id)
    const title = old?.title ?? titleOf(state)
    const hasConfirmation = state.confirmations.length > 0
    if (old && old.status === state.status && old.title === title && old.hasConfirmation === hasConfirmation) return
    // A change is later than the summary it replaces, though the clock has not moved on: a tab
    // merging the list takes the later of two, so a run ending within a millisecond must not tie.
    // A restore changes nothing: it keeps the stamp, and the tab that changed the thread stays later.
    const updatedAt = !old ? now : restored ? old.updatedAt : Math.max(now, old.updatedAt + 1)
    if (!restored) changedHere.add(id)
    const summary: ThreadSummary = { id, title, status: state.status, updatedAt, hasConfirmation }
    setSummaries(old ? summaries.map((s) => (s.id === id ? summary : s)) : [summary, ...summaries])
  }

  /** The thread's store in memory: live, being written before it is dropped, or dropped but still held by the app. */
  function inMemory(id: string): Entry<S> | undefined {
    return live.get(id) ?? leaving.get(id) ?? detached.get(id)?.deref()
  }

  /** Takes the thread out of every map of threads in memory. */
  function release(id: string): void {
    for (const threads of inMemoryMaps) threads.delete(id)
  }

  function attach(id: string): AgentStore<S> {
    const found = inMemory(id)
    if (found) {
      takeBack(id, found)
      return found.store
    }
    const model = dropped.get(id)
    release(id)
    const store = createStoreFrom<S>(
      {
        ...shared,
        threadId: id,
        ...(createAgent ? { agent: createAgent(id) } : {}),
        ...(storage ? { persist: storage.thread(id) } : {}),
      },
      model,
    )
    const unsubscribe = store.subscribe((state, previous) => {
      // A dropped store the app still holds and changes: it is the thread again (saved and listed).
      if (!live.has(id)) takeBack(id, entry)
      if (state.status !== previous.status || state.messages.length !== previous.messages.length || state.confirmations !== previous.confirmations)
        summarize(id, state, Date.now(), storeInternals(store).restoring())
      if (id === activeThreadId) publish()
    })
    const entry: Entry<S> = { store, unsubscribe }
    live.set(id, entry)
    summarize(id, store.getState(), Date.now(), true)
    // An async restore shows the thread's content once it arrives.
    void store.whenRestored().then(() => live.get(id)?.store === store && summarize(id, store.getState(), Date.now(), true))
    evict()
    return store
  }

  /** Most recently used last: the first entries are the ones to drop. */
  function takeBack(id: string, entry: Entry<S>) {
    const wasDetached = !live.has(id) && !leaving.has(id)
    release(id)
    live.set(id, entry)
    if (wasDetached) {
      storeInternals(entry.store).resume()
      evict()
    }
  }

  /** Drops the least recently used idle threads beyond `maxThreads`; a running one stays until it ends. */
  function evict() {
    for (const [id, entry] of live) {
      if (live.size <= maxThreads) return
      // A request in flight (a run, or a reconnect() still replaying) keeps its thread in memory.
      if (id === activeThreadId || storeInternals(entry.store).model().request) continue
      live.delete(id)
      // Still subscribed: the listener takes the store back if the app goes on using it.
      detached.set(id, new WeakRef(entry))
      if (!storage) {
        dropped.set(id, storeInternals<S>(entry.store).model())
        continue
      }
      // Alive until the storage has its last value: opened again meanwhile, it is taken back as it is.
      leaving.set(id, entry)
      void letGo(id, entry)
    }
  }

  /**
   * Writes a thread being dropped, then lets it go. A failed write (a full quota) keeps it here,
   * changes and all, until a later flush() gets it into storage: dropping it would lose them.
   */
  async function letGo(id: string, entry: Entry<S>): Promise<void> {
    const internals = storeInternals(entry.store)
    const written = await internals.flush()
    if (!written || leaving.get(id) !== entry) return
    leaving.delete(id)
    void internals.stop()
  }

  /** Stops the thread's run and removes it from memory, then from storage. */
  async function forget(threadId: string): Promise<void> {
    const entry = inMemory(threadId)
    release(threadId)
    changedHere.delete(threadId)
    let saving: Promise<void> | undefined
    if (entry) {
      entry.unsubscribe()
      entry.store.abort()
      saving = storeInternals(entry.store).stop()
    }
    try {
      // After the save in flight: a storage that does not keep request order would land it after the removal.
      await saving
      await storage?.remove(threadId)
    } catch (error) {
      report(new AgentStoreError('PERSIST', `The thread could not be removed from storage: ${messageOf(error)}`, { reason: 'remove', cause: error }))
    }
  }

  /** The stored list when the storage answers synchronously; undefined otherwise. */
  function readNow(): unknown {
    try {
      const stored = storage!.readList()
      if (!(stored instanceof Promise)) return stored
      // An async storage answers later: its list arrives with the next write or `watch` call.
      stored.catch(() => undefined)
      return undefined
    } catch {
      return undefined
    }
  }

  function checkOpen(): void {
    if (disposed) throw new Error('This threads registry was disposed: create another one')
  }

  const known = (id: string) => live.has(id) || leaving.has(id) || dropped.has(id) || summaries.some((s) => s.id === id)

  return {
    getState: () => snapshot,
    getInitialState: () => first,
    subscribe: (listener) => listeners.add(listener),
    open(threadId = createId()) {
      checkOpen()
      deletedHere.delete(threadId)
      if (deleted.delete(threadId)) revived.add(threadId)
      activeThreadId = threadId
      const store = attach(threadId)
      index?.changed(true)
      publish()
      return store
    },
    store(threadId) {
      checkOpen()
      // Created in another tab since this one last read the list: a synchronous storage tells at once.
      if (!known(threadId) && storage) {
        const stored = readNow()
        if (stored !== undefined) merge(stored)
      }
      return known(threadId) ? attach(threadId) : undefined
    },
    async delete(threadId) {
      deleted.add(threadId)
      deletedHere.add(threadId)
      revived.delete(threadId)
      if (activeThreadId === threadId) activeThreadId = undefined
      const removing = forget(threadId)
      setSummaries(summaries.filter((s) => s.id !== threadId))
      await removing
    },
    whenRestored: () => restoring,
    async flush() {
      // The threads being dropped too: their last change may not have been written yet.
      await Promise.all([...[...live.values()].map(({ store }) => storeInternals(store).flush()), ...[...leaving].map(([id, entry]) => letGo(id, entry))])
      await index?.flush()
    },
    async dispose() {
      if (disposed) return
      disposed = true
      if (typeof unwatch === 'function') unwatch()
      const held = [...live.values(), ...leaving.values()]
      for (const { store } of held) store.abort()
      await Promise.all(held.map(({ store }) => storeInternals(store).flush()))
      await index?.flush()
      // A dropped store the app still holds is let go too: used again, it is no thread of this registry.
      const stores = new Set([...held, ...[...detached.values()].flatMap((ref) => ref.deref() ?? [])])
      await Promise.all(
        [...stores].map(({ store, unsubscribe }) => {
          unsubscribe()
          return storeInternals(store).stop()
        }),
      )
      await index?.stop()
      for (const threads of inMemoryMaps) threads.clear()
    },
  }
}

function titleOf<S>(snapshot: AgentSnapshot<S>): string | undefined {
  const message = snapshot.messages.find((m) => m.role === 'user')
  const text = typeof message?.content === 'string' ? message.content.trim() : undefined
  if (!text) return undefined
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text
}

/** Deletions remembered in the stored list, so that another tab does not list those threads again. */
const MAX_DELETED = 200

const statuses: readonly unknown[] = ['idle', 'running', 'interrupted', 'error'] satisfies RunStatus[]

/** A summary a list can show: from storage, so checked like a saved thread. */
const isSummary = (value: unknown): value is ThreadSummary => {
  const summary = value as Partial<ThreadSummary> | null
  return (
    typeof summary?.id === 'string' &&
    (summary.title === undefined || typeof summary.title === 'string') &&
    statuses.includes(summary.status) &&
    typeof summary.updatedAt === 'number' &&
    typeof summary.hasConfirmation === 'boolean'
  )
}

const indexError = (error: unknown) =>
  error instanceof AgentStoreError
    ? error
    : new AgentStoreError('PERSIST', `The list of threads could not be read: ${messageOf(error)}`, { reason: 'read', cause: error })
