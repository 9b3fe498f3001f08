/**
 * A delaying HTTP proxy on loopback, for the bench's latency run (npm run bench; docs/reliability.md#speed): every
 * answer of the target reaches the client `delayMs` later than the target gave it, as if the target were that far
 * away. Requests and bodies pass through unchanged; the target's connection is kept alive.
 *
 *   npx tsx scripts/bench/latency-proxy.ts --target http://127.0.0.1:4010 [--port 4020] [--delay 100]
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface LatencyProxy {
  /** The proxy's origin (http://127.0.0.1:<port>). */
  url: string
  close(): Promise<void>
}

export interface LatencyProxyOptions {
  /** Origin of the target, http only (the bench's reference). */
  target: string
  /** Added to every answer, in ms. */
  delayMs: number
  /** Port on 127.0.0.1 (default: any free port). */
  port?: number
}

export async function startLatencyProxy(o: LatencyProxyOptions): Promise<LatencyProxy> {
  const target = new URL(o.target)
  if (target.protocol !== 'http:') throw new Error(`latency proxy: target must be http://, got ${o.target}`)
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port || 80,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent,
      },
      (answer) => {
        // the answer is held, not its body trickled: the client sees it whole, delayMs later
        setTimeout(() => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        }, o.delayMs)
      },
    )
    upstream.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
      res.end(`latency proxy: ${e.message}`)
    })
    req.pipe(upstream)
  }
  const server = createServer({ keepAliveTimeout: 30_000 }, forward)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
      agent.destroy()
    },
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const target = arg('target')
  if (!target) {
    console.error(
      'usage: tsx scripts/bench/latency-proxy.ts --target http://127.0.0.1:4010 [--port 4020] [--delay 100]',
    )
    process.exit(2)
  }
  const proxy = await startLatencyProxy({
    target,
    delayMs: Number(arg('delay') ?? 100),
    ...(arg('port') ? { port: Number(arg('port')) } : {}),
  })
  console.log(`latency proxy ${proxy.url} -> ${target} (+${arg('delay') ?? 100} ms per answer)`)
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => void proxy.close().then(() => process.exit(0)))
}
