import {
  type AgentStore,
  type AnswerRunOptions,
  type Confirmation,
  type ConfirmationSource,
  createAgentStore,
  type Prediction,
  type PredictionMapping,
} from '@agent-state/core'
import { describe, expectTypeOf, it } from 'vitest'

// The answers to a confirmation, and what a confirmation and a draft look like to a UI (checked by tsc).

const store = createAgentStore({ initialState: { document: '' } })
type Answers = Pick<AgentStore, 'approve' | 'reject' | 'respond' | 'cancel'>

describe('the answers', () => {
  it('all resolve to nothing once the run they start has ended', () => {
    expectTypeOf(store.approve()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(store.reject()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(store.respond(undefined, { answer: 42 })).toEqualTypeOf<Promise<void>>()
    expectTypeOf(store.cancel()).toEqualTypeOf<Promise<void>>()
  })

  it('approve takes an optional id, edits keyed like the arguments, and the resumed run options', () => {
    expectTypeOf<Parameters<Answers['approve']>>().toEqualTypeOf<[id?: string, edits?: Record<string, unknown>, runOptions?: AnswerRunOptions]>()
    store.approve('c1')
    store.approve(undefined, { document: 'edited' })
    store.approve('c1', { document: 'edited' }, { tools: [], context: [], forwardedProps: {}, timeoutMs: 1000 })
    // @ts-expect-error: an id is a string
    store.approve(1)
    // @ts-expect-error: edits are an object keyed like the arguments
    store.approve('c1', 'edited')
  })

  it('reject takes an optional id, a reason and the run options', () => {
    expectTypeOf<Parameters<Answers['reject']>>().toEqualTypeOf<[id?: string, reason?: string, runOptions?: AnswerRunOptions]>()
    store.reject(undefined, 'not what I asked', { forwardedProps: { x: 1 } })
    // @ts-expect-error: a reason is text
    store.reject('c1', { why: 'no' })
  })

  it('respond takes an id (or undefined for the only one) and any payload', () => {
    expectTypeOf<Parameters<Answers['respond']>>().toEqualTypeOf<[id: string | undefined, payload: unknown, runOptions?: AnswerRunOptions]>()
    store.respond('c1', 'plain text')
    store.respond(undefined, null, { timeoutMs: 5 })
    // @ts-expect-error: the payload is required
    store.respond('c1')
  })

  it('cancel takes an optional id and the run options', () => {
    expectTypeOf<Parameters<Answers['cancel']>>().toEqualTypeOf<[id?: string, runOptions?: AnswerRunOptions]>()
    store.cancel('c1', { context: [] })
    // @ts-expect-error: cancel takes no reason
    store.cancel('c1', 'too late')
  })

  it("the run options of an answer are a run's, without messages: the resumed run adds none", () => {
    expectTypeOf<keyof AnswerRunOptions>().toEqualTypeOf<'tools' | 'context' | 'forwardedProps' | 'timeoutMs'>()
    // @ts-expect-error: an answer's run sends no new message
    store.approve('c1', {}, { message: 'and also this' })
    // @ts-expect-error: nor messages
    store.cancel('c1', { messages: [] })
  })
})

describe('a confirmation', () => {
  it('is immutable, with an id, a source, its run and the state keys it governs', () => {
    const confirmation = store.getState().confirmations[0]!
    expectTypeOf(confirmation).toEqualTypeOf<Confirmation>()
    expectTypeOf(confirmation.id).toEqualTypeOf<string>()
    expectTypeOf(confirmation.source).toEqualTypeOf<ConfirmationSource>()
    expectTypeOf<ConfirmationSource>().toEqualTypeOf<'interrupt' | 'tool' | 'on_interrupt'>()
    expectTypeOf(confirmation.runId).toEqualTypeOf<string | undefined>()
    expectTypeOf(confirmation.stateKeys).toEqualTypeOf<readonly string[]>()
    expectTypeOf(confirmation.toolCallId).toEqualTypeOf<string | undefined>()
    expectTypeOf(confirmation.expiresAt).toEqualTypeOf<string | undefined>()
    expectTypeOf(confirmation.responseSchema).toBeUnknown()
    expectTypeOf(confirmation.value).toBeUnknown()
    // @ts-expect-error: a confirmation is read-only
    confirmation.id = 'other'
    // @ts-expect-error: the list of confirmations too
    store.getState().confirmations.pop()
  })
})

describe('a draft', () => {
  it('says which tool call writes which key, with its latest value', () => {
    const prediction = store.getState().predictions[0]!
    expectTypeOf(prediction).toEqualTypeOf<Prediction>()
    expectTypeOf(prediction.toolCallId).toEqualTypeOf<string | undefined>()
    expectTypeOf(prediction.tool).toEqualTypeOf<string | undefined>()
    expectTypeOf(prediction.stateKey).toEqualTypeOf<string>()
    expectTypeOf(prediction.value).toBeUnknown()
    expectTypeOf(prediction.complete).toEqualTypeOf<boolean>()
  })

  it('is announced by a mapping of a tool argument to a state key', () => {
    expectTypeOf<PredictionMapping>().toEqualTypeOf<{ stateKey: string; tool: string; toolArgument?: string }>()
  })
})
