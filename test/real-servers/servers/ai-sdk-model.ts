// A scripted AI SDK model (ai/test's MockLanguageModelV3) for the CopilotKit and Mastra servers:
// each doStream call plays the next scripted turn as text and tool-input-* parts.
import { randomUUID } from 'node:crypto'
import { MockLanguageModelV3 } from 'ai/test'
import { argumentChunks, nextTurn, type PromptEntry, playable, type Turn } from './control'

type StreamPart = Record<string, unknown> & { type: string }

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
}

type PromptMessage = { role: string; content: string | readonly { type: string; text?: string }[] }

/** The prompt's messages as role and text (the text parts joined). */
function promptEntries(prompt: readonly PromptMessage[]): PromptEntry[] {
  return prompt.map((message) => ({
    role: message.role,
    text: typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join(''),
  }))
}

/** The stream parts of one turn; text ids are unique across turns. */
export function turnParts(scripted: Turn, prompt: readonly PromptMessage[] = []): { parts: StreamPart[]; error?: string } {
  const turn = playable(scripted, () => promptEntries(prompt))
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }]
  const text = 'error' in turn ? 'Let me think' : turn.text
  if (text) {
    const id = `text-${randomUUID()}`
    parts.push({ type: 'text-start', id })
    for (const word of text.split(/(?<= )/)) parts.push({ type: 'text-delta', id, delta: word })
    if (!('error' in turn)) parts.push({ type: 'text-end', id })
  }
  if ('error' in turn) return { parts, error: turn.error }
  if ('tool' in turn) {
    const id = turn.id ?? `call_${randomUUID().slice(0, 8)}`
    parts.push({ type: 'tool-input-start', id, toolName: turn.tool })
    for (const delta of argumentChunks(turn.args, turn.chunkSize)) parts.push({ type: 'tool-input-delta', id, delta })
    parts.push({ type: 'tool-input-end', id })
    parts.push({ type: 'tool-call', toolCallId: id, toolName: turn.tool, input: JSON.stringify(turn.args) })
    parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage })
  } else {
    parts.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage })
  }
  return { parts }
}

/** The model: the next turn scripted for the request's thread (or the server-wide queue), else `fallback()`. */
export function scriptedModel(fallback: () => Turn = () => ({ text: 'OK.' })): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'scripted',
    modelId: 'scripted',
    doStream: async (options) => {
      const { parts, error } = turnParts(nextTurn() ?? fallback(), options.prompt as readonly PromptMessage[])
      const stream = new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part)
          if (error) controller.error(new Error(error))
          else controller.close()
        },
      })
      return { stream } as never
    },
  })
}
