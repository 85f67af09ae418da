import { afterEach, describe, expect, it, vi } from 'vitest'
import { createId } from '../src/ids'

// A version 4 UUID whose variant digit is always `a`.
const fallbackLayout = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/

describe('createId', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('is crypto.randomUUID when the platform has it', () => {
    vi.stubGlobal('crypto', { randomUUID: () => 'from-the-platform' })
    expect(createId()).toBe('from-the-platform')
  })

  it('makes a version 4 UUID with variant digit a where randomUUID is missing (plain http)', () => {
    vi.stubGlobal('crypto', {})
    const ids = Array.from({ length: 50 }, createId)
    for (const id of ids) expect(id).toMatch(fallbackLayout)
    expect(new Set(ids).size).toBe(50)
  })

  it('makes one without any crypto at all', () => {
    vi.stubGlobal('crypto', undefined)
    expect(createId()).toMatch(fallbackLayout)
  })

  it('uses every hex digit in the random places', () => {
    vi.stubGlobal('crypto', undefined)
    const digits = new Set(Array.from({ length: 40 }, createId).join('').replaceAll('-', ''))
    expect([...digits].sort().join('')).toBe('0123456789abcdef')
  })
})
