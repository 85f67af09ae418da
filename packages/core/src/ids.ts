/** A random id for runs, threads and local messages. */
export function createId(): string {
  // randomUUID is missing outside secure contexts (a page served over plain http on a LAN address).
  const cryptoApi = globalThis.crypto as Crypto | undefined
  if (cryptoApi && typeof cryptoApi.randomUUID === 'function') return cryptoApi.randomUUID()
  // The same layout: a version 4 UUID, variant digit `a`.
  return 'xxxxxxxx-xxxx-4xxx-axxx-xxxxxxxxxxxx'.replace(/x/g, () => Math.floor(Math.random() * 16).toString(16))
}
