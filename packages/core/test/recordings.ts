import { readdirSync, readFileSync } from 'node:fs'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'

export interface RecordedRun {
  input: RunAgentInput
  events: BaseEvent[]
  expected?: {
    state?: unknown
    stateWithoutPredictState?: unknown
    runOutcome?: 'success' | 'interrupt' | 'error'
    pendingInterrupts?: { id: string; reason: string; toolCallId?: string }[]
    predictionTrace?: { eventIndex: number; stateKey: string; value: unknown }[]
  }
}

export interface Recording extends RecordedRun {
  file: string
  source: string
  description: string
  followUp?: { description: string; input: RunAgentInput }
  nextRuns?: RecordedRun[]
}

const folder = new URL('./fixtures/recordings/', import.meta.url)

/** The recorded real-server streams (copied from the project's shared material; see each file's `source`). */
export const recordings: Recording[] = readdirSync(folder)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({ file, ...(JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as Omit<Recording, 'file'>) }))
