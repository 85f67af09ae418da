// Category 5: load and soak, over real HTTP through HttpAgent and the store.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { createAgentStore } from '@agent-state/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ev, type Handler, type HostileServer, sse, startHostileServer } from './hostile-server'
import { storeOn } from './scenario'

let server: HostileServer
beforeAll(async () => {
  server = await startHostileServer()
})
afterAll(() => server.close())

/** Writes the events as fast as the socket takes them, in ~64 KiB writes. */
function blast(events: readonly unknown[]): Handler {
  return async (exchange) => {
    exchange.start()
    let batch = ''
    for (const event of events) {
      batch += sse([event])
      if (batch.length >= 64 * 1024) {
        await exchange.write(batch)
        batch = ''
      }
    }
    exchange.end(batch)
  }
}

/** 100,000 events: text tokens, a drafted tool call's arguments, and deltas, interleaved. */
function heavyRun(input: RunAgentInput, total: number): unknown[] {
  const events: unknown[] = [
    ev.started(input),
    ev.predict('doc', 'write_doc', 'text'),
    ev.textStart('m1'),
    ev.toolStart('c1', 'write_doc'),
    ev.toolArgs('c1', '{"text":"'),
  ]
  for (let i = 0; events.length < total - 4; i++) {
    switch (i % 4) {
      case 0:
        events.push(ev.text('m1', `w${i} `))
        break
      case 1:
        events.push(ev.toolArgs('c1', `p${i} \\n`))
        break
      case 2:
        events.push(ev.delta({ op: 'replace', path: '/count', value: i }))
        break
      default:
        events.push(
          i % 400 === 3 ? ev.delta({ op: 'add', path: '/log/-', value: { i, at: `t${i}` } }) : ev.delta({ op: 'replace', path: '/last', value: `e${i}` }),
        )
    }
  }
  events.push(ev.toolArgs('c1', '"}'), ev.toolEnd('c1'), ev.textEnd('m1'), ev.finished(input))
  return events
}

describe('load', () => {
  it('applies one run of 100,000 events at full speed, equal to a replay of the same events', async () => {
    let sent: unknown[] = []
    server.handle((exchange) => blast((sent = heavyRun(exchange.input, 100_000)))(exchange))
    const initialState = { doc: '', count: 0, last: '', log: [] as unknown[] }
    const { store, errors } = storeOn<typeof initialState>(server, { initialState })
    let notifications = 0
    store.subscribe(() => notifications++)
    const started = performance.now()
    await store.run()
    const elapsed = performance.now() - started
    expect(sent).toHaveLength(100_000)
    expect(errors).toEqual([])
    expect(store.getState()).toMatchObject({ status: 'idle', error: undefined, predictions: [] })

    const reference = createAgentStore({ initialState })
    reference.apply(sent as BaseEvent[])
    const { state, committed, messages } = store.getState()
    expect(state).toEqual(reference.getState().state)
    expect(committed).toEqual(reference.getState().committed)
    expect(messages).toEqual(reference.getState().messages)
    expect((state.doc as string).length).toBeGreaterThan(100_000)
    expect(state.log).toHaveLength(sent.filter((e) => (e as { delta?: { op: string }[] }).delta?.[0]?.op === 'add').length)
    expect(state.log.length).toBeGreaterThan(200)
    expect(notifications).toBeGreaterThan(99_000)
    console.info(`100,000 events over HTTP: ${Math.round(elapsed)} ms (${Math.round(100_000 / (elapsed / 1000))} events/s)`)
    // Measured about 4 s on the 2-core reference machine under vitest; the bound leaves room for a slow CI.
    expect(elapsed).toBeLessThan(20_000)
  }, 40_000)
})

describe('soak', () => {
  const RUNS = 1_000

  /** Each run: a text message, a drafted tool call committed at the end, and deltas. Its ids are unique per run. */
  const soakRun = (input: RunAgentInput, n: number): unknown[] => [
    ev.started(input),
    ev.predict('doc', 'write_doc', 'text'),
    ev.textStart(`m${n}`),
    ...['Run ', `${n} `, 'is ', 'done.'].map((token) => ev.text(`m${n}`, token)),
    ev.textEnd(`m${n}`),
    ev.toolStart(`c${n}`, 'write_doc', `m${n}`),
    ev.toolArgs(`c${n}`, '{"text":"draft '),
    ev.toolArgs(`c${n}`, `${n}"}`),
    ev.toolEnd(`c${n}`),
    ev.delta({ op: 'replace', path: '/count', value: n }),
    n % 10 === 0 ? ev.snapshot({ ...(input.state as object), last: `snapshot ${n}` }) : ev.delta({ op: 'replace', path: '/last', value: `delta ${n}` }),
    { type: 'TOOL_CALL_RESULT', messageId: `r${n}`, toolCallId: `c${n}`, content: 'ok' },
    ev.finished(input),
  ]

  it(`runs ${RUNS} times on one store: bounded heap, listeners and handles released, final state equal to a replay`, async () => {
    const sent: unknown[][] = []
    server.handle((exchange) => {
      const events = soakRun(exchange.input, sent.length)
      sent.push(events)
      exchange.start()
      exchange.end(sse(events))
    })
    const root = fileURLToPath(new URL('../..', import.meta.url))
    const env = { ...process.env }
    // Measured as an app runs: outside vitest, so @ag-ui/client is not in its development mode.
    for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST') delete env[key]
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--conditions=source', '--import', 'tsx', 'test/reliability/soak-client.ts', server.url, String(RUNS)],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    // Bounded, with room for a loaded CI machine (the real-server suite runs beside it): a hang, not a speed, fails it.
    const killer = setTimeout(() => child.kill('SIGKILL'), 110_000)
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    clearTimeout(killer)
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const report = JSON.parse(stdout) as {
      elapsedMs: number
      heapBefore: number
      heapAfter: number
      heapAfterReset: number
      samples: number[]
      conversationBytes: number
      messages: number
      subscriptions: number
      notifications: number
      events: number
      resourcesBefore: Record<string, number>
      resourcesAfter: Record<string, number>
      final: string
    }

    // 50 warm-up runs, then the measured ones, each answered once.
    expect(sent).toHaveLength(50 + RUNS)
    // The final state is what a replay of every event the server sent since the reset gives.
    const reference = createAgentStore({ initialState: { count: 0, doc: '', last: '' } as Record<string, unknown> })
    reference.apply(sent.slice(50).flat() as BaseEvent[])
    const { state, messages } = reference.getState()
    expect(JSON.parse(report.final)).toEqual({ state, messages })
    // Per run: the assistant message holding the text and the tool call, and the tool result.
    expect(report.messages).toBe(2 * RUNS)

    console.info(
      `soak: ${RUNS} runs in ${Math.round(report.elapsedMs)} ms; heap ${mb(report.heapBefore)} -> ${mb(report.heapAfter)} ` +
        `(conversation: ${report.messages} messages, ${report.conversationBytes} JSON bytes) -> ${mb(report.heapAfterReset)} after reset; ` +
        `every 250 runs: ${report.samples.map(mb).join(', ')}`,
    )
    // heapUsed after a forced full GC still moves by up to ~2 MB between samples (optimized code,
    // old-space fragmentation). Measured residue after reset, over 1,000 runs: 0.2 to 1.9 MB.
    // Bound: 4 MiB in all (4 KiB per run). A leak that kept any per-run array of the conversation
    // (an input, a snapshot, a listener's closure) would hold at least 8 MB here.
    expect(report.heapAfterReset - report.heapBefore).toBeLessThan(4 * 1024 * 1024)
    // Growth during the soak is the conversation's: measured 0.6 to 1.4 MB for 245 KB of message
    // JSON (2.3x to 5.5x). Bound: 8x its JSON size plus the same 4 MiB of noise.
    expect(report.heapAfter - report.heapBefore).toBeLessThan(8 * report.conversationBytes + 4 * 1024 * 1024)
    expect(report.subscriptions).toBe(0)
    expect(report.notifications).toBeGreaterThan(RUNS * 10)
    expect(report.events).toBe(RUNS * 16 + 50 * 16)
    // No timer left behind; sockets stay within undici's keep-alive pool.
    expect(report.resourcesAfter.Timeout ?? 0).toBeLessThanOrEqual(report.resourcesBefore.Timeout ?? 0)
    expect(report.resourcesAfter.TCPSocketWrap ?? 0).toBeLessThanOrEqual((report.resourcesBefore.TCPSocketWrap ?? 0) + 1)
    expect(report.elapsedMs).toBeLessThan(100_000)
  }, 120_000)
})

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`
