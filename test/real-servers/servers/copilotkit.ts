// The CopilotKit runtime 1.75, v2 endpoint, offline: a BuiltInAgent over a scripted AI SDK model,
// served by createCopilotNodeListener at /api (POST /api/agent/writer/run is plain AG-UI SSE).
// write_document is an interrupt tool; the agent's own AGUISendStateSnapshot / AGUISendStateDelta
// tools let the model change the state.
import { createServer } from 'node:http'
import { BuiltInAgent, CopilotRuntime, defineTool } from '@copilotkit/runtime/v2'
import { createCopilotNodeListener } from '@copilotkit/runtime/v2/node'
import { z } from 'zod'
import { scriptedModel } from './ai-sdk-model'
import { listen, recordingProxy, requestThread } from './control'

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

const runtime = new CopilotRuntime({
  agents: { writer: new ScriptedAgent({ model: scriptedModel(), tools: [writeDocument], maxSteps: 5 }) },
})
const listener = createCopilotNodeListener({ runtime, basePath: '/api', activateChannels: false })

// The runtime on an inner port; the recorded front is what the tests call.
const inner = createServer(listener)
await new Promise<void>((resolve) => inner.listen(0, '127.0.0.1', resolve))
const address = inner.address()
const target = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
await listen(recordingProxy(target), 'copilotkit')

process.on('SIGTERM', () => process.exit(0))
process.on('SIGINT', () => process.exit(0))
