import type { Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** Starts `server` on 127.0.0.1 (a free port) and tracks its sockets, so `close()` never waits on a keep-alive. */
export async function listenOnLoopback(server: Server) {
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/agent`,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
