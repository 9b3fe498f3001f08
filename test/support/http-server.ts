import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TestServer {
  url: string
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[]
  /** How many connections clients have opened so far. */
  connections(): number
  /** How many of them are still open. */
  openConnections(): number
  close(): Promise<void>
}

/** A throwaway loopback HTTP server for helper tests. */
export async function startTestServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<TestServer> {
  const requests: TestServer['requests'] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      handler(req, res, body)
    })
  })
  let connections = 0
  let closed = 0
  server.on('connection', (socket) => {
    connections += 1
    socket.on('close', () => {
      closed += 1
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    openConnections: () => connections - closed,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
