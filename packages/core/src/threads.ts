import type { AbstractAgent } from '@ag-ui/client'
import { AgentStoreError, messageOf } from './errors'
import { createId } from './ids'
import { createListenerSet } from './listeners'
import { createWriter, isPromise, loadPersisted, type PersistOptions } from './persist'
import { createAgentStore, storeInternals } from './store'
import type { SerializedThread } from './thread'
import type { AgentSnapshot, AgentStore, AgentStoreOptions, RunStatus } from './types'

// Many conversations in one app. Each thread has its own store and its own agent (an agent holds
// its run's state), so no event of one thread can reach another; runs go on in the background.
// The registry reads like a store: its snapshot is the active thread's, with the list beside it.

export interface ThreadSummary {
  readonly id: string
  /** The first user message, shortened; undefined until there is one. */
  readonly title: string | undefined
  readonly status: RunStatus
  /** `Date.now()` when a message was added or its status changed. */
  readonly updatedAt: number
  readonly hasConfirmation: boolean
}

/** The active thread's snapshot (a blank one when none is active), with the list of threads. */
export type ThreadsSnapshot<S> = AgentSnapshot<S> & {
  readonly threads: readonly ThreadSummary[]
  readonly activeThreadId: string | undefined
}

export interface AgentThreadsOptions<S> extends Omit<AgentStoreOptions<S>, 'agent' | 'threadId' | 'restore' | 'persist'> {
  /** A fresh agent per thread. Without one, threads take events through `apply()` only. */
  createAgent?: (threadId: string) => AbstractAgent
  /** Each thread is saved under `${key}:${threadId}`, the list and the thread shown under `${key}:threads`. */
  persist?: PersistOptions
  /** Live stores kept in memory (default 10): the least recently used idle ones are saved and dropped. */
  maxThreads?: number
}

export interface AgentThreads<S> {
  getState(): ThreadsSnapshot<S>
  getInitialState(): ThreadsSnapshot<S>
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
}

const TITLE_LENGTH = 80

export function createAgentThreads<S>(options: AgentThreadsOptions<S>): AgentThreads<S> {
  const { createAgent, persist, maxThreads = 10, ...shared } = options
  const prefix = persist?.key ?? 'agent-state'
  const live = new Map<string, { store: AgentStore<S>; unsubscribe: () => void }>()
  const leaving = new Map<string, { store: AgentStore<S>; unsubscribe: () => void }>()
  // Dropped threads without a storage: kept as saved values, which are far smaller than a live store.
  const dropped = new Map<string, unknown>()
  const blank = createAgentStore<S>(shared).getState()
  let summaries: readonly ThreadSummary[] = []
  let activeThreadId: string | undefined
  const report = (error: AgentStoreError) => {
    try {
      shared.onError?.(error)
    } catch {
      // An onError that throws must not break the registry either.
    }
  }
  const listeners = createListenerSet<ThreadsSnapshot<S>, ThreadsSnapshot<S>>((error) =>
    report(new AgentStoreError('LISTENER', `A threads listener threw: ${messageOf(error)}`, { cause: error })),
  )
  const index = persist
    ? createWriter({ ...persist, key: `${prefix}:threads` }, () => JSON.stringify({ threads: summaries, activeThreadId }), report)
    : undefined
  const first: ThreadsSnapshot<S> = { ...blank, threads: summaries, activeThreadId }
  let snapshot = first
  const restoring = readIndex()

  function readIndex(): Promise<void> {
    if (!persist) return Promise.resolve()
    const start = () => index?.start()
    try {
      const saved = loadPersisted({ ...persist, key: `${prefix}:threads` })
      if (!isPromise(saved)) {
        const settling = takeIndex(saved)
        start()
        return settling
      }
      return Promise.resolve(saved)
        .then(takeIndex, (error) => report(indexError(error)))
        .finally(start)
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
  function takeIndex(saved: unknown): Promise<void> {
    const { threads, activeThreadId: shown } = (saved ?? {}) as { threads?: unknown; activeThreadId?: unknown }
    if (!Array.isArray(threads)) return Promise.resolve()
    const known = new Set(summaries.map((s) => s.id))
    const found = threads.filter((s): s is ThreadSummary => typeof s?.id === 'string' && !known.has(s.id))
    if (found.length > 0) setSummaries([...summaries, ...found])
    if (activeThreadId === undefined && typeof shown === 'string' && found.some((s) => s.id === shown)) {
      activeThreadId = shown
      attach(shown)
      publish()
    }
    return Promise.all(found.filter((s) => s.status === 'running').map((s) => reread(s.id))).then(() => undefined)
  }

  /**
   * A thread listed as running when the page closed: no request outlives the page, so opened it
   * will show something else (idle, or its confirmations again). The list shows that now.
   */
  async function reread(id: string): Promise<void> {
    let value: unknown
    try {
      value = await loadPersisted({ ...persist!, key: `${prefix}:${id}` })
    } catch {
      // Unreadable: opening it reports the error and shows a blank thread.
      value = undefined
    }
    if (live.has(id) || leaving.has(id)) return
    const old = summaries.find((s) => s.id === id)
    if (!old) return
    // Restored as opening it would restore it (errors are reported when it is opened).
    const { onError: _onError, ...quiet } = shared
    const opening = createAgentStore<S>({ ...quiet, threadId: id, ...(value == null ? {} : { restore: value as SerializedThread }) }).getState()
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
  function summarize(id: string, state: AgentSnapshot<S>, now: number): void {
    const old = summaries.find((s) => s.id === id)
    const title = old?.title ?? titleOf(state)
    const hasConfirmation = state.confirmations.length > 0
    if (old && old.status === state.status && old.title === title && old.hasConfirmation === hasConfirmation) return
    const summary: ThreadSummary = { id, title, status: state.status, updatedAt: now, hasConfirmation }
    setSummaries(old ? summaries.map((s) => (s.id === id ? summary : s)) : [summary, ...summaries])
  }

  function attach(id: string): AgentStore<S> {
    const found = live.get(id) ?? leaving.get(id)
    if (found) {
      leaving.delete(id)
      // Most recently used last: the first entries are the ones to drop.
      live.delete(id)
      live.set(id, found)
      return found.store
    }
    const restore = dropped.get(id) as AgentStoreOptions<S>['restore']
    dropped.delete(id)
    const store = createAgentStore<S>({
      ...shared,
      threadId: id,
      ...(createAgent ? { agent: createAgent(id) } : {}),
      ...(restore ? { restore } : {}),
      ...(persist ? { persist: { ...persist, key: `${prefix}:${id}` } } : {}),
    })
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.status !== previous.status || state.messages.length !== previous.messages.length || state.confirmations !== previous.confirmations)
        summarize(id, state, Date.now())
      if (id === activeThreadId) publish()
    })
    live.set(id, { store, unsubscribe })
    summarize(id, store.getState(), Date.now())
    // An async restore shows the thread's content once it arrives.
    void store.whenRestored().then(() => live.get(id)?.store === store && summarize(id, store.getState(), Date.now()))
    evict()
    return store
  }

  /** Drops the least recently used idle threads beyond `maxThreads`; a running one stays until it ends. */
  function evict() {
    for (const [id, entry] of live) {
      if (live.size <= maxThreads) return
      // A request in flight (a run, or a reconnect() still replaying) keeps its thread in memory.
      if (id === activeThreadId || storeInternals(entry.store).model().request) continue
      live.delete(id)
      if (!persist) {
        entry.unsubscribe()
        dropped.set(id, entry.store.serialize())
        continue
      }
      // Alive until the storage has its last value: opened again meanwhile, it is taken back as it is.
      leaving.set(id, entry)
      const internals = storeInternals(entry.store)
      void internals.flush().then(() => {
        if (leaving.get(id) !== entry) return
        leaving.delete(id)
        entry.unsubscribe()
        internals.stop()
      })
    }
  }

  const known = (id: string) => live.has(id) || leaving.has(id) || dropped.has(id) || summaries.some((s) => s.id === id)

  return {
    getState: () => snapshot,
    getInitialState: () => first,
    subscribe: (listener) => listeners.add(listener),
    open(threadId = createId()) {
      activeThreadId = threadId
      const store = attach(threadId)
      index?.changed(true)
      publish()
      return store
    },
    store: (threadId) => (known(threadId) ? attach(threadId) : undefined),
    async delete(threadId) {
      const entry = live.get(threadId) ?? leaving.get(threadId)
      live.delete(threadId)
      leaving.delete(threadId)
      dropped.delete(threadId)
      let saving: Promise<void> | undefined
      if (entry) {
        entry.unsubscribe()
        entry.store.abort()
        saving = storeInternals(entry.store).stop()
      }
      if (activeThreadId === threadId) activeThreadId = undefined
      setSummaries(summaries.filter((s) => s.id !== threadId))
      try {
        // After the save in flight: a storage that does not keep request order would land it after the removal.
        await saving
        await persist?.storage.removeItem(`${prefix}:${threadId}`)
      } catch (error) {
        report(new AgentStoreError('PERSIST', `The thread could not be removed from storage: ${messageOf(error)}`, { cause: error }))
      }
    },
    whenRestored: () => restoring,
    async flush() {
      // The threads being dropped too: their last change may not have been written yet.
      await Promise.all([...live.values(), ...leaving.values()].map(({ store }) => storeInternals(store).flush()))
      await index?.flush()
    },
  }
}

function titleOf<S>(snapshot: AgentSnapshot<S>): string | undefined {
  const message = snapshot.messages.find((m) => m.role === 'user')
  const text = typeof message?.content === 'string' ? message.content.trim() : undefined
  if (!text) return undefined
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text
}

const indexError = (error: unknown) =>
  error instanceof AgentStoreError ? error : new AgentStoreError('PERSIST', `The list of threads could not be read: ${messageOf(error)}`, { cause: error })
