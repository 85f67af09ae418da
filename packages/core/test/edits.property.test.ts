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
 * the user's value).
 */
class Reference {
  /** A run's opening STATE_SNAPSHOT({}) over a non-empty state is not shown until the next state event (LangGraph sends one). */
  held: State | undefined
  server: State
  /** The latest edit per key; `added` while the server has never held the key since it was made. */
  edits = new Map<string, { value: number; added: boolean }>()
  conflicts = 0
  constructor(initial: State) {
    this.server = { ...initial }
  }
  edit(key: string, value: number) {
    this.edits.set(key, { value, added: !(key in this.server) })
  }
  view(): State {
    const view = { ...this.server }
    for (const [key, edit] of this.edits) {
      // Once the server holds the user's value, the edit is absorbed: the server's later changes stand.
      if (this.server[key] === edit.value) {
        this.edits.delete(key)
        continue
      }
      if (key in this.server) edit.added = false
      else if (!edit.added) {
        this.conflicts++
        this.edits.delete(key)
        continue
      }
      view[key] = edit.value
    }
    return view
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
            const current = reference.held ?? reference.view()
            if (current[s.key] === s.value) continue
            reference.held = undefined
            reference.edit(s.key, s.value)
            store.setState((state) => ({ ...state, [s.key]: s.value }))
          } else if (s.kind === 'server-set') {
            reference.held = undefined
            const op = s.key in reference.server ? 'replace' : 'add'
            reference.server[s.key] = s.value
            store.apply(ev.delta({ op, path: `/${s.key}`, value: s.value }))
          } else if (s.kind === 'server-remove') {
            if (!(s.key in reference.server)) continue
            reference.held = undefined
            delete reference.server[s.key]
            store.apply(ev.delta({ op: 'remove', path: `/${s.key}` }))
          } else {
            const opening = !sawState && Object.keys(s.state).length === 0 && Object.keys(reference.server).length > 0
            reference.held = opening && reference.edits.size === 0 ? reference.view() : undefined
            reference.server = { ...s.state }
            store.apply(ev.snapshot(s.state))
          }
          if (s.kind !== 'user-set') sawState = true
          const expected = reference.held ?? reference.view()
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
