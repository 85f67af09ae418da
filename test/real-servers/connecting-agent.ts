// An HttpAgent that implements AG-UI's `connect` for the CopilotKit runtime's v2 endpoint. The
// runtime answers `POST <base>/agent/<agentId>/connect` with a full RunAgentInput body (only its
// threadId is used) by replaying the thread's finished runs, compacted, then the run in progress
// from its start and live; CopilotKit's own client (`@copilotkit/core`, `#connectViaHttp`) calls it
// exactly so. @ag-ui/client's HttpAgent leaves `connect` unimplemented.
import { enforceOutgoingInput, HttpAgent, type HttpAgentConfig, runHttpRequest, transformHttpEventStream } from '@ag-ui/client'
import type { RunAgentInput } from '@ag-ui/core'

export interface ConnectingHttpAgentConfig extends HttpAgentConfig {
  /** Where connect requests go; by default `url` with its last `/run` segment replaced by `/connect`. */
  connectUrl?: string
}

/** `…/agent/<id>/run` → `…/agent/<id>/connect`, the runtime's route for the same agent. */
export function connectUrlFor(runUrl: string): string {
  const url = new URL(runUrl)
  if (!url.pathname.endsWith('/run')) throw new Error(`Not a CopilotKit run URL: ${runUrl}`)
  url.pathname = `${url.pathname.slice(0, -'/run'.length)}/connect`
  return url.toString()
}

export class ConnectingHttpAgent extends HttpAgent {
  connectUrl: string

  constructor(config: ConnectingHttpAgentConfig) {
    super(config)
    this.connectUrl = config.connectUrl ?? connectUrlFor(config.url)
  }

  // As HttpAgent.run builds its request (same fetch field, headers, abort signal, outgoing checks), to the connect route.
  protected override connect(input: RunAgentInput): ReturnType<HttpAgent['run']> {
    return transformHttpEventStream(
      runHttpRequest(() => this.fetch(this.connectUrl, this.requestInit(enforceOutgoingInput(input)))),
      this.debugLogger,
    )
  }

  override clone(): ConnectingHttpAgent {
    const copy = super.clone() as ConnectingHttpAgent
    copy.connectUrl = this.connectUrl
    return copy
  }
}
