/** A random id for runs, threads and local messages. */
export function createId(): string {
  // randomUUID is missing outside secure contexts (a page served over plain http on a LAN address).
  const cryptoApi = globalThis.crypto as Crypto | undefined
  if (cryptoApi && typeof cryptoApi.randomUUID === 'function') return cryptoApi.randomUUID()
  let id = ''
  for (let i = 0; i < 4; i++)
    id += Math.floor(Math.random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0')
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-4${id.slice(13, 16)}-a${id.slice(17, 20)}-${id.slice(20, 32)}`
}
