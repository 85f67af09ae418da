// Mastra, offline: @ag-ui/mastra's MastraAgent over a @mastra/core Agent with a scripted AI SDK model,
// resource-scoped working memory (streamed as STATE_SNAPSHOT + STATE_DELTA) and a write_document
// tool that suspends for approval. Served as AG-UI over HTTP/SSE at POST /writer; the same agent
// without memory (the history it is sent is all it knows) at POST /writer-without-memory.
import { MastraAgent } from '@ag-ui/mastra'
import { Agent } from '@mastra/core/agent'
import { Mastra } from '@mastra/core/mastra'
import { InMemoryStore } from '@mastra/core/storage'
import { createTool } from '@mastra/core/tools'
import { Memory } from '@mastra/memory'
import { z } from 'zod'
import { scriptedModel } from './ai-sdk-model'
import { handleControl, listen, logRun, readBody, requestThread, storeThreadOf, writeEvent } from './control'

const writeDocument = createTool({
  id: 'write_document',
  description: 'Write the whole document; the user approves it before it is saved.',
  inputSchema: z.object({ document: z.string() }),
  suspendSchema: z.object({ message: z.string() }),
  resumeSchema: z.object({ accepted: z.boolean(), document: z.string().optional() }),
  outputSchema: z.object({ saved: z.boolean() }),
  execute: async (input, context) => {
    const answer = context?.agent?.resumeData as { accepted?: boolean } | undefined
    if (!answer) {
      await context?.agent?.suspend({ message: 'Approve the new document?' })
      return { saved: false }
    }
    return { saved: answer.accepted === true && input.document.length >= 0 }
  },
})

const storage = new InMemoryStore()
const memory = new Memory({
  storage,
  options: {
    lastMessages: 20,
    // Resource scope: thread-scoped working memory fails on a thread's first run.
    workingMemory: { enabled: true, scope: 'resource', schema: z.object({ document: z.string().optional(), title: z.string().optional() }) },
  },
})

const writer = new Agent({
  id: 'writer',
  name: 'writer',
  instructions: 'You write documents.',
  model: scriptedModel(),
  tools: { write_document: writeDocument },
  memory,
})
const writerWithoutMemory = new Agent({ id: 'writerWithoutMemory', name: 'writerWithoutMemory', instructions: 'You write documents.', model: scriptedModel() })
const mastra = new Mastra({ agents: { writer, writerWithoutMemory }, storage, logger: false })
const routes: Record<string, string> = { '/writer': 'writer', '/writer-without-memory': 'writerWithoutMemory' }

await listen(async (request, response) => {
  if (await handleControl(request, response)) return
  const agentId = routes[new URL(request.url ?? '/', 'http://127.0.0.1').pathname]
  if (request.method !== 'POST' || agentId === undefined) {
    response.writeHead(404).end()
    return
  }
  const input = JSON.parse(await readBody(request))
  const run = logRun(request.url!, input)
  // One resource per store thread, so that tests on other threads never share a working memory; a
  // store's branch threads share its resource, as the threads of one user of an app do.
  const resourceId = `user-${storeThreadOf(String(input.threadId))}`
  const agent = new MastraAgent({ agentId, agent: mastra.getAgent(agentId as 'writer'), resourceId })
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  await new Promise<void>((resolve) => {
    // Subscribed inside the thread's context: the model plays the script of this request's thread.
    const subscription = requestThread.run(String(input.threadId), () =>
      agent.run(input).subscribe({
        next: (event) => writeEvent(response, run, event),
        error: (error: unknown) => {
          writeEvent(response, run, { type: 'RUN_ERROR', message: error instanceof Error ? error.message : String(error) })
          response.end()
          resolve()
        },
        complete: () => {
          response.end()
          resolve()
        },
      }),
    )
    response.on('close', () => {
      if (response.writableFinished) return
      subscription.unsubscribe()
      resolve()
    })
  })
}, 'mastra')

process.on('SIGTERM', () => process.exit(0))
process.on('SIGINT', () => process.exit(0))
