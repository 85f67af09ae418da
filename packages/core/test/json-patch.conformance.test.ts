// The community RFC 6902 suite (json-patch-tests, Apache-2.0, see fixtures/json-patch-tests/SOURCE.md).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { applyPatch } from '../src/json/json-patch'
import { deepEqual } from '../src/json/json-value'
import { deepFreeze } from './json-fixtures'

interface Case {
  comment?: string
  doc: unknown
  patch: unknown[]
  expected?: unknown
  error?: string
  disabled?: boolean
}

const load = (file: string): Case[] => JSON.parse(readFileSync(new URL(`./fixtures/json-patch-tests/${file}`, import.meta.url), 'utf8')) as Case[]

const files = ['tests.json', 'spec_tests.json'] as const
const enabledCount = files.reduce((n, file) => n + load(file).filter((c) => !c.disabled).length, 0)
let executed = 0

for (const file of files) {
  describe(file, () => {
    load(file).forEach((testCase, index) => {
      if (testCase.disabled) return
      const name = `#${index} ${testCase.comment ?? testCase.error ?? JSON.stringify(testCase.patch)}`.slice(0, 120)
      it(name, () => {
        executed++
        const before = structuredClone(testCase.doc)
        const doc = deepFreeze(testCase.doc)
        const patch = deepFreeze(testCase.patch)
        const result = applyPatch(doc, patch)
        if ('expected' in testCase) {
          expect(result).toMatchObject({ ok: true })
          if (!result.ok) return
          expect(result.value).toEqual(testCase.expected)
          // Nothing changed → the very same reference; a change → a new one.
          if (deepEqual(testCase.expected, before)) expect(result.value).toBe(doc)
          else expect(result.value).not.toBe(doc)
        } else {
          expect(result.ok, testCase.error).toBe(false)
          expect(result).toMatchObject({ opIndex: expect.any(Number), reason: expect.any(String) })
        }
        expect(doc).toEqual(before)
      })
    })
  })
}

it('ran every enabled case of the suite', () => {
  expect(enabledCount).toBe(108)
  expect(executed).toBe(enabledCount)
})
