// Two tabs of the recipe app on one localStorage (issue: each tab's writes of the chat list dropped
// the other's chats). A chat made in one tab shows up in the other at once (the `storage` event),
// stays when the other tab writes the list, and opens there with its messages; after a reload
// every chat of both tabs is listed.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { serveExamples, waitForStatus } from './harness'

const testTimeout = 45_000

const served = serveExamples('examples-build-tabs', { delayMs: 4 })

const tabIds = (page: Page) => page.getByRole('tab').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-thread-id')!).sort())
const selectedId = (page: Page) => page.locator('[role=tab][aria-selected=true]').getAttribute('data-thread-id')
const chatText = (page: Page) => page.locator('ol.messages li.message').allTextContents()
const tabCount = (page: Page, count: number) => page.waitForFunction((n) => document.querySelectorAll('[role=tab]').length === n, count)

async function open(page: Page) {
  await page.goto(`${served.server.url}/react-recipe/`)
  await page.getByRole('textbox', { name: 'Message' }).waitFor()
}

async function newChat(page: Page, text: string): Promise<string> {
  await page.getByRole('button', { name: 'New chat' }).click()
  await page.getByRole('textbox', { name: 'Message' }).fill(text)
  await page.getByRole('textbox', { name: 'Message' }).press('Enter')
  await waitForStatus(page, 'LIVE')
  await waitForStatus(page, 'Idle')
  return (await selectedId(page))!
}

describe('react-recipe in two tabs on one localStorage', () => {
  it(
    'a chat made in either tab is listed in both, opens in the other, and every chat survives a reload',
    async () => {
      const first = await served.browser.newPage()
      const second = await served.browser.newPage()
      await open(first.page)
      await first.page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
      await waitForStatus(first.page, 'Idle')
      const carbonara = (await selectedId(first.page))!

      await open(second.page)
      await tabCount(second.page, 1)
      const curry = await newChat(second.page, 'A chickpea curry, please')
      // The first tab hears of it through the storage event, without writing or reloading.
      await tabCount(first.page, 2)
      expect(await tabIds(first.page)).toStrictEqual([carbonara, curry].sort())

      // The first tab writes the list: the second tab's chat stays, in storage and in both tabs.
      const soup = await newChat(first.page, 'A tomato soup, please')
      await tabCount(second.page, 3)
      const all = [carbonara, curry, soup].sort()
      expect(await tabIds(first.page)).toStrictEqual(all)
      expect(await tabIds(second.page)).toStrictEqual(all)
      const stored = await first.page.evaluate(() =>
        JSON.parse(localStorage.getItem('react-recipe:threads')!)
          .threads.map((t: { id: string }) => t.id)
          .sort(),
      )
      expect(stored).toStrictEqual(all)

      // The other tab's chat opens with its messages.
      await first.page.locator(`[role=tab][data-thread-id="${curry}"]`).click()
      expect((await chatText(first.page))[0]).toBe('A chickpea curry, please')

      await second.page.reload()
      await second.page.getByRole('textbox', { name: 'Message' }).waitFor()
      await tabCount(second.page, 3)
      expect(await tabIds(second.page)).toStrictEqual(all)

      expect([...first.errors, ...second.errors]).toStrictEqual([])
      await first.page.close()
      await second.page.close()
    },
    testTimeout,
  )
})
