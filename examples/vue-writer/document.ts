// The document as headings and paragraphs, with the part not yet approved marked as draft.

export interface Block {
  tag: 'h2' | 'p'
  /** Text the user has already approved. */
  kept: string
  /** Text the agent is writing or waiting to have approved. */
  draft: string
}

/** How much of the approved document the draft keeps unchanged: everything after it is new. */
export function sharedPrefix(committed: string, draft: string): number {
  const max = Math.min(committed.length, draft.length)
  let i = 0
  while (i < max && committed.charCodeAt(i) === draft.charCodeAt(i)) i++
  return i
}

/** Paragraphs are separated by blank lines; a paragraph starting with "# " is the title. */
export function toBlocks(document: string, draftFrom: number): Block[] {
  const blocks: Block[] = []
  for (const match of document.matchAll(/[^\n](?:[^\n]|\n(?!\n))*/g)) {
    const heading = match[0].startsWith('# ')
    const start = match.index + (heading ? 2 : 0)
    const text = heading ? match[0].slice(2) : match[0]
    const split = Math.min(text.length, Math.max(0, draftFrom - start))
    blocks.push({ tag: heading ? 'h2' : 'p', kept: text.slice(0, split), draft: text.slice(split) })
  }
  return blocks
}

/** Whether an interrupt's responseSchema lets the answer carry an edited value of `property`. */
export function schemaAllows(schema: unknown, property: string): boolean {
  const properties = (schema as { properties?: unknown } | undefined)?.properties
  return typeof properties === 'object' && properties !== null && Object.hasOwn(properties, property)
}
