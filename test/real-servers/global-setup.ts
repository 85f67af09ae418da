// Starts the three real servers as child processes on 127.0.0.1 (port 0), reads the URL each prints,
// hands the URLs to the tests, and stops each by its pid in teardown.
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

export type ServerName = 'langgraph' | 'copilotkit' | 'mastra'

declare module 'vitest' {
  export interface ProvidedContext {
    realServers: Record<ServerName, string>
  }
}

const dir = fileURLToPath(new URL('.', import.meta.url))
const startTimeoutMs = 90_000

/** The environment the servers run in: no telemetry, and none of vitest's variables (they switch @ag-ui/client to its slow development mode). */
export function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('VITEST') && key !== 'NODE_ENV') env[key] = value
  return { ...env, COPILOTKIT_TELEMETRY_DISABLED: 'true', LANGGRAPH_CLI_NO_ANALYTICS: '1', DO_NOT_TRACK: '1', MASTRA_TELEMETRY_DISABLED: 'true' }
}

/** Spawns one server and resolves with its URL once it prints `REAL_SERVER_URL <name> <url>`. */
export function startServer(name: ServerName, env: NodeJS.ProcessEnv = serverEnv()): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', `servers/${name}.ts`], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${startTimeoutMs / 1000} s:\n${output.slice(-4000)}`)), startTimeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = new RegExp(`^REAL_SERVER_URL ${name} (\\S+)$`, 'm').exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
      // Keep only the tail for error messages.
      if (output.length > 100_000) output = output.slice(-20_000)
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited with code ${code} before it started:\n${output.slice(-4000)}`))
    })
  })
  url.catch(() => undefined)
  return { child, url }
}

/** Stops a child by its pid: SIGTERM, then SIGKILL after 5 s. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  process.kill(child.pid, 'SIGTERM')
  const timer = setTimeout(() => child.pid && child.exitCode === null && process.kill(child.pid, 'SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}

export default async function setup(project: TestProject) {
  const names: ServerName[] = ['langgraph', 'copilotkit', 'mastra']
  const started = names.map((name) => ({ name, ...startServer(name) }))
  try {
    const urls = await Promise.all(started.map((server) => server.url))
    project.provide('realServers', Object.fromEntries(names.map((name, i) => [name, urls[i]!])) as Record<ServerName, string>)
  } catch (error) {
    await Promise.all(started.map((server) => stopServer(server.child)))
    throw error
  }
  return async () => {
    await Promise.all(started.map((server) => stopServer(server.child)))
  }
}
