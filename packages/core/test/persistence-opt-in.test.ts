// Persistence is opt-in: a store made without `persist` or `restore` runs as any other and ships
// no saved-thread code; `serializeThread` still takes its thread, which `restoreThread` gives back.
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { createAgentStore, restoreThread, serializeThread } from '../src'
import { ScriptedAgent } from '../src/testing'
import { ev } from './helpers'

type Doc = { document: string; words: number }
const initialState: Doc = { document: '', words: 0 }

/** The core's source files an app bundles when it imports these names. */
async function bundledFiles(names: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: `export { ${names} } from './src/index.ts'`, resolveDir: new URL('..', import.meta.url).pathname, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    external: ['@ag-ui/*', 'rxjs'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const [output] = Object.values(result.metafile.outputs)
  return Object.entries(output?.inputs ?? {})
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([input]) => input.replace(/^.*src\//, ''))
    .sort()
}

const savedThreadCode = (files: string[]) => files.filter((file) => file.startsWith('persistence/') || /^shell\/(persist|restore)-thread/.test(file))

describe('a store without persist or restore', () => {
  it('bundles no saved-thread code; persistThread and restoreThread bring theirs', async () => {
    expect(savedThreadCode(await bundledFiles('createAgentStore'))).toStrictEqual([])
    const persisting = await bundledFiles('createAgentStore, persistThread')
    expect(savedThreadCode(persisting)).toStrictEqual([
      'persistence/check-saved.ts',
      'persistence/model-codec.ts',
      'persistence/saved-thread.ts',
      'persistence/serialize.ts',
      'persistence/writer.ts',
      'shell/persist-thread.ts',
      'shell/restore-thread.ts',
    ])
    // A server-rendered page's client restores and never writes: no writer.
    const restoring = await bundledFiles('createAgentStore, restoreThread')
    expect(savedThreadCode(restoring)).toStrictEqual([
      'persistence/check-saved.ts',
      'persistence/model-codec.ts',
      'persistence/serialize.ts',
      'shell/restore-thread.ts',
    ])
  })

  it('a threads registry without persist bundles none either; persistThread brings the same files as on one store', async () => {
    expect(savedThreadCode(await bundledFiles('createAgentThreads'))).toStrictEqual([])
    const onThreads = savedThreadCode(await bundledFiles('createAgentThreads, persistThread'))
    expect(onThreads).toStrictEqual(savedThreadCode(await bundledFiles('createAgentStore, persistThread')))
  })

  it('runs, and its thread goes through serializeThread and restoreThread equal', async () => {
    const agent = new ScriptedAgent({
      threadId: 't1',
      runs: [
        (input) => [
          ev.runStarted(input.runId, input.threadId),
          ev.textStart('m1'),
          ev.text('m1', 'Written.'),
          ev.textEnd('m1'),
          ev.snapshot({ document: 'Once upon a time', words: 4 }),
          ev.runFinished(input.runId, input.threadId),
        ],
      ],
    })
    const errors: unknown[] = []
    const store = createAgentStore<Doc>({ agent, initialState, onError: (error) => errors.push(error) })
    await store.whenRestored()
    await store.run({ message: 'Write' })
    store.setState((doc) => ({ ...doc, words: 5 }))
    expect(store.getState()).toMatchObject({ status: 'idle', state: { document: 'Once upon a time', words: 5 }, committed: { words: 5 } })
    expect(store.getState().messages.map((message) => message.content)).toStrictEqual(['Write', 'Written.'])

    const saved = JSON.parse(JSON.stringify(serializeThread(store)))
    expect(saved).toMatchObject({ version: 3, threadId: 't1' })
    expect('appVersion' in saved).toBe(false)
    const restored = createAgentStore<Doc>({ initialState, restore: restoreThread(saved), onError: (error) => errors.push(error) })
    expect(restored.getState()).toStrictEqual(store.getState())
    expect(restored.getInitialState()).toBe(restored.getState())
    expect(serializeThread(restored).model).toStrictEqual(saved.model)
    expect(errors).toStrictEqual([])
  })

  it('restoreThread of nothing starts blank, as a store given no restore', () => {
    const blank = createAgentStore<Doc>({ initialState, threadId: 't1' }).getState()
    expect(createAgentStore<Doc>({ initialState, threadId: 't1', restore: restoreThread(undefined) }).getState()).toStrictEqual(blank)
    expect(createAgentStore<Doc>({ initialState, threadId: 't1', restore: restoreThread(null) }).getState()).toStrictEqual(blank)
  })

  it('a plain object where the factories belong is thrown at creation with what to pass instead', () => {
    const saved = serializeThread(createAgentStore<Doc>({ initialState, threadId: 't1' }))
    const message = 'persist takes persistThread(options) and restore takes restoreThread(saved)'
    expect(() => createAgentStore<Doc>({ initialState, restore: saved as never })).toThrow(new TypeError(message))
    expect(() => createAgentStore<Doc>({ initialState, persist: { storage: new Map() } as never })).toThrow(new TypeError(message))
  })
})
