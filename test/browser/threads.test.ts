// The recipe app's chats (issue 13): one thread per chat through createAgentThreads, persisted in
// localStorage. Two chats are made, one runs in the background while the other is shown, the page
// is reloaded and both come back with their messages; each request carries only its own thread.
import { join } from 'node:path'
import type { RunAgentInput } from '@ag-ui/core'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotsDir, serveExamples, waitForStatus } from './harness'

const delayMs = 8
const testTimeout = 45_000

const served = serveExamples('examples-build-threads', { delayMs })

const recipeRequests = (): RunAgentInput[] => served.server.requests.filter((request) => request.agent === 'recipe').map((request) => request.input)
const userTexts = (input: RunAgentInput) => input.messages.flatMap((message) => (message.role === 'user' ? [message.content] : []))

const tabs = (page: Page) => page.getByRole('tab')
const tabTitles = (page: Page) => page.locator('.thread-tab .thread-title').allTextContents()
const tabIds = (page: Page) => tabs(page).evaluateAll((elements) => elements.map((element) => element.getAttribute('data-thread-id')!))
const selectedId = (page: Page) => page.locator('[role=tab][aria-selected=true]').getAttribute('data-thread-id')
const chatText = (page: Page) => page.locator('ol.messages li.message').allTextContents()
const recipeTitle = (page: Page) => page.getByRole('textbox', { name: 'Recipe title' }).inputValue()
const tabFor = (page: Page, id: string) => page.locator(`[role=tab][data-thread-id="${id}"]`)

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text)
  await page.getByRole('textbox', { name: 'Message' }).press('Enter')
}

async function reload(page: Page) {
  await page.reload()
  await page.getByRole('textbox', { name: 'Message' }).waitFor()
}

describe('react-recipe: a list of chats that survives a reload', () => {
  it(
    'makes two chats, runs one in the background, reloads, finds both with their messages, then deletes one',
    async () => {
      const { page, errors } = await served.browser.newPage()
      await page.goto(`${served.server.url}/react-recipe/`)
      await page.getByRole('textbox', { name: 'Message' }).waitFor()
      expect(await tabs(page).count()).toBe(1)
      expect(await tabTitles(page)).toEqual(['Untitled'])

      // The first chat: a carbonara.
      await page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
      await waitForStatus(page, 'Idle')
      expect(await recipeTitle(page)).toBe('Spaghetti Carbonara')
      const carbonaraChat = await chatText(page)
      const [carbonaraId] = await tabIds(page)

      // A second chat starts empty; while it streams, the first is shown and the run goes on unseen.
      await page.getByRole('button', { name: 'New chat' }).click()
      await page.waitForFunction(() => document.querySelectorAll('[role=tab]').length === 2)
      expect(await chatText(page)).toEqual([])
      expect(await recipeTitle(page)).toBe('')
      const curryId = (await selectedId(page))!
      expect(curryId).not.toBe(carbonaraId)
      await send(page, 'A chickpea curry, please')
      await waitForStatus(page, 'LIVE')
      await tabFor(page, carbonaraId!).click()
      expect(await selectedId(page)).toBe(carbonaraId)
      expect((await page.getByTestId('status').textContent())?.trim()).toBe('Idle')
      expect(await recipeTitle(page)).toBe('Spaghetti Carbonara')
      expect(await chatText(page)).toEqual(carbonaraChat)
      // The background run ends by itself: its tab stops saying "live".
      await page.waitForFunction((id) => document.querySelector(`[role=tab][data-thread-id="${id}"]`)?.classList.contains('idle'), curryId)
      expect(await recipeTitle(page)).toBe('Spaghetti Carbonara')
      expect(await chatText(page)).toEqual(carbonaraChat)

      await tabFor(page, curryId).click()
      expect(await recipeTitle(page)).toBe('Chickpea & Spinach Curry')
      await page.screenshot({ path: join(screenshotsDir, 'react-recipe-threads.png') })
      const curryChat = await chatText(page)
      expect(curryChat[0]).toBe('A chickpea curry, please')
      expect(curryChat.join('\n')).not.toContain('carbonara')
      expect(await tabTitles(page)).toEqual(['A chickpea curry, please', 'Spaghetti carbonara, please'])

      // Each request carried its own thread: its id, and only its own messages.
      const [first, second] = recipeRequests()
      expect(recipeRequests()).toHaveLength(2)
      expect([first!.threadId, second!.threadId]).toEqual([carbonaraId, curryId])
      expect(userTexts(second!)).toEqual(['A chickpea curry, please'])

      // Saved: both threads and the list (writes during a stream are throttled, a run's end at once).
      await page.waitForFunction(
        ([a, b]) => localStorage.getItem(`react-recipe:${a}`)?.includes('Carbonara') && localStorage.getItem(`react-recipe:${b}`)?.includes('Chickpea'),
        [carbonaraId!, curryId] as const,
      )
      await tabFor(page, carbonaraId!).click()
      await reload(page)
      expect(await tabIds(page)).toEqual([curryId, carbonaraId])
      expect(await tabTitles(page)).toEqual(['A chickpea curry, please', 'Spaghetti carbonara, please'])
      // The chat shown before the reload is shown after it.
      expect(await selectedId(page)).toBe(carbonaraId)
      expect(await chatText(page)).toEqual(carbonaraChat)
      expect(await recipeTitle(page)).toBe('Spaghetti Carbonara')
      await tabFor(page, curryId).click()
      expect(await chatText(page)).toEqual(curryChat)
      expect(await recipeTitle(page)).toBe('Chickpea & Spinach Curry')
      expect(recipeRequests()).toHaveLength(2)

      // The restored thread goes on where it was, with its own history only.
      await send(page, 'Make it spicy')
      await waitForStatus(page, 'LIVE')
      await waitForStatus(page, 'Idle')
      const third = recipeRequests()[2]!
      expect(third.threadId).toBe(curryId)
      expect(userTexts(third)).toEqual(['A chickpea curry, please', 'Make it spicy'])
      expect(third.state).toMatchObject({ recipe: { title: 'Chickpea & Spinach Curry' } })

      // Deleting the shown chat shows the other one, and the deletion survives a reload too.
      await page.getByRole('button', { name: 'Delete chat' }).click()
      await page.waitForFunction(() => document.querySelectorAll('[role=tab]').length === 1)
      expect(await selectedId(page)).toBe(carbonaraId)
      expect(await chatText(page)).toEqual(carbonaraChat)
      await page.waitForFunction((id) => localStorage.getItem(`react-recipe:${id}`) === null, curryId)
      await reload(page)
      expect(await tabIds(page)).toEqual([carbonaraId])
      expect(await chatText(page)).toEqual(carbonaraChat)

      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})
