import { spawn, type ChildProcess } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import type { ReferenceContext } from '../../../reference/context'
import { DEFAULT_OPTIONS } from '../../../reference/options'
import { Deliverer } from '../../../reference/webhooks/delivery'
import type { StoredSubscription } from '../../../reference/webhooks/store'

/**
 * A receiver in another process (it answers while this one is stalled): prints a line per notification, answers 204
 * after 100 ms.
 */
const RECEIVER = `
const http = require('node:http')
const server = http.createServer((req, res) => {
  req.resume()
  req.on('end', () => { process.stdout.write('got\\n'); setTimeout(() => { res.statusCode = 204; res.end() }, 100) })
})
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'))
`

interface Receiver {
  child: ChildProcess
  port: Promise<number>
  lines: string[]
  next: (line: string) => Promise<void>
}

function startReceiver(): Receiver {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines: string[] = []
  const waiters: { line: string; resolve: () => void }[] = []
  let portResolve: (p: number) => void = () => undefined
  const port = new Promise<number>((r) => (portResolve = r))
  let buf = ''
  child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString('utf8')
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i)
      buf = buf.slice(i + 1)
      if (line.startsWith('port ')) portResolve(Number(line.slice(5)))
      else lines.push(line)
      for (const w of waiters.filter((x) => x.line === line)) w.resolve()
    }
  })
  const next = (line: string) => new Promise<void>((resolve) => waiters.push({ line, resolve }))
  return { child, port, lines, next }
}

function context(): ReferenceContext {
  return {
    options: { ...DEFAULT_OPTIONS, defects: [] },
    defects: new Set(),
    tokens: undefined,
    ids: undefined,
    onClose: [],
  } as unknown as ReferenceContext
}

function subscription(url: string): StoredSubscription {
  const now = new Date()
  return {
    id: '1',
    owner: 'acme/u',
    event: 'extracted',
    url,
    key: 'k',
    createdAt: now,
    updatedAt: now,
    createdWith: { event: 'extracted', url },
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
/** Stalls this process (no event loop turn) for ms, as a busy harness process hosting the reference does. */
const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

describe('reference Deliverer', () => {
  let receiver: Receiver | undefined
  afterEach(() => {
    receiver?.child.kill()
    receiver = undefined
  })

  it('does not resend a notification whose answer came in time while the reference process was stalled', async () => {
    receiver = startReceiver()
    const port = await receiver.port
    const ctx = context()
    const deliverer = new Deliverer(ctx, 300)
    const got = receiver.next('got')
    deliverer.notify([subscription(`http://127.0.0.1:${port}/hook`)], 'extracted', {}, 0)
    await got
    // the receiver answers 100 ms after receipt, while this process is stalled past the attempt timeout
    stall(700)
    // long enough for a retry (250 ms after the timeout) to arrive
    await sleep(1200)
    for (const f of ctx.onClose) await f()
    expect(receiver.lines).toEqual(['got'])
  })

  it(
    'does not cut off and resend a request written late because the reference process stalled before sending ' + 'it',
    async () => {
      receiver = startReceiver()
      const port = await receiver.port
      const ctx = context()
      const deliverer = new Deliverer(ctx, 300)
      deliverer.notify([subscription(`http://127.0.0.1:${port}/hook`)], 'extracted', {}, 0)
      // stalled before the request is even written: the timer is overdue when the connection opens
      stall(1000)
      await sleep(1500)
      for (const f of ctx.onClose) await f()
      expect(receiver.lines).toEqual(['got'])
    },
  )

  it('still retries an attempt that got no answer in time', async () => {
    receiver = startReceiver()
    const port = await receiver.port
    const ctx = context()
    // the receiver answers after 100 ms: with a 50 ms attempt timeout, the first attempt is given up and retried
    const deliverer = new Deliverer(ctx, 50)
    const second = (async () => {
      await receiver!.next('got')
      await receiver!.next('got')
    })()
    deliverer.notify([subscription(`http://127.0.0.1:${port}/hook`)], 'extracted', {}, 0)
    await second
    for (const f of ctx.onClose) await f()
    expect(receiver.lines.length).toBeGreaterThanOrEqual(2)
  })
})
