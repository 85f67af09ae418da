// Saved threads damaged at random: recorded conversations driven as a client would (requests,
// answers, edits) and saved at a random step, then one to three parts of the saved JSON deleted or
// replaced by a value of another type. Restoring must never throw, must report nothing but
// RESTORE, must never leave a store `running` with nothing to end it, and the store must work:
// every open confirmation can be cancelled, a run goes out and ends, abort() and reset() work.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type AgentStore, type AgentStoreError, createAgentStore, restoreThread, serializeThread } from '../../src'
import { type Doc, performStep, SteppedAgent, stepsOf, streamable, throughJson } from './support-threads'

// A case saves, damages and restores a conversation, then uses the store (a few of the other fuzzers' cases): FUZZ_RUNS counts for a quarter.
const NUM_RUNS = process.env.FUZZ_RUNS ? Math.max(1, Math.round(Number(process.env.FUZZ_RUNS) / 4)) : 200

/** A conversation driven up to a step, saved as JSON. */
function savedAt(which: number, cut: number): { saved: Record<string, unknown>; threadId: string } {
  const conversation = streamable[which % streamable.length]!
  const agent = new SteppedAgent()
  const store = createAgentStore<Doc>({ ...conversation.options, agent, onError: () => undefined })
  const steps = stepsOf(conversation, { edits: true })
  const outcomes: string[] = []
  for (const step of steps.slice(0, cut % (steps.length + 1))) {
    if (step.kind === 'event' && !agent.open) continue
    performStep(store, agent, conversation, step, outcomes)
  }
  return { saved: throughJson(serializeThread(store)) as unknown as Record<string, unknown>, threadId: store.getState().threadId }
}

/** Every place in a JSON value: its parent and key. */
function placesIn(root: unknown): { parent: Record<string, unknown> | unknown[]; key: string | number }[] {
  const places: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = []
  const stack: unknown[] = [root]
  // Bounded: a saved thread of these conversations has a few thousand parts.
  while (stack.length > 0 && places.length < 50_000) {
    const value = stack.pop()
    if (typeof value !== 'object' || value === null) continue
    const parent = value as Record<string, unknown> | unknown[]
    for (const [key, item] of Object.entries(parent)) {
      places.push({ parent, key: Array.isArray(parent) ? Number(key) : key })
      stack.push(item)
    }
  }
  return places
}

/** How the saved format writes `undefined`. */
const UNDEFINED = { '$agent-state:undefined': true }

const replacements: unknown[] = [null, 0, -1, 'text', true, [], {}, [1], { x: 1 }, { '$agent-state:undefined': true }]

type Damage = { at: number; kind: number }
const damageArbitrary = fc.array(fc.record({ at: fc.nat(), kind: fc.nat(replacements.length) }), { minLength: 1, maxLength: 3 })

function damage(saved: Record<string, unknown>, damages: Damage[]): string[] {
  const done: string[] = []
  for (const { at, kind } of damages) {
    // Mostly the model's own layout: the state's inner values are any JSON and checked by the limits.
    const places = placesIn(saved.model)
    if (places.length === 0) break
    const { parent, key } = places[at % places.length]!
    if (kind === replacements.length) {
      if (Array.isArray(parent)) parent.splice(key as number, 1)
      else delete parent[key as string]
      done.push(`delete ${String(key)}`)
    } else {
      ;(parent as Record<string | number, unknown>)[key] = structuredClone(replacements[kind])
      done.push(`${String(key)} = ${JSON.stringify(replacements[kind])}`)
    }
  }
  return done
}

/** Usable: open confirmations cancelled, a run out and back, abort and reset. */
async function expectUsable(store: AgentStore<Doc>, agent: SteppedAgent, threadId: string) {
  for (const confirmation of store.getState().confirmations) {
    const cancelled = store.cancel({ id: confirmation.id })
    cancelled.catch(() => undefined)
    if (agent.open) {
      agent.push({ type: 'RUN_STARTED', threadId, runId: agent.inputs.at(-1)!.runId } as never)
      agent.push({ type: 'RUN_FINISHED', threadId, runId: agent.inputs.at(-1)!.runId } as never)
    }
    await cancelled
  }
  expect(store.getState().confirmations).toStrictEqual([])
  const before = agent.inputs.length
  const running = store.run({ message: { id: 'fuzz-user', role: 'user', content: 'Go on' } })
  expect(store.getState().status).toBe('running')
  expect(agent.inputs).toHaveLength(before + 1)
  const { runId } = agent.inputs.at(-1)!
  agent.push({ type: 'RUN_STARTED', threadId, runId } as never)
  agent.push({ type: 'RUN_FINISHED', threadId, runId } as never)
  await running
  expect(store.getState().status).toBe('idle')
  void store.run({ message: 'Once more' }).catch(() => undefined)
  store.abort()
  expect(agent.open).toBe(false)
  expect(store.getState().status).toBe('idle')
  store.reset()
  expect(store.getState()).toMatchObject({ status: 'idle', messages: [], confirmations: [], predictions: [] })
}

describe('saved threads damaged at random', () => {
  it(
    'restore never throws, reports only RESTORE, never leaves a store running without a request, and the store works',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.nat(), damageArbitrary, async (which, cut, damages) => {
          const { saved, threadId } = savedAt(which, cut)
          damage(saved, damages)
          const errors: AgentStoreError[] = []
          const agent = new SteppedAgent()
          let store: AgentStore<Doc> | undefined
          expect(() => {
            store = createAgentStore<Doc>({ initialState: {}, threadId, agent, onError: (error) => errors.push(error), restore: restoreThread(saved as never) })
          }).not.toThrow()
          const shown = store!.getState()
          expect(errors.map((error) => error.code).filter((code) => code !== 'RESTORE')).toStrictEqual([])
          // `running` only for a run that a request never streamed (fed through apply()): the store holds no request either way.
          expect(agent.open).toBe(false)
          if (shown.status === 'running') {
            const model = serializeThread(store!).model as { request: unknown; run: { requestId: unknown } }
            expect([model.request, model.run.requestId]).toStrictEqual([UNDEFINED, UNDEFINED])
          }
          await expectUsable(store!, agent, threadId)
        }),
        { numRuns: NUM_RUNS, seed: 2121 },
      )
    },
    Math.max(60_000, NUM_RUNS * 30),
  )
})
