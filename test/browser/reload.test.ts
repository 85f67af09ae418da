// The example apps persist their thread in localStorage (issue 13): a reload brings back the
// conversation, the draft and an open confirmation, and answering it after the reload sends the
// resume the server waits for. Built and served like examples.test.ts, in a Chromium of its own.
import type { Message, RunAgentInput } from '@ag-ui/core'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { continueStory, planFor, storyFor } from '../../examples/server/content'
import { serveExamples, waitForStatus } from './harness'

const delayMs = 8
const testTimeout = 30_000

const served = serveExamples('examples-build-reload', { delayMs })

const { requestsTo } = served
const lastMessage = (input: RunAgentInput): Message => input.messages[input.messages.length - 1]!
const toolCallsOf = (input: RunAgentInput) => input.messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))

/** A page on a fresh start: every page of this browser shares the apps' localStorage. */
async function open(path: string) {
  const { page, errors } = await served.browser.newPage()
  await page.goto(`${served.server.url}${path}`)
  await page.evaluate(() => localStorage.clear())
  await page.reload()
  await page.getByRole('textbox', { name: 'Message' }).waitFor()
  return { page, errors }
}

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text)
  await page.getByRole('textbox', { name: 'Message' }).press('Enter')
}

/** Waits until a thread the app saved under `key` (or `key:<thread id>`, one per chat) holds `text`; writes during a stream are throttled. */
const savedHolds = (page: Page, key: string, text: string) =>
  page.waitForFunction(
    ([key, text]) => Object.keys(localStorage).some((name) => (name === key || name.startsWith(`${key}:`)) && localStorage.getItem(name)?.includes(text)),
    [key, text] as const,
  )

/** What the page shows of the thread: the chat bubbles and the status label. */
const chatText = (page: Page) => page.locator('ol.messages li.message').allTextContents()
const statusText = async (page: Page) => (await page.getByTestId('status').textContent())?.trim()

/** Waits (at most 5 s, bounded) for something only the server sees, such as a request arriving. */
async function until(done: () => boolean) {
  for (let tries = 0; tries < 100 && !done(); tries++) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(done()).toBe(true)
}

async function reload(page: Page) {
  await page.reload()
  await page.getByRole('textbox', { name: 'Message' }).waitFor()
}

describe('vue-writer: reloaded while waiting for approval', () => {
  it(
    'shows the draft and the Approve / Reject panel again, and approving sends the resume',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      const request = 'Write a short story about a lighthouse keeper'
      const story = storyFor(request)
      await send(page, request)
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      await waitForStatus(page, 'Waiting for your approval')
      await savedHolds(page, 'vue-writer', 'interrupted')
      const chat = await chatText(page)
      expect(chat[0]).toBe(request)
      const requestsBefore = requestsTo('writer').length
      expect(requestsBefore).toBe(1)

      await reload(page)
      expect(await statusText(page)).toBe('Waiting for your approval')
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(story.length))
      expect(await page.locator('mark.draft').count()).toBeGreaterThan(0)
      expect(await page.getByText('Draft · not approved').isVisible()).toBe(true)
      expect(await page.getByTestId('approval').isVisible()).toBe(true)
      for (const name of ['Approve', 'Edit first', 'Reject']) {
        expect(await page.getByRole('button', { name, exact: true }).isEnabled()).toBe(true)
      }
      expect(await chatText(page)).toEqual(chat)
      // Loading the page sent nothing: the thread came from localStorage, not from the server.
      expect(requestsTo('writer')).toHaveLength(requestsBefore)

      await page.getByRole('button', { name: 'Approve', exact: true }).click()
      await page.getByText(/^Saved \(\d+ words\)/).waitFor()
      await waitForStatus(page, 'Idle')
      const [first, resumed] = requestsTo('writer')
      expect(requestsTo('writer')).toHaveLength(2)
      const writeCall = toolCallsOf(resumed!).find((call) => call.function.name === 'write_document')
      expect(writeCall?.id).toMatch(/^call_/)
      expect(resumed!.resume).toEqual([{ interruptId: writeCall!.id, status: 'resolved', payload: { accepted: true } }])
      expect(resumed!.threadId).toBe(first!.threadId)
      expect(resumed!.state).toEqual({ document: story })
      expect(resumed!.messages[0]).toMatchObject({ role: 'user', content: request })
      expect(await page.locator('mark.draft').count()).toBe(0)
      expect(await page.getByTestId('approval').count()).toBe(0)

      // And the answered thread survives the next reload as answered: no panel comes back.
      await savedHolds(page, 'vue-writer', 'Saved (')
      const answered = await chatText(page)
      await reload(page)
      expect(await statusText(page)).toBe('Idle')
      expect(await chatText(page)).toEqual(answered)
      expect(await page.getByTestId('approval').count()).toBe(0)
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(story.length))
      expect(requestsTo('writer')).toHaveLength(2)

      // A follow-up draft waits across a reload too, and Reject then brings back the approved story.
      await send(page, 'Add another paragraph')
      await page.getByRole('button', { name: 'Reject', exact: true }).waitFor()
      await savedHolds(page, 'vue-writer', 'interrupted')
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(continueStory(story).length))
      await reload(page)
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(continueStory(story).length))
      expect(requestsTo('writer')).toHaveLength(3)
      await page.getByRole('button', { name: 'Reject', exact: true }).click()
      await page.getByText('Understood: I left the document as it was.').waitFor()
      await waitForStatus(page, 'Idle')
      const rejected = requestsTo('writer')[3]!
      const followUpCall = toolCallsOf(rejected)
        .filter((call) => call.function.name === 'write_document')
        .at(-1)!
      expect(followUpCall.id).not.toBe(writeCall!.id)
      expect(rejected.resume).toEqual([{ interruptId: followUpCall.id, status: 'resolved', payload: { accepted: false } }])
      expect(rejected.state).toEqual({ document: story })
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(story.length))
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('vue-writer: reloaded while the draft streams', () => {
  it(
    'comes back idle with the draft discarded and the request kept in the chat, and the next request works',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      const request = 'Write a short story about a lighthouse keeper'
      await send(page, request)
      // Part of the draft is on screen and saved (writes while streaming are throttled, not skipped).
      await page.waitForFunction(() => Number(document.querySelector('[data-testid=document]')?.getAttribute('data-length')) > 40)
      await savedHolds(page, 'vue-writer', 'running')
      expect(await statusText(page)).toBe('LIVE')

      await reload(page)
      // The store has no connectUrl (the example server has no connect endpoint): the run is given up, its draft discarded.
      expect(await statusText(page)).toBe('Idle')
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe('0')
      expect(await page.locator('mark.draft').count()).toBe(0)
      expect(await page.getByTestId('approval').count()).toBe(0)
      expect((await chatText(page))[0]).toBe(request)
      const writes = requestsTo('writer').length

      await send(page, 'A story about a robot')
      await until(() => requestsTo('writer').length > writes)
      const next = requestsTo('writer')[writes]!
      expect(next.state).toEqual({ document: '' })
      expect(next.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([request, 'A story about a robot'])
      // The given-up call must not go back unanswered: a server reads it as still waiting (the writer asks for its resume).
      const answeredCalls = new Set(next.messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])))
      expect(toolCallsOf(next).filter((call) => !answeredCalls.has(call.id))).toEqual([])
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(storyFor('A story about a robot').length))
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('solid-writer: reloaded while waiting for approval', () => {
  it(
    'shows the draft and the Approve / Reject panel again, and approving sends the resume',
    async () => {
      const { page, errors } = await open('/solid-writer/')
      // The other writers of this file talk to the same agent: only this test's requests count.
      const earlier = requestsTo('writer').length
      const writes = () => requestsTo('writer').slice(earlier)
      const request = 'Write a short story about a lighthouse keeper'
      const story = storyFor(request)
      await send(page, request)
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      await waitForStatus(page, 'Waiting for your approval')
      await savedHolds(page, 'solid-writer', 'interrupted')
      const chat = await chatText(page)
      expect(writes()).toHaveLength(1)

      await reload(page)
      expect(await statusText(page)).toBe('Waiting for your approval')
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(story.length))
      expect(await page.locator('mark.draft').count()).toBeGreaterThan(0)
      for (const name of ['Approve', 'Reject']) expect(await page.getByRole('button', { name, exact: true }).isEnabled()).toBe(true)
      expect(await chatText(page)).toEqual(chat)
      // Loading the page sent nothing: the thread came from localStorage, not from the server.
      expect(writes()).toHaveLength(1)

      await page.getByRole('button', { name: 'Approve', exact: true }).click()
      await page.getByText(/^Saved \(\d+ words\)/).waitFor()
      await waitForStatus(page, 'Idle')
      const [first, resumed] = writes()
      const writeCall = toolCallsOf(resumed!).find((call) => call.function.name === 'write_document')
      expect(resumed!.resume).toEqual([{ interruptId: writeCall!.id, status: 'resolved', payload: { accepted: true } }])
      expect(resumed!.threadId).toBe(first!.threadId)
      expect(resumed!.state).toEqual({ document: story })
      expect(await page.getByTestId('approval').count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('svelte-planner: reloaded while the plan waits for confirmation', () => {
  it(
    'shows the conversation and the plan again, and approving answers the confirm_changes call',
    async () => {
      const { page, errors } = await open('/svelte-planner/')
      const plan = planFor('Plan a trip to Mars')
      await send(page, 'Plan a trip to Mars')
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      await savedHolds(page, 'svelte-planner', 'confirm_changes')
      const chat = await chatText(page)
      expect(chat.length).toBeGreaterThan(1)

      await reload(page)
      expect(await chatText(page)).toEqual(chat)
      expect(await page.getByRole('textbox', { name: /^Step \d$/ }).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(
        plan.map((step) => step.description),
      )
      expect(requestsTo('planner')).toHaveLength(1)

      await page.getByRole('button', { name: 'Approve', exact: true }).click()
      await waitForStatus(page, 'Idle')
      const [, second] = requestsTo('planner')
      const confirm = toolCallsOf(second!).find((call) => call.function.name === 'confirm_changes')
      expect(lastMessage(second!)).toMatchObject({ role: 'tool', toolCallId: confirm!.id, content: '{"accepted":true}' })
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('react-recipe: reloaded after a run and an edit', () => {
  it(
    'shows the conversation and the edited recipe again, and the next run sends both',
    async () => {
      const { page, errors } = await open('/react-recipe/')
      const title = page.getByRole('textbox', { name: 'Recipe title' })
      await page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
      await waitForStatus(page, 'Idle')
      await title.fill("Nonna's Carbonara")
      await savedHolds(page, 'react-recipe', "Nonna's Carbonara")
      const chat = await chatText(page)
      expect(chat.length).toBeGreaterThan(1)

      await reload(page)
      expect(await chatText(page)).toEqual(chat)
      expect(await title.inputValue()).toBe("Nonna's Carbonara")
      expect(await page.getByRole('textbox', { name: 'Ingredient 1' }).inputValue()).not.toBe('')

      await send(page, 'Make it vegetarian')
      await page.getByText('Done. Everything else is as you left it.').waitFor()
      await waitForStatus(page, 'Idle')
      const [first, second] = requestsTo('recipe')
      expect(requestsTo('recipe')).toHaveLength(2)
      expect(second!.threadId).toBe(first!.threadId)
      expect(second!.state).toMatchObject({ recipe: { title: "Nonna's Carbonara" } })
      expect(second!.messages[0]).toMatchObject({ role: 'user', content: 'Spaghetti carbonara, please' })
      expect(lastMessage(second!)).toMatchObject({ role: 'user', content: 'Make it vegetarian' })
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )

  it(
    'keeps an edit made just before the page goes away',
    async () => {
      const { page, errors } = await open('/react-recipe/')
      const title = page.getByRole('textbox', { name: 'Recipe title' })
      await page.getByRole('button', { name: 'Make it vegetarian' }).click()
      await waitForStatus(page, 'Idle')
      // Edits are written throttled (250 ms by default): a reload right after one must not lose it.
      await title.fill('Carbonara for two')
      await reload(page)
      expect(await title.inputValue()).toBe('Carbonara for two')
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('a reload keeps the end of the conversation in view', () => {
  const apps: [string, (page: Page) => Promise<void>][] = [
    [
      '/vue-writer/',
      async (page) => {
        for (const request of ['Write a short story about a lighthouse keeper', 'Add another paragraph']) {
          await send(page, request)
          await page.getByRole('button', { name: 'Approve', exact: true }).click()
          await waitForStatus(page, 'Idle')
        }
        await savedHolds(page, 'vue-writer', 'Saved (')
      },
    ],
    [
      '/svelte-planner/',
      async (page) => {
        await send(page, 'Plan a trip to Mars')
        await page.getByRole('button', { name: 'Approve', exact: true }).click()
        await waitForStatus(page, 'Idle')
        await savedHolds(page, 'svelte-planner', 'steps are complete')
      },
    ],
    [
      '/react-recipe/',
      async (page) => {
        await page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
        await waitForStatus(page, 'Idle')
        await savedHolds(page, 'react-recipe', 'skill level')
      },
    ],
  ]
  for (const [path, fill] of apps) {
    it(
      `${path}: on a phone, the chat opens scrolled to its last message`,
      async () => {
        const { page, errors } = await open(path)
        await page.setViewportSize({ width: 390, height: 844 })
        await fill(page)
        await reload(page)
        const chat = await page.locator('ol.messages').evaluate((list) => {
          const last = list.lastElementChild!.getBoundingClientRect()
          const box = list.getBoundingClientRect()
          return { overflows: list.scrollHeight > list.clientHeight, lastInView: last.top >= box.top - 1 && last.bottom <= box.bottom + 1 }
        })
        expect(chat).toEqual({ overflows: true, lastInView: true })
        expect(errors).toEqual([])
        await page.close()
      },
      testTimeout,
    )
  }
})

describe('a reload mid-run', () => {
  it(
    'vue-writer: says the answer was interrupted, and Retry asks again and gets the draft',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      const request = 'Write a short story about a lighthouse keeper'
      await send(page, request)
      await page.waitForFunction(() => Number(document.querySelector('[data-testid=document]')?.getAttribute('data-length')) > 40)
      await savedHolds(page, 'vue-writer', 'running')
      expect(await page.getByTestId('interrupted').count()).toBe(0)

      await reload(page)
      const notice = page.getByTestId('interrupted')
      expect(await notice.textContent()).toContain('The answer was interrupted before it finished.')
      const writes = requestsTo('writer').length
      await notice.getByRole('button', { name: 'Retry' }).click()
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      expect(requestsTo('writer')).toHaveLength(writes + 1)
      expect(lastMessage(requestsTo('writer')[writes]!)).toMatchObject({ role: 'user', content: request })
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(storyFor(request).length))
      expect(await notice.count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )

  it(
    'react-recipe: says the answer was interrupted, and Retry asks again and fills the card',
    async () => {
      const { page, errors } = await open('/react-recipe/')
      await page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=ingredients] li').length >= 2)
      await savedHolds(page, 'react-recipe', 'running')

      await reload(page)
      const notice = page.getByTestId('interrupted')
      expect(await notice.textContent()).toContain('The answer was interrupted before it finished.')
      const runs = requestsTo('recipe').length
      await notice.getByRole('button', { name: 'Retry' }).click()
      await page.getByText('Change anything on the card', { exact: false }).waitFor()
      await waitForStatus(page, 'Idle')
      expect(requestsTo('recipe')).toHaveLength(runs + 1)
      expect(lastMessage(requestsTo('recipe')[runs]!)).toMatchObject({ role: 'user', content: 'Spaghetti carbonara, please' })
      expect(await page.locator('[data-testid=ingredients] li, [data-testid=instructions] li').count()).toBe(12)
      expect(await notice.count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )

  it(
    'svelte-planner: says the answer was interrupted, and Retry asks again and gets the plan to confirm',
    async () => {
      const { page, errors } = await open('/svelte-planner/')
      const request = 'Plan a trip to Mars'
      await send(page, request)
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=plan] li').length >= 2)
      await savedHolds(page, 'svelte-planner', 'running')
      expect(await page.getByTestId('interrupted').count()).toBe(0)

      await reload(page)
      const notice = page.getByTestId('interrupted')
      expect(await notice.textContent()).toContain('The answer was interrupted before it finished.')
      const plans = requestsTo('planner').length
      await notice.getByRole('button', { name: 'Retry' }).click()
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      expect(requestsTo('planner')).toHaveLength(plans + 1)
      expect(lastMessage(requestsTo('planner')[plans]!)).toMatchObject({ role: 'user', content: request })
      expect(await page.getByRole('textbox', { name: /^Step \d$/ }).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(
        planFor(request).map((step) => step.description),
      )
      expect(await notice.count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})
