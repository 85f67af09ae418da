// The store against the CopilotKit runtime 1.75 (v2 endpoint, BuiltInAgent on a scripted AI SDK
// model): drafts from the store's predict option, an interrupt tool, AGUISendState* tools.
import type { Message } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { bodies, orphanToolMessages, protocolEvents, recordAs, type Session, script, serverLog, servers, session, type Via, valuesOver } from './support'

const base = servers.copilotkit
const url = `${base}/api/agent/writer/run`
const version = '@copilotkit/runtime 1.75.0 (v2), ai 6.0.325'
const OLD = 'The old document.'
const NEW = 'A brand new document about the sea, written line by line.'

interface WriterState {
  document: string
  title: string
}
const initialState: WriterState = { document: OLD, title: '' }
const predict = [{ stateKey: 'document', tool: 'write_document', toolArgument: 'document' }]

/** A store on the writer; recorded when it goes through HttpAgent (the recordings are HttpAgent's). */
function open(name: string, via: Via = 'HttpAgent'): Session<WriterState> {
  const s = session<WriterState>(url, { initialState, predict }, via)
  if (via === 'HttpAgent') recordAs(`copilotkit-${name}`, 'copilotkit', version, base, () => s.threadId)
  return s
}

async function draft(s: Session<WriterState>, after: { text: string }[]): Promise<string> {
  await script(base, s.threadId, [{ tool: 'write_document', args: { document: NEW }, chunkSize: 7 }, ...after])
  await s.store.run({ message: 'Write about the sea' })
  const [run] = await serverLog(base, s.threadId)
  return protocolEvents(run!).find((event) => event.type === 'TOOL_CALL_START')!.toolCallId as string
}

const lastText = (messages: readonly Message[]) => {
  const last = messages[messages.length - 1]
  return last?.role === 'assistant' ? last.content : undefined
}

describe.each(['HttpAgent', 'url'] as const)('CopilotKit through %s: draft, interrupt tool, approve', (via) => {
  it('shows the draft, answers with resume[] and the tool result, and the next turn works', async () => {
    const s = open('draft-approve', via)
    const callId = await draft(s, [{ text: 'Saved.' }])
    const waiting = s.store.getState()
    expect(waiting.error).toBeUndefined()
    expect(waiting.status).toBe('interrupted')
    expect(waiting.state.document).toBe(NEW)
    expect(waiting.committed.document).toBe(OLD)
    expect(waiting.confirmations).toHaveLength(1)
    expect(waiting.confirmations[0]).toMatchObject({ id: callId, source: 'interrupt', reason: 'tool_call', toolCallId: callId, stateKeys: ['document'] })
    const shown = valuesOver(s.snapshots, (snapshot) => snapshot.state.document)
    const firstDraft = shown.findIndex((value) => value !== OLD)
    for (const value of shown.slice(firstDraft)) expect(NEW.startsWith(value)).toBe(true)

    const before = waiting.messages
    await s.store.approve()
    const [, approved] = await bodies(base, s.threadId)
    expect(approved!.resume).toEqual([{ interruptId: callId, status: 'resolved', payload: { accepted: true } }])
    expect(approved!.state).toEqual({ document: NEW, title: '' })
    // A tool_call interrupt naming a call without a result: the answer goes as that call's result too.
    expect(approved!.messages.slice(0, before.length)).toEqual(before)
    expect(approved!.messages.slice(before.length)).toEqual([{ id: expect.any(String), role: 'tool', toolCallId: callId, content: '{"accepted":true}' }])
    const done = s.store.getState()
    expect(done).toMatchObject({ status: 'idle', error: undefined, confirmations: [], predictions: [] })
    expect(done.committed).toEqual({ document: NEW, title: '' })
    expect(lastText(done.messages)).toBe('Saved.')

    await script(base, s.threadId, [{ text: 'Anything else?' }])
    await s.store.run({ message: 'Thanks' })
    const next = s.store.getState()
    expect(next.error).toBeUndefined()
    expect(next.status).toBe('idle')
    expect(lastText(next.messages)).toBe('Anything else?')
    expect(orphanToolMessages(next.messages)).toEqual([])
  })

  it('reject restores the document, answers accepted: false, and the next turn works', async () => {
    const s = open('draft-reject', via)
    const callId = await draft(s, [{ text: 'Understood.' }])
    await s.store.reject()
    const [, rejected] = await bodies(base, s.threadId)
    expect(rejected!.resume).toEqual([{ interruptId: callId, status: 'resolved', payload: { accepted: false } }])
    expect(rejected!.state).toEqual(initialState)
    expect(rejected!.messages.filter((message) => message.role === 'tool')).toEqual([
      { id: expect.any(String), role: 'tool', toolCallId: callId, content: '{"accepted":false}' },
    ])
    const done = s.store.getState()
    expect(done).toMatchObject({ status: 'idle', error: undefined, state: initialState, committed: initialState })

    await script(base, s.threadId, [{ text: 'Next.' }])
    await s.store.run({ message: 'Fine' })
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined, state: initialState })
  })
})

describe('CopilotKit: the resumed run keeps the run options', () => {
  it('sends the tools, context and forwardedProps of the run it resumes', async () => {
    const s = open('resume-run-options')
    const tools = [{ name: 'show_toast', description: 'Shows a message to the user', parameters: { type: 'object', properties: { text: { type: 'string' } } } }]
    const context = [{ description: 'The user’s locale', value: 'en-GB' }]
    const forwardedProps = { temperature: 0 }
    await script(base, s.threadId, [{ tool: 'write_document', args: { document: NEW }, chunkSize: 7 }, { text: 'Saved.' }])
    await s.store.run({ message: 'Write about the sea', tools, context, forwardedProps })
    expect(s.store.getState().status).toBe('interrupted')
    await s.store.approve()
    const [first, resumed] = await bodies(base, s.threadId)
    expect(first).toMatchObject({ tools, context, forwardedProps })
    expect(resumed).toMatchObject({ tools, context, forwardedProps })
  })
})

describe('CopilotKit: cancel', () => {
  it('cancel restores the document, sends status: cancelled with the cancelled tool result, and the next turn works', async () => {
    const s = open('draft-cancel')
    const callId = await draft(s, [{ text: 'Cancelled.' }])
    await s.store.cancel()
    const [, cancelled] = await bodies(base, s.threadId)
    expect(cancelled!.resume).toEqual([{ interruptId: callId, status: 'cancelled' }])
    expect(cancelled!.state).toEqual(initialState)
    // CopilotKit's own client answers a cancelled tool_call interrupt with {"status":"cancelled"}.
    expect(cancelled!.messages.filter((message) => message.role === 'tool')).toEqual([
      { id: expect.any(String), role: 'tool', toolCallId: callId, content: '{"status":"cancelled"}' },
    ])
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined, state: initialState, committed: initialState, confirmations: [] })
    await script(base, s.threadId, [{ text: 'Next.' }])
    await s.store.run({ message: 'Fine' })
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined, state: initialState })
  })
})

describe('CopilotKit: server state tools, edits, turns, errors', () => {
  it('applies AGUISendStateDelta and AGUISendStateSnapshot and sends the result back', async () => {
    const s = open('state-tools')
    await script(base, s.threadId, [
      { tool: 'AGUISendStateDelta', args: { delta: [{ op: 'replace', path: '/title', value: 'Sea' }] } },
      { tool: 'AGUISendStateSnapshot', args: { snapshot: { document: 'From the server.', title: 'Sea' } } },
      { text: 'Updated.' },
    ])
    await s.store.run({ message: 'Set a title' })
    const done = s.store.getState()
    expect(done).toMatchObject({ status: 'idle', error: undefined })
    expect(done.state).toEqual({ document: 'From the server.', title: 'Sea' })
    expect(done.committed).toEqual({ document: 'From the server.', title: 'Sea' })
    const [run] = await serverLog(base, s.threadId)
    const types = protocolEvents(run!).map((event) => event.type)
    expect(types).toContain('STATE_DELTA')
    expect(types.filter((type) => type === 'STATE_SNAPSHOT').length).toBeGreaterThanOrEqual(2)

    await script(base, s.threadId, [{ text: 'OK.' }])
    await s.store.run({ message: 'Thanks' })
    const [, next] = await bodies(base, s.threadId)
    expect(next!.state).toEqual({ document: 'From the server.', title: 'Sea' })
  })

  it('a user edit made while the agent streams survives the server snapshot and reaches the server on the next run', async () => {
    const s = open('edit-while-streaming')
    let edited = false
    s.store.onEvent((event) => {
      if (!edited && event.type === 'TOOL_CALL_START') {
        edited = true
        s.store.setState((state) => ({ ...state, document: 'Edited by the user.' }))
      }
    })
    await script(base, s.threadId, [{ tool: 'AGUISendStateDelta', args: { delta: [{ op: 'replace', path: '/title', value: 'Sea' }] } }, { text: 'Done.' }])
    await s.store.run({ message: 'Set a title' })
    expect(edited).toBe(true)
    expect(s.store.getState().state).toEqual({ document: 'Edited by the user.', title: 'Sea' })
    expect(s.store.getState().committed).toEqual({ document: 'Edited by the user.', title: 'Sea' })
    await script(base, s.threadId, [{ text: 'OK.' }])
    await s.store.run({ message: 'Next' })
    const [, next] = await bodies(base, s.threadId)
    expect(next!.state).toEqual({ document: 'Edited by the user.', title: 'Sea' })
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
    await script(base, s.threadId, [
      { tool: 'AGUISendStateDelta', args: { delta: [{ op: 'replace', path: '/title', value: 'Half' }] } },
      { error: 'model exploded' },
    ])
    await s.store.run({ message: 'Write something' })
    const failed = s.store.getState()
    expect(failed.status).toBe('error')
    expect(failed.error?.code).toBe('RUN_ERROR')
    // A failed run rolls back every state change it made, the server's included.
    expect(failed.state).toEqual(initialState)
    expect(failed.committed).toEqual(initialState)
    await script(base, s.threadId, [{ text: 'Back again.' }])
    await s.store.run({ message: 'Try again' })
    expect(s.store.getState()).toMatchObject({ status: 'idle', error: undefined })
    const [, retry] = await bodies(base, s.threadId)
    expect(retry!.state).toEqual(initialState)
  })
})
