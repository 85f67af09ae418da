// canRun, canAnswer and canAbort say what the store accepts, at every moment: for any sequence of
// commands (run, answers, abort, reconnect, edits, apply()) and server behaviour (events, normal
// and failed ends, interrupts, drops, replays and resumes), each selector read just before a
// command equals whether the store then accepts it.
import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import fc from 'fast-check'
import { Observable, type Subscriber } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { type AgentSnapshot, type AgentStore, canAbort, canAnswer, canRun, createAgentStore } from '../src'
import { ev } from './helpers'

/** A server driven by the test, through run() and connect(): the test pushes into the open stream. */
class DrivenServer extends AbstractAgent {
  stream: { subscriber: Subscriber<BaseEvent>; runId: string } | undefined
  runs = 0

  run(input: RunAgentInput) {
    this.runs++
    return new Observable<BaseEvent>((subscriber) => {
      this.stream = { subscriber, runId: input.runId }
      subscriber.next(ev.runStarted(input.runId, input.threadId))
    })
  }

  protected override connect(input: RunAgentInput) {
    return new Observable<BaseEvent>((subscriber) => {
      this.stream = { subscriber, runId: input.runId }
    })
  }
}

type Command = 'run' | 'answer' | 'cancel' | 'abort' | 'reconnect' | 'setState' | 'applyStart' | 'applyFinish'
type ServerStep = 'text' | 'finish' | 'interrupt' | 'error' | 'drop' | 'end' | 'replayStart'
type Step = { command: Command } | { server: ServerStep }

const steps: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<Command>('run', 'answer', 'cancel', 'abort', 'reconnect', 'setState', 'applyStart', 'applyFinish').map((command) => ({ command })),
  fc.constantFrom<ServerStep>('text', 'finish', 'interrupt', 'error', 'drop', 'end', 'replayStart').map((server) => ({ server })),
)

const REFUSALS = new Set(['RUN_ACTIVE', 'PENDING_CONFIRMATION', 'NO_CONFIRMATION', 'RECONNECT'])

/** 'accepted', or the code the command's promise rejected with right away. */
async function outcome(promise: Promise<void>): Promise<string> {
  let result = 'accepted'
  promise.catch((error: { code: string }) => {
    result = error.code
  })
  // A refusal rejects the promise in the same call; its handler runs on the next microtasks.
  for (let i = 0; i < 3; i++) await Promise.resolve()
  return result
}

function serve(server: DrivenServer, step: ServerStep, n: number) {
  const stream = server.stream
  if (!stream) return
  const { subscriber, runId } = stream
  const id = `m${n}`
  if (step === 'text') for (const event of [ev.textStart(id), ev.text(id, 'x'), ev.textEnd(id)]) subscriber.next(event)
  if (step === 'finish') subscriber.next(ev.runFinished(runId))
  if (step === 'interrupt') subscriber.next(ev.runFinished(runId, 't1', { type: 'interrupt', interrupts: [{ id: `i${n}`, reason: 'input_required' }] }))
  if (step === 'error') subscriber.next(ev.runError('boom', 'FAILED'))
  if (step === 'drop') subscriber.error(new TypeError('network error'))
  if (step === 'end') subscriber.complete()
  if (step === 'replayStart') subscriber.next(ev.runStarted(runId))
}

/** Issues one command and checks it against what the selectors said just before. */
async function command(store: AgentStore<Record<string, unknown>>, name: Command, n: number) {
  const before: AgentSnapshot<Record<string, unknown>> = store.getState()
  const id = before.confirmations[0]?.id
  switch (name) {
    case 'run':
      expect((await outcome(store.run({ message: `q${n}` }))) === 'accepted', 'run() as canRun said').toBe(canRun(before))
      return
    case 'answer':
    case 'cancel': {
      const answered = name === 'answer' ? store.respond({ id, payload: { n } }) : store.cancel({ id })
      expect((await outcome(answered)) === 'accepted', `${name} as canAnswer said`).toBe(canAnswer(before))
      return
    }
    case 'abort':
      store.abort()
      expect(store.getState() !== before, 'abort() as canAbort said').toBe(canAbort(before))
      expect(store.getState().requesting).toBe(false)
      return
    case 'reconnect': {
      const result = await outcome(store.reconnect())
      expect(result === 'accepted' || REFUSALS.has(result), result).toBe(true)
      // Whatever canRun said, a reconnect on its way is a request: neither runs nor answers now.
      if (result === 'accepted' && store.getState().requesting) expect(canRun(store.getState()) || canAnswer(store.getState())).toBe(false)
      return
    }
    case 'setState':
      store.setState((previous) => ({ ...previous, n }))
      return
    case 'applyStart':
      store.apply([ev.runStarted(`applied${n}`)])
      return
    case 'applyFinish':
      store.apply([ev.runFinished(before.runId ?? `applied${n}`)])
  }
}

describe('the selectors and what the store accepts', () => {
  it('agree before every command, over any sequence (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(steps, { minLength: 1, maxLength: 30 }), async (sequence) => {
        const server = new DrivenServer({ threadId: 't1' })
        const store = createAgentStore<Record<string, unknown>>({ agent: server, initialState: {}, threadId: 't1', onError: () => {} })
        for (const [n, step] of sequence.entries()) {
          if ('server' in step) serve(server, step.server, n)
          else await command(store, step.command, n)
          // The selectors never contradict each other: an open request rules out running and answering.
          const now = store.getState()
          if (canAbort(now)) expect([canRun(now), canAnswer(now)]).toEqual([false, false])
        }
        store.reset()
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    )
  })

  it('during reconnect(): canRun and canAnswer are false and run() is refused; canAbort is true and abort() ends it', async () => {
    const server = new DrivenServer({ threadId: 't1' })
    const store = createAgentStore<Record<string, unknown>>({ agent: server, initialState: {}, threadId: 't1', onError: () => {} })
    const first = store.run({ message: 'hi' })
    serve(server, 'drop', 0)
    await first
    expect(store.getState()).toMatchObject({ status: 'error', requesting: false })
    const reconnecting = store.reconnect()
    const during = store.getState()
    expect(during).toMatchObject({ status: 'error', requesting: true })
    expect({ run: canRun(during), answer: canAnswer(during), abort: canAbort(during) }).toEqual({ run: false, answer: false, abort: true })
    await expect(store.run({ message: 'again' })).rejects.toMatchObject({ code: 'RUN_ACTIVE' })
    store.abort()
    await reconnecting
    expect(store.getState().requesting).toBe(false)
    expect(canRun(store.getState())).toBe(true)
  })

  it('a run fed through apply() is running with no request: canRun is true and run() is accepted; canAbort is false', async () => {
    const server = new DrivenServer({ threadId: 't1' })
    const store = createAgentStore<Record<string, unknown>>({ agent: server, initialState: {}, threadId: 't1' })
    store.apply([ev.runStarted('fed')])
    const fed = store.getState()
    expect(fed).toMatchObject({ status: 'running', requesting: false })
    expect({ run: canRun(fed), abort: canAbort(fed) }).toEqual({ run: true, abort: false })
    store.abort()
    expect(store.getState()).toBe(fed)
    expect(await outcome(store.run({ message: 'now' }))).toBe('accepted')
    expect(server.runs).toBe(1)
  })
})
