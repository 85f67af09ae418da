import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAgentStore } from '../src'
import { ev } from './helpers'

type State = Record<string, number>
const keys = ['a', 'b', 'c', 'd']
const key = fc.constantFrom(...keys)
const value = fc.integer({ min: 0, max: 9 })

const step = fc.oneof(
  fc.record({ kind: fc.constant('server-set' as const), key, value }),
  fc.record({ kind: fc.constant('server-remove' as const), key }),
  fc.record({ kind: fc.constant('server-snapshot' as const), state: fc.dictionary(key, value) }),
  fc.record({ kind: fc.constant('user-set' as const), key, value }),
)

/**
 * The documented semantics, written as plainly as possible: the user's edits are ops replayed in
 * order on top of the server's state after every event; an op that no longer applies (a replace of
 * a key the server removed) is dropped for good.
 */
class Reference {
  server: State
  edits: { op: 'add' | 'replace'; key: string; value: number }[] = []
  conflicts = 0
  constructor(initial: State) {
    this.server = { ...initial }
  }
  view(): State {
    const view = { ...this.server }
    this.edits = this.edits.filter((edit) => {
      if (edit.op === 'replace' && !(edit.key in view)) {
        this.conflicts++
        return false
      }
      view[edit.key] = edit.value
      return true
    })
    return view
  }
}

describe('edits during a run (model-based)', () => {
  it('the store agrees with the reference after every step, and sends the result on the next run', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value), fc.array(step, { maxLength: 30 }), (initial, steps) => {
        let conflicts = 0
        const store = createAgentStore<State>({ initialState: initial, onError: (error) => error.code === 'EDIT_CONFLICT' && conflicts++ })
        const reference = new Reference(initial)
        store.apply(ev.runStarted('r'))
        for (const s of steps) {
          if (s.kind === 'user-set') {
            const current = reference.view()
            if (current[s.key] === s.value) continue
            reference.edits.push({ op: s.key in current ? 'replace' : 'add', key: s.key, value: s.value })
            store.setState((state) => ({ ...state, [s.key]: s.value }))
          } else if (s.kind === 'server-set') {
            const op = s.key in reference.server ? 'replace' : 'add'
            reference.server[s.key] = s.value
            store.apply(ev.delta({ op, path: `/${s.key}`, value: s.value }))
          } else if (s.kind === 'server-remove') {
            if (!(s.key in reference.server)) continue
            delete reference.server[s.key]
            store.apply(ev.delta({ op: 'remove', path: `/${s.key}` }))
          } else {
            reference.server = { ...s.state }
            store.apply(ev.snapshot(s.state))
          }
          const expected = reference.view()
          expect(store.getState().state).toEqual(expected)
          expect(store.getState().committed).toEqual(expected)
          expect(conflicts).toBe(reference.conflicts)
        }
        store.apply(ev.runFinished('r'))
        expect(store.getState().state).toEqual(reference.view())
        expect(store.getState().status).toBe('idle')
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    )
  })
})
