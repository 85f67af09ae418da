import {
  AgentStoreError,
  type AgentStoreErrorCode,
  type AgentStoreErrorConstructor,
  type AgentStoreErrorDetails,
  type AgentStoreErrorOf,
  type AnyAgentStoreError,
  createAgentStore,
  isAgentStoreError,
  type NoDetails,
} from '@agent-state/core'
import { describe, expectTypeOf, it } from 'vitest'

// The store's errors: one class, matched on a stable code; the details are a union keyed by that code (checked by tsc).

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
  | 'BRANCH'

describe('AgentStoreError', () => {
  it('is an Error whose code is one of the documented codes', () => {
    expectTypeOf<AgentStoreErrorCode>().toEqualTypeOf<Codes>()
    expectTypeOf<AgentStoreError>().toExtend<Error>()
    expectTypeOf<AgentStoreError['code']>().toEqualTypeOf<AgentStoreErrorCode>()
    expectTypeOf<AgentStoreError['message']>().toEqualTypeOf<string>()
  })

  it('has a read-only code', () => {
    const error = new AgentStoreError('TRANSPORT', 'offline', { reason: 'network' })
    // @ts-expect-error: the code is read-only
    error.code = 'RUN_ERROR'
  })

  it('is made from a known code, a message and the details that code carries', () => {
    expectTypeOf(new AgentStoreError('LIMIT_EXCEEDED', 'too deep', { limit: 'maxDepth' })).toEqualTypeOf<AgentStoreError<'LIMIT_EXCEEDED'>>()
    expectTypeOf(new AgentStoreError('LIMIT_EXCEEDED', 'too deep', { limit: 'maxDepth' })).toExtend<AgentStoreError>()
    new AgentStoreError('RUN_ACTIVE', 'busy')
    new AgentStoreError('RESTORE', 'damaged', { reason: 'damaged', cause: new Error('x') })
    // @ts-expect-error: not a code
    new AgentStoreError('NOT_A_CODE', 'message')
    // @ts-expect-error: not a limit
    new AgentStoreError('LIMIT_EXCEEDED', 'message', { limit: 'maxMessages' })
    // @ts-expect-error: LIMIT_EXCEEDED must say which limit
    new AgentStoreError('LIMIT_EXCEEDED', 'message')
    // @ts-expect-error: a reason is a slug of its code, not prose
    new AgentStoreError('RESTORE', 'message', { reason: 'the saved thread is damaged' })
    // @ts-expect-error: another code's reason
    new AgentStoreError('RECONNECT', 'message', { reason: 'timeout' })
    // @ts-expect-error: another code's field
    new AgentStoreError('RUN_ERROR', 'message', { limit: 'maxDepth' })
  })

  it('is, without a type argument, the union over every code', () => {
    expectTypeOf<AnyAgentStoreError>().toEqualTypeOf<AgentStoreError>()
    expectTypeOf<AgentStoreError>().toEqualTypeOf<{ [C in AgentStoreErrorCode]: AgentStoreError<C> }[AgentStoreErrorCode]>()
    expectTypeOf<AgentStoreErrorDetails<'RESTORE'>>().toEqualTypeOf<{
      reason: 'unknown-version' | 'damaged' | 'not-a-thread' | 'no-migrate' | 'migrate-failed'
    }>()
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

  it('narrows its details with its code: each reason is the slug union of that code', () => {
    const error = {} as AgentStoreError
    switch (error.code) {
      case 'RESTORE':
        expectTypeOf(error.reason).toEqualTypeOf<'unknown-version' | 'damaged' | 'not-a-thread' | 'no-migrate' | 'migrate-failed'>()
        expectTypeOf(error.limit).toEqualTypeOf<undefined>()
        break
      case 'TRANSPORT':
        expectTypeOf(error.reason).toEqualTypeOf<'http' | 'timeout' | 'incomplete' | 'network'>()
        expectTypeOf(error.status).toEqualTypeOf<number | undefined>()
        break
      case 'RECONNECT':
        expectTypeOf(error.reason).toEqualTypeOf<'not-supported' | 'nothing-to-rejoin' | 'not-found'>()
        break
      case 'PERSIST':
        expectTypeOf(error.reason).toEqualTypeOf<'read' | 'write' | 'remove' | 'late'>()
        break
      case 'EDIT_CONFLICT':
        expectTypeOf(error.reason).toEqualTypeOf<'changed' | 'removed'>()
        expectTypeOf(error.path).toEqualTypeOf<string>()
        expectTypeOf(error.value).toBeUnknown()
        break
      case 'LIMIT_EXCEEDED':
        expectTypeOf(error.limit).toEqualTypeOf<'maxDepth' | 'maxOpsPerDelta' | 'maxStateBytes' | 'maxEventBytes'>()
        expectTypeOf(error.path).toEqualTypeOf<string | undefined>()
        expectTypeOf(error.reason).toEqualTypeOf<undefined>()
        break
      case 'RUN_ERROR':
        expectTypeOf(error.serverCode).toEqualTypeOf<string | undefined>()
        expectTypeOf(error.reason).toEqualTypeOf<undefined>()
        break
      case 'INVALID_EVENT':
        expectTypeOf(error.reason).toEqualTypeOf<'orphan-result' | undefined>()
        expectTypeOf(error.eventType).toEqualTypeOf<string | undefined>()
        break
      case 'PATCH_FAILED':
        expectTypeOf(error.opIndex).toEqualTypeOf<number | undefined>()
        expectTypeOf(error.reason).toEqualTypeOf<undefined>()
        break
    }
  })

  it('names its parts: the error of one code, the type of the class, and the details of a code that carries none', () => {
    expectTypeOf<AgentStoreErrorOf<'LIMIT_EXCEEDED'>>().toEqualTypeOf<AgentStoreError<'LIMIT_EXCEEDED'>>()
    expectTypeOf<AgentStoreErrorOf<'TRANSPORT'>['reason']>().toEqualTypeOf<'http' | 'timeout' | 'incomplete' | 'network'>()
    expectTypeOf<AgentStoreErrorOf<'TRANSPORT'>['limit']>().toEqualTypeOf<undefined>()
    expectTypeOf<AgentStoreErrorOf<'TRANSPORT'>>().toExtend<Error>()
    expectTypeOf(AgentStoreError).toEqualTypeOf<AgentStoreErrorConstructor>()
    expectTypeOf<AgentStoreErrorConstructor['prototype']>().toEqualTypeOf<AgentStoreError>()
    const make: AgentStoreErrorConstructor = AgentStoreError
    expectTypeOf(new make('RECONNECT', 'gone', { reason: 'not-found' })).toEqualTypeOf<AgentStoreErrorOf<'RECONNECT'>>()
    expectTypeOf<NoDetails>().toEqualTypeOf<Record<never, never>>()
    expectTypeOf<AgentStoreErrorDetails<'RUN_ACTIVE'>>().toEqualTypeOf<NoDetails>()
    expectTypeOf<AgentStoreErrorDetails<'TRANSPORT'>>().not.toEqualTypeOf<NoDetails>()
  })

  it('has read-only details', () => {
    const error = new AgentStoreError('RESTORE', 'damaged', { reason: 'damaged' })
    // @ts-expect-error: the details are read-only
    error.reason = 'no-migrate'
  })

  it('lets code that has not narrowed read any field, as the union of what the codes carry', () => {
    const error = {} as AgentStoreError
    expectTypeOf(error.serverCode).toEqualTypeOf<string | undefined>()
    expectTypeOf(error.status).toEqualTypeOf<number | undefined>()
    expectTypeOf(error.limit).toEqualTypeOf<'maxDepth' | 'maxOpsPerDelta' | 'maxStateBytes' | 'maxEventBytes' | undefined>()
    expectTypeOf(error.reason).toExtend<string | undefined>()
    expectTypeOf<'damaged'>().toExtend<typeof error.reason>()
    expectTypeOf<'the saved thread is damaged'>().not.toExtend<typeof error.reason>()
  })
})

describe('isAgentStoreError', () => {
  it('narrows anything caught to an AgentStoreError', () => {
    const caught: unknown = undefined
    expectTypeOf(isAgentStoreError).guards.toEqualTypeOf<AgentStoreError>()
    if (isAgentStoreError(caught)) expectTypeOf(caught.code).toEqualTypeOf<AgentStoreErrorCode>()
  })

  it('meets the errors a store reports and rejects with', async () => {
    const store = createAgentStore({
      initialState: {},
      onError: (error) => {
        expectTypeOf(error).toEqualTypeOf<AnyAgentStoreError>()
        if (error.code === 'RECONNECT') expectTypeOf(error.reason).toEqualTypeOf<'not-supported' | 'nothing-to-rejoin' | 'not-found'>()
      },
    })
    expectTypeOf(store.getState().error).toEqualTypeOf<AnyAgentStoreError | undefined>()
    const error = store.getState().error
    if (error?.code === 'RESTORE') expectTypeOf(error.reason).toEqualTypeOf<'unknown-version' | 'damaged' | 'not-a-thread' | 'no-migrate' | 'migrate-failed'>()
    await store.run().catch((error: unknown) => {
      if (isAgentStoreError(error) && error.code === 'NO_AGENT') expectTypeOf(error).toEqualTypeOf<AgentStoreError<'NO_AGENT'>>()
    })
  })
})
