import type { Plugin, PreviewServer, ProxyOptions, ViteDevServer } from 'vite'
import { type AgentHandlerOptions, createAgentHandler } from './server'

export interface AgentEndpointsOptions extends Pick<AgentHandlerOptions, 'delayMs'> {
  /**
   * Another AG-UI endpoint to send every `/agents/<name>` request to instead of the scripted agents.
   * `{agent}` in it is replaced by the name, e.g. `http://localhost:8000/{agent}`.
   */
  agentUrl?: string
}

/**
 * Serves `/agents/<name>` from the Vite dev and preview servers: the scripted agents, or a proxy to
 * `agentUrl` (through the proxy, the browser needs no CORS from that server).
 */
export function agentEndpoints(options: AgentEndpointsOptions = {}): Plugin {
  const { agentUrl, delayMs } = options
  const mount = (server: ViteDevServer | PreviewServer) => {
    if (agentUrl) return
    const handler = createAgentHandler({ delayMs, log: (line) => server.config.logger.info(`  agent  ${line}`, { timestamp: true }) })
    server.middlewares.use((request, response, next) => handler.handle(request, response, next))
    server.httpServer?.on('close', () => handler.close())
  }
  return {
    name: 'agent-state:agent-endpoints',
    config: () => (agentUrl ? { server: { proxy: proxyTo(agentUrl) }, preview: { proxy: proxyTo(agentUrl) } } : undefined),
    configureServer: mount,
    configurePreviewServer: mount,
  }
}

function proxyTo(agentUrl: string): Record<string, ProxyOptions> {
  const target = (name: string) => new URL(agentUrl.replaceAll('{agent}', name))
  return {
    '/agents/': {
      target: target('agent').origin,
      changeOrigin: true,
      rewrite(path) {
        const name = /^\/agents\/([\w-]+)/.exec(path)?.[1] ?? ''
        const url = target(name)
        return url.pathname + url.search
      },
    },
  }
}
