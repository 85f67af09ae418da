// The store against a real LangGraph server (@langchain/langgraph-api in-process, @ag-ui/langgraph
// 0.0.43 as AG-UI): drafts from PredictState, interrupts in both modes, node-boundary snapshots.
import type { Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { bodies, orphanToolMessages, protocolEvents, recordAs, type Session, script, serverLog, servers, session, type Via, valuesOver } from './support'

const base = servers.langgraph
const version = '@ag-ui/langgraph 0.0.43, @langchain/langgraph-api 1.5.1, @langchain/langgraph 1.7.3'
const OLD = 'The old document.'
const NEW = 'A brand new document about the sea, written line by line.'

interface WriterState {
  document: string
  title: string
  revision: number
  /** LangGraph's own messages key (LangChain format), sent back as state like any other key. */
  messages?: unknown[]
}
const initialState: WriterState = { document: OLD, title: '', revision: 0 }

/** A store on a new thread; through HttpAgent, the scenario's recording is saved under `name` when the test ends. */
function open(name: string, endpoint: 'writer' | 'writer-legacy' = 'writer', via: Via = 'HttpAgent'): Session<WriterState> {
  const s = session<WriterState>(`${base}/${endpoint}`, { initialState }, via)
  if (via === 'HttpAgent') recordAs(`langgraph-${name}`, 'langgraph', version, base, () => s.threadId)
  return s
}

/** Runs a request that drafts NEW and stops at the approval interrupt; returns the tool call id. */
async function draft(s: Session<WriterState>, after: { text: string }[] = [{ text: 'Saved.' }]): Promise<string> {
  await script(base, s.threadId, [{ tool: 'write_document', args: { document: NEW }, chunkSize: 7 }, ...after])
  await s.store.run({ message: 'Write about the sea' })
  const [run] = await serverLog(base, s.threadId)
  const start = protocolEvents(run!).find((event) => event.type === 'TOOL_CALL_START')
  return start!.toolCallId as string
}

const lastText = (messages: readonly Message[]) => {
  const last = messages[messages.length - 1]
  return last?.role === 'assistant' ? last.content : undefined
}

/** The state LangGraph holds at the end of a run: its last STATE_SNAPSHOT. */
const serverState = (events: { type: string; snapshot?: unknown }[]) =>
  events.filter((event) => event.type === 'STATE_SNAPSHOT').at(-1)?.snapshot as WriterState

describe.each(['HttpAgent', 'url'] as const)('LangGraph through %s: draft, interrupt (emitInterruptOutcome: true), approve', (via) => {
  it('shows the draft while it awaits approval, sends resume[], and the server then holds the document', async () => {
    const s = open('draft-approve', 'writer', via)
    const callId = await draft(s)
    const waiting = s.store.getState()
    expect(waiting.error).toBeUndefined()
    expect(waiting.status).toBe('interrupted')
    // While the draft awaits approval the user sees the draft, never the old value.
    expect(waiting.state.document).toBe(NEW)
    expect(waiting.committed.document).toBe(OLD)
    expect(waiting.predictions.map((p) => [p.stateKey, p.value, p.toolCallId])).toEqual([['document', NEW, callId]])
    expect(waiting.confirmations).toHaveLength(1)
    expect(waiting.confirmations[0]).toMatchObject({ source: 'interrupt', reason: 'langgraph:interrupt', toolCallId: callId, stateKeys: ['document'] })
    // Once the draft has begun, every render shows a prefix of it: never the old text, never nothing.
    const shown = valuesOver(s.snapshots, (snapshot) => snapshot.state.document)
    const firstDraft = shown.findIndex((value) => typeof value === 'string' && value !== OLD && NEW.startsWith(value) && value.length > 0)
    expect(firstDraft).toBeGreaterThanOrEqual(0)
    for (const value of shown.slice(firstDraft)) expect(NEW.startsWith(value ?? '\u0000')).toBe(true)

    const messagesBefore = waiting.messages
    const interruptId = waiting.confirmations[0]!.id
    await s.store.approve()
    const [first, approved] = await bodies(base, s.threadId)
    expect(first!.state).toEqual(initialState)
    expect(approved!.resume).toEqual([{ interruptId, status: 'resolved', payload: { accepted: true } }])
    expect(approved!.state).toMatchObject({ document: NEW, title: '', revision: 0 })
    // LangGraph's graph writes its own tool result: the request adds no message.
    expect(approved!.messages).toEqual(messagesBefore)
    expect(approved!.forwardedProps).toEqual({})

    const done = s.store.getState()
    expect(done.error).toBeUndefined()
    expect(done.status).toBe('idle')
    expect(done.state).toMatchObject({ document: NEW, revision: 1 })
    expect(done.committed).toMatchObject({ document: NEW, revision: 1 })
    expect(done.confirmations).toEqual([])
    expect(done.predictions).toEqual([])
    // In the server's order (its MESSAGES_SNAPSHOT): the tool result right after its call.
    expect(done.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(lastText(done.messages)).toBe('Saved.')
    expect(orphanToolMessages(done.messages)).toEqual([])

    // The next turn works and the server's state holds the document.
    await script(base, s.threadId, [{ text: 'Anything else?' }])
    await s.store.run({ message: 'Thanks' })
    const next = s.store.getState()
    expect(next.error).toBeUndefined()
    expect(next.status).toBe('idle')
    const log = await serverLog(base, s.threadId)
    expect((log[2]!.body as { state: WriterState }).state).toMatchObject({ document: NEW, revision: 1 })
    expect(serverState(protocolEvents(log[2]!))).toMatchObject({ document: NEW, revision: 1 })
    expect(next.state).toMatchObject({ document: NEW, revision: 1 })
  })
})

describe('LangGraph: reject and cancel', () => {
  it('reject restores the document, tells the server accepted: false, and the next turn works', async () => {
    const s = open('draft-reject')
    await draft(s, [{ text: 'Understood.' }])
    expect(s.store.getState().state.document).toBe(NEW)
    const interruptId = s.store.getState().confirmations[0]!.id
    await s.store.reject()
    const [, rejected] = await bodies(base, s.threadId)
    expect(rejected!.resume).toEqual([{ interruptId, status: 'resolved', payload: { accepted: false } }])
    expect(rejected!.state).toMatchObject({ document: OLD, revision: 0 })
    const done = s.store.getState()
    expect(done.status).toBe('idle')
    expect(done.error).toBeUndefined()
    expect(done.state).toMatchObject({ document: OLD, revision: 0 })
    expect(done.committed).toMatchObject({ document: OLD, revision: 0 })
    expect(lastText(done.messages)).toBe('Understood.')

    await script(base, s.threadId, [{ text: 'Next.' }])
    await s.store.run({ message: 'Fine' })
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined })
    const log = await serverLog(base, s.threadId)
    expect(serverState(protocolEvents(log[2]!))).toMatchObject({ document: OLD, revision: 0 })
  })

  it('cancel sends status: cancelled, the graph gets the cancelled sentinel, and the document is restored', async () => {
    const s = open('draft-cancel')
    await draft(s, [{ text: 'Cancelled then.' }])
    const interruptId = s.store.getState().confirmations[0]!.id
    await s.store.cancel()
    const [, cancelled] = await bodies(base, s.threadId)
    expect(cancelled!.resume).toEqual([{ interruptId, status: 'cancelled' }])
    const done = s.store.getState()
    expect(done.status).toBe('idle')
    expect(done.error).toBeUndefined()
    expect(done.state).toMatchObject({ document: OLD, revision: 0 })
    expect(done.confirmations).toEqual([])
    const log = await serverLog(base, s.threadId)
    // The graph answered the call as not accepted.
    const results = protocolEvents(log[1]!).filter((event) => event.type === 'MESSAGES_SNAPSHOT')
    const tool = (results.at(-1)!.messages as Message[]).find((message) => message.role === 'tool')
    expect(tool?.content).toBe('{"accepted":false}')
  })
})

describe('LangGraph: approve with edits', () => {
  it('sends the edited document in the resume payload; the graph saves it and the store commits it', async () => {
    const s = open('approve-edited')
    await draft(s)
    const interruptId = s.store.getState().confirmations[0]!.id
    await s.store.approve({ id: interruptId, edits: { document: 'Edited by the user.' } })
    const [, approved] = await bodies(base, s.threadId)
    expect(approved!.resume).toEqual([{ interruptId, status: 'resolved', payload: { accepted: true, document: 'Edited by the user.' } }])
    const done = s.store.getState()
    expect(done).toMatchObject({ status: 'idle', error: undefined, confirmations: [], predictions: [] })
    expect(done.state).toMatchObject({ document: 'Edited by the user.', revision: 1 })
    expect(done.committed).toMatchObject({ document: 'Edited by the user.', revision: 1 })
    const log = await serverLog(base, s.threadId)
    expect(serverState(protocolEvents(log[1]!))).toMatchObject({ document: 'Edited by the user.', revision: 1 })
  })
})

describe.each(['HttpAgent', 'url'] as const)('LangGraph through %s: default on_interrupt mode (emitInterruptOutcome: false)', (via) => {
  it('names the tool call from the on_interrupt value, resumes through forwardedProps.command.resume, and commits on approve', async () => {
    const s = open('legacy-approve', 'writer-legacy', via)
    const callId = await draft(s)
    const waiting = s.store.getState()
    expect(waiting.status).toBe('interrupted')
    expect(waiting.state.document).toBe(NEW)
    expect(waiting.confirmations).toHaveLength(1)
    expect(waiting.confirmations[0]).toMatchObject({ source: 'on_interrupt', toolCallId: callId, stateKeys: ['document'] })
    const [run] = await serverLog(base, s.threadId)
    expect(protocolEvents(run!).at(-1)).not.toHaveProperty('outcome')

    await s.store.approve()
    const [, approved] = await bodies(base, s.threadId)
    expect(approved!.forwardedProps).toEqual({ command: { resume: { accepted: true } } })
    expect(approved!.resume ?? []).toEqual([])
    expect(approved!.state).toMatchObject({ document: NEW })
    const done = s.store.getState()
    expect(done).toMatchObject({ status: 'idle', error: undefined, confirmations: [], predictions: [] })
    expect(done.committed).toMatchObject({ document: NEW, revision: 1 })
  })

  // Two parallel nodes (the document, and the title the same call proposes) interrupt in one run.
  for (const [scenario, documentAccepted] of [
    ['document approved, title rejected', true],
    ['document rejected, title approved', false],
  ] as const) {
    it(`two interrupts in one run, ${scenario}: each answer reaches its own interrupt through LangGraph's resume map`, async () => {
      const s = open(`legacy-two-interrupts-${documentAccepted ? 'approve-document' : 'approve-title'}`, 'writer-legacy', via)
      await script(base, s.threadId, [{ tool: 'write_document', args: { document: NEW, title: 'The sea' }, chunkSize: 7 }, { text: 'Saved.' }])
      await s.store.run({ message: 'Write about the sea, with a title' })
      const waiting = s.store.getState()
      expect(waiting.status).toBe('interrupted')
      const [run] = await serverLog(base, s.threadId)
      const asked = protocolEvents(run!).filter((event) => event.type === 'CUSTOM' && event.name === 'on_interrupt')
      const ids = asked.map((event) => (event.rawEvent as { id: string }).id)
      expect(ids).toHaveLength(2)
      // The confirmations carry LangGraph's interrupt ids.
      expect(waiting.confirmations.map((c) => c.id).sort()).toEqual([...ids].sort())
      const documentAsk = waiting.confirmations.find((c) => c.toolCallId !== undefined)!
      const titleAsk = waiting.confirmations.find((c) => c.toolCallId === undefined)!
      expect(documentAsk).toMatchObject({ source: 'on_interrupt', stateKeys: ['document'] })
      expect(titleAsk).toMatchObject({ source: 'on_interrupt', stateKeys: [], value: { title: 'The sea' } })

      if (documentAccepted) {
        await s.store.approve({ id: documentAsk.id })
        await s.store.reject({ id: titleAsk.id })
      } else {
        await s.store.reject({ id: documentAsk.id })
        await s.store.approve({ id: titleAsk.id })
      }
      const [, resumed] = await bodies(base, s.threadId)
      expect(resumed!.forwardedProps).toEqual({
        command: { resume: { [documentAsk.id]: { accepted: documentAccepted }, [titleAsk.id]: { accepted: !documentAccepted } } },
      })
      expect(resumed!.resume ?? []).toEqual([])
      const expected = documentAccepted ? { document: NEW, title: '', revision: 1 } : { document: OLD, title: 'The sea', revision: 0 }
      // The graph read each answer: what it saved is what each answer said.
      const [, second] = await serverLog(base, s.threadId)
      expect(serverState(protocolEvents(second!))).toMatchObject(expected)
      const done = s.store.getState()
      expect(done).toMatchObject({ status: 'idle', error: undefined, confirmations: [] })
      expect(done.committed).toMatchObject(expected)
    })
  }
})

describe('LangGraph: edits, turns, errors', () => {
  it('a user edit made while the agent streams survives the node-boundary snapshots and reaches the server on the next run', async () => {
    const s = open('edit-while-streaming')
    let edited = false
    s.store.onEvent((event) => {
      if (!edited && event.type === 'TEXT_MESSAGE_CONTENT') {
        edited = true
        s.store.setState((state) => ({ ...state, title: 'My title' }))
      }
    })
    await script(base, s.threadId, [{ text: 'A reply long enough to be streamed in several chunks, word by word.' }])
    await s.store.run({ message: 'Say something' })
    expect(edited).toBe(true)
    // The run's later snapshots still hold title '' (the server never saw the edit): the edit wins.
    const log1 = await serverLog(base, s.threadId)
    expect(serverState(protocolEvents(log1[0]!))).toMatchObject({ title: '' })
    expect(s.store.getState().state).toMatchObject({ title: 'My title', document: OLD })
    expect(s.store.getState().committed).toMatchObject({ title: 'My title', document: OLD })
    await script(base, s.threadId, [{ text: 'Noted.' }])
    await s.store.run({ message: 'Keep my title' })
    const log = await serverLog(base, s.threadId)
    expect((log[1]!.body as { state: WriterState }).state).toMatchObject({ title: 'My title', document: OLD })
    expect(serverState(protocolEvents(log[1]!))).toMatchObject({ title: 'My title', document: OLD })
    expect(s.store.getState().state).toMatchObject({ title: 'My title', document: OLD })
  })

  it('the opening STATE_SNAPSHOT({}) and the partial node snapshots never blank the document or the title', async () => {
    const s = open('partial-snapshots')
    s.store.setState((state) => ({ ...state, title: 'Mine' }))
    await script(base, s.threadId, [{ text: 'A reply long enough to stream in several chunks.' }])
    const start = s.snapshots.length
    await s.store.run({ message: 'Say something' })
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined })
    const log = await serverLog(base, s.threadId)
    expect(protocolEvents(log[0]!).find((event) => event.type === 'STATE_SNAPSHOT')?.snapshot).toEqual({})
    const shown = valuesOver(s.snapshots.slice(start), (snapshot) => [snapshot.state.document, snapshot.state.title])
    expect(shown).toEqual([[OLD, 'Mine']])
  })

  it('three turns in a row carry state and messages over, and nothing grows that should not', async () => {
    const s = open('three-turns')
    for (let turn = 1; turn <= 3; turn++) {
      await script(base, s.threadId, [{ text: `Reply ${turn}.` }])
      await s.store.run({ message: `Message ${turn}` })
      const snapshot = s.store.getState()
      expect(snapshot).toMatchObject({ status: 'idle', error: undefined, confirmations: [], predictions: [], steps: [] })
      expect(snapshot.messages.map((message) => message.role)).toEqual(Array.from({ length: turn }, () => ['user', 'assistant']).flat())
      expect(new Set(snapshot.messages.map((message) => message.id)).size).toBe(2 * turn)
      expect(lastText(snapshot.messages)).toBe(`Reply ${turn}.`)
      expect(snapshot.state).toMatchObject({ document: OLD, revision: 0 })
      expect(snapshot.state.messages).toHaveLength(2 * turn)
    }
    const sent = await bodies(base, s.threadId)
    expect(sent.map((body) => body.messages.length)).toEqual([1, 3, 5])
    expect(sent.map((body) => (body.state as WriterState).document)).toEqual([OLD, OLD, OLD])
  })

  it('a model error mid-run ends as error with the state from before the run, and the next turn works', async () => {
    const s = open('model-error')
    s.store.setState((state) => ({ ...state, title: 'Kept' }))
    await script(base, s.threadId, [{ error: 'model exploded' }])
    await s.store.run({ message: 'Write something' })
    const failed = s.store.getState()
    expect(failed.status).toBe('error')
    expect(failed.error?.code).toBe('RUN_ERROR')
    // The run opened with STATE_SNAPSHOT({}): a failed run still gives back what was there before it.
    expect(failed.state).toEqual({ document: OLD, title: 'Kept', revision: 0 })
    expect(failed.committed).toEqual({ document: OLD, title: 'Kept', revision: 0 })
    expect(failed.predictions).toEqual([])
    const log = await serverLog(base, s.threadId)
    const events = protocolEvents(log[0]!)
    expect(events.map((event) => event.type)).toContain('RUN_ERROR')
    expect(events.find((event) => event.type === 'STATE_SNAPSHOT')?.snapshot).toEqual({})

    await script(base, s.threadId, [{ text: 'Back again.' }])
    await s.store.run({ message: 'Try again' })
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined })
    const [, retry] = await bodies(base, s.threadId)
    expect(retry!.state).toEqual({ document: OLD, title: 'Kept', revision: 0 })
    expect(lastText(s.store.getState().messages)).toBe('Back again.')
  })
})
