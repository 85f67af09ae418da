// `npm run start:langgraph`: the examples' Vue writer against the real LangGraph server (scripted
// model, offline). Starts the LangGraph server of servers/langgraph.ts, then `npm start` with
// AGENT_URL pointing /agents/writer at it. Ctrl-C stops both.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { serverEnv, startServer, stopServer } from './global-setup'

const root = fileURLToPath(new URL('../..', import.meta.url))
const langgraph = startServer('langgraph', { ...serverEnv(), NODE_ENV: 'production' })
const url = await langgraph.url
console.log(`\n  LangGraph server (scripted model) at ${url}: /writer (structured interrupts), /writer-legacy (on_interrupt)`)
console.log('  Open the Vue writer below (…/vue-writer/); the other two apps have no agent in this mode.\n')

const examples = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'examples/start.ts'], {
  cwd: root,
  env: { ...process.env, AGENT_URL: `${url}/{agent}` },
  stdio: 'inherit',
})

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  if (examples.pid && examples.exitCode === null) process.kill(examples.pid, 'SIGTERM')
  await stopServer(langgraph.child)
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
examples.on('exit', stop)
