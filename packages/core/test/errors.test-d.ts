import { AgentStoreError, type AgentStoreErrorCode, type AgentStoreErrorDetails, createAgentStore, isAgentStoreError } from '@agent-state/core'
import { describe, expectTypeOf, it } from 'vitest'

// The store's errors: one class, matched on a stable code (checked by tsc).

type Codes =
  | 'PATCH_FAILED'
  | 'INVALID_EVENT'
  | 'INVALID_STATE'
  | 'RUN_ERROR'
  | 'TRANSPORT'
  | 'VALIDATION'
  | 'LIMIT_EXCEEDED'
  | 'RUN_ACTIVE'
  | 'NO_AGENT'
  | 'LISTENER'
  | 'PENDING_CONFIRMATION'
  | 'NO_CONFIRMATION'
  | 'EXPIRED'
  | 'EDIT_CONFLICT'
  | 'INVALID_ANSWER'
  | 'RESTORE'
  | 'PERSIST'
  | 'RECONNECT'

describe('AgentStoreError', () => {
  it('is an Error whose code is one of the documented codes', () => {
    expectTypeOf<AgentStoreErrorCode>().toEqualTypeOf<Codes>()
    expectTypeOf<AgentStoreError>().toExtend<Error>()
    expectTypeOf<AgentStoreError['code']>().toEqualTypeOf<AgentStoreErrorCode>()
    expectTypeOf<AgentStoreError['message']>().toEqualTypeOf<string>()
  })

  it('has a read-only code', () => {
    const error = new AgentStoreError('TRANSPORT', 'offline')
    // @ts-expect-error: the code is read-only
    error.code = 'RUN_ERROR'
  })

  it('is made from a known code, a message and optional details', () => {
    expectTypeOf(new AgentStoreError('LIMIT_EXCEEDED', 'too deep', { limit: 'maxDepth' })).toEqualTypeOf<AgentStoreError>()
    expectTypeOf(AgentStoreError).constructorParameters.toEqualTypeOf<[code: AgentStoreErrorCode, message: string, details?: AgentStoreErrorDetails]>()
    // @ts-expect-error: not a code
    new AgentStoreError('NOT_A_CODE', 'message')
    // @ts-expect-error: not a limit
    new AgentStoreError('LIMIT_EXCEEDED', 'message', { limit: 'maxMessages' })
  })

  it('narrows its code in a switch, so a code that does not exist is a type error', () => {
    const error = {} as AgentStoreError
    switch (error.code) {
      case 'TRANSPORT':
        expectTypeOf(error.code).toEqualTypeOf<'TRANSPORT'>()
        break
      case 'RESTORE':
      case 'PERSIST':
        expectTypeOf(error.code).toEqualTypeOf<'RESTORE' | 'PERSIST'>()
        break
      // @ts-expect-error: not a code
      case 'TIMEOUT':
        break
      default:
        expectTypeOf(error.code).toEqualTypeOf<Exclude<Codes, 'TRANSPORT' | 'RESTORE' | 'PERSIST'>>()
    }
    if (error.code === 'LIMIT_EXCEEDED') expectTypeOf(error.code).toEqualTypeOf<'LIMIT_EXCEEDED'>()
  })

  it('carries the details a UI reads', () => {
    const error = {} as AgentStoreError
    expectTypeOf(error.serverCode).toEqualTypeOf<string | undefined>()
    expectTypeOf(error.eventType).toEqualTypeOf<string | undefined>()
    expectTypeOf(error.opIndex).toEqualTypeOf<number | undefined>()
    expectTypeOf(error.path).toEqualTypeOf<string | undefined>()
    expectTypeOf(error.reason).toEqualTypeOf<string | undefined>()
    expectTypeOf(error.status).toEqualTypeOf<number | undefined>()
    expectTypeOf(error.limit).toEqualTypeOf<'maxDepth' | 'maxOpsPerDelta' | 'maxStateBytes' | 'maxEventBytes' | undefined>()
    expectTypeOf(error.value).toBeUnknown()
  })
})

describe('isAgentStoreError', () => {
  it('narrows anything caught to an AgentStoreError', () => {
    const caught: unknown = undefined
    expectTypeOf(isAgentStoreError).guards.toEqualTypeOf<AgentStoreError>()
    if (isAgentStoreError(caught)) expectTypeOf(caught.code).toEqualTypeOf<AgentStoreErrorCode>()
  })

  it('meets the errors a store reports and rejects with', async () => {
    const store = createAgentStore({ initialState: {}, onError: (error) => expectTypeOf(error).toEqualTypeOf<AgentStoreError>() })
    expectTypeOf(store.getState().error).toEqualTypeOf<AgentStoreError | undefined>()
    await store.run().catch((error: unknown) => {
      if (isAgentStoreError(error) && error.code === 'NO_AGENT') expectTypeOf(error).toEqualTypeOf<AgentStoreError>()
    })
  })
})
