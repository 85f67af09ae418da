// `npm start`: the examples and their agents on one local URL, until Ctrl-C.
//   AGENT_URL=http://localhost:8000/{agent}  send /agents/<name> to your own AG-UI server instead
//   AGENT_DELAY_MS=20                        pacing of the scripted agents, per token
//   PORT=5173                                where to listen (the next free port if taken)
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'
import { agentEndpoints } from './server/vite-plugin'

const agentUrl = process.env.AGENT_URL || undefined
const delayMs = Number(process.env.AGENT_DELAY_MS || 20)

const server = await createServer({
  configFile: fileURLToPath(new URL('./vite.config.ts', import.meta.url)),
  plugins: [agentEndpoints({ agentUrl, delayMs })],
  server: { port: Number(process.env.PORT || 5173) },
})
await server.listen()

const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/'
const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[22m` : text)
console.log(`
  ${bold('agent-state examples')}

  Open      ${bold(url)}
            ${url}react-recipe/     React · shared state
            ${url}vue-writer/       Vue · predictive state and interrupts
            ${url}svelte-planner/   Svelte · LangGraph-style confirm_changes
            ${url}angular-writer/   Angular · signals, approve or reject a draft
            ${url}solid-writer/     Solid · approve or reject a draft
  Agents    ${agentUrl ? `${url}agents/<name> → ${agentUrl}` : `${url}agents/{recipe,writer,planner}  (scripted, ${delayMs} ms per token)`}

  Ctrl-C to stop
`)

let stopping = false
async function stop() {
  if (stopping) process.exit(1)
  stopping = true
  console.log('\n  Stopping…')
  // Streams in progress are ended by the agents' middleware when the HTTP server closes.
  await server.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
