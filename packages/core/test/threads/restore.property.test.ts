// Issue 13, a thread that survives a reload: for every recorded conversation and every cut point,
// serializeThread(store) sent through JSON and given as `restore` to a new store (with a new agent, as
// after a reload) must continue exactly as the store that was never interrupted: the same
// snapshots, the same model, and the same RunAgentInput bodies. A cut while a request is open
// comes back as abort() would leave the store.
//
// Ids: the store makes ids (runId, the messages of answers) with createId. It is replaced by a
// counter the test sets before each step, so a restored store and the uninterrupted one make the
// same ids at the same step and every body and snapshot is compared whole, with nothing normalised.
import type { BaseEvent } from '@ag-ui/core'
import { describe, expect, it, vi } from 'vitest'
import { type AgentSnapshot, type AgentStore, type AgentStoreOptions, createAgentStore, restoreThread, serializeThread } from '../../src'
import { decodeModel } from '../../src/persistence/model-codec'
import { ScriptedAgent } from '../../src/testing'
import {
  type Conversation,
  conversations,
  type Doc,
  finishing,
  performStep,
  type Step,
  SteppedAgent,
  startRun,
  stepsOf,
  streamable,
  strictlyEqual,
  throughEnd,
  throughJson,
} from './support-threads'

const ids = vi.hoisted(() => ({ next: 0 }))
vi.mock('../../src/ids', () => ({ createId: () => `id-${ids.next++}` }))

/** Every store makes the same ids at the same step. */
const idsFor = (step: number) => {
  ids.next = (step + 1) * 1_000
}

function optionsOf(conversation: Conversation, agent: AgentStoreOptions<Doc>['agent'], errors: unknown[]): AgentStoreOptions<Doc> {
  return { ...conversation.options, agent, onError: (error) => errors.push(error.code) }
}

/** The reloaded store: the saved thread through JSON, the same options, a new agent. */
function reload(store: AgentStore<Doc>, conversation: Conversation, agent: AgentStoreOptions<Doc>['agent'], errors: unknown[] = []) {
  const saved = throughJson(serializeThread(store))
  return createAgentStore<Doc>({ ...optionsOf(conversation, agent, errors), restore: restoreThread(saved) })
}

/** The saved model as values: the tree's references to parts written before are followed, so two saves of equal models compare equal. */
const modelOf = (store: AgentStore<Doc>) => decodeModel(throughJson(serializeThread(store).model))

/** toStrictEqual, checked first by the cheaper strictlyEqual (which also fails what toStrictEqual would let pass). */
function same(where: Record<string, unknown>, actual: unknown, expected: unknown) {
  if (strictlyEqual(actual, expected)) return
  expect({ ...where, value: actual }).toStrictEqual({ ...where, value: expected })
  expect.fail(`${JSON.stringify(where)}: the values differ in a way toStrictEqual does not see`)
}

// ---------------------------------------------------------------------------------------------
// Request mode: each run is started as a client would start it (run(), or answering what the
// previous run left open), and its recorded events are streamed into the request one at a time.

interface Driven {
  store: AgentStore<Doc>
  agent: SteppedAgent
  /** Every snapshot published, by the step that published it. */
  published: AgentSnapshot<Doc>[][]
  outcomes: string[]
  errors: unknown[]
}

function driver(conversation: Conversation, store?: AgentStore<Doc>, agent = new SteppedAgent(), errors: unknown[] = []): Driven {
  const driven: Driven = { store: store ?? createAgentStore<Doc>(optionsOf(conversation, agent, errors)), agent, published: [], outcomes: [], errors }
  driven.store.subscribe((snapshot) => driven.published.at(-1)?.push(snapshot))
  return driven
}

function perform(driven: Driven, conversation: Conversation, step: Step, index: number) {
  idsFor(index)
  driven.published.push([])
  performStep(driven.store, driven.agent, conversation, step, driven.outcomes)
}

/** After the cut: the user's next move, and a run that just finishes. */
async function nextMove(driven: Driven, conversation: Conversation) {
  idsFor(900)
  startRun(driven.store, conversation, conversation.runs.length, driven.outcomes)
  if (driven.agent.open) for (const event of finishing(driven.agent.inputs.at(-1)!)) driven.agent.push(event)
  await Promise.resolve()
}

describe('restore: a reload at any step of a recorded conversation, streamed through requests', () => {
  it('has conversations to cut: the core recordings and the real-server scenarios', () => {
    expect(streamable.length).toBeGreaterThanOrEqual(30)
    expect(streamable.filter((c) => c.name.startsWith('real-servers/')).length).toBeGreaterThanOrEqual(25)
  })

  for (const conversation of streamable) {
    it(`${conversation.name}: after every step the reloaded store goes on exactly as the uninterrupted one`, async () => {
      const steps = stepsOf(conversation, { edits: true })
      const reference = driver(conversation)
      const states = [reference.store.getState()]
      const models = [modelOf(reference.store)]
      const inputsAt = [0]
      for (const [index, step] of steps.entries()) {
        perform(reference, conversation, step, index)
        states.push(reference.store.getState())
        models.push(modelOf(reference.store))
        inputsAt.push(reference.agent.inputs.length)
      }
      // The scenario really ran: every run was requested and none was refused.
      expect(reference.agent.inputs).toHaveLength(conversation.runs.length)
      expect(reference.outcomes.filter((outcome) => outcome !== 'ok')).toStrictEqual([])

      let midRequest = 0
      for (let cut = 0; cut <= steps.length; cut++) {
        const before = driver(conversation)
        for (let index = 0; index < cut; index++) perform(before, conversation, steps[index]!, index)
        same({ cut, what: 'before the cut' }, before.store.getState(), states[cut])
        const afterErrors: unknown[] = []
        const agent = new SteppedAgent()
        const after = driver(conversation, reload(before.store, conversation, agent, afterErrors), agent, afterErrors)
        expect(after.store.getInitialState()).toBe(after.store.getState())
        expect(afterErrors).toStrictEqual([])

        if (!before.agent.open) {
          // Between requests: the same thread, the same model, and the same future.
          same({ cut, what: 'restored' }, after.store.getState(), states[cut])
          same({ cut, what: 'model' }, modelOf(after.store), models[cut])
          for (let index = cut; index < steps.length; index++) {
            perform(after, conversation, steps[index]!, index)
            same({ cut, step: index, what: 'published' }, after.published.at(-1), reference.published[index])
          }
          same({ cut, what: 'inputs' }, after.agent.inputs, reference.agent.inputs.slice(inputsAt[cut]))
          expect(after.outcomes.filter((outcome) => outcome !== 'ok')).toStrictEqual([])
        } else {
          // A request was open: the reloaded page has lost it, so the thread is as abort() leaves it.
          midRequest++
          idsFor(800)
          before.store.abort()
          const aborted = before.store.getState()
          expect(aborted.status).not.toBe('running')
          // The snapshot only: the restored model may also remember the run, to rejoin it (reconnect).
          same({ cut, what: 'restored as aborted' }, after.store.getState(), aborted)
          expect(after.store.getState().predictions.filter((p) => !p.complete)).toStrictEqual([])
          // And the user's next move sends the same body from both.
          const sentBefore = before.agent.inputs.length
          await nextMove(before, conversation)
          await nextMove(after, conversation)
          expect(before.agent.inputs.length).toBe(sentBefore + 1)
          same({ cut, what: 'next input' }, after.agent.inputs.at(-1), before.agent.inputs.at(-1))
          same({ cut, what: 'after the next move' }, after.store.getState(), before.store.getState())
        }
      }
      // Every run had an open request to cut into: after its start and after each event but its last.
      expect(midRequest).toBe(steps.length - conversation.runs.length)
    })
  }
})

describe('restore: an interrupt answered in a recorded conversation is never reopened', () => {
  let answeredInAll = 0
  for (const conversation of streamable) {
    it(`${conversation.name}: each run replayed after a reload opens no answered interrupt, as without the reload`, () => {
      const reference = driver(conversation)
      for (const [index, step] of stepsOf(conversation).entries()) perform(reference, conversation, step, index)
      const answered = reference.agent.inputs.flatMap((input) =>
        ((input as { resume?: { interruptId: string }[] }).resume ?? []).map((entry) => entry.interruptId),
      )
      answeredInAll += answered.length
      const after = reload(reference.store, conversation, new SteppedAgent())
      // The thread replayed from its start (a server replaying it on connect, a duplicated stream).
      for (const run of conversation.runs) {
        const replay = throughEnd(run.events)
        reference.store.apply(replay)
        after.apply(replay)
        const open = after.getState().confirmations.map((confirmation) => confirmation.id)
        expect(open.filter((id) => answered.includes(id))).toStrictEqual([])
        same({ what: 'replayed' }, after.getState(), reference.store.getState())
      }
    })
  }

  it('had answered interrupts to replay (the interrupt scenarios of every server)', () => {
    expect(answeredInAll).toBeGreaterThanOrEqual(15)
  })
})

// ---------------------------------------------------------------------------------------------
// Apply mode: every event of every run fed through apply(), so a cut can fall anywhere, even in
// streams that are not a whole lifecycle (20 has no RUN_STARTED). The next RunAgentInput is the
// one a ScriptedAgent receives for the user's next move. The user edits the state twice per run,
// so cuts fall between an edit and the server's next change (the edit is rebased after the reload).

type Action = { kind: 'event'; event: BaseEvent } | { kind: 'edit'; key: string; value: string }

function actionsOf(conversation: Conversation): Action[] {
  const drafted = Object.hasOwn(conversation.options.initialState, 'document') ? 'document' : 'note'
  return conversation.runs.flatMap((run, index) => {
    const actions: Action[] = run.events.map((event) => ({ kind: 'event', event }))
    if (actions.length >= 3) {
      actions.splice(Math.floor(actions.length / 2), 0, { kind: 'edit', key: drafted, value: `mine-${index}` })
      actions.splice(1, 0, { kind: 'edit', key: 'note', value: `note-${index}` })
    }
    return actions
  })
}

function act(store: AgentStore<Doc>, action: Action) {
  if (action.kind === 'event') store.apply(action.event)
  else store.setState((previous) => ({ ...previous, [action.key]: action.value }))
}

describe('restore: a reload after any prefix of the events given to apply()', () => {
  for (const conversation of conversations) {
    const events = actionsOf(conversation)

    it(`${conversation.name}: every later snapshot and the next RunAgentInput equal the uninterrupted store's`, async () => {
      // Started at once (the ids are taken synchronously), awaited together at the end: a scripted run arrives a macrotask later.
      const nextInput = (store: AgentStore<Doc>, agent: ScriptedAgent) => {
        idsFor(700)
        const outcomes: string[] = []
        startRun(store, conversation, conversation.runs.length, outcomes)
        return async () => {
          for (let tick = 0; tick < 50 && outcomes.length === 0; tick++) await new Promise((resolve) => setTimeout(resolve, 0))
          return { outcomes, inputs: agent.inputs, snapshot: store.getState() }
        }
      }
      const referenceAgent = new ScriptedAgent({ runs: [finishing] })
      const reference = createAgentStore<Doc>(optionsOf(conversation, referenceAgent, []))
      const expected = [reference.getState()]
      for (const action of events) {
        act(reference, action)
        expected.push(reference.getState())
      }
      const pending: { cut: number; sent: () => Promise<unknown> }[] = []
      // One store fed event by event and saved at every cut: it is never interrupted, only read.
      const original = createAgentStore<Doc>(optionsOf(conversation, undefined, []))
      for (let cut = 0; cut <= events.length; cut++) {
        if (cut > 0) act(original, events[cut - 1]!)
        same({ cut, what: 'saved' }, original.getState(), expected[cut])
        const serialized = serializeThread(original)
        const text = JSON.stringify(serialized)
        expect(JSON.stringify(JSON.parse(text))).toBe(text)
        const errors: unknown[] = []
        const agent = new ScriptedAgent({ runs: [finishing] })
        const restored = createAgentStore<Doc>({ ...optionsOf(conversation, agent, errors), restore: restoreThread(JSON.parse(text)) })
        expect(errors).toStrictEqual([])
        same({ cut, what: 'restored' }, restored.getState(), expected[cut])
        expect(restored.getInitialState()).toBe(restored.getState())
        // Lossless: serializing the restored store gives the same model.
        expect(JSON.stringify(serializeThread(restored).model)).toBe(JSON.stringify(serialized.model))
        for (let next = cut; next < events.length; next++) {
          act(restored, events[next]!)
          same({ cut, next }, restored.getState(), expected[next + 1])
        }
        pending.push({ cut, sent: nextInput(restored, agent) })
      }
      const sent = await nextInput(reference, referenceAgent)()
      expect((sent as { inputs: unknown[] }).inputs).toHaveLength(1)
      for (const { cut, sent: settled } of pending) same({ cut, what: 'the next run' }, await settled(), sent)
    })
  }
})
