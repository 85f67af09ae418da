// Angular without the CLI: the components are compiled in the browser (JIT), and zoneless, Angular 21's default.
import '@angular/compiler'
import { enableProdMode, provideZonelessChangeDetection } from '@angular/core'
import { bootstrapApplication } from '@angular/platform-browser'
import { App } from './app'

if (import.meta.env.PROD) enableProdMode()

bootstrapApplication(App, { providers: [provideZonelessChangeDetection()] }).catch((error: unknown) => console.error(error))
