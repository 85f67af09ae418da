// Issue 24's costs: a store holding the 1 MB state forked 100 times (edits of the second question and
// regenerations of its answer, each run changing a few rows), against one copy of the state:
// the heap it keeps, the time of a switch between two branches, and the size of the saved thread.

import { type BaseEvent, EventType, type RunAgentInput } from '@ag-ui/core'
import { type AgentStore, createAgentStore, serializeThread } from '../packages/core/src/index'
import { ScriptedAgent } from '../packages/core/src/testing'
import { assertProductionMode, buildTable, expectEqual, expectNoError, type TableState } from './core-state'
import {
  collectGarbage,
  describePairedRatio,
  describeTiming,
  formatBytes,
  formatCount,
  formatRatio,
  formatTime,
  type MeasureOptions,
  measureInterleaved,
  pairedRatio,
  type Row,
  seededRandom,
} from './harness'

const SCENARIO = '24. Conversation tree'
const FORKS = 100
/** Rows each run changes: every branch differs from the others a little. */
const DELTAS_PER_RUN = 3
/** Switches (or deltas) timed as one trial: one switch lasts microseconds, below the clock's grain. */
const BATCH = 100
const TRIALS = { warmup: 10, trials: 31 }

const random = seededRandom(24)

/** A run that answers the last question and sets the status of DELTAS_PER_RUN seeded-random rows. */
function answering(input: RunAgentInput): BaseEvent[] {
  const question = String(input.messages.findLast((message) => message.role === 'user')?.content ?? '')
  const id = `a-${input.runId}`
  const deltas = Array.from({ length: DELTAS_PER_RUN }, (_, i) => ({
    type: EventType.STATE_DELTA,
    delta: [{ op: 'replace', path: `/rows/${Math.floor(random() * 5_000)}/status`, value: `${question} ${i}` }],
  }))
  return [
    { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId },
    ...deltas,
    { type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant' },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: `Updated ${DELTAS_PER_RUN} rows for ${question}.` },
    { type: EventType.TEXT_MESSAGE_END, messageId: id },
    { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId },
  ] as BaseEvent[]
}

interface Forked {
  store: AgentStore<TableState>
  /** The last edit of the second question: the version shown when the forks are done. */
  edited: string
  /** How many versions the second question has. */
  editions: number
}

/**
 * Two exchanges, then `forks` forks, edits of the second question and regenerations of the last
 * answer in turn: `forks` + 1 branches. The agent forgets the requests it recorded (a 1 MB clone
 * each), so the heap left is the store's.
 */
async function forkedStore(json: string, forks: number): Promise<Forked> {
  const agent = new ScriptedAgent({ runs: [answering] })
  const store = createAgentStore<TableState>({ agent, initialState: JSON.parse(json) as TableState })
  store.subscribe(() => {})
  const settled = async (step: Promise<void>) => {
    await step
    agent.inputs.length = 0
    expectNoError(store as AgentStore<unknown>, 'a run of the tree')
  }
  await settled(store.run({ message: { id: 'u1', role: 'user', content: 'first question' } }))
  await settled(store.run({ message: { id: 'u2', role: 'user', content: 'second question' } }))
  for (let fork = 1; fork <= forks; fork++) {
    const { messages } = store.getState()
    if (fork % 2 === 1) await settled(store.edit({ messageId: messages[2]!.id, content: `edit ${fork}` }))
    else await settled(store.regenerate())
  }
  const edited = store.getState().messages[2]!.id
  const editions = store.getState().branches[edited]?.count ?? 0
  expectEqual(editions, Math.ceil(forks / 2) + 1, 'every edit is a version of the second question')
  return { store, edited, editions }
}

/**
 * Heap that `build` leaves behind, measured after full collections. What it built stays in `kept`
 * to the end: a value the caller dropped could still be held by its suspended frame at the next
 * reading and freed during it.
 */
async function retained<T>(kept: unknown[], build: () => T | Promise<T>): Promise<{ bytes: number; value: T }> {
  collectGarbage()
  collectGarbage()
  const before = process.memoryUsage().heapUsed
  const value = await build()
  kept.push(value)
  collectGarbage()
  collectGarbage()
  return { bytes: process.memoryUsage().heapUsed - before, value }
}

/**
 * BATCH switches of the second question between its first version and its last, back and forth,
 * starting and ending on the last.
 */
function switches({ store, edited, editions }: Forked): MeasureOptions<Forked> {
  const first = { messageId: edited, index: 0 }
  const last = { messageId: 'u2', index: editions - 1 }
  return {
    setup: () => ({ store, edited, editions }),
    run: async () => {
      for (let i = 0; i < BATCH / 2; i++) {
        await store.switchBranch(first)
        await store.switchBranch(last)
      }
    },
    check: () => {
      expectNoError(store as AgentStore<unknown>, 'switchBranch')
      expectEqual(store.getState().branches[edited], { index: editions - 1, count: editions }, 'the switches end on the last version')
      expectEqual(store.getState().messages[2]!.id, edited, 'the switches end on the branch they started from')
    },
  }
}

/** BATCH single-field STATE_DELTAs applied to a store holding the 1 MB state: the cheapest change of it. */
function deltas(json: string): MeasureOptions<AgentStore<TableState>> {
  const store = createAgentStore<TableState>({ initialState: JSON.parse(json) as TableState })
  store.subscribe(() => {})
  let round = 0
  return {
    setup: () => store,
    run: (target) => {
      round++
      for (let i = 0; i < BATCH; i++) {
        target.apply({
          type: EventType.STATE_DELTA,
          delta: [{ op: 'replace', path: `/rows/${(i * 37) % 5_000}/status`, value: `r${round}-${i}` }],
        } as BaseEvent)
      }
    },
    check: (target) => expectEqual(target.getState().state.rows[((BATCH - 1) * 37) % 5_000]!.status, `r${round}-${BATCH - 1}`, 'the last delta applied'),
  }
}

/** One structuredClone of the 1 MB state: what a client that copies the state to switch would pay. */
function clone(json: string): MeasureOptions<TableState> {
  const state = JSON.parse(json) as TableState
  return {
    setup: () => state,
    run: (value) => structuredClone(value),
    check: (value, copy) => {
      if ((copy as TableState).rows.length !== value.rows.length) throw new Error('Sanity check failed: the clone lost rows')
    },
  }
}

/** A ratio far below 1 with two significant digits: `0.0013×`. */
const smallRatio = (ratio: number) => (ratio >= 0.01 ? formatRatio(ratio) : `${ratio.toPrecision(2)}×`)

export async function benchConversationTree(): Promise<Row[]> {
  assertProductionMode()
  const json = JSON.stringify(buildTable())

  const kept: unknown[] = []
  // Discarded: the first reading after start-up gives back memory that start-up freed late.
  await retained(kept, () => JSON.parse(json) as TableState)
  const copy = await retained(kept, () => JSON.parse(json) as TableState)
  const plain = await retained(kept, async () => {
    const store = createAgentStore<TableState>({ initialState: JSON.parse(json) as TableState })
    store.subscribe(() => {})
    return store
  })
  const tree = await retained(kept, () => forkedStore(json, FORKS))
  const memoryRatio = tree.bytes / copy.bytes

  const { store, edited, editions } = tree.value
  await store.switchBranch({ messageId: edited, index: 0 })
  const firstState = store.getState().state
  await store.switchBranch({ messageId: 'u2', index: editions - 1 })
  const lastState = store.getState().state
  if (lastState === firstState || lastState.rows[0] !== firstState.rows[0])
    throw new Error('Sanity check failed: two branches should differ and share their untouched rows')

  // One edit and one regeneration: the smallest tree with a switch of the same kind.
  const small = await forkedStore(json, 2)
  const [switched, switchedSmall, applied, cloned] = await measureInterleaved([switches(tree.value), switches(small), deltas(json), clone(json)], {
    ...TRIALS,
    alternate: true,
  })
  const perSwitch = switched.median / BATCH
  const overSmall = pairedRatio(switched, switchedSmall)
  const overDelta = pairedRatio(switched, applied)
  const overClone = pairedRatio(switched, cloned) / BATCH

  const thread = serializeThread(store)
  const { tree: saved } = thread.model as { tree: { sent: object; shelved: object } }
  const shelved = Object.keys(saved.shelved).length
  const sent = Object.keys(saved.sent).length
  const savedLength = JSON.stringify(thread).length
  const savedRatio = savedLength / json.length

  const branches = formatCount(FORKS + 1)
  return [
    {
      name: 'tree',
      value: `${branches} branches over ${formatBytes(json.length)} of state`,
      note: `two exchanges, then ${FORKS} forks: edits of the second question and regenerations of the answer shown, in turn; every run sets the status of ${DELTAS_PER_RUN} seeded-random rows of the 5,000 by STATE_DELTA (ScriptedAgent, delay 0), so each branch's state differs from the others`,
    },
    {
      name: 'heap of one copy of the state (JSON.parse)',
      value: formatBytes(copy.bytes),
      note: 'heapUsed after two full collections, before and after the parse; a first such reading is discarded',
    },
    {
      name: 'heap of a store holding the state, no runs',
      value: formatBytes(plain.bytes),
      note: `${formatRatio(plain.bytes / copy.bytes)} one copy; the store's state parsed from the same JSON`,
    },
    {
      name: `heap of the store with ${branches} branches`,
      value: formatBytes(tree.bytes),
      note: `the store, its state parsed from the same JSON, every message and state of the tree; the ScriptedAgent's record of its requests (a clone of the state each) is emptied after each run, as it is the test agent's, not the store's; ${formatBytes(Math.round((tree.bytes - plain.bytes) / FORKS))} per fork over the store with no runs (a branch's deltas copy the 5,000-slot rows array, 40 KB, and the rows they change)`,
    },
    {
      name: `heap of ${branches} branches / one copy of the state`,
      value: formatRatio(memoryRatio),
      target: `≤ 5× (${branches} copies: ${branches}×)`,
      pass: memoryRatio <= 5,
    },
    {
      name: `switchBranch, ${branches} branches`,
      value: formatTime(perSwitch),
      note: `${formatCount(BATCH)} switches of the second question between its first and last versions, each awaited, timed as one trial, one subscriber; ${describeTiming(switched)}`,
    },
    {
      name: `switchBranch, ${branches} branches / 3 branches`,
      value: formatRatio(overSmall),
      target: 'report',
      note: `the same switches on a tree of one edit and one regeneration (${formatTime(switchedSmall.median / BATCH)} each): a switch copies the tree's records of the branches put away; ${describePairedRatio(switched, switchedSmall)}`,
    },
    {
      name: 'switchBranch / one STATE_DELTA applied to the 1 MB state',
      value: formatRatio(overDelta),
      target: '≤ 2×',
      pass: overDelta <= 2,
      note: `${formatCount(BATCH)} single-field replaces by store.apply on a store holding the state, one subscriber, timed as one trial (${formatTime(applied.median / BATCH)} each); ${describePairedRatio(switched, applied)}`,
    },
    {
      name: 'switchBranch / one structuredClone of the state',
      value: smallRatio(overClone),
      target: '≤ 0.01×',
      pass: overClone <= 0.01,
      note: `what a client that copies the state on a switch would pay: ${formatTime(cloned.median)}, ${describeTiming(cloned)}; median of the per-round ratios of a switch (a ${formatCount(BATCH)}th of its trial) to one clone`,
    },
    {
      name: 'saved thread: JSON.stringify(serializeThread(store)).length',
      value: formatBytes(savedLength),
      note: `JSON cannot share: the branch shown and each of the ${formatCount(shelved)} put away write their state, committed state and server state in full (one object in the store), and each of the ${formatCount(sent)} questions sent writes the committed state it was sent with; ${formatBytes(Math.round(savedLength / (FORKS + 1)))} per branch. restoreThread makes the equal parts one object again`,
    },
    { name: 'saved thread / one copy of the state (JSON)', value: formatRatio(savedRatio), target: 'report' },
  ].map((row) => ({ scenario: SCENARIO, ...row }))
}
