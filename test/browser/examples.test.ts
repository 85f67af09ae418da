// The example apps, built and served with the scripted agents, driven in Chromium: what the page shows
// while the agent streams, and what the page sends back on the next request.
import { join } from 'node:path'
import type { Message, RunAgentInput } from '@ag-ui/core'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { continueStory, planFor, rewriteEnding, storyFor, titleOf } from '../../examples/server/content'
import { wordCount } from '../../examples/shared/word-count'
import { recorded, recordInPage, screenshotsDir, serveExamples, waitForStatus } from './harness'

// A few milliseconds per token: fast, yet every chunk reaches the page in its own network read.
const delayMs = 8
// Bounds for each test; every wait inside has its own 10 s limit (harness.ts).
const testTimeout = 30_000

const served = serveExamples('examples-build', { delayMs, devtools: true })

const { requestsTo } = served
const lastMessage = (input: RunAgentInput): Message => input.messages[input.messages.length - 1]!

async function open(path: string) {
  const { page, errors } = await served.browser.newPage()
  await page.goto(`${served.server.url}${path}`)
  // The apps keep their thread in localStorage, shared by every page of this browser: each test starts a new one.
  await page.evaluate(() => localStorage.clear())
  await page.reload()
  await page.getByRole('textbox', { name: 'Message' }).waitFor()
  return { page, errors }
}

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text)
  await page.getByRole('textbox', { name: 'Message' }).press('Enter')
}

/** Fills a writer's page: a story asked for, its draft waiting for approval. */
async function untilStoryWaits(page: Page) {
  await send(page, 'Write a short story about a lighthouse keeper')
  await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
}

/** Fills the planner's page: a plan waiting for confirmation. */
async function untilPlanWaits(page: Page) {
  await send(page, 'Plan a trip to Mars')
  await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
}

const screenshot = (page: Page, name: string) => page.screenshot({ path: join(screenshotsDir, `${name}.png`) })

describe('index', () => {
  it(
    'links to every app, which all load',
    async () => {
      const { page, errors } = await served.browser.newPage()
      await page.goto(`${served.server.url}/`)
      const links = page.locator('a.card')
      expect(await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))).toEqual([
        './react-recipe/',
        './vue-writer/',
        './svelte-planner/',
        './angular-writer/',
        './solid-writer/',
      ])
      await screenshot(page, 'index')
      for (const [name, heading] of [
        ['Open the recipe', 'Recipe'],
        ['Open the writer', 'Writer'],
        ['Open the planner', 'Planner'],
        ['Open the Angular writer', 'Writer'],
        ['Open the Solid writer', 'Writer'],
      ] as const) {
        await page.getByRole('link', { name }).click()
        await page.getByRole('heading', { name: heading, exact: true }).waitFor()
        await page.goBack()
      }
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('vue-writer: predictive document with an interrupt (agent-framework style)', () => {
  it(
    'grows the document as a draft, keeps it on Approve, restores it on Reject, and sends what it shows',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      const request = 'Write a short story about a lighthouse keeper'
      const story = storyFor(request)
      const longer = continueStory(story)
      await recordInPage(page, 'lengths', () => Number(document.querySelector('[data-testid=document]')?.getAttribute('data-length')))

      await send(page, request)
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      const lengths = await recorded<number>(page, 'lengths')
      const intermediate = lengths.filter((length) => length > 0 && length < story.length)
      expect(new Set(intermediate).size).toBeGreaterThanOrEqual(5)
      expect(intermediate).toEqual([...intermediate].sort((a, b) => a - b))
      expect(lengths[lengths.length - 1]).toBe(story.length)
      // The whole story waits as a draft: highlighted, and not yet what the next request would send.
      expect(await page.locator('mark.draft').count()).toBeGreaterThan(0)
      expect(await page.getByText('Draft · not approved').isVisible()).toBe(true)
      expect(requestsTo('writer')[0]!.state).toEqual({ document: '' })
      await screenshot(page, 'vue-writer-draft')

      await page.getByRole('button', { name: 'Approve', exact: true }).click()
      await page.getByText(/^Saved \(\d+ words\)/).waitFor()
      await waitForStatus(page, 'Idle')
      const approved = requestsTo('writer')[1]!
      const interruptId = approved.resume?.[0]?.interruptId
      expect(approved.resume).toEqual([{ interruptId: expect.stringMatching(/^call_/), status: 'resolved', payload: { accepted: true } }])
      expect(approved.state).toEqual({ document: story })
      expect(await page.locator('mark.draft').count()).toBe(0)
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(story.length))

      // The next run starts from the approved document; rejecting its draft brings that document back.
      await send(page, 'Add another paragraph')
      await page.getByRole('button', { name: 'Reject', exact: true }).waitFor()
      expect(requestsTo('writer')[2]!.state).toEqual({ document: story })
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(longer.length))
      await page.getByRole('button', { name: 'Reject', exact: true }).click()
      await page.getByText('Understood: I left the document as it was.').waitFor()
      await waitForStatus(page, 'Idle')
      const rejected = requestsTo('writer')[3]!
      expect(rejected.resume).toEqual([{ interruptId: expect.stringMatching(/^call_/), status: 'resolved', payload: { accepted: false } }])
      expect(rejected.resume?.[0]?.interruptId).not.toBe(interruptId)
      expect(rejected.state).toEqual({ document: story })
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(story.length))
      expect(await page.getByTestId('document').textContent()).toContain('three tired fishermen were waving up at her window.')
      expect(await page.locator('mark.draft').count()).toBe(0)

      await screenshot(page, 'vue-writer')
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('angular-writer: the writer read with signals', () => {
  it(
    'grows the document as a draft, keeps it on Approve, restores it on Reject, and sends what it shows',
    async () => {
      const { page, errors } = await open('/angular-writer/')
      const request = 'Write a short story about a lighthouse keeper'
      const story = storyFor(request)
      const longer = continueStory(story)
      const length = async () => Number(await page.getByTestId('document').getAttribute('data-length'))
      await recordInPage(page, 'lengths', () => Number(document.querySelector('[data-testid=document]')?.getAttribute('data-length')))

      await send(page, request)
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      const lengths = await recorded<number>(page, 'lengths')
      const intermediate = lengths.filter((value) => value > 0 && value < story.length)
      expect(new Set(intermediate).size).toBeGreaterThanOrEqual(5)
      expect(intermediate).toEqual([...intermediate].sort((a, b) => a - b))
      expect(await length()).toBe(story.length)
      expect(await page.locator('mark.draft').count()).toBeGreaterThan(0)
      expect(await page.getByText('Draft · not approved').isVisible()).toBe(true)
      expect(await page.getByTestId('status').textContent()).toContain('Waiting for your approval')
      await screenshot(page, 'angular-writer-draft')

      await page.getByRole('button', { name: 'Approve', exact: true }).click()
      await page.getByText(/^Saved \(\d+ words\)/).waitFor()
      await waitForStatus(page, 'Idle')
      const approved = requestsTo('writer').at(-1)!
      expect(approved.resume).toEqual([{ interruptId: expect.stringMatching(/^call_/), status: 'resolved', payload: { accepted: true } }])
      expect(approved.state).toEqual({ document: story })
      expect(await page.locator('mark.draft').count()).toBe(0)
      expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe(story.split('\n')[0])

      // The next run starts from the approved document; rejecting its draft brings that document back.
      await send(page, 'Add another paragraph')
      await page.getByRole('button', { name: 'Reject', exact: true }).waitFor()
      expect(requestsTo('writer').at(-1)!.state).toEqual({ document: story })
      expect(await length()).toBe(longer.length)
      await page.getByRole('button', { name: 'Reject', exact: true }).click()
      await page.getByText('Understood: I left the document as it was.').waitFor()
      await waitForStatus(page, 'Idle')
      const rejected = requestsTo('writer').at(-1)!
      expect(rejected.resume).toEqual([{ interruptId: expect.stringMatching(/^call_/), status: 'resolved', payload: { accepted: false } }])
      expect(rejected.state).toEqual({ document: story })
      expect(await length()).toBe(story.length)
      expect(await page.locator('mark.draft').count()).toBe(0)
      expect(await page.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0)

      await screenshot(page, 'angular-writer')
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('vue-writer: "Write a story", the prompt of the README', () => {
  it(
    'writes a titled story about something, in plain text, and a new version each time it is asked again, after Approve as after Reject',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      const first = storyFor('Write a story')
      const second = storyFor('Write a story', 1)
      expect(second).not.toBe(first)
      const documentText = () =>
        page.getByTestId('document').evaluate((article) => [...article.children].map((block) => `${block.tagName} ${block.textContent}`))

      await send(page, 'Write a story')
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(first.length))
      const shown = await documentText()
      expect(shown[0]).toBe(`H2 ${titleOf('a lost umbrella')}`)
      expect(shown.slice(1).every((block) => block.startsWith('P '))).toBe(true)
      expect(shown.join('\n')).not.toMatch(/#|Write a story/)
      await page.getByRole('button', { name: 'Approve', exact: true }).click()
      await waitForStatus(page, 'Idle')

      await send(page, 'Write a story')
      await page.getByRole('button', { name: 'Reject', exact: true }).waitFor()
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(second.length))
      expect(await page.locator('[data-testid=document] mark.draft').count()).toBeGreaterThan(0)
      expect(await page.locator('[data-testid=document] del').count()).toBeGreaterThan(0)
      await page.getByRole('button', { name: 'Reject', exact: true }).click()
      await waitForStatus(page, 'Idle')
      expect(await documentText()).toEqual(shown)

      // Asked again after the Reject: a third story, not the one just rejected.
      const third = storyFor('Write a story', 2)
      expect(new Set([first, second, third]).size).toBe(3)
      await send(page, 'Write a story')
      await page.getByRole('button', { name: 'Reject', exact: true }).waitFor()
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(third.length))
      expect(requestsTo('writer').at(-1)!.state).toEqual({ document: first })
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('vue-writer: edit before approve', () => {
  it(
    'answers the interrupt with the edited document and sends it as state',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      await send(page, 'Write a story about a robot')
      await page.getByRole('button', { name: 'Edit first' }).click()
      const editor = page.getByRole('textbox', { name: 'Edit the document' })
      const edited = `${(await editor.inputValue()).replace('Unit Seven', 'Unit Eight')}\n\nThe end.`
      await editor.fill(edited)
      await page.getByRole('button', { name: 'Approve edited version' }).click()
      await page.getByText(/^Saved your edited version/).waitFor()
      await waitForStatus(page, 'Idle')

      const [, answer] = requestsTo('writer').slice(-2)
      expect(answer!.resume).toEqual([{ interruptId: expect.any(String), status: 'resolved', payload: { document: edited, accepted: true } }])
      expect(answer!.state).toEqual({ document: edited })
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(edited.length))
      expect(await page.locator('mark.draft').count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('vue-writer: a follow-up draft as changes to the approved document', () => {
  const request = 'Write a short story about a lighthouse keeper'
  const story = storyFor(request)
  // Words counted apart from the app's own count, which the page and the agent's message share.
  const words = (text: string) => text.split(/\s+/).filter((word) => word !== '').length

  async function approvedStory(page: Page) {
    await send(page, request)
    await page.getByRole('button', { name: 'Approve', exact: true }).click()
    await page.getByText(/^Saved \(\d+ words\)/).waitFor()
    await waitForStatus(page, 'Idle')
  }

  it(
    'shows insertions and deletions once the draft is complete, and never collapses the approved text while it streams',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      await approvedStory(page)
      expect(await page.getByTestId('words').textContent()).toBe(`${words(story)} words`)
      // The agent's message counts the words the page counts.
      expect(await page.getByText(/^Saved \(\d+ words\)/).textContent()).toContain(`Saved (${words(story)} words)`)
      const approvedText = (await page.getByTestId('document').textContent())!
      await recordInPage(page, 'views', () => {
        const article = document.querySelector('[data-testid=document]')!
        return {
          live: document.querySelector('[data-testid=status]')?.textContent?.trim() === 'LIVE',
          writing: article.querySelector('.cursor') !== null,
          length: article.textContent?.length ?? 0,
          deleted: [...article.querySelectorAll('del')].map((element) => element.textContent).join(''),
          added: [...article.querySelectorAll('mark.draft')].map((element) => element.textContent).join(''),
          edit: (document.querySelector('.panel-head button') as HTMLButtonElement | null)?.disabled ?? 'absent',
        }
      })

      await send(page, 'Give it a different ending')
      // For the eye: the new ending being written, the old one still there after the cursor.
      await page.waitForFunction(() => document.querySelector('[data-testid=document] mark.draft') && document.querySelector('[data-testid=document] .cursor'))
      await screenshot(page, 'vue-writer-streaming')
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      const views = await recorded<{ live: boolean; writing: boolean; length: number; deleted: string; added: string; edit: boolean | 'absent' }>(page, 'views')
      const streamed = views.filter((view) => view.writing && view.added !== '')
      expect(streamed.length).toBeGreaterThanOrEqual(3)
      // While the new version streams, the approved text stays on screen (nothing struck through yet).
      for (const view of streamed) {
        expect(view.length).toBeGreaterThanOrEqual(approvedText.length)
        expect(view.deleted).toBe('')
      }
      expect(views.filter((view) => view.live).every((view) => view.edit === true)).toBe(true)
      expect(Math.min(...views.map((view) => view.length))).toBeGreaterThanOrEqual(approvedText.length)
      // Complete: the old last sentence struck through, the new one highlighted, the rest untouched.
      const rewritten = rewriteEnding(story)
      const last = views[views.length - 1]!
      expect(last.deleted).toContain(
        'When the fog lifted, the little boat was bobbing safely in the cove below, and three tired fishermen were waving up at her window',
      )
      expect(last.added).toContain('In the end nobody could say exactly what had changed, only that everyone slept a little easier that night')
      expect(last.added).not.toContain('Mara')
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(rewritten.length))
      expect(await page.getByTestId('words').textContent()).toBe(`${words(rewritten)} words`)
      await page.evaluate(() => window.scrollTo(0, 0))
      await screenshot(page, 'vue-writer-changes')

      await page.getByRole('button', { name: 'Approve', exact: true }).click()
      await page
        .getByText(/^Saved \(\d+ words\)/)
        .nth(1)
        .waitFor()
      await waitForStatus(page, 'Idle')
      expect(requestsTo('writer').at(-1)!.state).toEqual({ document: rewritten })
      expect(await page.locator('[data-testid=document] del, [data-testid=document] mark').count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )

  it(
    'keeps Edit disabled in every render while the draft streams, then Edit first opens the whole draft',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      await recordInPage(page, 'edits', () => ({
        live: document.querySelector('[data-testid=status]')?.textContent?.trim() === 'LIVE',
        length: Number(document.querySelector('[data-testid=document]')?.getAttribute('data-length')),
        edit: (document.querySelector('.panel-head button') as HTMLButtonElement | null)?.disabled ?? 'absent',
        editor: document.querySelector('textarea') !== null,
      }))
      await send(page, request)
      await page.getByRole('button', { name: 'Edit first' }).waitFor()
      const edits = await recorded<{ live: boolean; length: number; edit: boolean | 'absent'; editor: boolean }>(page, 'edits')
      const streaming = edits.filter((entry) => entry.live && entry.length > 0 && entry.length < story.length)
      expect(streaming.length).toBeGreaterThanOrEqual(3)
      expect(streaming.every((entry) => entry.edit === true && !entry.editor)).toBe(true)
      expect(edits.some((entry) => !entry.live && entry.edit === false)).toBe(true) // enabled before the run

      await page.getByRole('button', { name: 'Edit first' }).click()
      expect(await page.getByRole('textbox', { name: 'Edit the document' }).inputValue()).toBe(story)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )

  it(
    "restores the committed document, with the user's own edit, when a draft is rejected after Edit first",
    async () => {
      const { page, errors } = await open('/vue-writer/')
      await approvedStory(page)
      // A local edit of the approved document: it is what the next run sends, and what Reject comes back to.
      await page.getByRole('button', { name: 'Edit', exact: true }).click()
      const edited = story.replace('Mara had kept', 'Ada had kept')
      await page.getByRole('textbox', { name: 'Edit the document' }).fill(edited)
      await page.getByRole('button', { name: 'Save' }).click()
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(edited.length))

      await send(page, 'Add another paragraph')
      await page.getByRole('button', { name: 'Edit first' }).click()
      await page.getByRole('textbox', { name: 'Edit the document' }).fill('Something else entirely.')
      await page.getByRole('button', { name: 'Cancel' }).click()
      await page.getByRole('button', { name: 'Reject', exact: true }).click()
      await page.getByText('Understood: I left the document as it was.').waitFor()
      await waitForStatus(page, 'Idle')

      const [asked, answer] = requestsTo('writer').slice(-2)
      expect(asked!.state).toEqual({ document: edited })
      expect(answer!.resume).toEqual([{ interruptId: expect.any(String), status: 'resolved', payload: { accepted: false } }])
      expect(answer!.state).toEqual({ document: edited })
      expect(await page.getByTestId('document').getAttribute('data-length')).toBe(String(edited.length))
      expect(await page.getByTestId('document').textContent()).toContain('Ada had kept the lighthouse')
      expect(await page.locator('[data-testid=document] del, [data-testid=document] mark').count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('svelte-planner: steps predicted from arguments, confirm_changes, status deltas (LangGraph style)', () => {
  it(
    'shows the steps as they stream, runs the approved ones and updates their statuses one by one',
    async () => {
      const { page, errors } = await open('/svelte-planner/')
      const plan = planFor('Plan a trip to Mars')
      await recordInPage(page, 'plans', () => [...document.querySelectorAll('[data-testid=plan] li')].map((li) => li.getAttribute('data-status')))

      await send(page, 'Plan a trip to Mars')
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      const streamed = await recorded<string[]>(page, 'plans')
      // The server sends no state while the arguments stream: every count below the full plan came from them.
      const counts = new Set(streamed.map((steps) => steps.length).filter((count) => count > 0 && count < plan.length))
      expect(counts.size).toBeGreaterThanOrEqual(3)
      expect(await page.locator('[data-testid=plan].draft').count()).toBe(1)
      expect(await page.getByRole('textbox', { name: /^Step \d$/ }).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(
        plan.map((step) => step.description),
      )

      // Edit before approving: skip step 3.
      await page.getByRole('checkbox', { name: 'Run step 3' }).uncheck()
      await screenshot(page, 'svelte-planner-draft')
      await recordInPage(page, 'runs', () => [...document.querySelectorAll('[data-testid=plan] li')].map((li) => li.getAttribute('data-status')))
      await page.getByRole('button', { name: 'Approve', exact: true }).click()
      await page.getByText('All 5 steps are complete (1 skipped).').waitFor()
      await waitForStatus(page, 'Idle')

      const runs = await recorded<string[]>(page, 'runs')
      const completed = runs.map((steps) => steps.flatMap((status, index) => (status === 'completed' ? [index] : [])))
      // One by one, in order: each observed set of completed steps is the previous one plus the next step.
      expect([...new Set(completed.map((indexes) => indexes.join(',')))]).toEqual(['', '0', '0,1', '0,1,3', '0,1,3,4', '0,1,3,4,5'])
      expect(runs.some((steps) => steps.includes('executing'))).toBe(true)
      expect(runs[runs.length - 1]).toEqual(['completed', 'completed', 'disabled', 'completed', 'completed', 'completed'])
      // What ran is history: only the skipped step can still be reworded.
      expect(await page.getByRole('textbox', { name: /^Step \d$/ }).evaluateAll((inputs) => inputs.map((input) => input.getAttribute('aria-label')))).toEqual([
        'Step 3',
      ])

      const [first, second] = requestsTo('planner')
      expect(first!.state).toEqual({ steps: [] })
      const confirm = second!.messages
        .flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
        .find((call) => call.function.name === 'confirm_changes')
      expect(lastMessage(second!)).toMatchObject({ role: 'tool', toolCallId: confirm!.id, content: '{"accepted":true}' })
      expect(second!.state).toEqual({ steps: plan.map((step, index) => ({ ...step, status: index === 2 ? 'disabled' : 'enabled' })) })

      await screenshot(page, 'svelte-planner')
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('solid-writer: a draft from the writer agent, approved then rejected (Solid)', () => {
  it(
    'grows the document as a highlighted draft, keeps it on Approve, restores it on Reject, and sends what it shows',
    async () => {
      const { page, errors } = await open('/solid-writer/')
      const request = 'Write a short story about a lighthouse keeper'
      const story = storyFor(request)
      const longer = continueStory(story)
      const length = () => page.getByTestId('document').getAttribute('data-length')
      await recordInPage(page, 'lengths', () => Number(document.querySelector('[data-testid=document]')?.getAttribute('data-length')))

      await send(page, request)
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      const lengths = await recorded<number>(page, 'lengths')
      const intermediate = lengths.filter((value) => value > 0 && value < story.length)
      expect(new Set(intermediate).size).toBeGreaterThanOrEqual(5)
      expect(intermediate).toEqual([...intermediate].sort((a, b) => a - b))
      expect(lengths[lengths.length - 1]).toBe(story.length)
      expect(await page.locator('mark.draft').count()).toBeGreaterThan(0)
      expect(await page.getByText('Draft · not approved').isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true)
      expect(requestsTo('writer')[0]!.state).toEqual({ document: '' })
      await screenshot(page, 'solid-writer-draft')

      await page.getByRole('button', { name: 'Approve', exact: true }).click()
      await page.getByText(/^Saved \(\d+ words\)/).waitFor()
      await waitForStatus(page, 'Idle')
      const approved = requestsTo('writer')[1]!
      expect(approved.resume).toEqual([{ interruptId: expect.stringMatching(/^call_/), status: 'resolved', payload: { accepted: true } }])
      expect(approved.state).toEqual({ document: story })
      expect(await page.locator('mark.draft').count()).toBe(0)
      expect(await page.getByText('Draft · not approved').count()).toBe(0)
      expect(await length()).toBe(String(story.length))
      expect(await page.getByTestId('words').textContent()).toBe(`${wordCount(story)} words`)

      // The next run starts from the approved document; rejecting its draft brings that document back.
      await send(page, 'Add another paragraph')
      await page.getByRole('button', { name: 'Reject', exact: true }).waitFor()
      expect(requestsTo('writer')[2]!.state).toEqual({ document: story })
      expect(await length()).toBe(String(longer.length))
      await page.getByRole('button', { name: 'Reject', exact: true }).click()
      await page.getByText('Understood: I left the document as it was.').waitFor()
      await waitForStatus(page, 'Idle')
      const rejected = requestsTo('writer')[3]!
      expect(rejected.resume).toEqual([{ interruptId: expect.stringMatching(/^call_/), status: 'resolved', payload: { accepted: false } }])
      expect(rejected.resume?.[0]?.interruptId).not.toBe(approved.resume?.[0]?.interruptId)
      expect(rejected.state).toEqual({ document: story })
      expect(await length()).toBe(String(story.length))
      expect(await page.locator('mark.draft').count()).toBe(0)
      expect(await page.getByTestId('approval').count()).toBe(0)

      await screenshot(page, 'solid-writer')
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

describe('react-recipe: shared state with user edits during the run', () => {
  it(
    'keeps an edit made while the agent streams and sends it on the next run',
    async () => {
      const { page, errors } = await open('/react-recipe/')
      const title = page.getByRole('textbox', { name: 'Recipe title' })
      const itemCount = () => page.locator('[data-testid=ingredients] li, [data-testid=instructions] li').count()

      await page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
      await page.waitForFunction(() => (document.querySelector('[aria-label="Recipe title"]') as HTMLInputElement | null)?.value === 'Spaghetti Carbonara')
      await title.fill("Nonna's Carbonara")
      // The edit happened mid-run, and more of the recipe was still to come.
      expect(await page.getByTestId('status').textContent()).toBe('LIVE')
      const itemsAtEdit = await itemCount()
      expect(itemsAtEdit).toBeLessThan(12)

      await waitForStatus(page, 'Idle')
      expect(await itemCount()).toBe(12)
      expect(await title.inputValue()).toBe("Nonna's Carbonara")
      // The model's reasoning is a collapsed "Thinking" block; the progress card counted every item.
      const thinking = page.locator('details.thinking')
      expect(await thinking.count()).toBe(1)
      expect(await thinking.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false)
      expect(await thinking.textContent()).toContain('I know Spaghetti Carbonara: 6 ingredients and 6 steps')
      expect(await page.getByTestId('progress').textContent()).toContain('Writing the recipe card · 12/12')
      // Instructions are part of the card the user can edit, like everything else on it.
      const firstStep = 'Bring a big pot of salted water to a rolling boil.'
      await page.getByRole('textbox', { name: 'Instruction 1' }).fill(firstStep)

      await send(page, 'Make it vegetarian')
      await page.getByText('Done. Everything else is as you left it.').waitFor()
      await waitForStatus(page, 'Idle')
      const [first, second] = requestsTo('recipe')
      expect(first!.state).toMatchObject({ recipe: { title: '', ingredients: [] } })
      expect(second!.state).toMatchObject({ recipe: { title: "Nonna's Carbonara", skill_level: 'Intermediate' } })
      expect((second!.state as { recipe: { ingredients: unknown[] } }).recipe.ingredients).toHaveLength(6)
      expect((second!.state as { recipe: { instructions: string[] } }).recipe.instructions[0]).toBe(firstStep)
      expect(await page.getByRole('textbox', { name: 'Instruction 1' }).inputValue()).toBe(firstStep)
      // The agent worked from the edited recipe: it kept the title and swapped the guanciale.
      expect(await page.getByText("Updating “Nonna's Carbonara”: smoked mushrooms instead of guanciale.").isVisible()).toBe(true)
      expect(await title.inputValue()).toBe("Nonna's Carbonara")
      expect(await page.getByRole('textbox', { name: 'Ingredient 2' }).inputValue()).toBe('Smoked mushrooms')
      expect(await page.getByRole('button', { name: 'Vegetarian', exact: true }).getAttribute('aria-pressed')).toBe('true')

      await screenshot(page, 'react-recipe')
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})

/** What sticks out sideways at this width: the page's scroll width and every element reaching past an edge. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const outside = [...document.querySelectorAll('body *')].flatMap((element) => {
      const box = element.getBoundingClientRect()
      return box.width > 0 && (box.right > width + 0.5 || box.left < -0.5)
        ? [`${element.tagName.toLowerCase()}.${element.className} ${Math.round(box.right)}`]
        : []
    })
    return { scrollWidth: document.documentElement.scrollWidth, width, outside }
  })
}

describe('a phone at 390 px', () => {
  const pages: [string, string, (page: Page) => Promise<void>][] = [
    ['index', '/', async () => {}],
    [
      'react-recipe',
      '/react-recipe/',
      async (page) => {
        await page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
        await waitForStatus(page, 'Idle')
      },
    ],
    ['vue-writer', '/vue-writer/', untilStoryWaits],
    ['svelte-planner', '/svelte-planner/', untilPlanWaits],
    ['angular-writer', '/angular-writer/', untilStoryWaits],
    ['solid-writer', '/solid-writer/', untilStoryWaits],
  ]
  for (const [name, path, fill] of pages) {
    it(
      `${name}: nothing overflows sideways, the header fits, once the page is full`,
      async () => {
        const { page, errors } = await served.browser.newPage()
        await page.setViewportSize({ width: 390, height: 844 })
        await page.goto(`${served.server.url}${path}`)
        await page.evaluate(() => localStorage.clear())
        await page.reload()
        await page.getByRole('heading', { level: 1 }).waitFor()
        await fill(page)
        expect(await overflow(page)).toEqual({ scrollWidth: 390, width: 390, outside: [] })
        if (name !== 'index') {
          // The status pill stays on one line and New chat on screen, in the header's two rows.
          const status = (await page.getByTestId('status').boundingBox())!
          const newChat = (await page.getByRole('button', { name: 'New chat' }).boundingBox())!
          const header = (await page.locator('header.topbar').boundingBox())!
          expect(status.height).toBeLessThan(32)
          expect(newChat.x + newChat.width).toBeLessThanOrEqual(390)
          expect(header.height).toBeLessThan(100)
        }
        await page.evaluate(() => window.scrollTo(0, 0))
        await page.screenshot({ path: join(screenshotsDir, `390-${name}.png`), fullPage: true })
        expect(errors).toEqual([])
        await page.close()
      },
      testTimeout,
    )
  }
})

/**
 * Every enabled control whose centre the devtools element covers, at each scroll position of the page
 * (a third of a screen apart): what a click meant for the control would open the panel instead.
 */
function controlsUnderDevtools(page: Page) {
  return page.evaluate(async () => {
    const covered = new Set<string>()
    const last = document.documentElement.scrollHeight - innerHeight
    for (let top = 0; ; top = Math.min(last, top + innerHeight / 3)) {
      scrollTo(0, top)
      await new Promise(requestAnimationFrame)
      for (const control of document.querySelectorAll<HTMLElement>('button:enabled, input:enabled, select:enabled, textarea:enabled')) {
        const box = control.getBoundingClientRect()
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2]
        if (box.width === 0 || x < 0 || x > innerWidth || y < 0 || y > innerHeight) continue
        if (document.elementFromPoint(x, y)?.closest('agent-state-devtools')) {
          covered.add(`${control.tagName.toLowerCase()} ${control.getAttribute('aria-label') ?? control.textContent?.trim()}`)
        }
      }
      if (top >= last) break
    }
    return [...covered]
  })
}

describe('the devtools panel over the apps', () => {
  const apps: [string, (page: Page) => Promise<void>][] = [
    [
      '/react-recipe/',
      async (page) => {
        await page.getByRole('button', { name: 'Spaghetti carbonara, please' }).click()
        await waitForStatus(page, 'Idle')
      },
    ],
    ['/vue-writer/', untilStoryWaits],
    ['/svelte-planner/', untilPlanWaits],
    ['/angular-writer/', untilStoryWaits],
    ['/solid-writer/', untilStoryWaits],
  ]
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(
      `at ${width}×${height}, its toggle covers no enabled control of any app, Send included`,
      async () => {
        const { page, errors } = await served.browser.newPage()
        await page.setViewportSize({ width, height })
        for (const [path, fill] of apps) {
          await page.goto(`${served.server.url}${path}`)
          await page.evaluate(() => localStorage.clear())
          await page.reload()
          const toggle = page.locator('agent-state-devtools').getByRole('button', { name: 'agent-state' })
          await toggle.waitFor()
          await fill(page)
          // A message typed: Send is enabled, as when a user is about to click it.
          await page.getByRole('textbox', { name: 'Message' }).fill('One more thing')
          expect(await controlsUnderDevtools(page)).toEqual([])
          expect(await toggle.isVisible()).toBe(true)
        }
        expect(errors).toEqual([])
        await page.close()
      },
      testTimeout,
    )
  }

  it(
    'at 390 px, opened, shows every filter whole and on screen',
    async () => {
      const { page, errors } = await open('/vue-writer/')
      await page.setViewportSize({ width: 390, height: 844 })
      await send(page, 'Write a short story about a lighthouse keeper')
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      const devtools = page.locator('agent-state-devtools')
      await devtools.getByRole('button', { name: 'agent-state' }).click()
      await devtools.getByRole('listbox', { name: 'Inputs' }).getByRole('option').first().waitFor()
      const filters = await devtools.locator('.filters').evaluate((row) =>
        [...row.querySelectorAll('select, input')].map((filter) => {
          const box = filter.getBoundingClientRect()
          const root = row.getRootNode() as ShadowRoot
          const panel = row.closest('.panel')!.getBoundingClientRect()
          const inside = box.left >= Math.max(0, panel.left) && box.right <= Math.min(innerWidth, panel.right) && box.width > 0
          const [x, y] = [box.left + box.width / 2, box.top + box.height / 2]
          return { filter: filter.getAttribute('aria-label'), inside, onTop: root.elementFromPoint(x, y) === filter }
        }),
      )
      expect(filters).toEqual(['Type', 'Run id', 'Tool call id', 'Thread id'].map((filter) => ({ filter, inside: true, onTop: true })))
      await page.screenshot({ path: join(screenshotsDir, '390-devtools.png') })
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )

  it(
    "dims the writer's STATE_DELTA rows, which write what the draft already shows, and not the arguments that grow it",
    async () => {
      const { page, errors } = await open('/vue-writer/')
      await send(page, 'Write a short story about a lighthouse keeper')
      await page.getByRole('button', { name: 'Approve', exact: true }).waitFor()
      const devtools = page.locator('agent-state-devtools')
      await devtools.getByRole('button', { name: 'agent-state' }).click()
      const rows = devtools.getByRole('listbox', { name: 'Inputs' }).getByRole('option')
      /** The rows of one input type: how many, and how many are dimmed and say they changed nothing. */
      const rowsOf = async (type: string) => {
        await devtools.getByRole('combobox', { name: 'Type' }).selectOption(type)
        await page.waitForFunction((type) => {
          const options = document.querySelector('agent-state-devtools')?.shadowRoot?.querySelectorAll('[role=option]') ?? []
          return options.length > 0 && [...options].every((option) => option.textContent?.includes(` ${type} `))
        }, type)
        return rows.evaluateAll((options) => ({
          shown: options.length,
          dimmed: options.filter((option) => option.classList.contains('unchanged') && option.getAttribute('title') === 'changed nothing').length,
        }))
      }

      // One STATE_DELTA after each argument chunk of write_document (confirm_changes has one chunk of its own).
      const args = await rowsOf('event/TOOL_CALL_ARGS')
      const deltas = await rowsOf('event/STATE_DELTA')
      expect(args.shown).toBeGreaterThanOrEqual(6)
      expect(deltas).toEqual({ shown: args.shown - 1, dimmed: args.shown - 1 })
      await rows.first().click()
      await devtools.getByText('No change.').waitFor()
      expect(await rowsOf('event/TOOL_CALL_ARGS')).toEqual({ shown: args.shown, dimmed: 0 })
      await page.screenshot({ path: join(screenshotsDir, 'devtools-dimmed-deltas.png') })
      expect(errors).toEqual([])
      await page.close()
    },
    testTimeout,
  )
})
