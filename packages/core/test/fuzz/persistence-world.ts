// The world the persistence fuzz drives: one storage shared by every tab (sync, slow, reordering
// or throwing), an in-process AG-UI server whose runs the test steps event by event, and scripts
// of what real servers send (drafts, the three kinds of confirmation, LangGraph's opening `{}`).
import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'
import type { PersistStorage } from '../../src'
import { seeded } from '../threads/support-threads'

export type StorageKind = 'sync' | 'slow' | 'reordering' | 'throwing'

/** What storage holds, whichever tab wrote it. Async kinds land each write after some microtasks. */
export class SharedStorage {
  readonly items = new Map<string, string>()
  /** While true, setItem throws a quota error (kind 'throwing' only). */
  full = false
  private readonly random: () => number

  constructor(
    readonly kind: StorageKind,
    seed: number,
  ) {
    this.random = seeded(seed)
  }

  /** A microtask delay: 'slow' keeps the order of calls, 'reordering' does not. */
  private async delay(): Promise<void> {
    const hops = this.kind === 'slow' ? 25 : Math.floor(this.random() * 25)
    for (let i = 0; i < hops; i++) await Promise.resolve()
  }

  /** The storage one page sees: once the page is gone (`close()`), what it starts writing goes nowhere. */
  view(): PersistStorage & { close(): void } {
    let open = true
    const sync = this.kind === 'sync' || this.kind === 'throwing'
    return {
      close: () => {
        open = false
      },
      getItem: (key) => {
        if (sync) return this.items.get(key) ?? null
        return this.delay().then(() => this.items.get(key) ?? null)
      },
      setItem: (key, value) => {
        if (!open) return
        if (this.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
        if (sync) return void this.items.set(key, value)
        return this.delay().then(() => void this.items.set(key, value))
      },
      removeItem: (key) => {
        if (!open) return
        if (sync) return void this.items.delete(key)
        return this.delay().then(() => void this.items.delete(key))
      },
    }
  }

  /** Lets every write already handed to an async storage land. */
  async settle(): Promise<void> {
    for (let i = 0; i < 60; i++) await Promise.resolve()
  }
}

export type ScriptKind = 'finish' | 'langgraph' | 'interrupt' | 'interrupt2' | 'reusedInterrupt' | 'confirmTool' | 'onInterrupt' | 'onInterrupt2' | 'runError'
export const scriptKinds: readonly ScriptKind[] = [
  'finish',
  'langgraph',
  'interrupt',
  'interrupt2',
  'reusedInterrupt',
  'confirmTool',
  'onInterrupt',
  'onInterrupt2',
  'runError',
]

const accepted = { type: 'object', properties: { accepted: { type: 'boolean' } }, required: ['accepted'] }

/**
 * The events a server sends for one request, as the servers in PROTOCOL.md send them: it echoes the
 * state it was sent (plus a key of its own), drafts `document` from `write_document`'s arguments,
 * and asks through an interrupt, a `confirm_changes` tool call or LangGraph's on_interrupt.
 */
export function scriptFor(kind: ScriptKind, input: RunAgentInput, n: number, lastInterruptId: string | undefined): BaseEvent[] {
  const { threadId, runId } = input
  const state = (input.state ?? {}) as Record<string, unknown>
  const echo = { type: 'STATE_SNAPSHOT', snapshot: { ...state, server: n } }
  const text = [
    { type: 'TEXT_MESSAGE_START', messageId: `m-${n}`, role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: `m-${n}`, delta: `reply ${n}` },
    { type: 'TEXT_MESSAGE_END', messageId: `m-${n}` },
  ]
  const draft = (call: string, key = 'document', tool = 'write_document') => [
    { type: 'CUSTOM', name: 'PredictState', value: [{ state_key: key, tool, tool_argument: key }] },
    { type: 'TOOL_CALL_START', toolCallId: call, toolCallName: tool, parentMessageId: `m-${n}` },
    { type: 'TOOL_CALL_ARGS', toolCallId: call, delta: `{"${key}":"dra` },
    { type: 'TOOL_CALL_ARGS', toolCallId: call, delta: `ft ${n}"}` },
    { type: 'TOOL_CALL_END', toolCallId: call },
  ]
  const interrupt = (id: string, toolCallId: string) => ({ id, reason: 'tool_call', toolCallId, responseSchema: accepted })
  const started = { type: 'RUN_STARTED', threadId, runId }
  const finished = (outcome?: unknown) => ({ type: 'RUN_FINISHED', threadId, runId, ...(outcome ? { outcome } : {}) })
  const body: object[] = (() => {
    switch (kind) {
      case 'finish':
        return [...text, echo, finished()]
      case 'langgraph':
        return [{ type: 'STATE_SNAPSHOT', snapshot: {} }, ...text, echo, finished()]
      case 'interrupt':
        return [...text, ...draft(`tc-${n}`), echo, finished({ type: 'interrupt', interrupts: [interrupt(`i-${n}`, `tc-${n}`)] })]
      case 'reusedInterrupt':
        return [...text, ...draft(`tc-${n}`), echo, finished({ type: 'interrupt', interrupts: [interrupt(lastInterruptId ?? `i-${n}`, `tc-${n}`)] })]
      case 'interrupt2':
        return [
          ...text,
          ...draft(`tc-${n}`),
          ...draft(`tt-${n}`, 'title', 'write_title'),
          echo,
          finished({ type: 'interrupt', interrupts: [interrupt(`i-${n}`, `tc-${n}`), interrupt(`j-${n}`, `tt-${n}`)] }),
        ]
      case 'confirmTool':
        return [
          ...text,
          ...draft(`tc-${n}`),
          { type: 'TOOL_CALL_START', toolCallId: `cc-${n}`, toolCallName: 'confirm_changes', parentMessageId: `m-${n}` },
          { type: 'TOOL_CALL_ARGS', toolCallId: `cc-${n}`, delta: '{}' },
          { type: 'TOOL_CALL_END', toolCallId: `cc-${n}` },
          echo,
          finished(),
        ]
      case 'onInterrupt':
        return [
          ...text,
          ...draft(`tc-${n}`),
          { type: 'CUSTOM', name: 'on_interrupt', value: JSON.stringify({ toolCallId: `tc-${n}`, message: 'ok?' }) },
          finished(),
        ]
      case 'onInterrupt2':
        return [
          ...text,
          ...draft(`tc-${n}`),
          ...draft(`tt-${n}`, 'title', 'write_title'),
          { type: 'CUSTOM', name: 'on_interrupt', value: JSON.stringify({ toolCallId: `tc-${n}`, message: 'document?' }) },
          { type: 'CUSTOM', name: 'on_interrupt', value: JSON.stringify({ toolCallId: `tt-${n}`, message: 'title?' }) },
          finished(),
        ]
      case 'runError':
        return [...text, echo, { type: 'RUN_ERROR', message: 'the model failed' }]
    }
  })()
  return [started, ...body] as BaseEvent[]
}

/** One request the server has received; the test streams its script into it. */
export interface ServerRequest {
  readonly tab: number
  readonly threadId: string
  readonly input: RunAgentInput
  script: BaseEvent[]
  sent: number
  subscriber: Subscriber<BaseEvent> | undefined
  /** Ended by the server, cancelled by the client, or its page is gone. */
  closed: boolean
}

/** The server side of every tab: each request waits for the test to stream its events. */
export class Server {
  readonly requests: ServerRequest[] = []
  /** The script the next request of a thread gets (set by the command that starts it). */
  readonly nextScript = new Map<string, ScriptKind>()
  private count = 0
  /** The last interrupt id each thread's server asked with (a server that reuses ids). */
  readonly lastInterrupt = new Map<string, string>()

  agentFor(tab: number, threadId: string): AbstractAgent {
    const server = this
    class ScriptedServerAgent extends AbstractAgent {
      run(input: RunAgentInput) {
        const n = ++server.count
        const kind = server.nextScript.get(threadId) ?? 'finish'
        const request: ServerRequest = {
          tab,
          threadId,
          input: structuredClone(input),
          script: scriptFor(kind, input, n, server.lastInterrupt.get(threadId)),
          sent: 0,
          subscriber: undefined,
          closed: false,
        }
        server.requests.push(request)
        return new Observable<BaseEvent>((subscriber) => {
          request.subscriber = subscriber
          return () => {
            request.closed = true
          }
        })
      }
    }
    return new ScriptedServerAgent({ threadId })
  }

  /** The open request of a thread in a tab, if any. */
  openRequest(tab: number, threadId: string): ServerRequest | undefined {
    return this.requests.findLast((r) => r.tab === tab && r.threadId === threadId && !r.closed && r.subscriber !== undefined)
  }

  /** Streams up to `count` events; the response closes after the run's last one. */
  push(request: ServerRequest, count: number): BaseEvent[] {
    const pushed: BaseEvent[] = []
    for (let i = 0; i < count && !request.closed && request.sent < request.script.length; i++) {
      const event = request.script[request.sent++]!
      pushed.push(event)
      const interrupts = (event as { outcome?: { interrupts?: { id: string }[] } }).outcome?.interrupts
      for (const interrupt of interrupts ?? []) this.lastInterrupt.set(request.threadId, interrupt.id)
      request.subscriber!.next(event)
      if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') this.end(request)
    }
    return pushed
  }

  /** The request fails: an HTTP error (before any event), a network error, or a stream that just stops. */
  fail(request: ServerRequest, how: 'http' | 'network' | 'drop'): void {
    const subscriber = request.subscriber!
    if (how === 'drop') this.end(request)
    else {
      request.closed = true
      subscriber.error(how === 'http' ? Object.assign(new Error('HTTP 503'), { status: 503 }) : new TypeError('network error'))
    }
  }

  private end(request: ServerRequest) {
    request.closed = true
    request.subscriber!.complete()
  }

  /** A page is gone: its requests end with it. */
  closeTab(tab: number): void {
    for (const request of this.requests) if (request.tab === tab) request.closed = true
  }
}
