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
 * a key the server removed) is dropped for good, and so is one the server has taken in (it holds
 * the user's value). A run's opening STATE_SNAPSHOT({}) over a non-empty state is held: the view
 * and the edits stay on the state from before until the next state event (LangGraph sends one),
 * while deltas apply to the empty state; a state grown from it by deltas, or the run ending on it,
 * leaves the keys the user changed theirs for the rest of the run.
 */
class Reference {
  /** While the opening empty snapshot is held: the state the view and the edits stand on. */
  held: State | undefined
  server: State
  /** The latest edit per key; `added` while the server has never held the key since it was made. */
  edits = new Map<string, { value: number; added: boolean }>()
  /** Keys the user changed when a held empty snapshot gave way to deltas or the run's end: theirs, whatever the server does. */
  whole = new Set<string>()
  conflicts = 0
  constructor(initial: State) {
    this.server = { ...initial }
  }
  edit(key: string, value: number) {
    this.edits.set(key, { value, added: !(key in (this.held ?? this.server)) })
  }
  hold() {
    this.held = this.server
    this.server = {}
  }
  /** The hold ends: by a snapshot (the edits merge as usual), or by a delta or the run's end (the user's keys are theirs). */
  release(claim: boolean) {
    if (this.held === undefined) return
    if (claim) for (const key of this.view().keys) this.whole.add(key)
    this.held = undefined
  }
  view(): { state: State; keys: string[] } {
    const base = this.held ?? this.server
    const view = { ...base }
    for (const [key, edit] of this.edits) {
      // Once the server holds the user's value, the edit is absorbed: the server's later changes stand.
      if (base[key] === edit.value) {
        this.edits.delete(key)
        continue
      }
      if (key in base) edit.added = false
      else if (!edit.added && !this.whole.has(key)) {
        this.conflicts++
        this.edits.delete(key)
        continue
      }
      view[key] = edit.value
    }
    return { state: view, keys: [...this.edits.keys()] }
  }
}

describe('edits during a run (model-based)', () => {
  it('the store agrees with the reference after every step, and sends the result on the next run', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value), fc.array(step, { maxLength: 30 }), (initial, steps) => {
        let conflicts = 0
        let sawState = false
        const store = createAgentStore<State>({ initialState: initial, onError: (error) => error.code === 'EDIT_CONFLICT' && conflicts++ })
        const reference = new Reference(initial)
        store.apply(ev.runStarted('r'))
        for (const s of steps) {
          if (s.kind === 'user-set') {
            if (reference.view().state[s.key] === s.value) continue
            reference.edit(s.key, s.value)
            store.setState((state) => ({ ...state, [s.key]: s.value }))
          } else if (s.kind === 'server-set') {
            reference.release(true)
            const op = s.key in reference.server ? 'replace' : 'add'
            reference.server[s.key] = s.value
            store.apply(ev.delta({ op, path: `/${s.key}`, value: s.value }))
          } else if (s.kind === 'server-remove') {
            if (!(s.key in reference.server)) continue
            reference.release(true)
            delete reference.server[s.key]
            store.apply(ev.delta({ op: 'remove', path: `/${s.key}` }))
          } else {
            const opening = !sawState && Object.keys(s.state).length === 0 && Object.keys(reference.server).length > 0
            reference.release(false)
            if (opening) reference.hold()
            else reference.server = { ...s.state }
            store.apply(ev.snapshot(s.state))
          }
          if (s.kind !== 'user-set') sawState = true
          const expected = reference.view().state
          expect(store.getState().state).toEqual(expected)
          expect(store.getState().committed).toEqual(expected)
          expect(conflicts).toBe(reference.conflicts)
        }
        store.apply(ev.runFinished('r'))
        reference.release(true)
        expect(store.getState().state).toEqual(reference.view().state)
        expect(store.getState().status).toBe('idle')
        expect(conflicts).toBe(reference.conflicts)
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    )
  })
})
