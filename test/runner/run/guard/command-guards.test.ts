import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { main } from '../../../../runner/cli/main'
import { startReference, type RunningReference } from '../../../../reference/server'
import { startTestServer, type TestServer } from '../../../support/http-server'
import { tempDir } from '../../../support/temp-dir'

// The one production guard, proven per command that talks to the target in its own process (explore, replay): against
// a target whose profile is not nonProduction, refused without --allow-writes (exit 2), and nothing reaches the target
// (a loopback server counts every request). run and acceptance are guarded inside their vitest run:
// test/reliability/write-guard.proof.test.ts.

/** Everything main() printed, and its exit code. */
async function cli(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; text: string }> {
  let text = ''
  const keep = (s: unknown) => ((text += String(s)), true)
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(keep),
    vi.spyOn(process.stderr, 'write').mockImplementation(keep),
    vi.spyOn(console, 'log').mockImplementation((s) => void keep(`${s}\n`)),
    vi.spyOn(console, 'error').mockImplementation((s) => void keep(`${s}\n`)),
  ]
  const saved = { ...process.env }
  for (const k of [
    'TARGET_PROFILE',
    'TARGET_PROFILES',
    'SALES_BASE_URL',
    'AUTH_URL',
    'WEBHOOK_BASE_URL',
    'TENANT',
    'AUTH_USERNAME',
    'AUTH_PASSWORD',
    'ALLOW_WRITES',
    'REPORTS_DIR',
    'LEDGER_COMMAND_LINE',
  ])
    delete process.env[k]
  Object.assign(process.env, env)
  try {
    return { code: await main(argv), text }
  } finally {
    for (const s of spies) s.mockRestore()
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
    Object.assign(process.env, saved)
  }
}

/** A loopback target that counts requests: a proxy to `to` when given, else 404 to everything. */
async function countingTarget(to?: () => string): Promise<TestServer> {
  return startTestServer((req, res, body) => {
    if (!to) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"nothing here"}')
    const headers = Object.fromEntries(
      Object.entries(req.headers)
        .filter(([k]) => !['host', 'content-length', 'connection'].includes(k))
        .map(([k, v]) => [k, String(v)]),
    )
    void fetch(`${to()}${req.url}`, {
      method: req.method!,
      headers,
      ...(body && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}),
    })
      .then(async (r) => {
        const text = await r.text()
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(text)
      })
      .catch(() => res.writeHead(502).end())
  })
}

function productionProfile(dir: string, url: string): string {
  const file = join(dir, 'production.json')
  writeFileSync(
    file,
    JSON.stringify({
      name: 'production',
      tenant: 'acme',
      nonProduction: false,
      services: { salesBaseUrl: url, authUrl: `${url}/api/v1/identifier`, webhookBaseUrl: url },
      credentials: { username: 'broker@acme.test', passwordEnv: 'AUTH_PASSWORD' },
    }),
  )
  return file
}

describe('explore: the one production guard', () => {
  let ref: RunningReference
  let server: TestServer
  let profile: string
  const dir = tempDir('explore-guard')
  beforeAll(async () => {
    ref = await startReference({ port: 0 })
    server = await countingTarget(() => ref.url)
    profile = productionProfile(dir, server.url)
  })
  afterAll(async () => {
    await server.close()
    await ref.close()
  })

  it(
    "is refused without --allow-writes (exit 2), nothing sent, the refusal repeating the user's own line with the " +
      'flag',
    async () => {
      const r = await cli(['explore', '--profile', profile, '--time-limit-s', '1'], { AUTH_PASSWORD: 'pw-guard-1' })
      expect(r.code, r.text).toBe(2)
      expect(r.text).toMatch(
        /Production guard: refusing to explore, whose every sequence creates, changes and pays .* against http:\/\/127\.0\.0\.1:\d+: profile 'production' does not set nonProduction: true\. No request was sent\./,
      )
      expect(r.text).toContain(`explore --profile ${profile} --time-limit-s 1 --allow-writes' (or ALLOW_WRITES=1)`)
      expect(r.text).toMatch(/explore cannot be read-only/)
      expect(server.requests).toHaveLength(0)
      expect(r.text).not.toContain('pw-guard-1')
    },
  )

  it('a profile from TARGET_PROFILE is named in the suggestion (pasted alone, it checks the same target)', async () => {
    const r = await cli(['explore', '--steps', '5'], { TARGET_PROFILE: profile, AUTH_PASSWORD: 'pw-guard-1' })
    expect(r.code).toBe(2)
    expect(r.text).toContain(`explore --steps 5 --profile ${profile} --allow-writes'`)
    expect(server.requests).toHaveLength(0)
  })

  it('--read-only is refused: explore cannot be read-only; --allow-writes and ALLOW_WRITES=1 let it through to the ' +
    'target', async () => {
    const ro = await cli(['explore', '--profile', profile, '--read-only'], { AUTH_PASSWORD: 'pw-guard-1' })
    expect(ro.code).toBe(2)
    expect(ro.text).toMatch(
      /--read-only: explore cannot be read-only: every generated sequence creates and changes data\. Nothing was sent/,
    )
    expect(server.requests).toHaveLength(0)
    const through = await cli(
      [
        'explore',
        '--profile',
        profile,
        '--allow-writes',
        '--steps',
        '2',
        '--time-limit-s',
        '1',
        '--reports',
        join(dir, 'r'),
      ],
      { AUTH_PASSWORD: 'demo-pass-4821' },
    )
    expect(through.text).not.toMatch(/Production guard/)
    expect(through.text).toMatch(/explore: target http:\/\/127\.0\.0\.1:\d+, seed \d+, 2 steps/)
    expect(server.requests.filter((q) => q.method === 'POST' && !q.url.includes('/login/')).length).toBeGreaterThan(0)
    // explore writes what it printed into the reports folder it was given
    const written = readFileSync(join(dir, 'r', 'explore.txt'), 'utf8')
    expect(written.startsWith('explore: target http://127.0.0.1:')).toBe(true)
    expect(written).toMatch(/^verdict {2}(CONFORMS|INCONCLUSIVE)/m)
    expect(through.text).toContain(written.trim().split('\n').at(-1)!)
    expect(readFileSync(join(dir, 'r', 'explore.txt'), 'utf8')).not.toContain('demo-pass-4821')
    const before = server.requests.length
    const env = await cli(
      ['explore', '--profile', profile, '--steps', '2', '--time-limit-s', '1', '--reports', join(dir, 'r2')],
      { AUTH_PASSWORD: 'demo-pass-4821', ALLOW_WRITES: '1' },
    )
    expect(env.text).not.toMatch(/Production guard/)
    expect(server.requests.length).toBeGreaterThan(before)
    expect(existsSync(join(dir, 'r2', 'explore.txt'))).toBe(true)
  }, 60_000)

  it(
    'a login the identity service refuses is a configuration error (exit 2), as for run: the preflight of a ' + 'run',
    async () => {
      const r = await cli(['explore', '--profile', profile, '--allow-writes', '--reports', join(dir, 'r3')], {
        AUTH_PASSWORD: 'wrong-password-7',
      })
      expect(r.code, r.text).toBe(2)
      expect(r.text).toMatch(
        /cannot log in: POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/identifier\/login\/acme answered 401/,
      )
      expect(r.text).not.toContain('wrong-password-7')
      expect(existsSync(join(dir, 'r3', 'explore.txt'))).toBe(false)
    },
  )

  it('an unknown option gets explore\'s own "did you mean"', async () => {
    const r = await cli(['explore', '--allow-write'])
    expect(r.code).toBe(2)
    expect(r.text).toContain("Unknown option '--allow-write'. Did you mean --allow-writes?")
  })
})

describe('replay: the one production guard', () => {
  let ref: RunningReference
  let server: TestServer
  let profile: string
  const dir = tempDir('replay-guard')
  const reports = join(dir, 'reports')
  beforeAll(async () => {
    ref = await startReference({ port: 0 })
    server = await countingTarget(() => ref.url)
    profile = productionProfile(dir, server.url)
    // a run's reports: one check that read and wrote (a GET and a POST), recorded as the Allure sink records them
    const u = server.url
    const run = {
      runId: 'run-g',
      seed: 1,
      profile: 'production',
      embedded: false,
      tenant: 'acme',
      user: 'broker@acme.test',
      salesBaseUrl: u,
      webhookBaseUrl: u,
      authUrl: `${u}/api/v1/identifier`,
      defects: [],
      startedAt: new Date(1000).toISOString(),
    }
    const check = {
      id: 'WH-LIFE-001',
      document: 'webhook-subscriptions.md',
      section: '§4',
      requirement: 'r',
      title: 'WH-LIFE-001 r',
      file: 'f',
      status: 'failed',
      durationMs: 1,
      deviations: [],
    }
    mkdirSync(join(reports, 'allure-results'), { recursive: true })
    writeFileSync(join(reports, 'checks.json'), JSON.stringify({ run, totals: {}, checks: [check], operations: [] }))
    writeFileSync(
      join(reports, 'allure-results', 'a-result.json'),
      JSON.stringify({
        name: 'WH-LIFE-001 r',
        start: 2000,
        steps: [
          { start: 2001, attachments: [{ name: 'exchange', source: 'x-attachment.json' }] },
          { start: 2002, attachments: [{ name: 'exchange', source: 'y-attachment.json' }] },
        ],
      }),
    )
    writeFileSync(
      join(reports, 'allure-results', 'x-attachment.json'),
      JSON.stringify({
        request: {
          method: 'GET',
          url: `${u}/api/webhook/subscription/none`,
          headers: { authorization: 'Bearer [REDACTED]' },
        },
        response: { status: 404 },
      }),
    )
    writeFileSync(
      join(reports, 'allure-results', 'y-attachment.json'),
      JSON.stringify({
        request: {
          method: 'POST',
          url: `${u}/api/webhook/subscription`,
          headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' },
          body: '{"url":"http://127.0.0.1:9/hook","events":["policy.created"]}',
        },
        response: { status: 201 },
      }),
    )
  })
  afterAll(async () => {
    await server.close()
    await ref.close()
  })
  const env = { AUTH_PASSWORD: 'demo-pass-4821' }

  it(
    "is refused without a flag when the check wrote (exit 2), nothing sent, naming the writes and the user's own " +
      'line',
    async () => {
      const r = await cli(['replay', 'WH-LIFE-001', '--profile', profile, '--reports', reports], env)
      expect(r.code, r.text).toBe(2)
      expect(r.text).toMatch(
        /Production guard: refusing to re-send the check's writes against http:\/\/127\.0\.0\.1:\d+: profile 'production' does not set nonProduction: true\. No request was sent\. WH-LIFE-001 recorded 1 write\(s\) of 2 request\(s\): POST\./,
      )
      expect(r.text).toContain(`replay WH-LIFE-001 --profile ${profile} --reports ${reports} --read-only'`)
      expect(r.text).toContain(
        `replay WH-LIFE-001 --profile ${profile} --reports ${reports} --allow-writes' (or ALLOW_WRITES=1)`,
      )
      expect(server.requests).toHaveLength(0)
    },
  )

  it('--read-only re-sends the reads only; --allow-writes the writes too', async () => {
    const ro = await cli(['replay', 'WH-LIFE-001', '--profile', profile, '--reports', reports, '--read-only'], env)
    expect(ro.code, ro.text).toBe(0)
    expect(ro.text).toMatch(/skipped: POST may change data on the target: not re-sent with --read-only/)
    expect(server.requests.map((q) => q.method)).toContain('GET')
    expect(server.requests.filter((q) => q.method === 'POST' && q.url.startsWith('/api/webhook'))).toEqual([])
    const aw = await cli(['replay', 'WH-LIFE-001', '--profile', profile, '--reports', reports, '--allow-writes'], env)
    expect(aw.code, aw.text).toBe(0)
    expect(server.requests.filter((q) => q.method === 'POST' && q.url === '/api/webhook/subscription')).toHaveLength(1)
    for (const t of [ro.text, aw.text]) expect(t).not.toContain('demo-pass-4821')
  })

  it('a login the identity service refuses is a configuration error (exit 2), as for run', async () => {
    const r = await cli(['replay', 'WH-LIFE-001', '--profile', profile, '--reports', reports, '--read-only'], {
      AUTH_PASSWORD: 'wrong-password-7',
    })
    expect(r.code, r.text).toBe(2)
    expect(r.text).not.toContain('wrong-password-7')
  })
})
