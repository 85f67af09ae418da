// Runs one bench function in this process and writes what it returns, as JSON, to the file named
// by the last argument: `node --conditions=source --import tsx bench/child.ts <module> <export> <out>`.
// index.ts starts one of these per bench module (see there for why).

// First, before anything that reads NODE_ENV loads.
import './production-mode'
import { writeFile } from 'node:fs/promises'

const [modulePath, exportName, outPath] = process.argv.slice(2)
if (!modulePath || !exportName || !outPath) throw new Error('usage: child.ts <module> <export> <out>')
const module = (await import(new URL(modulePath, import.meta.url).href)) as Record<string, () => Promise<unknown>>
const run = module[exportName]
if (typeof run !== 'function') throw new Error(`${modulePath} exports no function ${exportName}`)
await writeFile(outPath, JSON.stringify(await run()))
