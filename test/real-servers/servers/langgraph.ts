// A real LangGraph server, offline: @langchain/langgraph-api's startServer runs the LangGraph API
// in this process with the scripted graph, and @ag-ui/langgraph's LangGraphAgent serves it as AG-UI
// over HTTP/SSE: POST /writer (emitInterruptOutcome: true) and POST /writer-legacy (on_interrupt).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LangGraphAgent } from '@ag-ui/langgraph'
import { startServer } from '@langchain/langgraph-api/server'
import { handleControl, listen, logRun, readBody, writeEvent } from './control'

process.env.LANGGRAPH_CLI_NO_ANALYTICS = '1'

// startServer writes its storage files into cwd.
const cwd = await mkdtemp(join(tmpdir(), 'agent-state-langgraph-'))
const graphFile = fileURLToPath(new URL('./langgraph-graph.ts', import.meta.url))
const { host, cleanup } = await startServer({ port: 0, nWorkers: 2, host: '127.0.0.1', cwd, graphs: { writer: `${graphFile}:graph` } })
const deploymentUrl = `http://${host}`

const endpoints: Record<string, { emitInterruptOutcome: boolean }> = {
  '/writer': { emitInterruptOutcome: true },
  '/writer-legacy': { emitInterruptOutcome: false },
}

await listen(async (request, response) => {
  if (await handleControl(request, response)) return
  const endpoint = endpoints[new URL(request.url ?? '/', 'http://127.0.0.1').pathname]
  if (request.method !== 'POST' || !endpoint) {
    response.writeHead(404).end()
    return
  }
  const input = JSON.parse(await readBody(request))
  const run = logRun(request.url!, input)
  // One agent per request: LangGraphAgent keeps per-run fields on the instance.
  const agent = new LangGraphAgent({ deploymentUrl, graphId: 'writer', ...endpoint })
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  await new Promise<void>((resolve) => {
    const subscription = agent.run(input).subscribe({
      next: (event) => {
        // rawEvent is the LangChain event behind each AG-UI event: large, so left out, except on
        // on_interrupt, where it is the LangGraph interrupt itself ({ id, value, … }), as
        // @ag-ui/encoder sends it: its id is how several answers reach their interrupts.
        const { rawEvent, ...rest } = event as typeof event & { rawEvent?: unknown; name?: string }
        writeEvent(response, run, rest.type === 'CUSTOM' && rest.name === 'on_interrupt' ? { ...rest, rawEvent } : rest)
      },
      error: (error: unknown) => {
        writeEvent(response, run, { type: 'RUN_ERROR', message: error instanceof Error ? error.message : String(error) })
        response.end()
        resolve()
      },
      complete: () => {
        response.end()
        resolve()
      },
    })
    response.on('close', () => {
      if (response.writableFinished) return
      agent.abortRun()
      subscription.unsubscribe()
      resolve()
    })
  })
}, 'langgraph')

async function stop() {
  await cleanup().catch(() => undefined)
  await rm(cwd, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
