import {
  type AgentStore,
  type AnswerRunOptions,
  type ApproveOptions,
  type CancelOptions,
  type Confirmation,
  type ConfirmationSource,
  createAgentStore,
  type Prediction,
  type PredictionMapping,
  type RejectOptions,
  type RespondOptions,
} from '@agent-state/core'
import { describe, expectTypeOf, it } from 'vitest'

// The answers to a confirmation, and what a confirmation and a draft look like to a UI (checked by tsc).

const store = createAgentStore({ initialState: { document: '' } })
type Answers = Pick<AgentStore, 'approve' | 'reject' | 'respond' | 'cancel'>

describe('the answers', () => {
  it('all resolve to nothing once the run they start has ended', () => {
    expectTypeOf(store.approve()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(store.reject()).toEqualTypeOf<Promise<void>>()
    expectTypeOf(store.respond({ payload: { answer: 42 } })).toEqualTypeOf<Promise<void>>()
    expectTypeOf(store.cancel()).toEqualTypeOf<Promise<void>>()
  })

  it('each takes one object: which confirmation, the answer, and the resumed run options', () => {
    expectTypeOf<Parameters<Answers['approve']>>().toEqualTypeOf<[answer?: ApproveOptions]>()
    expectTypeOf<Parameters<Answers['reject']>>().toEqualTypeOf<[answer?: RejectOptions]>()
    expectTypeOf<Parameters<Answers['respond']>>().toEqualTypeOf<[answer: RespondOptions]>()
    expectTypeOf<Parameters<Answers['cancel']>>().toEqualTypeOf<[answer?: CancelOptions]>()
    expectTypeOf<keyof ApproveOptions>().toEqualTypeOf<'id' | 'edits' | keyof AnswerRunOptions>()
    expectTypeOf<keyof RejectOptions>().toEqualTypeOf<'id' | 'reason' | keyof AnswerRunOptions>()
    expectTypeOf<keyof RespondOptions>().toEqualTypeOf<'id' | 'payload' | keyof AnswerRunOptions>()
    expectTypeOf<keyof CancelOptions>().toEqualTypeOf<'id' | keyof AnswerRunOptions>()
    expectTypeOf<CancelOptions['id']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<ApproveOptions['edits']>().toEqualTypeOf<Record<string, unknown> | undefined>()
    expectTypeOf<RejectOptions['reason']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<RespondOptions['payload']>().toBeUnknown()
  })

  it('the positional form of 0.1 does not compile', () => {
    // @ts-expect-error: approve(id, edits) is approve({ id, edits })
    store.approve('c1', { document: 'edited' })
    // @ts-expect-error: approve(undefined, undefined, runOptions) is approve({ ...runOptions })
    store.approve(undefined, undefined, { timeoutMs: 5 })
    // @ts-expect-error: reject(id, reason) is reject({ id, reason })
    store.reject('c1', 'no')
    // @ts-expect-error: respond(id, payload) is respond({ id, payload })
    store.respond('c1', 'plain text')
    // @ts-expect-error: cancel(id) is cancel({ id })
    store.cancel('c1')
  })

  it('approve takes an optional id, edits keyed like the arguments, and the resumed run options', () => {
    store.approve({ id: 'c1' })
    store.approve({ edits: { document: 'edited' } })
    store.approve({ id: 'c1', edits: { document: 'edited' }, tools: [], context: [], forwardedProps: {}, timeoutMs: 1000 })
    // @ts-expect-error: an id is a string
    store.approve({ id: 1 })
    // @ts-expect-error: edits are an object keyed like the arguments
    store.approve({ id: 'c1', edits: 'edited' })
  })

  it('reject takes an optional id, a reason and the run options', () => {
    store.reject({ reason: 'not what I asked', forwardedProps: { x: 1 } })
    // @ts-expect-error: a reason is text
    store.reject({ id: 'c1', reason: { why: 'no' } })
  })

  it('respond takes an optional id (the only open one without it) and a payload', () => {
    store.respond({ id: 'c1', payload: 'plain text' })
    store.respond({ payload: null, timeoutMs: 5 })
    // @ts-expect-error: the payload is required
    store.respond({ id: 'c1' })
    // @ts-expect-error: so is the object
    store.respond()
  })

  it('cancel takes an optional id and the run options', () => {
    store.cancel({ id: 'c1', context: [] })
    // @ts-expect-error: cancel takes no reason
    store.cancel({ id: 'c1', reason: 'too late' })
  })

  it("the run options of an answer are a run's, without messages: the resumed run adds none", () => {
    expectTypeOf<keyof AnswerRunOptions>().toEqualTypeOf<'tools' | 'context' | 'forwardedProps' | 'timeoutMs'>()
    // @ts-expect-error: an answer's run sends no new message
    store.approve({ id: 'c1', edits: {}, message: 'and also this' })
    // @ts-expect-error: nor messages
    store.cancel({ id: 'c1', messages: [] })
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
