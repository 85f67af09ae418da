import { AgentStoreError, messageOf } from '../errors'
import type { Model } from '../machine/model'
import type { PersistOptions } from '../types'
import { encodeThread } from './serialize'

export interface Persister {
  /** The model changed; `urgent` for changes a reload must not lose (an answer, a confirmation, a run's end). */
  changed(urgent: boolean): void
  /** A write of the newest model is already due on the throttle: another streaming change needs no call. */
  readonly scheduled: boolean
  /** Writes what is pending now; resolves once written (true) or failed (false: the next flush tries again). */
  flush(): Promise<boolean>
  /** Writes nothing more; resolves once the write in flight has settled. */
  stop(): Promise<void>
  /** Writes again after stop(), starting with the current value. */
  resume(): void
}

export const persistKey = (options: PersistOptions) => options.key ?? 'agent-state'

/** The saved value, or undefined when there is none; a promise for an async storage. */
export function loadPersisted(options: PersistOptions): unknown | Promise<unknown> {
  const text = options.storage.getItem(persistKey(options))
  return isPromise(text) ? text.then(parseSaved) : parseSaved(text)
}

function parseSaved(text: string | null | undefined): unknown {
  if (text == null) return undefined
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new AgentStoreError('RESTORE', 'The saved thread is damaged: it is not JSON', { reason: 'damaged', cause: error })
  }
}

/**
 * Writes are ordered and coalesced: one write in flight at a time, and the value written is taken
 * when the write starts, so a slow storage never receives an older value after a newer one, and a
 * burst of changes costs one write. Nothing is written before `start()` (an async restore is
 * still being read: writing then would overwrite the thread being restored).
 */
export function createPersister(options: PersistOptions, read: () => Model<unknown>, report: (error: AgentStoreError) => void) {
  return createWriter(options, () => JSON.stringify(encodeThread(read(), Date.now(), options)), report)
}

/** The same, for any value written as text: a thread, or the list of threads (merged with the stored one first). */
export function createWriter(options: PersistOptions, text: () => string | Promise<string>, report: (error: AgentStoreError) => void) {
  const key = persistKey(options)
  const throttleMs = options.throttleMs ?? 250
  let timer: ReturnType<typeof setTimeout> | undefined
  let writing: Promise<void> | undefined
  let dirty = false
  /** An urgent change arrived while a write was in flight: the next write goes at once. */
  let urgentPending = false
  /** The last write failed: flush() tries again; nothing retries by itself against a full quota. */
  let unsaved = false
  let soon = false
  let started = false
  let stopped = false

  function changed(urgent: boolean) {
    if (stopped) return
    dirty = true
    if (!started || writing) {
      urgentPending ||= urgent
      return
    }
    if (urgent) {
      clearTimeout(timer)
      timer = undefined
      writer.scheduled = false
      // At the end of this task: a burst of commands (1,000 setState calls in a loop) is one write.
      if (soon) return
      soon = true
      queueMicrotask(() => {
        soon = false
        void write()
      })
    } else if (timer === undefined) {
      timer = setTimeout(write, throttleMs)
      writer.scheduled = true
    }
  }

  async function write(): Promise<void> {
    clearTimeout(timer)
    timer = undefined
    writer.scheduled = false
    if (!dirty || writing || stopped) return writing
    dirty = false
    writing = save()
    await writing
    writing = undefined
    // Changes made while it was writing: the next write takes the newest value.
    const urgent = urgentPending
    urgentPending = false
    if (dirty) changed(urgent)
  }

  async function save() {
    try {
      const value = text()
      // A thread's text is ready at once: its write starts in this task, as a sync storage expects.
      await options.storage.setItem(key, typeof value === 'string' ? value : await value)
      unsaved = false
    } catch (error) {
      unsaved = true
      report(new AgentStoreError('PERSIST', `The thread could not be saved: ${messageOf(error)}`, { reason: 'write', cause: error }))
    }
  }

  const writer = {
    changed,
    scheduled: false,
    start() {
      started = true
      urgentPending = false
      if (dirty) changed(true)
    },
    async flush() {
      await writing
      if (unsaved) dirty = true
      await write()
      return !unsaved
    },
    /** Writes again after stop(), starting with the current value. */
    resume() {
      stopped = false
      changed(true)
    },
    /** Writes nothing more; resolves once the write in flight, if any, has landed or failed. */
    async stop() {
      stopped = true
      clearTimeout(timer)
      writer.scheduled = false
      await writing
    },
  }
  return writer
}

export const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => typeof (value as Promise<T> | null)?.then === 'function'
