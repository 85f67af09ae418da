// The scripted agents as a standalone AG-UI server, for any client: node --import tsx examples/server/main.ts
//   PORT=8000  AGENT_DELAY_MS=20
import { startAgentServer } from './server'

const server = await startAgentServer({
  port: Number(process.env.PORT || 8000),
  delayMs: Number(process.env.AGENT_DELAY_MS || 20),
  log: (line) => console.log(`  ${line}`),
})
console.log(`\n  AG-UI agents at ${server.url}/agents/{recipe,writer,planner}   Ctrl-C to stop\n`)

const stop = () => server.close().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
