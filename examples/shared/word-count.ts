/**
 * Words as a reader counts them: runs of text holding a letter or a digit, so a markdown marker such
 * as a title's `#` or a lone dash is not one. The writer's page and its agent's "Saved (N words)" both
 * use it, so they always agree.
 */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
}
