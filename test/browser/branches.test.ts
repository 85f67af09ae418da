// The conversation tree in the example apps: Edit on a question, Regenerate on an answer, and the
// ‹ i / n › switcher, with the shared state (the recipe card, the document) following the branch
// shown, before and after a reload. Built and served like examples.test.ts, in a Chromium of its own.
import { join } from 'node:path'
import type { RunAgentInput } from '@ag-ui/core'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { storyFor } from '../../examples/server/content'
import { recorded, recordInPage, screenshotsDir, serveExamples, waitForStatus } from './harness'

const delayMs = 8
const testTimeout = 60_000

const served = serveExamples('examples-build-branches', { delayMs })

const { requestsTo } = served
const userTexts = (input: RunAgentInput) => input.messages.flatMap((message) => (message.role === 'user' ? [message.content] : []))

async function open(path: string) {
  const { page, errors } = await served.browser.newPage()
  await page.goto(`${served.server.url}${path}`)
  await page.evaluate(() => localStorage.clear())
  await page.reload()
  await page.getByRole('textbox', { name: 'Message' }).waitFor()
  return { page, errors }
}

async function reload(page: Page) {
  await page.reload()
  await page.getByRole('textbox', { name: 'Message' }).waitFor()
}

/** Waits until the thread is saved with every change shown: writes during a run are throttled. */
const savedHolds = (page: Page, key: string, text: string) =>
  page.waitForFunction(
    ([key, text]) => Object.keys(localStorage).some((name) => (name === key || name.startsWith(`${key}:`)) && localStorage.getItem(name)?.includes(text)),
    [key, text] as const,
  )

/** The chat as the page shows it: the questions, the answers' bubbles, and each switcher's label in order. */
async function chatOf(page: Page) {
  const texts = (selector: string) => page.locator(selector).allTextContents()
  const versions = (await texts('[data-testid=versions]')).map((label) => label.replace(/\s+/g, ' ').trim())
  return { questions: await texts('li.message.user'), answers: await texts('li.message.assistant'), versions }
}

/** The switcher under the message at `position` among the switchers shown (0: the first). */
const switcher = (page: Page, position: number) => page.getByTestId('versions').nth(position)
const previous = (page: Page, position: number) => switcher(page, position).getByRole('button', { name: 'Previous version' }).click()
const next = (page: Page, position: number) => switcher(page, position).getByRole('button', { name: 'Next version' }).click()

async function editQuestion(page: Page, content: string) {
  await page.getByRole('button', { name: 'Edit message' }).click()
  await page.getByRole('textbox', { name: 'Edit your message' }).fill(content)
  await page.getByRole('button', { name: 'Send edit' }).click()
}

describe('react-recipe: edit, regenerate and switch versions, the card following the branch', () => {
  const title = (page: Page) => page.getByRole('textbox', { name: 'Recipe title' }).inputValue()
  const cookingTime = (page: Page) => page.getByRole('combobox', { name: 'Cooking time' }).inputValue()
  /** Waits for the card titled `expected`, with the run that writes it over. */
  async function cardTitled(page: Page, expected: string) {
    await page.waitForFunction((text) => (document.querySelector('[aria-label="Recipe title"]') as HTMLInputElement | null)?.value === text, expected)
    await waitForStatus(page, 'Idle')
  }
  const carbonara = "Here's spaghetti carbonara. I'll fill in the card as I go."
  const curry = "Here's chickpea & spinach curry. I'll fill in the card as I go."
  const weeknightCurry = "Here's weeknight chickpea & spinach curry, with a quicker weeknight take. I'll fill in the card as I go."

  it(
    'shows each version with its own card, and after a reload comes back on the same branch',
    async () => {
      const { page, errors } = await open('/react-recipe/')
      await page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
      await cardTitled(page, 'Spaghetti Carbonara')
      expect((await chatOf(page)).versions).toStrictEqual([])
      // The user's own change to the card belongs to this branch.
      await page.getByRole('textbox', { name: 'Recipe title' }).fill("Nonna's Carbonara")

      // Edit: a second version of the question, run from the card as it was when the first was sent.
      await editQuestion(page, 'A chickpea curry, please')
      await cardTitled(page, 'Chickpea & Spinach Curry')
      expect(await chatOf(page)).toMatchObject({ questions: ['A chickpea curry, please'], versions: ['‹ 2 / 2 ›'] })
      expect((await chatOf(page)).answers[0]).toBe(curry)
      const edited = requestsTo('recipe')[1]!
      expect(userTexts(edited)).toStrictEqual(['A chickpea curry, please'])
      expect(edited.messages).toHaveLength(1)
      expect(edited.state).toMatchObject({ recipe: { title: '', ingredients: [] } })
      expect('parentRunId' in edited).toBe(false)

      // Regenerate: another answer to the same question (same id), from the same card.
      await page.getByRole('button', { name: 'Regenerate' }).click()
      await cardTitled(page, 'Weeknight Chickpea & Spinach Curry')
      expect(await chatOf(page)).toMatchObject({ questions: ['A chickpea curry, please'], versions: ['‹ 2 / 2 ›', '‹ 2 / 2 ›'] })
      expect((await chatOf(page)).answers[0]).toBe(weeknightCurry)
      expect(await cookingTime(page)).toBe('30 min')
      const regenerated = requestsTo('recipe')[2]!
      expect(regenerated.messages).toStrictEqual(edited.messages)
      expect(regenerated.state).toStrictEqual(edited.state)

      // Back and forth: each version shows its messages and its card, the user's edit included.
      await previous(page, 1)
      expect(await chatOf(page)).toMatchObject({ questions: ['A chickpea curry, please'], versions: ['‹ 2 / 2 ›', '‹ 1 / 2 ›'] })
      expect((await chatOf(page)).answers[0]).toBe(curry)
      expect([await title(page), await cookingTime(page)]).toStrictEqual(['Chickpea & Spinach Curry', '45 min'])
      await previous(page, 0)
      expect(await chatOf(page)).toMatchObject({ questions: ['Spaghetti carbonara, please'], versions: ['‹ 1 / 2 ›'] })
      expect((await chatOf(page)).answers[0]).toBe(carbonara)
      expect(await title(page)).toBe("Nonna's Carbonara")
      await next(page, 0)
      // The curry branch comes back as it was last shown: its first answer.
      expect(await chatOf(page)).toMatchObject({ questions: ['A chickpea curry, please'], versions: ['‹ 2 / 2 ›', '‹ 1 / 2 ›'] })
      expect(await title(page)).toBe('Chickpea & Spinach Curry')

      // A reload in the middle of the branch: the same versions, the same card, and switching still works.
      await savedHolds(page, 'react-recipe', 'Nonna')
      await page.waitForTimeout(300)
      await reload(page)
      expect(await chatOf(page)).toMatchObject({ questions: ['A chickpea curry, please'], versions: ['‹ 2 / 2 ›', '‹ 1 / 2 ›'] })
      expect((await chatOf(page)).answers[0]).toBe(curry)
      expect(await title(page)).toBe('Chickpea & Spinach Curry')
      await next(page, 1)
      expect((await chatOf(page)).answers[0]).toBe(weeknightCurry)
      expect(await title(page)).toBe('Weeknight Chickpea & Spinach Curry')
      await page.screenshot({ path: join(screenshotsDir, 'react-recipe-branches.png') })
      await previous(page, 0)
      expect(await chatOf(page)).toMatchObject({ questions: ['Spaghetti carbonara, please'], versions: ['‹ 1 / 2 ›'] })
      expect(await title(page)).toBe("Nonna's Carbonara")
      expect(requestsTo('recipe')).toHaveLength(3)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )

  it(
    'disables Edit, Regenerate and the switcher while the agent answers, and says why',
    async () => {
      const { page, errors } = await open('/react-recipe/')
      await page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
      await cardTitled(page, 'Spaghetti Carbonara')
      // Every render while the run streams, seen in the page: a short run may end before the test could look.
      await recordInPage(page, 'controls', () => {
        const status = document.querySelector('[data-testid=status]')?.textContent?.trim()
        const buttons = [...document.querySelectorAll('.message-tools button')] as HTMLButtonElement[]
        return { status, buttons: buttons.map((button) => [button.getAttribute('aria-label') ?? button.textContent, button.disabled, button.title]) }
      })
      await editQuestion(page, 'A chickpea curry, please')
      await cardTitled(page, 'Chickpea & Spinach Curry')
      const live = (await recorded<{ status: string; buttons: [string, boolean, string][] }>(page, 'controls')).filter((seen) => seen.status === 'LIVE')
      expect(live.length).toBeGreaterThan(0)
      const why = 'Available once the agent has finished answering'
      expect(live[0]!.buttons).toStrictEqual([
        ['Previous version', true, why],
        ['Next version', true, why],
        ['Edit message', true, why],
      ])
      expect(live.flatMap((seen) => seen.buttons).every(([, disabled, title]) => disabled && title === why)).toBe(true)
      await waitForStatus(page, 'Idle')
      expect(await page.getByRole('button', { name: 'Edit message' }).isDisabled()).toBe(false)
      expect(await page.getByRole('button', { name: 'Regenerate' }).getAttribute('title')).toBeNull()
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('vue-writer: edit, regenerate and switch versions, the document following the branch', () => {
  const request = 'Write a short story about a lighthouse keeper'
  const paragraphs = (page: Page) => page.locator('[data-testid=document] h2, [data-testid=document] p').allTextContents()
  const blocks = (story: string) => story.split(/\n\n+/)

  /** Waits for the draft, approves it, and waits for the run that saves it. */
  async function approve(page: Page) {
    await page.getByRole('button', { name: 'Approve', exact: true }).click()
    await page
      .getByText(/^Saved \(\d+ words\)/)
      .last()
      .waitFor()
    await waitForStatus(page, 'Idle')
  }

  it(
    'shows each version with its own document, refuses while an approval is open, and after a reload comes back on the same branch',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      await page.getByRole('textbox', { name: 'Message' }).fill(request)
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      await waitForStatus(page, 'Waiting for your approval')
      // An open approval comes first: the branch commands wait for it.
      const edit = page.getByRole('button', { name: 'Edit message' })
      expect([await edit.isDisabled(), await edit.getAttribute('title')]).toStrictEqual([true, 'Answer the open approval first'])
      await approve(page)
      const first = storyFor(request, 0)
      expect(await paragraphs(page)).toStrictEqual(blocks(first))

      // Regenerate: a new draft of the same question, from the document it was first asked with.
      await page.getByRole('button', { name: 'Regenerate' }).click()
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      await approve(page)
      const second = storyFor(request, 1)
      expect(second).not.toBe(first)
      expect(await paragraphs(page)).toStrictEqual(blocks(second))
      expect(await chatOf(page)).toMatchObject({ questions: [request], versions: ['‹ 2 / 2 ›'] })
      const regenerated = requestsTo('writer')[2]!
      expect(userTexts(regenerated)).toStrictEqual([request])
      expect(regenerated.state).toStrictEqual({ document: '' })

      // Edit: another question, its own document.
      await editQuestion(page, 'A story about a robot')
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      await approve(page)
      const robot = storyFor('A story about a robot', 0)
      expect(await chatOf(page)).toMatchObject({ questions: ['A story about a robot'], versions: ['‹ 2 / 2 ›'] })
      expect(await paragraphs(page)).toStrictEqual(blocks(robot))

      // Back to the first question, as last shown: its second answer; then its first.
      await previous(page, 0)
      expect(await chatOf(page)).toMatchObject({ questions: [request], versions: ['‹ 1 / 2 ›', '‹ 2 / 2 ›'] })
      expect(await paragraphs(page)).toStrictEqual(blocks(second))
      await previous(page, 1)
      expect(await chatOf(page)).toMatchObject({ questions: [request], versions: ['‹ 1 / 2 ›', '‹ 1 / 2 ›'] })
      expect(await paragraphs(page)).toStrictEqual(blocks(first))

      // A reload in the middle of the branch comes back on it, and can still switch.
      await savedHolds(page, 'vue-writer', 'Saved')
      await page.waitForTimeout(300)
      await reload(page)
      expect(await chatOf(page)).toMatchObject({ questions: [request], versions: ['‹ 1 / 2 ›', '‹ 1 / 2 ›'] })
      expect(await paragraphs(page)).toStrictEqual(blocks(first))
      await next(page, 1)
      expect(await paragraphs(page)).toStrictEqual(blocks(second))
      await page.screenshot({ path: join(screenshotsDir, 'vue-writer-branches.png') })
      await next(page, 0)
      expect(await chatOf(page)).toMatchObject({ questions: ['A story about a robot'], versions: ['‹ 2 / 2 ›'] })
      expect(await paragraphs(page)).toStrictEqual(blocks(robot))
      expect(requestsTo('writer')).toHaveLength(6)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})
