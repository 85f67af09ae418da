// The building blocks of a scripted model: it streams the events a real model-backed server would,
// paced token by token, so the UI sees text, arguments and state arrive the way they do in production.
import { randomUUID } from 'node:crypto'
import { type Event, EventType, type Interrupt, type Message, type RunAgentInput } from '@ag-ui/core'

/** Where an agent writes its events. The server frames them as SSE and paces them. */
export interface AgentStream {
  /** Sends one event at once. */
  emit(event: Event): void
  /** Waits as long as a model takes to produce `tokens` tokens; rejects once the client has gone. */
  pause(tokens?: number): Promise<void>
}

/**
 * One agent: reads the request (messages, state, resume entries, tool messages) and streams one run.
 * `attempt`: how many answers the server gave before to the same user message in this thread (0 the
 * first time); a regenerated answer is a later attempt, and differs, as a sampled model's would.
 */
export type ScriptedAgent = (input: RunAgentInput, stream: AgentStream, attempt?: number) => Promise<void>

export const newId = () => randomUUID()

/** Words with their leading whitespace: roughly what a model streams per token. */
export function tokens(text: string): string[] {
  return text.match(/\s*\S+/g) ?? []
}

/** Cuts text into pieces of a few words, like the argument chunks models stream. */
export function wordChunks(text: string, wordsPerChunk = 3): string[] {
  const words = tokens(text)
  const chunks: string[] = []
  for (let i = 0; i < words.length; i += wordsPerChunk) chunks.push(words.slice(i, i + wordsPerChunk).join(''))
  return chunks
}

/** Cuts text anywhere, in uneven pieces, the way raw model tokens split JSON arguments. */
export function rawChunks(text: string, sizes: readonly number[] = [7, 12, 5, 16, 9, 11, 4, 14]): string[] {
  const chunks: string[] = []
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = sizes[i % sizes.length]!
    chunks.push(text.slice(at, at + size))
    at += size
  }
  return chunks
}

/** The text of a message's content: a string, or the text parts of a multimodal content array. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((part: { text?: unknown } | null) => (typeof part?.text === 'string' ? part.text : '')).join('')
}

/** The text of the last message, if the last message is from the user. */
export function lastUserText(messages: readonly Message[]): string | undefined {
  const last = messages[messages.length - 1]
  return last?.role === 'user' ? textOf(last.content) : undefined
}

/** The lifecycle and streaming primitives of one run, bound to its ids. */
export function startRun(input: RunAgentInput, stream: AgentStream) {
  const { threadId, runId } = input
  const { emit, pause } = stream
  emit({ type: EventType.RUN_STARTED, threadId, runId })

  return {
    emit,
    pause,
    finish(interrupts?: Interrupt[]) {
      emit({ type: EventType.RUN_FINISHED, threadId, runId, ...(interrupts ? { outcome: { type: 'interrupt' as const, interrupts } } : {}) })
    },
    fail(message: string, code: string) {
      emit({ type: EventType.RUN_ERROR, message, code })
    },

    /** Streams an assistant text message token by token; returns its id. */
    async say(text: string, messageId = newId()): Promise<string> {
      emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' })
      for (const delta of tokens(text)) {
        emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta })
        await pause()
      }
      emit({ type: EventType.TEXT_MESSAGE_END, messageId })
      return messageId
    },

    /** Streams a tool call whose arguments arrive in the given chunks; returns its id. */
    async callTool(
      toolCallName: string,
      chunks: readonly string[],
      options: { parentMessageId?: string; afterChunk?: (index: number) => void; beforeEnd?: () => void } = {},
    ): Promise<string> {
      const toolCallId = `call_${newId().slice(0, 8)}`
      emit({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName, ...(options.parentMessageId ? { parentMessageId: options.parentMessageId } : {}) })
      for (const [index, delta] of chunks.entries()) {
        emit({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta })
        options.afterChunk?.(index)
        await pause()
      }
      options.beforeEnd?.()
      emit({ type: EventType.TOOL_CALL_END, toolCallId })
      return toolCallId
    },

    /** Streams the model's reasoning as a reasoning message inside a reasoning span, as reasoning models do. */
    async think(text: string): Promise<string> {
      const messageId = newId()
      emit({ type: EventType.REASONING_START, messageId })
      emit({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' })
      for (const delta of tokens(text)) {
        emit({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta })
        await pause()
      }
      emit({ type: EventType.REASONING_MESSAGE_END, messageId })
      emit({ type: EventType.REASONING_END, messageId })
      return messageId
    },

    /** A progress card: an activity created with its title and total, then patched as work is done. */
    progress(title: string, total: number) {
      const messageId = newId()
      emit({ type: EventType.ACTIVITY_SNAPSHOT, messageId, activityType: 'progress', content: { title, done: 0, total } })
      return (done: number) =>
        emit({ type: EventType.ACTIVITY_DELTA, messageId, activityType: 'progress', patch: [{ op: 'replace', path: '/done', value: done }] })
    },

    /** A LangGraph-style node: STEP_STARTED, the body, STEP_FINISHED. */
    async step<T>(stepName: string, body: () => Promise<T> | T): Promise<T> {
      emit({ type: EventType.STEP_STARTED, stepName })
      const result = await body()
      emit({ type: EventType.STEP_FINISHED, stepName })
      return result
    },
  }
}
