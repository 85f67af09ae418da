// Presentation helpers shared by the three examples: plain functions of the snapshot, no framework.
import type { Message } from '@ag-ui/core'
import type { AgentSnapshot, BranchPosition } from '@agent-state/core'

export interface ChatItem {
  id: string
  role: 'user' | 'assistant' | 'tool' | 'reasoning' | 'activity'
  text: string
  /** Names of the tools an assistant message called. */
  toolCalls: string[]
  /** A progress activity: how much of its work is done. */
  progress?: { done: number; total: number }
}

/** The conversation as chat bubbles: text, tool calls, reasoning and progress cards; system and empty messages left out. */
export function chatItems(messages: readonly Message[]): ChatItem[] {
  const items: ChatItem[] = []
  for (const message of messages) {
    if (message.role === 'reasoning') {
      items.push({ id: message.id, role: 'reasoning', text: message.content, toolCalls: [] })
    } else if (message.role === 'activity' && message.activityType === 'progress') {
      const { title, done, total } = message.content as { title?: unknown; done?: unknown; total?: unknown }
      const progress = { done: Number(done) || 0, total: Number(total) || 0 }
      items.push({ id: message.id, role: 'activity', text: typeof title === 'string' ? title : 'Working', toolCalls: [], progress })
    } else if (message.role === 'user') {
      items.push({ id: message.id, role: 'user', text: textOf(message.content), toolCalls: [] })
    } else if (message.role === 'assistant') {
      const toolCalls = (message.toolCalls ?? []).map((call) => call.function.name)
      const text = textOf(message.content)
      if (text || toolCalls.length) items.push({ id: message.id, role: 'assistant', text, toolCalls })
    } else if (message.role === 'tool') {
      items.push({ id: message.id, role: 'tool', text: describeToolResult(textOf(message.content)), toolCalls: [] })
    }
  }
  return items
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((part: { text?: unknown } | null) => (typeof part?.text === 'string' ? part.text : '')).join('')
}

function describeToolResult(content: string): string {
  try {
    const parsed = JSON.parse(content) as { accepted?: unknown }
    if (typeof parsed.accepted === 'boolean') return parsed.accepted ? '↳ you approved' : '↳ you rejected'
  } catch {
    // Not JSON: a plain result.
  }
  return `↳ ${content}`
}

/**
 * The last run stopped before its end: the page reloaded while it streamed (the example server has no
 * connect endpoint to rejoin a run, so the store gave it up and rolled its changes back). The store is idle with a run that has no
 * outcome, and the user's last message has no answer: the chat says so and offers to ask again.
 */
export const answerInterrupted = (snapshot: Pick<AgentSnapshot, 'status' | 'run' | 'requesting'>): boolean =>
  snapshot.status === 'idle' && !snapshot.requesting && snapshot.run !== undefined && snapshot.run.outcome === undefined

/** The text of the user's last message: what Retry sends again. */
export function lastRequest(messages: readonly Message[]): string | undefined {
  const message = messages.findLast((candidate) => candidate.role === 'user')
  return message ? textOf(message.content) : undefined
}

export interface StatusView {
  kind: 'idle' | 'live' | 'waiting' | 'error'
  label: string
  /** The graph node or step in progress, if the server reports steps. */
  step: string | undefined
}

export function statusView(snapshot: Pick<AgentSnapshot, 'status' | 'steps'>): StatusView {
  const step = snapshot.steps[snapshot.steps.length - 1]
  switch (snapshot.status) {
    case 'running':
      return { kind: 'live', label: 'LIVE', step }
    case 'interrupted':
      return { kind: 'waiting', label: 'Waiting for your approval', step: undefined }
    case 'error':
      return { kind: 'error', label: 'Error', step: undefined }
    default:
      return { kind: 'idle', label: 'Idle', step: undefined }
  }
}

/** The endpoint of an example's agent: VITE_AGENT_URL when set at build time, else this server's /agents/<name>. */
export function agentUrl(name: string): string {
  return import.meta.env.VITE_AGENT_URL || `/agents/${name}`
}

/**
 * Why Edit, Regenerate and the version switcher are unavailable now (the store would refuse them),
 * or undefined when they are available: shown as the buttons' title.
 */
export function branchingBlocked(snapshot: Pick<AgentSnapshot, 'requesting' | 'confirmations'>): string | undefined {
  if (snapshot.requesting) return 'Available once the agent has finished answering'
  if (snapshot.confirmations.length > 0) return 'Answer the open approval first'
  return undefined
}

/** The ids of the items that end an answer (the last assistant bubble before the next question): each gets Regenerate. */
export function answerEnds(items: readonly ChatItem[]): Set<string> {
  const ends = new Set<string>()
  let last: string | undefined
  for (const item of items) {
    if (item.role === 'user' && last) ends.add(last)
    if (item.role === 'user') last = undefined
    else if (item.role === 'assistant') last = item.id
  }
  if (last) ends.add(last)
  return ends
}

/** The switcher's label: "2 / 3" for the second of three versions. */
export const versionLabel = ({ index, count }: BranchPosition): string => `${index + 1} / ${count}`
