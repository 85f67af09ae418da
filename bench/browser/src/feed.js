// An agent fed by the page: its run() is an Observable the driver pushes one batch into per frame.
// Each contender gets the same events through its own AbstractAgent class and its own pipeline.
import { Observable } from 'rxjs'

export function feedAgentClass(AbstractAgent) {
  return class FeedAgent extends AbstractAgent {
    subscriber = undefined
    queue = []
    input = undefined

    run(input) {
      this.input = input
      return new Observable((subscriber) => {
        this.subscriber = subscriber
        const queued = this.queue
        this.queue = []
        for (const events of queued) this.push(events)
      })
    }

    /** Sends one batch, with the run's own ids on RUN_STARTED and RUN_FINISHED. */
    push(events) {
      if (!this.subscriber) return void this.queue.push(events)
      for (const event of events) {
        if (event.type === 'RUN_STARTED' || event.type === 'RUN_FINISHED') {
          this.subscriber.next({ ...event, threadId: this.input.threadId, runId: this.input.runId })
          if (event.type === 'RUN_FINISHED') this.subscriber.complete()
        } else this.subscriber.next(event)
      }
    }
  }
}
