// @vitest-environment jsdom
// Category 4: a React binding under faults, during real HTTP runs. Updates come from the network,
// outside act(), the way they do in an app.

import type { ReadableAgentStore } from '@agent-state/core'
import { useAgentStore } from '@agent-state/react'
import { cleanup, render } from '@testing-library/react'
import { StrictMode, useEffect } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { countSubscriptions } from '../support/count-subscriptions'
import { type Exchange, ev, gate, type HostileServer, sse, startHostileServer, waitFor } from './hostile-server'
import { type Doc, storeOn } from './scenario'

let server: HostileServer
beforeAll(async () => {
  server = await startHostileServer()
})
afterAll(() => server.close())
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

/** Streams `tokens` text tokens one write at a time, pausing at `pauseAt` until the test opens `resume`. */
function slowText(tokens: number, pauseAt: number, resume: Promise<void>) {
  return async (exchange: Exchange) => {
    exchange.start()
    await exchange.write(sse([ev.started(exchange.input), ev.textStart('m1')]))
    for (let i = 0; i < tokens; i++) {
      if (i === pauseAt) await resume
      if (!(await exchange.write(sse([ev.text('m1', `${i} `)])))) return
    }
    exchange.end(sse([ev.textEnd('m1'), ev.finished(exchange.input)]))
  }
}

const content = (store: ReadableAgentStore<Doc>) => (store.getState().messages[0]?.content as string | undefined) ?? ''

describe('a component over a live stream', () => {
  it('renders no more after it unmounts mid-stream, releases its subscription, and the run goes on', async () => {
    const errors = vi.spyOn(console, 'error')
    const resume = gate()
    server.handle(slowText(30, 10, resume.promise))
    const { store } = storeOn(server)
    const { store: readable, active } = countSubscriptions(store)
    const renders: string[] = []
    function Text() {
      const text = useAgentStore(readable, (s) => (s.messages[0]?.content as string | undefined) ?? '')
      renders.push(text)
      return <p data-testid="text">{text}</p>
    }
    const view = render(<Text />)
    expect(active()).toBe(1)
    const run = store.run()
    await waitFor(() => view.getByTestId('text').textContent === '0 1 2 3 4 5 6 7 8 9 ', 5_000, 'ten tokens on screen')
    view.unmount()
    expect(active()).toBe(0)
    const rendered = renders.length
    resume.open()
    await run
    expect(content(store)).toBe(Array.from({ length: 30 }, (_, i) => `${i} `).join(''))
    expect(store.getState().status).toBe('idle')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(renders).toHaveLength(rendered)
    expect(errors).not.toHaveBeenCalled()
  })

  it('holds exactly one subscription under StrictMode, and none after unmount', async () => {
    const resume = gate()
    server.handle(slowText(10, 5, resume.promise))
    const { store } = storeOn(server)
    const { store: readable, active } = countSubscriptions(store)
    function Status() {
      return <span>{useAgentStore(readable, (s) => s.status)}</span>
    }
    const view = render(
      <StrictMode>
        <Status />
      </StrictMode>,
    )
    expect(active()).toBe(1)
    const run = store.run()
    await waitFor(() => view.container.textContent === 'running')
    view.unmount()
    expect(active()).toBe(0)
    resume.open()
    await run
  })

  it('releases every subscription when many components mount and unmount while events stream', async () => {
    const errors = vi.spyOn(console, 'error')
    const resume = gate()
    server.handle(slowText(200, 199, resume.promise))
    const { store } = storeOn(server)
    const { store: readable, active } = countSubscriptions(store)
    let rendersAfterUnmount = 0
    const unmounted = new Set<number>()
    function Row({ id }: { id: number }) {
      const text = useAgentStore(readable, (s) => (s.messages[0]?.content as string | undefined)?.length ?? 0)
      if (unmounted.has(id)) rendersAfterUnmount++
      return <li>{text}</li>
    }
    function List({ ids }: { ids: number[] }) {
      return (
        <ul>
          {ids.map((id) => (
            <Row key={id} id={id} />
          ))}
        </ul>
      )
    }
    const view = render(<List ids={[]} />)
    const run = store.run()
    let ids: number[] = []
    for (let step = 0; step < 40; step++) {
      // Mount five new rows and drop the five oldest, while tokens keep arriving.
      const next = [...ids.slice(5), ...Array.from({ length: 5 }, (_, i) => step * 5 + i)]
      for (const id of ids) if (!next.includes(id)) unmounted.add(id)
      ids = next
      view.rerender(<List ids={ids} />)
      expect(active()).toBe(ids.length)
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    view.unmount()
    expect(active()).toBe(0)
    resume.open()
    await run
    expect(rendersAfterUnmount).toBe(0)
    expect(errors).not.toHaveBeenCalled()
  })

  it('aborts the run from an unmount cleanup: the request is closed and the draft-free state kept', async () => {
    const resume = gate()
    server.handle(slowText(30, 10, resume.promise))
    const { store } = storeOn(server)
    function Chat() {
      useEffect(() => {
        void store.run()
        return () => store.abort()
      }, [])
      return <p>{useAgentStore(store, (s) => s.status)}</p>
    }
    const view = render(<Chat />)
    await waitFor(() => content(store).length > 0)
    view.unmount()
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined })
    const exchange = server.exchanges.at(-1)!
    await exchange.closed
    expect(exchange.abandoned()).toBe(true)
    const kept = content(store)
    resume.open()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(content(store)).toBe(kept)
  })
})
