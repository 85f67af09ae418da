/** Freezes a value and everything in it: an applier that writes to its input then throws (strict mode). */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== 'object' || node === null || Object.isFrozen(node)) continue
    Object.freeze(node)
    for (const child of Object.values(node)) pending.push(child)
  }
  return value
}

/** `[[[…]]]`, `levels` deep. Built with a loop: a recursive builder would overflow before the code under test runs. */
export function nestedArray(levels: number): unknown[] {
  const root: unknown[] = []
  let node = root
  for (let i = 1; i < levels; i++) {
    const child: unknown[] = []
    node.push(child)
    node = child
  }
  return root
}
