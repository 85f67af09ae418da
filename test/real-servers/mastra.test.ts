// The store against Mastra (@ag-ui/mastra 1.1.2 over @mastra/core 1.71): working memory as state,
// a suspending tool whose call is never shown, resume through resume[].
import type { Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { bodies, orphanToolMessages, protocolEvents, recordAs, type Session, script, serverLog, servers, session, type Via } from './support'

const base = servers.mastra
const url = `${base}/writer`
const version = '@ag-ui/mastra 1.1.2, @mastra/core 1.71.0, @mastra/memory 1.31.0, ai 6.0.325'
const OLD = 'The old document.'
const NEW = 'A brand new document about the sea.'

interface WriterState {
  document: string
  title?: string
}
const initialState: WriterState = { document: OLD }
const predict = [{ stateKey: 'document', tool: 'write_document', toolArgument: 'document' }]

/** A store on the writer; recorded when it goes through HttpAgent (the recordings are HttpAgent's). */
function open(name: string, via: Via = 'HttpAgent'): Session<WriterState> {
  const s = session<WriterState>(url, { initialState, predict }, via)
  if (via === 'HttpAgent') recordAs(`mastra-${name}`, 'mastra', version, base, () => s.threadId)
  return s
}

const lastText = (messages: readonly Message[]) => {
  const last = messages[messages.length - 1]
  return last?.role === 'assistant' ? last.content : undefined
}

/** A run whose model writes the title to working memory, then calls the suspending tool. */
async function suspend(s: Session<WriterState>, after: { text: string }[]) {
  await script(base, s.threadId, [
    { tool: 'updateWorkingMemory', args: { memory: { title: 'Sea' } } },
    { tool: 'write_document', args: { document: NEW }, id: `call_${s.threadId.slice(0, 8)}` },
    ...after,
  ])
  await s.store.run({ message: 'Write about the sea' })
  return `call_${s.threadId.slice(0, 8)}`
}

describe.each(['HttpAgent', 'url'] as const)('Mastra through %s: suspending tool, approve and reject', (via) => {
  it('approve resumes with the interrupt id, leaves no tool message without its call, and the next turn works', async () => {
    const s = open('suspend-approve', via)
    const callId = await suspend(s, [{ text: 'Saved.' }])
    const waiting = s.store.getState()
    expect(waiting.error).toBeUndefined()
    expect(waiting.status).toBe('interrupted')
    expect(waiting.confirmations).toHaveLength(1)
    const [first] = await serverLog(base, s.threadId)
    const interrupt = (protocolEvents(first!).at(-1)!.outcome as { interrupts: { id: string }[] }).interrupts[0]!
    expect(interrupt.id).toBe(`${first!.body && (first!.body as { runId: string }).runId}::${callId}`)
    expect(waiting.confirmations[0]).toMatchObject({ id: interrupt.id, source: 'interrupt', reason: 'mastra:tool_suspend', toolCallId: callId })
    // Working memory streamed as STATE_SNAPSHOT + STATE_DELTA: a server state update.
    expect(waiting.state).toEqual({ document: OLD, title: 'Sea' })

    await s.store.approve()
    const [, approved] = await bodies(base, s.threadId)
    expect(approved!.resume).toEqual([{ interruptId: interrupt.id, status: 'resolved', payload: { accepted: true } }])
    const done = s.store.getState()
    expect(done).toMatchObject({ status: 'idle', error: undefined, confirmations: [] })
    expect(lastText(done.messages)).toBe('Saved.')
    // The resumed run sends TOOL_CALL_RESULT for a call the conversation never showed.
    expect(orphanToolMessages(done.messages)).toEqual([])

    await script(base, s.threadId, [{ text: 'Anything else?' }])
    await s.store.run({ message: 'Thanks' })
    const next = s.store.getState()
    expect(next).toMatchObject({ status: 'idle', error: undefined })
    const [, , third] = await bodies(base, s.threadId)
    expect(orphanToolMessages(third!.messages)).toEqual([])
    expect(third!.state).toEqual({ document: OLD, title: 'Sea' })
  })

  it('reject answers accepted: false, the tool reports it, and the next turn works', async () => {
    const s = open('suspend-reject', via)
    await suspend(s, [{ text: 'Understood.' }])
    const interruptId = s.store.getState().confirmations[0]!.id
    await s.store.reject()
    const [, rejected] = await bodies(base, s.threadId)
    expect(rejected!.resume).toEqual([{ interruptId, status: 'resolved', payload: { accepted: false } }])
    const log = await serverLog(base, s.threadId)
    const result = protocolEvents(log[1]!).find((event) => event.type === 'TOOL_CALL_RESULT')
    expect(result?.content).toBe('{"saved":false}')
    const done = s.store.getState()
    expect(done).toMatchObject({ status: 'idle', error: undefined })
    expect(orphanToolMessages(done.messages)).toEqual([])
    await script(base, s.threadId, [{ text: 'Next.' }])
    await s.store.run({ message: 'Fine' })
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined })
  })
})

describe('Mastra: cancel', () => {
  it('cancel sends status: cancelled, the tool never runs, and the next turn works', async () => {
    const s = open('suspend-cancel')
    await suspend(s, [{ text: 'Never said.' }])
    const interruptId = s.store.getState().confirmations[0]!.id
    await s.store.cancel()
    const [, cancelled] = await bodies(base, s.threadId)
    expect(cancelled!.resume).toEqual([{ interruptId, status: 'cancelled' }])
    const log = await serverLog(base, s.threadId)
    expect(protocolEvents(log[1]!).map((event) => event.type)).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED'])
    const done = s.store.getState()
    expect(done).toMatchObject({ status: 'idle', error: undefined, confirmations: [] })
    expect(orphanToolMessages(done.messages)).toEqual([])
    await script(base, s.threadId, [{ text: 'Next.' }])
    await s.store.run({ message: 'Fine' })
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined })
  })
})

describe('Mastra: working memory, edits, turns, errors', () => {
  it('a user edit made while the agent streams reaches the server on the next run and comes back in its snapshot', async () => {
    const s = open('edit-while-streaming')
    let edited = false
    s.store.onEvent((event) => {
      if (!edited && event.type === 'STATE_DELTA') {
        edited = true
        s.store.setState((state) => ({ ...state, document: 'Edited by the user.' }))
      }
    })
    await script(base, s.threadId, [{ tool: 'updateWorkingMemory', args: { memory: { title: 'Sea' } } }, { text: 'Done.' }])
    await s.store.run({ message: 'Set a title' })
    expect(edited).toBe(true)
    // The end-of-run working-memory snapshot still holds the old document: the edit wins over it.
    expect(s.store.getState().state).toEqual({ document: 'Edited by the user.', title: 'Sea' })
    await script(base, s.threadId, [{ text: 'OK.' }])
    await s.store.run({ message: 'Next' })
    const [, next] = await bodies(base, s.threadId)
    expect(next!.state).toEqual({ document: 'Edited by the user.', title: 'Sea' })
    const log = await serverLog(base, s.threadId)
    const snapshots = protocolEvents(log[1]!).filter((event) => event.type === 'STATE_SNAPSHOT')
    expect(snapshots.at(-1)!.snapshot).toEqual({ document: 'Edited by the user.', title: 'Sea' })
    expect(s.store.getState().state).toEqual({ document: 'Edited by the user.', title: 'Sea' })
  })

  it('three turns in a row carry state and messages over, and nothing grows that should not', async () => {
    const s = open('three-turns')
    for (let turn = 1; turn <= 3; turn++) {
      await script(base, s.threadId, [{ text: `Reply ${turn}.` }])
      await s.store.run({ message: `Message ${turn}` })
      const snapshot = s.store.getState()
      expect(snapshot).toMatchObject({ status: 'idle', error: undefined, confirmations: [], predictions: [], steps: [], state: initialState })
      expect(snapshot.messages.map((message) => message.role)).toEqual(Array.from({ length: turn }, () => ['user', 'assistant']).flat())
      expect(lastText(snapshot.messages)).toBe(`Reply ${turn}.`)
    }
    expect((await bodies(base, s.threadId)).map((body) => body.messages.length)).toEqual([1, 3, 5])
  })

  it('a model error mid-run ends as error with the state from before the run, and the next turn works', async () => {
    const s = open('model-error')
    await script(base, s.threadId, [{ tool: 'updateWorkingMemory', args: { memory: { title: 'Half' } } }, { error: 'model exploded' }])
    await s.store.run({ message: 'Write something' })
    const failed = s.store.getState()
    expect(failed.status).toBe('error')
    expect(failed.error?.code).toBe('RUN_ERROR')
    expect(failed.state).toEqual(initialState)
    expect(failed.committed).toEqual(initialState)
    await script(base, s.threadId, [{ text: 'Back again.' }])
    await s.store.run({ message: 'Try again' })
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined })
    const [, retry] = await bodies(base, s.threadId)
    expect(retry!.state).toEqual(initialState)
  })
})
