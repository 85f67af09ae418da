// The scripted agents answer a question asked again (a regenerated answer: the same user message in
// the same thread) differently, as a sampled model would: another take on the dish, another story.
import type { RunAgentInput } from '@ag-ui/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storyFor } from '../../examples/server/content'
import { type AgentServer, startAgentServer } from '../../examples/server/server'

let server: AgentServer
beforeAll(async () => {
  server = await startAgentServer({ delayMs: 0 })
})
afterAll(() => server.close())

const request = (threadId: string, messageId: string, content: string, state: unknown): RunAgentInput => ({
  threadId,
  runId: `run-${Math.random()}`,
  state,
  messages: [{ id: messageId, role: 'user', content }],
  tools: [],
  context: [],
  forwardedProps: {},
})

/** Posts a run and returns the last state snapshot it streamed. */
async function lastState(agent: string, input: RunAgentInput): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}/agents/${agent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(input),
  })
  const events = (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; snapshot?: Record<string, unknown> })
  return events.filter((event) => event.type === 'STATE_SNAPSHOT').at(-1)!.snapshot!
}

const emptyRecipe = { recipe: { title: '', skill_level: 'Intermediate', cooking_time: '30 min', special_preferences: [], ingredients: [], instructions: [] } }
type RecipeState = { recipe: { title: string; cooking_time: string; ingredients: unknown[] } }

describe('a question asked again', () => {
  it('gets another take on the recipe each time, in the same thread only', async () => {
    const takes = [] as string[][]
    for (let attempt = 0; attempt < 4; attempt++) {
      const { recipe } = (await lastState('recipe', request('t-recipe', 'u1', 'Spaghetti carbonara, please', emptyRecipe))) as RecipeState
      takes.push([recipe.title, recipe.cooking_time, String(recipe.ingredients.length)])
    }
    expect(takes).toStrictEqual([
      ['Spaghetti Carbonara', '30 min', '6'],
      ['Weeknight Spaghetti Carbonara', '15 min', '6'],
      ['Spaghetti Carbonara with Lemon & Herbs', '30 min', '8'],
      ['Weeknight Spaghetti Carbonara', '15 min', '6'],
    ])
    // Another message (an edited question) or another thread is a first answer again.
    const edited = (await lastState('recipe', request('t-recipe', 'u2', 'Spaghetti carbonara, please', emptyRecipe))) as RecipeState
    const elsewhere = (await lastState('recipe', request('t-other', 'u1', 'Spaghetti carbonara, please', emptyRecipe))) as RecipeState
    expect([edited.recipe.title, elsewhere.recipe.title]).toStrictEqual(['Spaghetti Carbonara', 'Spaghetti Carbonara'])
  })

  it('gets another version of the story', async () => {
    const ask = 'Write a short story about a lighthouse keeper'
    const first = await lastState('writer', request('t-writer', 'u1', ask, { document: '' }))
    const second = await lastState('writer', request('t-writer', 'u1', ask, { document: '' }))
    expect([first.document, second.document]).toStrictEqual([storyFor(ask, 0), storyFor(ask, 1)])
  })
})
