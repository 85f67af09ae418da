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

/** The real-server scenarios of test/real-servers (CopilotKit, LangGraph, Mastra): what each request sent, and the events it got back. */
export interface ServerScenario {
  name: string
  runs: { body: RunAgentInput; events: BaseEvent[] }[]
}

const scenarioFolder = new URL('../../../test/real-servers/recordings/', import.meta.url)

export const serverScenarios: ServerScenario[] = readdirSync(scenarioFolder)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({ name: file, runs: (JSON.parse(readFileSync(new URL(file, scenarioFolder), 'utf8')) as ServerScenario).runs }))
