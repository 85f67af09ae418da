// What the real-server tests share: the servers' URLs (from globalSetup), their control routes, a
// store on an HttpAgent (or the built-in transport) that records every snapshot, and recordings for the lead's offline tests.
import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { HttpAgent } from '@ag-ui/client'
import type { Message, RunAgentInput } from '@ag-ui/core'
import { type AgentSnapshot, type AgentStore, type AgentStoreOptions, createAgentStore } from '@agent-state/core'
import { inject, onTestFinished } from 'vitest'
import type { LoggedRun, Turn } from './servers/control'

export type { LoggedRun, Turn }

export const servers = inject('realServers')

export async function script(base: string, threadId: string, turns: Turn[]): Promise<void> {
  const response = await fetch(`${base}/__script`, { method: 'POST', body: JSON.stringify({ threadId, turns, replace: true }) })
  if (!response.ok) throw new Error(`script: HTTP ${response.status}`)
}

/** What the server received and sent, run by run, for one thread. */
export async function serverLog(base: string, threadId: string): Promise<LoggedRun[]> {
  const response = await fetch(`${base}/__log?threadId=${encodeURIComponent(threadId)}`)
  return (await response.json()) as LoggedRun[]
}

export const bodies = async (base: string, threadId: string) => (await serverLog(base, threadId)).map((run) => run.body as RunAgentInput)

export interface Session<TState> {
  store: AgentStore<TState>
  threadId: string
  /** Every snapshot the store published, in order. */
  snapshots: AgentSnapshot<TState>[]
}

/** How a session's store reaches the server: through `HttpAgent`, or the store's own transport (`url`). */
export type Via = 'HttpAgent' | 'url'

/** `threadId`: a new one (LangGraph requires UUIDs), or the thread of a store this one restores. */
export function session<TState>(
  url: string,
  options: Omit<AgentStoreOptions<TState>, 'agent'>,
  via: Via = 'HttpAgent',
  threadId: string = randomUUID(),
): Session<TState> {
  const link = via === 'url' ? { url } : { agent: new HttpAgent({ url, threadId }) }
  const store = createAgentStore<TState>({ ...options, ...link, threadId })
  const snapshots: AgentSnapshot<TState>[] = []
  store.subscribe((snapshot) => {
    snapshots.push(snapshot)
  })
  return { store, threadId, snapshots }
}

/** Tool messages whose call no assistant message in the conversation holds. */
export function orphanToolMessages(messages: readonly Message[]): Message[] {
  const calls = new Set(messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : [])))
  return messages.filter((message) => message.role === 'tool' && !calls.has(message.toolCallId))
}

/** Events of one logged run, without LangGraph's RAW copies of every LangChain event. */
export const protocolEvents = (run: LoggedRun) =>
  run.events.filter((event) => (event as { type?: string }).type !== 'RAW') as { type: string; [key: string]: unknown }[]

/**
 * With RECORD=1, saves what the server received and sent in this scenario under recordings/, for
 * offline unit tests (RAW events left out: each is a copy of a LangChain event, not protocol data).
 */
export async function saveRecording(name: string, server: string, version: string, runs: LoggedRun[]): Promise<void> {
  if (!process.env.RECORD) return
  const dir = new URL('./recordings/', import.meta.url)
  await mkdir(dir, { recursive: true })
  const recording = { server, version, scenario: name, runs: runs.map((run) => ({ path: run.path, body: run.body, events: protocolEvents(run) })) }
  await writeFile(new URL(`${name}.json`, dir), `${JSON.stringify(recording, null, 2)}\n`)
}

/** Saves the scenario's recording when the test ends, passed or failed (RECORD=1 only). */
export function recordAs(name: string, server: string, version: string, base: string, threadId: () => string): void {
  onTestFinished(async () => saveRecording(name, server, version, await serverLog(base, threadId())))
}

/** The distinct values a selector took over the snapshots, in order. */
export function valuesOver<TState, T>(snapshots: readonly AgentSnapshot<TState>[], select: (snapshot: AgentSnapshot<TState>) => T): T[] {
  const values: T[] = []
  for (const snapshot of snapshots) {
    const value = select(snapshot)
    if (values.length === 0 || JSON.stringify(values[values.length - 1]) !== JSON.stringify(value)) values.push(value)
  }
  return values
}
