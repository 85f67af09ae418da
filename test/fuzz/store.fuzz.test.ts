import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import fc from 'fast-check'
import { Observable, type Subscriber } from 'rxjs'
import { describe, expect, it } from 'vitest'

type State = { a: number; b: number; document: string }

/** An agent the test drives event by event. */
class DrivenAgent extends AbstractAgent {
  inputs: RunAgentInput[] = []
  private subscriber: Subscriber<BaseEvent> | undefined
  run(input: RunAgentInput) {
    this.inputs.push(structuredClone(input))
    return new Observable<BaseEvent>((subscriber) => {
      this.subscriber = subscriber
      subscriber.next({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId } as BaseEvent)
      subscriber.next({ type: 'CUSTOM', name: 'PredictState', value: [{ state_key: 'document', tool: 'write', tool_argument: 'document' }] } as BaseEvent)
    })
  }
  push(event: Record<string, unknown>) {
    this.subscriber?.next(event as unknown as BaseEvent)
  }
  complete() {
    this.subscriber?.complete()
  }
}

/**
 * The documented semantics in their plainest form: plain keys are committed as the server sends
 * them unless the user edited them during the run (the user wins); `document` is drafted from the
 * `write` tool's arguments, committed when the run ends with nothing to confirm, held by an
 * interrupt until approve (kept) or reject (restored), and discarded on RUN_ERROR or abort().
 */
class Reference {
  committed: State
  shown: State
  status: 'idle' | 'running' | 'interrupted' | 'error' = 'idle'
  draft: string | undefined
  held = false
  userKeys = new Set<string>()
  constructor(initial: State) {
    this.committed = { ...initial }
    this.shown = { ...initial }
  }
  startRun() {
    this.status = 'running'
    this.userKeys.clear()
    this.draft = undefined
    this.held = false
  }
  serverSet(key: 'a' | 'b', value: number) {
    if (this.userKeys.has(key)) return
    this.committed[key] = value
    this.shown[key] = value
  }
  chunk(text: string) {
    if (this.userKeys.has('document')) return
    this.draft = (this.draft ?? '') + text
    this.shown.document = this.draft
  }
  userSet(key: keyof State, value: number | string) {
    ;(this.committed as Record<string, unknown>)[key] = value
    ;(this.shown as Record<string, unknown>)[key] = value
    if (this.status === 'running') this.userKeys.add(key)
    if (key === 'document') this.draft = undefined
  }
  finish(interrupt: boolean) {
    if (interrupt && this.draft !== undefined) this.held = true
    else this.keepDraft()
    this.status = interrupt ? 'interrupted' : 'idle'
  }
  keepDraft() {
    if (this.draft !== undefined) this.committed.document = this.draft
    this.draft = undefined
    this.held = false
  }
  dropDraft() {
    this.shown.document = this.committed.document
    this.draft = undefined
    this.held = false
  }
}

const op = fc.oneof(
  { arbitrary: fc.constant({ kind: 'run' as const }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('server-set' as const), key: fc.constantFrom('a' as const, 'b' as const), value: fc.nat(9) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('chunk' as const), text: fc.stringMatching(/^[a-z ]{1,4}$/) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('user-set' as const), key: fc.constantFrom('a' as const, 'document' as const), value: fc.nat(9) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('finish' as const), interrupt: fc.boolean() }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'error' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'abort' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('answer' as const), approve: fc.boolean() }), weight: 3 },
)

describe('store operations against a reference model (fast-check)', () => {
  it('state, committed, status and the state each run sends agree with the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const initial: State = { a: 0, b: 0, document: 'start' }
        const agent = new DrivenAgent()
        const store = createAgentStore<State>({ agent, initialState: initial })
        const model = new Reference(initial)
        let toolCall = 0
        let openCall: string | undefined
        let runs = 0
        const started = () => {
          runs++
          expect(agent.inputs).toHaveLength(runs)
          expect(agent.inputs[runs - 1]!.state).toEqual(model.committed)
          model.startRun()
          openCall = undefined
        }
        for (const step of ops) {
          const running = model.status === 'running'
          switch (step.kind) {
            case 'run':
              if (running || model.status === 'interrupted') {
                await expect(store.run()).rejects.toMatchObject({ code: running ? 'RUN_ACTIVE' : 'PENDING_CONFIRMATION' })
                continue
              }
              void store.run()
              started()
              break
            case 'server-set':
              if (!running) continue
              agent.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: `/${step.key}`, value: step.value }] })
              model.serverSet(step.key, step.value)
              break
            case 'chunk':
              if (!running) continue
              if (!openCall) {
                openCall = `call-${++toolCall}`
                agent.push({ type: 'TOOL_CALL_START', toolCallId: openCall, toolCallName: 'write' })
                agent.push({ type: 'TOOL_CALL_ARGS', toolCallId: openCall, delta: `{"document":"${step.text}` })
              } else agent.push({ type: 'TOOL_CALL_ARGS', toolCallId: openCall, delta: step.text })
              model.chunk(step.text)
              break
            case 'user-set': {
              const value = step.key === 'document' ? `user ${step.value}` : step.value
              if (store.getState().state[step.key] === value) continue
              store.setState((s) => ({ ...s, [step.key]: value }))
              model.userSet(step.key, value)
              break
            }
            case 'finish':
              if (!running) continue
              if (openCall) {
                agent.push({ type: 'TOOL_CALL_ARGS', toolCallId: openCall, delta: '"}' })
                agent.push({ type: 'TOOL_CALL_END', toolCallId: openCall })
              }
              agent.push({
                type: 'RUN_FINISHED',
                threadId: 't',
                runId: 'r',
                ...(step.interrupt
                  ? { outcome: { type: 'interrupt', interrupts: [{ id: `i${runs}`, reason: 'tool_call', ...(openCall ? { toolCallId: openCall } : {}) }] } }
                  : {}),
              })
              agent.complete()
              await Promise.resolve()
              model.finish(step.interrupt)
              break
            case 'error':
              if (!running) continue
              agent.push({ type: 'RUN_ERROR', message: 'boom' })
              agent.complete()
              model.dropDraft()
              model.status = 'error'
              break
            case 'abort':
              if (!running) continue
              store.abort()
              model.dropDraft()
              model.status = 'idle'
              break
            case 'answer':
              if (model.status !== 'interrupted') {
                await expect(store.approve()).rejects.toMatchObject({ code: running ? 'RUN_ACTIVE' : 'NO_CONFIRMATION' })
                continue
              }
              if (step.approve) model.keepDraft()
              else if (model.held) model.dropDraft()
              void (step.approve ? store.approve() : store.reject())
              started()
              break
          }
          const snapshot = store.getState()
          expect(snapshot.status).toBe(model.status)
          expect(snapshot.state).toEqual(model.shown)
          expect(snapshot.committed).toEqual(model.committed)
          expect(snapshot.confirmations.length).toBe(model.status === 'interrupted' ? 1 : 0)
        }
        store.abort()
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    )
  })
})
