// Storages and an agent for the registry's tests: a storage whose writes land only when the test
// lets them (in any order, as an IndexedDB or server wrapper may), and an agent that can drop its
// stream and serve a reconnect.
import { AbstractAgent } from '@ag-ui/client'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { Observable, type Subscriber } from 'rxjs'

interface HeldWrite {
  key: string
  value: string
  land(): void
}

/** An async storage whose setItem waits for `release`; removeItem and getItem answer at once. */
export class GatedStorage {
  readonly items = new Map<string, string>()
  readonly held: HeldWrite[] = []
  /** Every call, in the order it took effect. */
  readonly log: string[] = []

  async getItem(key: string): Promise<string | null> {
    return this.items.get(key) ?? null
  }

  setItem(key: string, value: string): Promise<void> {
    return new Promise((resolve) => {
      this.held.push({
        key,
        value,
        land: () => {
          this.items.set(key, value)
          this.log.push(`set ${key}`)
          resolve()
        },
      })
    })
  }

  async removeItem(key: string): Promise<void> {
    this.items.delete(key)
    this.log.push(`remove ${key}`)
  }

  /** Lets the writes held for `key` land, the newest first when `reversed`. */
  release(key: string, { reversed = false } = {}): number {
    const mine = this.held.filter((write) => write.key === key)
    for (const write of mine) this.held.splice(this.held.indexOf(write), 1)
    for (const write of reversed ? mine.reverse() : mine) write.land()
    return mine.length
  }
}

/** Lets pending promise callbacks and timers of 0 ms run. */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** An agent the test streams into by hand, whose stream can drop, and which implements AG-UI `connect`. */
export class ConnectingAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = []
  readonly connects: RunAgentInput[] = []
  private subscriber: Subscriber<BaseEvent> | undefined

  run(input: RunAgentInput): Observable<BaseEvent> {
    this.inputs.push(structuredClone(input))
    return this.stream()
  }

  protected override connect(input: RunAgentInput): Observable<BaseEvent> {
    this.connects.push(structuredClone(input))
    return this.stream()
  }

  private stream() {
    return new Observable<BaseEvent>((subscriber) => {
      this.subscriber = subscriber
      return () => {
        if (this.subscriber === subscriber) this.subscriber = undefined
      }
    })
  }

  get open(): boolean {
    return this.subscriber !== undefined && !this.subscriber.closed
  }

  push(...events: BaseEvent[]): void {
    for (const event of events) this.subscriber?.next(event)
  }

  /** The network drops the stream. */
  drop(): void {
    this.subscriber?.error(new TypeError('network error'))
  }

  end(): void {
    this.subscriber?.complete()
  }
}
