// The document as headings and paragraphs; a draft is shown as its changes to the approved version.
import { diffWords } from 'diff'

/**
 * - same: in both versions; added: the draft's new text (highlighted); removed: approved text the draft
 *   drops (struck through);
 * - pending: approved text the draft has not reached yet while it streams, shown as it is, so the
 *   document never collapses to the first words of its new version;
 * - cursor: where the agent is writing.
 */
export type PieceKind = 'same' | 'added' | 'removed' | 'pending' | 'cursor'

export interface Piece {
  kind: PieceKind
  text: string
}

export interface Block {
  tag: 'h2' | 'p'
  pieces: Piece[]
}

/**
 * The draft against the approved document, word by word. `streaming`: the draft is still being
 * written, so the approved text after its last match is not (yet) a deletion.
 */
export function changes(approved: string, draft: string, streaming: boolean): Piece[] {
  const pieces = mergeShortRuns(
    diffWords(approved, draft).map((change): Piece => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'same', text: change.value })),
    streaming,
  )
  if (!streaming) return pieces
  // A word still being written ends the diff with [removed, added]: it belongs before what is still to come.
  const last = pieces.length - 1
  if (pieces[last]?.kind === 'added' && pieces[last - 1]?.kind === 'removed') pieces.splice(last - 1, 2, pieces[last]!, pieces[last - 1]!)
  let end = pieces.length
  while (end > 0 && pieces[end - 1]!.kind === 'removed') end--
  const rest = pieces.slice(end).map((piece): Piece => ({ kind: 'pending', text: piece.text }))
  return [...pieces.slice(0, end), { kind: 'cursor', text: '' }, ...rest]
}

/**
 * A rewritten sentence shares a few short words ("the", "and") with the old one; a word diff then
 * alternates struck and highlighted fragments. Runs of at most two unchanged words between changes
 * are counted as changed, so each edit reads as one deletion followed by one insertion. While the
 * draft streams, so is such a run at its very end: the word just written matched a later one by chance.
 */
function mergeShortRuns(pieces: Piece[], streaming: boolean): Piece[] {
  const out: Piece[] = []
  let removed = ''
  let added = ''
  const flush = () => {
    if (removed) out.push({ kind: 'removed', text: removed })
    if (added) out.push({ kind: 'added', text: added })
    removed = added = ''
  }
  pieces.forEach((piece, index) => {
    const next = pieces[index + 1]
    const between = (removed || added) && (next ? next.kind !== 'same' : streaming)
    if (piece.kind === 'removed') removed += piece.text
    else if (piece.kind === 'added') added += piece.text
    else if (between && !piece.text.includes('\n') && piece.text.trim().split(/\s+/).length <= 2) {
      removed += piece.text
      added += piece.text
    } else {
      flush()
      out.push(piece)
    }
  })
  flush()
  return out
}

/**
 * Paragraphs are separated by blank lines. The first one is the title when it reads like one: a short
 * single line that does not end a sentence. A markdown "# " title (from other servers) is shown without its "#".
 */
export function toBlocks(pieces: readonly Piece[]): Block[] {
  const blocks: Block[] = []
  let current: Block = { tag: 'p', pieces: [] }
  const add = (piece: Piece) => {
    if (current.pieces.length === 0 && piece.text.startsWith('# ')) {
      current.tag = 'h2'
      piece = { kind: piece.kind, text: piece.text.slice(2) }
    }
    if (piece.text || piece.kind === 'cursor') current.pieces.push(piece)
  }
  for (const piece of pieces) {
    const parts = piece.text.split(/\n[ \t]*\n\s*/)
    parts.forEach((text, index) => {
      if (index > 0) {
        blocks.push(current)
        current = { tag: 'p', pieces: [] }
      }
      add({ kind: piece.kind, text: index === 0 && current.pieces.length === 0 ? text.trimStart() : text })
    })
  }
  blocks.push(current)
  const shown = blocks.filter((block) => block.pieces.some((piece) => piece.text.trim() || piece.kind === 'cursor'))
  if (shown[0] && readsAsTitle(shown[0].pieces.map((piece) => piece.text).join(''))) shown[0].tag = 'h2'
  return shown
}

function readsAsTitle(text: string): boolean {
  const line = text.trim()
  return line.length <= 80 && !line.includes('\n') && !/[.!?,;:]$/.test(line)
}

/** The document without a draft: every block unchanged. */
export const plainBlocks = (document: string): Block[] => toBlocks([{ kind: 'same', text: document }])

/** Whether an interrupt's responseSchema lets the answer carry an edited value of `property`. */
export function schemaAllows(schema: unknown, property: string): boolean {
  const properties = (schema as { properties?: unknown } | undefined)?.properties
  return typeof properties === 'object' && properties !== null && Object.hasOwn(properties, property)
}
