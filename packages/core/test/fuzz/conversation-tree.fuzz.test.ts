// A model-based fuzz of the conversation tree: random sequences of runs, edits of a user message of
// the branch, regenerations of an answer (or of the last one), switches to a version, the user's own
// edits of the state, aborts and reloads (also while a request is open), interrupts cancelled,
// failed runs, and reloads at rest (serializeThread + restoreThread, or persistThread), through the
// public API against an in-process agent the test streams, with branching 'history' and 'new-thread'.
// After every step (conversation-tree-model.ts, TreeWorld.check): `messages` is the branch the
// reference shows, `branches` lists exactly its messages with versions, `state` and `committed` are
// what that branch had when last shown (the user's edits included); every fork sent the branch up to
// its user message (on the branch's own server thread with 'new-thread'), the state that message was
// sent with, the run before it and the last run's context; a refused command changed nothing. Short
// cases of what it checks are written out in conversation-tree.test.ts.
import fc from 'fast-check'
import { describe, it } from 'vitest'
import { type During, type Outcome, type Plan, TreeWorld } from './conversation-tree-model'

// Cases per branching mode: FUZZ_RUNS is shared by the two.
const NUM_RUNS = process.env.FUZZ_RUNS ? Math.round(Number(process.env.FUZZ_RUNS) / 2) : 150
// Fixed so that a failure replays; FUZZ_SEED explores other cases.
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 2424

class Step implements fc.AsyncCommand<object, TreeWorld> {
  constructor(
    private readonly name: string,
    private readonly act: (world: TreeWorld) => void | Promise<void>,
  ) {}
  check = () => true
  async run(_model: object, world: TreeWorld) {
    await this.act(world)
    world.check()
  }
  toString = () => this.name
}

/** How the agent answers, whether it writes the state with a delta, what the user does meanwhile, and the context given. */
const request: fc.Arbitrary<Plan> = fc.record({
  outcome: fc.constantFrom<Outcome>('one', 'one', 'two', 'failEarly', 'failLate', 'ask'),
  viaDelta: fc.boolean(),
  during: fc.option(fc.record({ act: fc.constantFrom<During['act']>('note', 'abort', 'refuse', 'reload'), early: fc.boolean() }), { nil: undefined, freq: 3 }),
  context: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined, freq: 2 }),
})

const named = ({ outcome, viaDelta, during, context }: Plan) => {
  const parts = [outcome, viaDelta ? 'delta' : '', during ? `${during.act} ${during.early ? 'after RUN_STARTED' : 'before the end'}` : '']
  return `(${[...parts, context === undefined ? '' : `context ${context}`].filter(Boolean).join(', ')})`
}

const pick = fc.nat({ max: 7 })
const weighted = <T>(arbitrary: fc.Arbitrary<T>, weight: number) => Array.from({ length: weight }, () => arbitrary)

const commands = [
  ...weighted(
    request.map((r) => new Step(`run ${named(r)}`, (world) => world.run(r))),
    3,
  ),
  ...weighted(
    fc.tuple(pick, request).map(([p, r]) => new Step(`edit user message #${p} ${named(r)}`, (world) => world.edit(p, r))),
    2,
  ),
  ...weighted(
    fc
      .tuple(fc.option(pick, { nil: undefined }), request)
      .map(([p, r]) => new Step(`regenerate ${p === undefined ? 'the last answer' : `answer #${p}`} ${named(r)}`, (world) => world.regenerate(p, r))),
    2,
  ),
  ...weighted(
    fc.tuple(pick, fc.nat({ max: 5 })).map(([p, i]) => new Step(`switch message #${p} to version ${i}`, (world) => world.switchBranch(p, i))),
    3,
  ),
  fc.constant(new Step('setState note', (world) => world.setNote())),
  request.map((r) => new Step(`cancel the confirmation ${named(r)}`, (world) => world.cancel(r))),
  fc.constantFrom<'serialized' | 'persisted'>('serialized', 'persisted').map((how) => new Step(`reload (${how})`, (world) => world.reload(how))),
]

describe('the conversation tree under random use', () => {
  // 'new-thread' sends each fork on a server thread of its own; 'langgraph' refuses what its server
  // cannot fork, which a reference of its own would have to say (branch-requests.test.ts pins it).
  for (const branching of ['history', 'new-thread'] as const) {
    it(
      `with branching '${branching}': shows the branch, its versions and the state it had, sends every fork as specified, keeps what the user set, and survives reloads`,
      async () => {
        await fc.assert(
          fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: 'large' }), async (steps) => {
            await fc.asyncModelRun(() => ({ model: {}, real: new TreeWorld(branching) }), steps)
          }),
          { numRuns: NUM_RUNS, seed: SEED },
        )
      },
      Math.max(30_000, NUM_RUNS * 200),
    )
  }
})
