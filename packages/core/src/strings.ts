/**
 * `previous + piece`, flattened each time the length crosses a power of two. V8 builds a rope
 * (one cell per piece) for repeated `+`; a long-lived rope of thousands of cells makes every
 * garbage collection walk them, so streaming grew faster than linearly. Flattening at doublings
 * costs O(n) in all and keeps the live string one object.
 */
export function appendText(previous: string, piece: string): string {
  const next = previous + piece
  if (next.length >= 4096 && Math.clz32(next.length) < Math.clz32(previous.length)) next.charCodeAt(0)
  return next
}
