// The CopilotKit runtime 1.75, v2 endpoint, offline: a BuiltInAgent over a scripted AI SDK model,
// served by createCopilotNodeListener at /api (POST /api/agent/writer/run is plain AG-UI SSE).
// write_document is an interrupt tool; the agent's own AGUISendStateSnapshot / AGUISendStateDelta
// tools let the model change the state.
import { createServer } from 'node:http'
import { BuiltInAgent, CopilotRuntime, defineTool } from '@copilotkit/runtime/v2'
import { createCopilotNodeListener } from '@copilotkit/runtime/v2/node'
import { MockLanguageModelV3 } from 'ai/test'
import { z } from 'zod'
import { scriptedModel } from './ai-sdk-model'
import { listen, readBody, recordingProxy, requestThread, sendJson } from './control'

process.env.COPILOTKIT_TELEMETRY_DISABLED = 'true'

const writeDocument = defineTool({
  name: 'write_document',
  description: 'Write the whole document; the user approves it before it is saved.',
  parameters: z.object({ document: z.string() }),
  interrupt: true,
  interruptMessage: 'Approve the new document?',
})

type AgentConfig = ConstructorParameters<typeof BuiltInAgent>[0]

/** A BuiltInAgent whose runs execute in their thread's context, so the model plays that thread's script. */
class ScriptedAgent extends BuiltInAgent {
  constructor(private readonly agentConfig: AgentConfig) {
    super(agentConfig)
  }

  override run(input: Parameters<BuiltInAgent['run']>[0]) {
    const observable = super.run(input)
    // The run starts when subscribed: subscribe inside the thread's context.
    const subscribe = observable.subscribe.bind(observable) as (...args: unknown[]) => ReturnType<typeof observable.subscribe>
    observable.subscribe = ((...args: unknown[]) => requestThread.run(input.threadId, () => subscribe(...args))) as typeof observable.subscribe
    return observable
  }

  override clone(): ScriptedAgent {
    return new ScriptedAgent(this.agentConfig)
  }
}

// Test-only pacing (POST /__pace {threadId, delayMs}): each of that thread's model stream parts is
// held for delayMs, so a run is still streaming when a test drops its connection and connects again.
const paces = new Map<string, number>()

function pacedModel(model: ReturnType<typeof scriptedModel>): ReturnType<typeof scriptedModel> {
  return new MockLanguageModelV3({
    provider: 'scripted',
    modelId: 'scripted',
    doStream: async (options) => {
      const result = await model.doStream(options)
      const delayMs = paces.get(requestThread.getStore() ?? '*') ?? 0
      if (delayMs <= 0) return result
      const pace = new TransformStream({
        async transform(part, controller) {
          await new Promise((resolve) => setTimeout(resolve, delayMs))
          controller.enqueue(part)
        },
      })
      return { ...result, stream: result.stream.pipeThrough(pace) }
    },
  })
}

const runtime = new CopilotRuntime({
  agents: { writer: new ScriptedAgent({ model: pacedModel(scriptedModel()), tools: [writeDocument], maxSteps: 5 }) },
})
const listener = createCopilotNodeListener({ runtime, basePath: '/api', activateChannels: false })

// The runtime on an inner port; the recorded front is what the tests call.
const inner = createServer(listener)
await new Promise<void>((resolve) => inner.listen(0, '127.0.0.1', resolve))
const address = inner.address()
const target = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
const recorded = recordingProxy(target)
await listen(async (request, response) => {
  if (request.method === 'POST' && request.url === '/__pace') {
    const { threadId = '*', delayMs } = JSON.parse(await readBody(request)) as { threadId?: string; delayMs: number }
    paces.set(threadId, delayMs)
    return sendJson(response, 200, { threadId, delayMs })
  }
  return recorded(request, response)
}, 'copilotkit')

process.on('SIGTERM', () => process.exit(0))
process.on('SIGINT', () => process.exit(0))
