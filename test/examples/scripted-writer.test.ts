// The example writer's scripted agent, in node: the stories it writes from a prompt, a new version
// each time a draft has been answered, and a word count that agrees with the page's.
import { type BaseEvent, EventType, type Message, type RunAgentInput } from '@ag-ui/core'
import { describe, expect, it } from 'vitest'
import { writerAgent } from '../../examples/server/agents'
import { storyFor, titleOf, topicOf } from '../../examples/server/content'
import { wordCount } from '../../examples/shared/word-count'

/** Runs the writer on one request and returns what it streamed. */
async function runWriter(input: Pick<RunAgentInput, 'messages' | 'state'> & Partial<RunAgentInput>): Promise<BaseEvent[]> {
  const events: BaseEvent[] = []
  const stream = { emit: (event: BaseEvent) => void events.push(event), pause: async () => {} }
  await writerAgent({ threadId: 't1', runId: 'r1', tools: [], context: [], forwardedProps: {}, ...input }, stream as never)
  return events
}

const textOfRun = (events: BaseEvent[]) =>
  events.flatMap((event) => (event.type === EventType.TEXT_MESSAGE_CONTENT ? [(event as BaseEvent & { delta: string }).delta] : [])).join('')

const lastDocument = (events: BaseEvent[]) =>
  (events.filter((event) => event.type === EventType.STATE_SNAPSHOT).at(-1) as BaseEvent & { snapshot: { document: string } }).snapshot.document

const user = (id: string, content: string): Message => ({ id, role: 'user', content })
const writeCall = (id: string, callId: string): Message => ({
  id,
  role: 'assistant',
  toolCalls: [{ id: callId, type: 'function', function: { name: 'write_document', arguments: '{}' } }],
})

describe('wordCount', () => {
  it('counts words holding a letter or a digit, not markdown marks or lone dashes', () => {
    expect(wordCount('# The Title\n\nOne two - three, 4 — five.')).toBe(7)
    expect(wordCount('')).toBe(0)
    expect(wordCount('  \n\n ')).toBe(0)
  })
})

describe('the stories of the scripted writer', () => {
  it('finds the topic of a request, or none when it names none', () => {
    expect(topicOf('Write a story about a lighthouse keeper')).toBe('a lighthouse keeper')
    expect(topicOf('Tell me a tale of two cities.')).toBe('two cities')
    expect(topicOf('A cat')).toBe('a cat')
    expect(topicOf('Write a story')).toBeUndefined()
    expect(topicOf('Please write me a short funny story')).toBeUndefined()
    expect(topicOf('Write a story for my son')).toBeUndefined()
    expect(topicOf('Add another paragraph')).toBeUndefined()
  })

  it('titles a story after its topic', () => {
    expect(titleOf('a lighthouse keeper')).toBe('The Lighthouse Keeper')
    expect(titleOf('two cities')).toBe('Two Cities')
  })

  it('writes "Write a story" as a titled story in plain text, about something', () => {
    const story = storyFor('Write a story')
    const [title, ...paragraphs] = story.split('\n\n')
    expect(title).toBe('The Lost Umbrella')
    expect(paragraphs).toHaveLength(3)
    expect(paragraphs[0]).toMatch(/^Nobody in town expected much from a lost umbrella\./)
    expect(story).not.toMatch(/#|Write a story/)
  })

  it('writes a new version each time, for a known story as for any other', () => {
    for (const request of ['Write a story', 'Write a story about a robot', 'Write a short story about a lighthouse keeper']) {
      const versions = [0, 1, 2].map((version) => storyFor(request, version))
      expect(new Set(versions).size).toBe(3)
      expect(versions.every((version) => !version.includes('#'))).toBe(true)
    }
  })
})

describe('the scripted writer agent', () => {
  it('says as many words as the page shows when the document is approved', async () => {
    const document = '# A Title\n\nOne two - three.'
    const events = await runWriter({
      messages: [user('m1', 'Write a story'), writeCall('m2', 'call_1')],
      state: { document },
      resume: [{ interruptId: 'call_1', status: 'resolved', payload: { accepted: true } }],
    })
    expect(wordCount(document)).toBe(5)
    expect(textOfRun(events)).toMatch(/^Saved \(5 words\)\./)
  })

  it('asked again after a draft was approved or rejected, drafts the next version', async () => {
    const first = storyFor('Write a story')
    const asked = await runWriter({ messages: [user('m1', 'Write a story')], state: { document: '' } })
    expect(lastDocument(asked)).toBe(first)
    const again = await runWriter({
      messages: [
        user('m1', 'Write a story'),
        writeCall('m2', 'call_1'),
        { id: 'm3', role: 'tool', toolCallId: 'call_1', content: 'Document written.' },
        user('m4', 'Write a story'),
      ],
      state: { document: first },
    })
    expect(lastDocument(again)).toBe(storyFor('Write a story', 1))
    // Asked again after a Reject: another story, not the one just rejected.
    const afterReject = await runWriter({
      messages: [
        user('m1', 'Write a story'),
        writeCall('m2', 'call_1'),
        { id: 'm3', role: 'tool', toolCallId: 'call_1', content: 'The user rejected the change.' },
        user('m4', 'Write a story'),
      ],
      state: { document: '' },
    })
    expect(lastDocument(afterReject)).toBe(storyFor('Write a story', 1))
    expect(lastDocument(afterReject)).not.toBe(first)
  })
})
