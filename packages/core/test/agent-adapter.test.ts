// How the store reads an @ag-ui/client agent without loading @ag-ui/client, @ag-ui/core or rxjs:
// the stream through its own subscribe(), whether it implements connect from its prototype chain,
// and what its errors become from their message and fields, not their classes.
import { AbstractAgent, HttpAgent } from '@ag-ui/client'
import { AGUIConnectNotImplementedError, AGUIError, type BaseEvent, type RunAgentInput } from '@ag-ui/core'
import { Observable } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type { AgentStoreError } from '../src'
import { canConnect, connectRun } from '../src/transport/connect-run'
import { ev, run } from './helpers'

const input: RunAgentInput = { threadId: 't1', runId: 'r1', state: {}, messages: [], tools: [], context: [], forwardedProps: {} }

/** A stream of these events, or of this error, for run() and connect() alike. */
const streamOf = (events: readonly BaseEvent[], error?: unknown) =>
  new Observable<BaseEvent>((subscriber) => {
    for (const event of events) subscriber.next(event)
    if (error === undefined) subscriber.complete()
    else subscriber.error(error)
  })

class RunOnlyAgent extends AbstractAgent {
  run() {
    return streamOf(run('r1'))
  }
}

class ConnectingAgent extends RunOnlyAgent {
  protected override connect() {
    return streamOf(run('r1'))
  }
}

class InheritsConnect extends ConnectingAgent {}

/** An agent whose `connect` is AbstractAgent's: a server that answers "not supported" at run time. */
class DelegatingAgent extends RunOnlyAgent {
  protected override connect(input: RunAgentInput) {
    return super.connect(input)
  }
}

/** AbstractAgent as another copy of @ag-ui/client defines it: the same shape, another class. */
class OtherCopyOfAbstractAgent {
  run() {
    return streamOf(run('r1'))
  }
  protected connect(): Observable<BaseEvent> {
    throw new AGUIConnectNotImplementedError()
  }
}
class OtherCopyConnecting extends OtherCopyOfAbstractAgent {
  protected override connect() {
    return streamOf(run('r1'))
  }
}
const asAgent = (agent: object) => agent as AbstractAgent

function outcomeOf(agent: AbstractAgent, connect = false) {
  return new Promise<{ events: string[]; error: AgentStoreError | undefined }>((resolve) => {
    const events: string[] = []
    connectRun(agent, input, { event: (event) => events.push(event.type), end: (error) => resolve({ events, error }) }, { connect, drainMs: 0 })
  })
}

describe('whether the agent implements connect', () => {
  it.each([
    ['HttpAgent', new HttpAgent({ url: 'http://127.0.0.1:9/never' }), false],
    ['a subclass that implements only run', new RunOnlyAgent(), false],
    ['a subclass that implements connect', new ConnectingAgent(), true],
    ['a subclass of one that implements connect', new InheritsConnect(), true],
    ['a subclass whose connect calls AbstractAgent’s', new DelegatingAgent(), true],
    ['an agent on another copy of AbstractAgent, without connect', asAgent(new (class extends OtherCopyOfAbstractAgent {})()), false],
    ['an agent on another copy of AbstractAgent, with connect', asAgent(new OtherCopyConnecting()), true],
    ['no agent', undefined, false],
  ])('%s: %s', (_name, agent, expected) => {
    expect(canConnect(agent)).toBe(expected)
  })
})

describe('what the agent’s errors become', () => {
  it('AbstractAgent’s connect: RECONNECT not-supported, whether called directly or through super', async () => {
    for (const agent of [new HttpAgent({ url: 'http://127.0.0.1:9/never' }), new DelegatingAgent()]) {
      const { events, error } = await outcomeOf(agent, true)
      expect(events).toEqual([])
      expect(error).toMatchObject({ code: 'RECONNECT', reason: 'not-supported', message: 'The agent does not implement connect' })
      expect(error?.cause).toBeInstanceOf(AGUIConnectNotImplementedError)
    }
  })

  it.each([
    ['an AGUIError', new AGUIError('Thread has 1 pending interrupt(s) not addressed by resume: i1')],
    ['a TypeError', new TypeError('Thread has 1 pending interrupt(s) not addressed by resume: i1')],
  ])('%s from the stream: TRANSPORT network, with its message', async (_name, thrown) => {
    class Failing extends RunOnlyAgent {
      override run() {
        return streamOf([ev.runStarted('r1')], thrown)
      }
    }
    const { events, error } = await outcomeOf(new Failing())
    expect(events).toEqual(['RUN_STARTED'])
    expect(error).toMatchObject({
      code: 'TRANSPORT',
      reason: 'network',
      message: 'The connection to the agent failed: Thread has 1 pending interrupt(s) not addressed by resume: i1',
    })
    expect(error?.cause).toBe(thrown)
  })

  it('an error with an HTTP status: TRANSPORT http, the status in the details', async () => {
    class Refused extends RunOnlyAgent {
      override run() {
        return streamOf([], Object.assign(new Error('HTTP 503: busy'), { status: 503 }))
      }
    }
    expect((await outcomeOf(new Refused())).error).toMatchObject({ code: 'TRANSPORT', reason: 'http', status: 503, message: 'The agent answered HTTP 503' })
  })
})

describe('the stream, through its own subscribe()', () => {
  it('reads any object with subscribe({ next, error, complete }), and unsubscribes once the run is cancelled', async () => {
    let observer: { next(event: BaseEvent): void; complete(): void } | undefined
    let unsubscribed = 0
    const subscribable = {
      subscribe(given: typeof observer) {
        observer = given
        return { unsubscribe: () => unsubscribed++ }
      },
    }
    class PlainAgent extends RunOnlyAgent {
      override run() {
        return subscribable as unknown as Observable<BaseEvent>
      }
    }
    const seen: string[] = []
    const ends: unknown[] = []
    const connection = connectRun(new PlainAgent(), input, { event: (event) => seen.push(event.type), end: (error) => ends.push(error) })
    observer?.next(ev.runStarted('r1'))
    observer?.next(ev.snapshot({ n: 1 }))
    connection.cancel()
    observer?.next(ev.runFinished('r1'))
    expect(seen).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT'])
    expect(ends).toEqual([])
    expect(unsubscribed).toBe(1)
  })

  it('verifies the order from the first event, and a connect stream only from a RUN_STARTED', async () => {
    const midRun = [ev.text('m1', 'rest'), ev.textEnd('m1'), ev.runFinished('r1')]
    class Resuming extends RunOnlyAgent {
      override run() {
        return streamOf(midRun)
      }
      protected override connect() {
        return streamOf(midRun)
      }
    }
    const asRun = await outcomeOf(new Resuming())
    expect(asRun).toMatchObject({ events: [], error: { code: 'INVALID_EVENT', message: 'TEXT_MESSAGE_CONTENT before RUN_STARTED' } })
    // A resumed stream starts mid-run: handed on whole; its end is the stream's (connect streams end no run).
    expect(await outcomeOf(new Resuming(), true)).toMatchObject({
      events: ['TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'RUN_FINISHED'],
      error: { code: 'TRANSPORT', reason: 'incomplete' },
    })
    class Replaying extends RunOnlyAgent {
      protected override connect() {
        return streamOf([ev.runStarted('r1'), ...midRun])
      }
    }
    expect(await outcomeOf(new Replaying(), true)).toMatchObject({
      events: ['RUN_STARTED'],
      error: {
        code: 'INVALID_EVENT',
        message: 'TEXT_MESSAGE_CONTENT for text message "m1", which is not open',
      },
    })
  })
})
