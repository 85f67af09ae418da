import { readdirSync, readFileSync } from 'node:fs'
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'

// Every recorded real-server stream of the project: test/fixtures and the core's recordings.
export interface Fixture {
  name: string
  input: RunAgentInput
  events: BaseEvent[]
  nextRuns: { input: RunAgentInput; events: BaseEvent[] }[]
}

const folders = [new URL('../../../test/fixtures/', import.meta.url), new URL('../../core/test/fixtures/recordings/', import.meta.url)]

export const fixtures: Fixture[] = folders.flatMap((folder) =>
  readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const read = JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as Omit<Fixture, 'name' | 'nextRuns'> & Partial<Fixture>
      return { ...read, name: `${folder.pathname.includes('/core/') ? 'core' : 'test'}/${file}`, nextRuns: read.nextRuns ?? [] }
    }),
)

/** Recorded inputs may lack message ids; a run needs them. */
export const withIds = (messages: readonly Message[]): Message[] => messages.map((m, i) => ({ ...m, id: m.id ?? `m${i}` }) as Message)

export const initialStateOf = (fixture: Fixture) => (fixture.input.state ?? {}) as Record<string, unknown>
