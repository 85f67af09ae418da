// Run before `npm test` and `npm run start:langgraph`: installs test/real-servers (the real AG-UI
// servers, their own dependency tree) from its lock file when it is missing or out of date.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const dir = fileURLToPath(new URL('.', import.meta.url))
const installedLock = new URL('./node_modules/.package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(new URL('./package-lock.json', import.meta.url), 'utf8'))

function upToDate() {
  if (!existsSync(installedLock)) return false
  const installed = JSON.parse(readFileSync(installedLock, 'utf8')).packages ?? {}
  // Every package of the lock file present at its locked version.
  return Object.entries(lock.packages ?? {}).every(([path, entry]) => path === '' || entry.optional || installed[path]?.version === entry.version)
}

if (!upToDate()) {
  console.log('test/real-servers: installing the real AG-UI servers (LangGraph, CopilotKit runtime, Mastra) from package-lock.json, once (~1 min)…')
  // --legacy-peer-deps: these stacks declare peer and engine ranges wider or newer than they need on Node 20.
  execFileSync('npm', ['ci', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' })
}
