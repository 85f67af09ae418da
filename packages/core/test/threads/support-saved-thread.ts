import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import type { AgentStore, AgentStoreOptions } from '../../src'
import { ScriptedAgent } from '../../src/testing'
import type { SteppedAgent } from './support-threads'

// The conversation the saved-thread fixtures were written from: every part of a thread a reload
// must keep. A run with its tools, context and forwardedProps ends asking a question (an interrupt
// with a responseSchema); the answer resumes it, and the resumed run drafts the document and ends
// asking to approve it; meanwhile the user edits the title. Saved there: an open confirmation with
// its draft, an answered interrupt, a user edit not yet sent, and the run's settings.

export type Doc = { document: string; title: string }

export const THREAD = 'thread-saved'
export const initialState: Doc = { document: 'The old document.', title: '' }
export const predict = [{ stateKey: 'document', tool: 'write_document', toolArgument: 'document' }]

const ev = (event: Record<string, unknown>) => event as unknown as BaseEvent
const started = (input: RunAgentInput) => ev({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId })
const finished = (input: RunAgentInput, outcome?: unknown) =>
  ev({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId, ...(outcome === undefined ? {} : { outcome }) })

/** Run 1 asks for a tone; run 2 (the answer) drafts the document and asks to approve it; run 3 (the approval) ends. */
export const savedThreadRuns = [
  (input: RunAgentInput) => [
    started(input),
    ev({ type: 'STATE_SNAPSHOT', snapshot: { document: 'The old document.', title: 'Untitled' } }),
    ev({ type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' }),
    ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Which tone should it have?' }),
    ev({ type: 'TEXT_MESSAGE_END', messageId: 'a1' }),
    finished(input, {
      type: 'interrupt',
      interrupts: [
        {
          id: 'int-tone',
          reason: 'input_required',
          message: 'Which tone?',
          responseSchema: { type: 'object', properties: { tone: { type: 'string' } }, required: ['tone'] },
        },
      ],
    }),
  ],
  (input: RunAgentInput) => [
    started(input),
    ev({ type: 'TOOL_CALL_START', toolCallId: 'call-1', toolCallName: 'write_document', parentMessageId: 'a2' }),
    ev({ type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: '{"document":"A calm ' }),
    ev({ type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: 'document about the sea."}' }),
    ev({ type: 'TOOL_CALL_END', toolCallId: 'call-1' }),
    finished(input, {
      type: 'interrupt',
      interrupts: [{ id: 'int-approve', reason: 'tool_call', toolCallId: 'call-1', message: 'Approve the new document?', metadata: { step: 'review' } }],
    }),
  ],
  (input: RunAgentInput) => [started(input), finished(input)],
]

export const runOptions = {
  message: { id: 'u1', role: 'user' as const, content: 'Write about the sea.' },
  tools: [{ name: 'write_document', description: 'Writes the document', parameters: { type: 'object', properties: { document: { type: 'string' } } } }],
  context: [{ description: 'audience', value: 'children' }],
  forwardedProps: { model: 'small', temperature: 0 },
}

export const savedThreadOptions = (agent: ScriptedAgent, extra: Partial<AgentStoreOptions<Doc>> = {}): AgentStoreOptions<Doc> => ({
  agent,
  threadId: THREAD,
  initialState,
  predict,
  ...extra,
})

export const savedThreadAgent = () => new ScriptedAgent({ threadId: THREAD, runs: savedThreadRuns })

/**
 * The same conversation cut mid-run: the first run has streamed its text and half of a drafted
 * document when the user edits the title and the page closes, its request still open.
 */
export function cutMidRun(store: AgentStore<Doc>, agent: SteppedAgent): void {
  void store.run(runOptions).catch(() => undefined)
  const input = agent.inputs[0]!
  for (const event of [
    started(input),
    ev({ type: 'STATE_SNAPSHOT', snapshot: { document: 'The old document.', title: 'Untitled' } }),
    ev({ type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' }),
    ev({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Writing it now.' }),
    ev({ type: 'TEXT_MESSAGE_END', messageId: 'a1' }),
    ev({ type: 'TOOL_CALL_START', toolCallId: 'call-1', toolCallName: 'write_document', parentMessageId: 'a2' }),
    ev({ type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: '{"document":"A calm doc' }),
  ])
    agent.push(event)
  store.setState((doc) => ({ ...doc, title: 'The sea' }))
}

/** What the user sends after the reload. */
export const nextRun = { message: { id: 'u2', role: 'user' as const, content: 'Go on.' } }
