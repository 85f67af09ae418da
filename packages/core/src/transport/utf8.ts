// UTF-8 for platforms without TextDecoder or TextEncoder: React Native's Hermes has had
// TextEncoder since 0.74 and TextDecoder only since 0.85, and the XHR reader, which is there for
// React Native, goes through both. The platform's own are used wherever they exist.

const REPLACEMENT = 0xfffd
const FLUSH_EVERY = 4096

/** Decodes as `new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)` does, bad sequences included. */
export function decodeUtf8(bytes: Uint8Array): string {
  let text = ''
  let points: number[] = []
  let i = 0
  while (i < bytes.length) {
    const lead = bytes[i]!
    const [length, bits, lower, upper] = sequenceOf(lead)
    let point = bits
    let next = i + 1
    // A byte that cannot continue the sequence ends it (one replacement) and is read again as a lead.
    for (let low = lower, high = upper; next < i + length; next++, low = 0x80, high = 0xbf) {
      const byte = bytes[next]
      if (byte === undefined || byte < low || byte > high) break
      point = (point << 6) | (byte & 0x3f)
    }
    points.push(length === 0 || next < i + length ? REPLACEMENT : point)
    i = Math.max(next, i + 1)
    if (points.length >= FLUSH_EVERY) {
      text += String.fromCodePoint(...points)
      points = []
    }
  }
  return text + String.fromCodePoint(...points)
}

/** A lead byte's sequence: its length (0 when it cannot lead), its bits, and the range of its second byte. */
function sequenceOf(lead: number): [length: number, bits: number, lower: number, upper: number] {
  if (lead < 0x80) return [1, lead, 0x80, 0xbf]
  if (lead >= 0xc2 && lead <= 0xdf) return [2, lead & 0x1f, 0x80, 0xbf]
  if (lead >= 0xe0 && lead <= 0xef) return [3, lead & 0x0f, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf]
  if (lead >= 0xf0 && lead <= 0xf4) return [4, lead & 0x07, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf]
  return [0, 0, 0, 0]
}

/** Encodes as `new TextEncoder().encode(text)` does: a lone surrogate becomes U+FFFD. */
export function encodeUtf8(text: string): Uint8Array {
  const bytes: number[] = []
  for (const char of text) {
    let point = char.codePointAt(0)!
    if (point >= 0xd800 && point <= 0xdfff) point = REPLACEMENT
    if (point < 0x80) bytes.push(point)
    else if (point < 0x800) bytes.push(0xc0 | (point >> 6), 0x80 | (point & 0x3f))
    else if (point < 0x10000) bytes.push(0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f))
    else bytes.push(0xf0 | (point >> 18), 0x80 | ((point >> 12) & 0x3f), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f))
  }
  return new Uint8Array(bytes)
}

/** The platform's decoder where there is one, else ours. */
export const utf8Decoder = (): ((bytes: Uint8Array) => string) => {
  if (typeof TextDecoder === 'undefined') return decodeUtf8
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  return (bytes) => decoder.decode(bytes)
}

/** The platform's encoder where there is one, else ours. */
export const utf8Encoder = (): ((text: string) => Uint8Array) => {
  if (typeof TextEncoder === 'undefined') return encodeUtf8
  const encoder = new TextEncoder()
  return (text) => encoder.encode(text)
}
