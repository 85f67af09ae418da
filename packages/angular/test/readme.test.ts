import '@angular/compiler'
import { provideZonelessChangeDetection } from '@angular/core'
import { createApplication } from '@angular/platform-browser'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { expectQuickStartMirrored, expectQuickStartWorked, type ReadmeServer, startReadmeServer, useQuickStart } from '../../../test/readme-server'
import { QuickStart } from './quick-start'

let readme: ReadmeServer
beforeAll(async () => {
  readme = await startReadmeServer()
})
afterAll(() => readme.close())

describe('README', () => {
  it('has a quick start mirrored by quick-start.ts, as Biome formats it: at most 30 lines of at most 100 characters', () => {
    expectQuickStartMirrored({ testFile: import.meta.url, mirror: './quick-start.ts', lang: 'ts' })
  })

  it('runs as written against the example server: write, reject, write, approve, with the buttons the store allows', async () => {
    const warnings = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')]
    vi.spyOn(console, 'log').mockImplementation(() => {}) // "Angular is running in development mode."
    // What `bootstrapApplication(QuickStart)` does in an app (zoneless is Angular 21's default), with an application to destroy.
    const app = await createApplication({ providers: [provideZonelessChangeDetection()] })
    const container = document.body.appendChild(document.createElement('app-root'))
    app.bootstrap(QuickStart, container)
    expectQuickStartWorked(await useQuickStart(container, readme.server))
    app.destroy()
    for (const warning of warnings) expect(warning).not.toHaveBeenCalled()
  })
})
