// The LangGraph graph behind the LangGraph server: a writer agent whose model drafts the document
// through a write_document tool call (announced as predict_state), then asks for approval with
// interrupt(). A call that also proposes a title asks about it in a parallel node, so one run
// raises two interrupts. Loaded by @langchain/langgraph-api from this file's path.
import { randomUUID } from 'node:crypto'
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager'
import { BaseChatModel } from '@langchain/core/language_models/chat_models'
import { AIMessageChunk, type BaseMessage, ToolMessage } from '@langchain/core/messages'
import type { ToolCallChunk } from '@langchain/core/messages/tool'
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs'
import { END, interrupt, type LangGraphRunnableConfig, MessagesZodState, START, StateGraph } from '@langchain/langgraph'
import { z } from 'zod'
import { argumentChunks, nextTurn, type PlayedTurn, playable, type Turn } from './control'

// Typed with zod: an untyped state sends the schema lookup to a worker that crashes and costs ~30 s.
const WriterState = MessagesZodState.extend({
  document: z.string().default(''),
  /** Written by the user (edits made while the agent streams), or by the agent once its proposed title is approved. */
  title: z.string().default(''),
  /** Written by the server alone: one more each time a draft is approved. */
  revision: z.number().default(0),
})
type WriterStateType = z.infer<typeof WriterState>

export const predictState = [{ tool: 'write_document', state_key: 'document', tool_argument: 'document' }]

/** A chat model that plays one scripted turn, streaming tool arguments the way real providers do. */
class ScriptedChatModel extends BaseChatModel {
  constructor(private readonly turn: PlayedTurn) {
    super({})
  }

  _llmType(): string {
    return 'scripted'
  }

  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let message: AIMessageChunk | undefined
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) {
      const part = chunk.message as AIMessageChunk
      message = message ? message.concat(part) : part
    }
    return { generations: [{ message: message!, text: typeof message?.content === 'string' ? message.content : '' }] }
  }

  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const id = `msg-${randomUUID()}`
    const emit = async (fields: { content: string; tool_call_chunks?: ToolCallChunk[] }) => {
      const chunk = new ChatGenerationChunk({ message: new AIMessageChunk({ id, ...fields }), text: fields.content })
      await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, { chunk })
      return chunk
    }
    const turn = this.turn
    const text = 'error' in turn ? 'Let me think' : turn.text
    for (const word of text ? text.split(/(?<= )/) : []) yield await emit({ content: word })
    if ('error' in turn) throw new Error(turn.error)
    if (!('tool' in turn)) return
    // The first tool chunk carries id and name with empty arguments, then the arguments stream.
    const toolCallId = turn.id ?? `call_${randomUUID().slice(0, 8)}`
    yield await emit({ content: '', tool_call_chunks: [{ id: toolCallId, name: turn.tool, args: '', index: 0, type: 'tool_call_chunk' }] })
    for (const args of argumentChunks(turn.args, turn.chunkSize))
      yield await emit({ content: '', tool_call_chunks: [{ args, index: 0, type: 'tool_call_chunk' }] })
  }
}

/** What the model does when no turn is scripted (the demo): write on a request, confirm after a tool result. */
function defaultTurn(state: WriterStateType): Turn {
  const last = state.messages[state.messages.length - 1]
  if (last?.getType() === 'tool') {
    const accepted = String(last.content).includes('"accepted":true')
    return { text: accepted ? 'Saved. Anything else?' : 'Understood: I left the document as it was.' }
  }
  const request = typeof last?.content === 'string' ? last.content : 'a story'
  // Paced, so that the page shows the draft growing.
  return { tool: 'write_document', args: { document: storyFor(request) }, chunkSize: 6, delayMs: 30 }
}

function storyFor(request: string): string {
  const topic = request.replace(/^(please\s+)?(write|draft)\s+(me\s+)?(a|an)?\s*/i, '').replace(/[.!?]+$/, '') || 'a story'
  return [
    `# ${topic.charAt(0).toUpperCase()}${topic.slice(1)}`,
    '',
    `This is ${topic}, written by a scripted model on a real LangGraph server.`,
    'Every word of it streamed as a tool argument, so the page could show the draft as it grew.',
    '',
    'Approve it to keep it, or reject it to get the previous version back.',
  ].join('\n')
}

/** LangChain message types by the role names of AG-UI. */
const roles: Record<string, string> = { human: 'user', ai: 'assistant' }

async function chat(state: WriterStateType, config: LangGraphRunnableConfig) {
  const threadId = String(config.configurable?.thread_id ?? '*')
  const turn = playable(nextTurn(threadId) ?? defaultTurn(state), () =>
    state.messages.map((message) => ({
      role: roles[message.getType()] ?? message.getType(),
      text: typeof message.content === 'string' ? message.content : '',
    })),
  )
  const model = new ScriptedChatModel(turn)
  // predict_state in the call's metadata is what @ag-ui/langgraph turns into a PredictState event.
  const message = await model.invoke(state.messages, { metadata: { predict_state: predictState } })
  return { messages: [message] }
}

function pendingCall(state: WriterStateType) {
  const last = state.messages[state.messages.length - 1] as
    | (BaseMessage & { tool_calls?: { id?: string; name: string; args: Record<string, unknown> }[] })
    | undefined
  return last?.getType() === 'ai' ? last.tool_calls?.find((call) => call.name === 'write_document') : undefined
}

function approve(state: WriterStateType) {
  const call = pendingCall(state)!
  const document = String(call.args.document ?? '')
  const answer = interrupt({
    message: 'Approve the new document?',
    toolCallId: call.id,
    document,
    responseSchema: {
      type: 'object',
      properties: { accepted: { type: 'boolean' }, document: { type: 'string' } },
      required: ['accepted'],
    },
  }) as unknown
  const decision = typeof answer === 'string' ? safeParse(answer) : answer
  const accepted = isRecord(decision) && decision.accepted === true
  const edited = isRecord(decision) && typeof decision.document === 'string' ? decision.document : document
  const result = new ToolMessage({ tool_call_id: call.id!, content: JSON.stringify({ accepted }) })
  return accepted ? { document: edited, revision: (state.revision ?? 0) + 1, messages: [result] } : { messages: [result] }
}

/** The title a write_document call proposes, in a node of its own beside `approve`: one run, two interrupts. */
function approveTitle(state: WriterStateType) {
  const title = String(pendingCall(state)!.args.title)
  const answer = interrupt({ message: 'Use the new title?', title }) as unknown
  const decision = typeof answer === 'string' ? safeParse(answer) : answer
  return isRecord(decision) && decision.accepted === true ? { title } : {}
}

/** After the model: nothing to approve, the document, or the document and its title at once. */
function afterChat(state: WriterStateType) {
  const call = pendingCall(state)
  if (!call) return END
  return typeof call.args.title === 'string' ? ['approve', 'approve_title'] : 'approve'
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

export const graph = new StateGraph(WriterState)
  .addNode('chat', chat)
  .addNode('approve', approve)
  .addNode('approve_title', approveTitle)
  .addEdge(START, 'chat')
  .addConditionalEdges('chat', afterChat, ['approve', 'approve_title', END])
  .addEdge('approve', 'chat')
  .addEdge('approve_title', 'chat')
  .compile()
