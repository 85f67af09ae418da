// Three scripted agents, one per wire style the store handles. No language model: each reads the
// request and streams what the corresponding real server sends, in the same order and shapes.
import { EventType, type Message, type RunAgentInput, type ToolCall } from '@ag-ui/core'
import { wordCount } from '../shared/word-count'
import {
  continueStory,
  cookingTimes,
  defaultRecipe,
  findRecipe,
  type PlanStep,
  planFor,
  type Recipe,
  rewriteEnding,
  shortenStory,
  storyFor,
  swapFor,
  takeFor,
} from './content'
import { lastUserText, newId, rawChunks, type ScriptedAgent, startRun, textOf, tokens, wordChunks } from './script'

type StateObject = Record<string, unknown>

const stateOf = (input: RunAgentInput): StateObject =>
  typeof input.state === 'object' && input.state !== null && !Array.isArray(input.state) ? (input.state as StateObject) : {}

function toolCalls(messages: readonly Message[]): ToolCall[] {
  return messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
}

function answered(messages: readonly Message[]): Set<string> {
  return new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])))
}

// ---------------------------------------------------------------------------------------------
// 1. recipe: shared state. The recipe is built up in successive STATE_SNAPSHOTs while the model
//    talks; the next run starts from whatever the client sends back, user edits included.

function hasRecipe(value: unknown): value is Recipe {
  const recipe = value as Partial<Recipe> | undefined
  return typeof recipe?.title === 'string' && Array.isArray(recipe.ingredients) && Array.isArray(recipe.instructions)
}

interface Change {
  note: string
  apply: (recipe: Recipe) => Recipe
}

/** The edits a request asks of a recipe, one per visible change, so they can stream one by one. */
function changesFor(request: string, recipe: Recipe): Change[] {
  const changes: Change[] = []
  const vegan = /\bvegan\b/i.test(request)
  const preference = (name: string): Change[] =>
    recipe.special_preferences.includes(name) ? [] : [{ note: '', apply: (r) => ({ ...r, special_preferences: [...r.special_preferences, name] }) }]

  if (vegan || /vegetarian|meat-?free|veggie/i.test(request)) {
    recipe.ingredients.forEach((ingredient, index) => {
      const swap = swapFor(ingredient, vegan)
      if (!swap) return
      const from = new RegExp(ingredient.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi')
      changes.push({
        note: swap.note,
        apply: (r) => ({
          ...r,
          ingredients: r.ingredients.map((item, i) => (i === index ? swap.to : item)),
          instructions: r.instructions.map((step) => step.replace(from, swap.to.name.toLowerCase())),
        }),
      })
    })
    changes.push(...preference('Vegetarian'), ...(vegan ? preference('Vegan') : []))
  }
  if (/spic|chil+i|\bhot\b/i.test(request)) {
    if (!recipe.ingredients.some((item) => /chil/i.test(item.name))) {
      changes.push({
        note: 'chilli flakes to finish',
        apply: (r) => ({
          ...r,
          ingredients: [...r.ingredients, { name: 'Chilli flakes', amount: '1 tsp, or to taste' }],
          instructions: [...r.instructions, 'Finish with a pinch of chilli flakes.'],
        }),
      })
    }
    changes.push(...preference('Spicy'))
  }
  if (/quick|faster|hurry|short on time/i.test(request)) {
    const index = Math.max(0, cookingTimes.indexOf(recipe.cooking_time) - 1)
    const time = cookingTimes[index]!
    if (time !== recipe.cooking_time) changes.push({ note: `about ${time} in total`, apply: (r) => ({ ...r, cooking_time: time }) })
  }
  return changes
}

export const recipeAgent: ScriptedAgent = async (input, stream, attempt = 0) => {
  const run = startRun(input, stream)
  const state = stateOf(input)
  const request = lastUserText(input.messages) ?? ''
  const current = hasRecipe(state.recipe) && state.recipe.title !== '' ? state.recipe : undefined
  const show = (recipe: Recipe) => run.emit({ type: EventType.STATE_SNAPSHOT, snapshot: { ...state, recipe } })
  // Like agent-framework, start by echoing the state the client sent: it is the truth.
  run.emit({ type: EventType.STATE_SNAPSHOT, snapshot: state })

  // Asked again (a regenerated answer), the agent gives another take on the same request.
  const take = takeFor(attempt)
  const dish = findRecipe(request)
  if (dish || !current) {
    const base = dish ?? defaultRecipe
    const changes = [...changesFor(request, base), ...(take ? [take] : [])]
    const target = changes.reduce((recipe, change) => change.apply(recipe), base)
    const notes = changes.map((change) => change.note).filter(Boolean)
    // A reasoning model thinks first; the UI shows it as a collapsible block.
    await run.think(
      `The user asked for “${request.trim() || 'something to cook'}”. ${dish ? `I know ${target.title}` : 'I have no recipe for that'}: ${target.ingredients.length} ingredients and ${target.instructions.length} steps to write on the card.`,
    )
    await run.say(
      dish
        ? `Here's ${target.title.toLowerCase()}${notes.length ? `, with ${notes.join(' and ')}` : ''}. I'll fill in the card as I go.`
        : `I don't have a recipe for that yet, so here's a ${target.title.toLowerCase()} to start from.`,
    )
    let recipe: Recipe = { ...target, ingredients: [], instructions: [] }
    show(recipe)
    // A progress card (an ACTIVITY_SNAPSHOT, then ACTIVITY_DELTA per item) beside the chat.
    const total = target.ingredients.length + target.instructions.length
    const progressed = run.progress('Writing the recipe card', total)
    let done = 0
    await run.pause(2)
    for (const ingredient of target.ingredients) {
      recipe = { ...recipe, ingredients: [...recipe.ingredients, ingredient] }
      show(recipe)
      progressed(++done)
      await run.pause(3)
    }
    for (const step of target.instructions) {
      recipe = { ...recipe, instructions: [...recipe.instructions, step] }
      show(recipe)
      progressed(++done)
      await run.pause(4)
    }
    await run.say(
      `It takes about ${target.cooking_time} (skill level: ${target.skill_level.toLowerCase()}). Change anything on the card: I'll work from your version next time.`,
    )
    return run.finish()
  }

  const asked = changesFor(request, current)
  if (asked.length === 0) {
    await run.say(
      attempt % 2 === 0
        ? `I can make “${current.title}” vegetarian, vegan, spicy or quicker, or start a new dish: try carbonara, curry or pancakes.`
        : `Try “make it vegetarian”, “make it spicy” or “quicker” for “${current.title}”, or ask for carbonara, curry or pancakes.`,
    )
    return run.finish()
  }
  const changes = [...asked, ...(take ? [take] : [])]
  const notes = changes.map((change) => change.note).filter(Boolean)
  await run.say(`Updating “${current.title}”${notes.length ? `: ${notes.join(', ')}` : ''}.`)
  let recipe = current
  for (const change of changes) {
    recipe = change.apply(recipe)
    show(recipe)
    await run.pause(3)
  }
  await run.say(`Done. Everything else is as you left it.`)
  run.finish()
}

// ---------------------------------------------------------------------------------------------
// 2. writer: agent-framework's predictive state. PredictState after RUN_STARTED, a STATE_DELTA
//    replacing /document after every argument chunk, then an interrupt the client must resume.

const writeDocumentSchema = {
  type: 'object',
  properties: {
    accepted: { type: 'boolean', description: 'Whether to write the document' },
    document: { type: 'string', description: 'An edited document to write instead' },
  },
  required: ['accepted'],
}

/**
 * How many drafts of a document the user answered in this thread, approved or rejected: each asks for a
 * new version of a story, so a second run never repeats the first (Reject then has something to undo,
 * and asking again after a Reject gives another story). A draft cut off before it was answered does not count.
 */
function draftsAnswered(messages: readonly Message[]): number {
  const writes = new Set(toolCalls(messages).flatMap((call) => (call.function.name === 'write_document' ? [call.id] : [])))
  return messages.filter((message) => message.role === 'tool' && writes.has(message.toolCallId)).length
}

/** `version`: the drafts answered in the thread plus the attempt, so a regenerated draft differs too. */
function nextDocument(request: string, document: string, version: number, attempt: number): string {
  if (document.trim() === '') return storyFor(request, version)
  if (/\b(short|shorter|shorten|trim|summar)/i.test(request)) return shortenStory(document, attempt)
  if (/\b(different|rewrite|change)\b/i.test(request)) return rewriteEnding(document, attempt)
  if (/\b(continue|add|another|more|longer|extend|paragraph|ending)\b/i.test(request)) return continueStory(document, attempt)
  return storyFor(request, version)
}

export const writerAgent: ScriptedAgent = async (input, stream, attempt = 0) => {
  const run = startRun(input, stream)
  const state = stateOf(input)
  run.emit({ type: EventType.CUSTOM, name: 'PredictState', value: [{ state_key: 'document', tool: 'write_document', tool_argument: 'document' }] })
  const done = answered(input.messages)
  const pending = toolCalls(input.messages)
    .filter((call) => call.function.name === 'write_document' && !done.has(call.id))
    .pop()

  if (pending) {
    // A write is waiting for approval: only a resume entry for it may continue the thread.
    const entry = input.resume?.find((resume) => resume.interruptId === pending.id)
    if (!entry) return run.fail(`The approval of ${pending.id} must be answered in RunAgentInput.resume`, 'APPROVAL_RESUME_REQUIRED')
    if (entry.status === 'cancelled') return run.fail('The approval was cancelled', 'APPROVAL_RESUME_CANCELLED')
    const payload = (entry.payload ?? {}) as { accepted?: unknown; document?: unknown }
    const accepted = payload.accepted === true
    // The server echoes what it is sent: undoing a rejected draft is the client's job.
    run.emit({ type: EventType.STATE_SNAPSHOT, snapshot: state })
    run.emit({
      type: EventType.TOOL_CALL_RESULT,
      messageId: newId(),
      toolCallId: pending.id,
      role: 'tool',
      content: accepted ? 'Document written.' : 'The user rejected the change.',
    })
    const words = typeof state.document === 'string' ? wordCount(state.document) : 0
    await run.say(
      !accepted
        ? 'Understood: I left the document as it was.'
        : typeof payload.document === 'string'
          ? `Saved your edited version (${words} words).`
          : `Saved (${words} words). Ask me to continue it, shorten it, or write something new.`,
    )
    return run.finish()
  }

  run.emit({ type: EventType.STATE_SNAPSHOT, snapshot: state })
  const document = typeof state.document === 'string' ? state.document : ''
  const next = nextDocument(lastUserText(input.messages) ?? '', document, draftsAnswered(input.messages) + attempt, attempt)
  const pieces = wordChunks(next, 3)
  const last = pieces.length - 1
  // Each chunk is a piece of the JSON arguments; escaped piece by piece, so they concatenate to valid JSON.
  const chunks = pieces.map((piece, i) => `${i === 0 ? '{"document": "' : ''}${JSON.stringify(piece).slice(1, -1)}${i === last ? '"}' : ''}`)
  let written = ''
  const messageId = newId()
  run.emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' })
  const toolCallId = await run.callTool('write_document', chunks, {
    parentMessageId: messageId,
    afterChunk(index) {
      written += pieces[index]
      run.emit({ type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/document', value: written }] })
    },
    beforeEnd: () => run.emit({ type: EventType.STATE_SNAPSHOT, snapshot: { ...state, document: next } }),
  })
  run.emit({
    type: EventType.CUSTOM,
    name: 'function_approval_request',
    value: { id: toolCallId, function_call: { call_id: toolCallId, name: 'write_document', arguments: { document: next } } },
  })
  await run.callTool(
    'confirm_changes',
    [
      JSON.stringify({
        function_name: 'write_document',
        function_call_id: toolCallId,
        function_arguments: { document: next },
        steps: [{ description: 'Execute write_document', status: 'enabled' }],
      }),
    ],
    { parentMessageId: messageId },
  )
  run.emit({ type: EventType.TEXT_MESSAGE_END, messageId })
  run.finish([{ id: toolCallId, reason: 'tool_call', message: 'Approve writing this document?', toolCallId, responseSchema: writeDocumentSchema }])
}

// ---------------------------------------------------------------------------------------------
// 3. planner: LangGraph. One step per graph node, PredictState just before the tool call, no state
//    events while its arguments stream, a confirm_changes call that only appears in
//    MESSAGES_SNAPSHOT, answered by a tool message; then the steps run, one status delta at a time.

/** The answer to a confirm_changes call, when the request's last message is one. */
function confirmationAnswer(messages: readonly Message[]): boolean | undefined {
  const last = messages[messages.length - 1]
  if (last?.role !== 'tool') return undefined
  const call = toolCalls(messages).find((candidate) => candidate.id === last.toolCallId)
  if (call?.function.name !== 'confirm_changes') return undefined
  try {
    return (JSON.parse(textOf(last.content)) as { accepted?: unknown }).accepted === true
  } catch {
    return false
  }
}

function isPlan(value: unknown): value is PlanStep[] {
  return Array.isArray(value) && value.every((step) => typeof (step as PlanStep | undefined)?.description === 'string')
}

export const plannerAgent: ScriptedAgent = async (input, stream) => {
  const run = startRun(input, stream)
  const state = stateOf(input)
  const answer = confirmationAnswer(input.messages)
  await run.step('start_node', () => undefined)

  if (answer === undefined) {
    const request = lastUserText(input.messages) ?? ''
    const steps = planFor(request)
    const args = JSON.stringify({ steps })
    const messageId = newId()
    const intro = `Here is a plan in ${steps.length} steps. Untick anything you want to skip, then approve it.`
    const toolCallId = await run.step('chat_node', async () => {
      await run.say(intro, messageId)
      run.emit({ type: EventType.CUSTOM, name: 'PredictState', value: [{ state_key: 'steps', tool: 'generate_task_steps', tool_argument: 'steps' }] })
      return run.callTool('generate_task_steps', rawChunks(args), { parentMessageId: messageId })
    })
    // The node boundary: the whole graph state, then the messages, where confirm_changes appears.
    run.emit({ type: EventType.STATE_SNAPSHOT, snapshot: { ...state, steps } })
    run.emit({
      type: EventType.MESSAGES_SNAPSHOT,
      messages: [
        ...input.messages,
        {
          id: messageId,
          role: 'assistant',
          content: intro,
          toolCalls: [{ id: toolCallId, type: 'function', function: { name: 'generate_task_steps', arguments: args } }],
        },
        { id: newId(), role: 'tool', toolCallId, content: 'Steps generated.' },
        { id: newId(), role: 'assistant', toolCalls: [{ id: newId(), type: 'function', function: { name: 'confirm_changes', arguments: '{}' } }] },
      ],
    })
    return run.finish()
  }

  if (!answer || !isPlan(state.steps)) {
    await run.step('chat_node', () =>
      run.say(answer ? 'There is no plan to run yet: tell me what to plan.' : "Okay, I've dropped that plan. Tell me what to change and I'll draft a new one."),
    )
    run.emit({ type: EventType.STATE_SNAPSHOT, snapshot: state })
    return run.finish()
  }

  const steps = state.steps
  const enabled = steps.filter((step) => step.status !== 'disabled').length
  await run.step('execute_node', async () => {
    const messageId = newId()
    run.emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' })
    const write = async (text: string) => {
      for (const delta of tokens(text)) {
        run.emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta })
        await run.pause()
      }
    }
    for (const [index, step] of steps.entries()) {
      if (step.status === 'disabled') continue
      run.emit({ type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: `/steps/${index}/status`, value: 'executing' }] })
      await write(`${index === 0 ? '' : '\n'}${index + 1}. ${step.description}…`)
      await run.pause(3)
      run.emit({ type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: `/steps/${index}/status`, value: 'completed' }] })
      await write(' done.')
    }
    const skipped = steps.length - enabled
    await write(`\nAll ${enabled} steps are complete${skipped ? ` (${skipped} skipped)` : ''}.`)
    run.emit({ type: EventType.TEXT_MESSAGE_END, messageId })
  })
  run.emit({
    type: EventType.STATE_SNAPSHOT,
    snapshot: { ...state, steps: steps.map((step) => (step.status === 'disabled' ? step : { ...step, status: 'completed' })) },
  })
  run.finish()
}

export const agents: Record<string, ScriptedAgent> = {
  recipe: recipeAgent,
  writer: writerAgent,
  planner: plannerAgent,
}
