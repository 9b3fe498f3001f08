import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseReplayArgs, replay } from '../../../../runner/commands/replay/index'
import { tempDir } from '../../../support/temp-dir'
import { startTestServer } from '../../../support/http-server'
import { mimeWrap } from '../../../../scripts/hostile/encodings'

const RUN = {
  runId: 'run-x',
  seed: 1,
  profile: 'reference',
  embedded: false,
  tenant: 'acme',
  user: 'broker@acme.test',
  salesBaseUrl: 'http://127.0.0.1:1',
  webhookBaseUrl: 'http://127.0.0.1:1',
  authUrl: 'http://127.0.0.1:1/api/v1/identifier',
  defects: [],
  startedAt: new Date(1000).toISOString(),
}

/** The exchange the reports' one failed check recorded by default: a GET with a bearer token. */
const GET_EXCHANGE = {
  method: 'GET',
  url: 'http://127.0.0.1:1/api/webhook/subscription/1',
  headers: { authorization: 'Bearer [REDACTED]' },
}

/** A reports folder with one failed check (WH-LIFE-001) of `run` and its one recorded exchange. */
function reports(
  run: Record<string, unknown> = RUN,
  request: Record<string, unknown> = GET_EXCHANGE,
  response: Record<string, unknown> = { status: 200 },
  d = tempDir('replay'),
): string {
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
  writeFileSync(join(d, 'checks.json'), JSON.stringify({ run, totals: {}, checks: [check], operations: [] }))
  mkdirSync(join(d, 'allure-results'))
  writeFileSync(
    join(d, 'allure-results', 'a-result.json'),
    JSON.stringify({
      name: 'WH-LIFE-001 r',
      start: 2000,
      steps: [{ start: 2001, attachments: [{ name: 'exchange', source: 'x-attachment.json' }] }],
    }),
  )
  writeFileSync(join(d, 'allure-results', 'x-attachment.json'), JSON.stringify({ request, response }))
  return d
}

async function call(argv: string[], env: NodeJS.ProcessEnv, cwd: string) {
  let out = ''
  let err = ''
  const code = await replay(
    argv,
    (s) => (out += s),
    (s) => (err += s),
    env,
    cwd,
  )
  return { code, out, err }
}

describe('ledger-conformance replay', () => {
  it('needs one check id and known options', () => {
    expect(parseReplayArgs([]).problem).toMatch(/which check\?/)
    expect(parseReplayArgs(['A', 'B']).problem).toMatch(/one check id at a time/)
    expect(parseReplayArgs(['A', '--allow-write']).problem).toBe(
      "Unknown option '--allow-write'. Did you mean --allow-writes?",
    )
    expect(parseReplayArgs(['A', '--reports=r', '--allow-writes'])).toEqual({
      id: 'A',
      reports: 'r',
      allowWrites: true,
    })
    expect(parseReplayArgs(['A', '--profile', 'p.jsonc', '--read-only'])).toEqual({
      id: 'A',
      profile: 'p.jsonc',
      allowWrites: false,
      readOnly: true,
    })
    expect(parseReplayArgs(['A', '--read-only', '--allow-writes']).problem).toMatch(/contradict each other/)
  })

  it('is a usage error (2) without reports, and for an unknown check id with the nearest one', async () => {
    const empty = tempDir('replay-empty')
    const none = await call(['WH-LIFE-001'], {}, empty)
    expect(none).toMatchObject({
      code: 2,
      err: expect.stringMatching(/no reports of a run in reports \(no checks.json\)/),
    })
    const d = reports()
    const unknown = await call(['WH-LIFE-01', '--reports', d], {}, empty)
    expect(unknown).toMatchObject({
      code: 2,
      err: expect.stringMatching(/no check 'WH-LIFE-01'.*Did you mean WH-LIFE-001\?/),
    })
  })

  it('refuses the embedded reference (2): it stopped with the run', async () => {
    const d = reports()
    const r = await call(['WH-LIFE-001', '--reports', d], { AUTH_PASSWORD: 'x' }, d)
    expect(r).toMatchObject({ code: 2, err: expect.stringMatching(/embedded reference, which stopped with the run/) })
  })

  it('says the target is unreachable (3) when the login gets no answer', async () => {
    const d = reports()
    const env = {
      SALES_BASE_URL: 'http://127.0.0.1:1',
      WEBHOOK_BASE_URL: 'http://127.0.0.1:1',
      AUTH_URL: 'http://127.0.0.1:1/api/v1/identifier',
      AUTH_PASSWORD: 'pw-secret-1',
    }
    const r = await call(['WH-LIFE-001', '--reports', d], env, d)
    expect(r).toMatchObject({ code: 3, err: expect.stringMatching(/target is unreachable/) })
    expect(r.out + r.err).not.toContain('pw-secret-1')
  })

  it(
    '--allow-writes: a webhook secret the re-sent POST receives is masked in the body, in a header, in text and ' +
      'MIME-wrapped (issue #37)',
    async () => {
      const key = '163e9a0c5b7d4f21a8e6c3b9d0f7a2e4c1b8d5f3a6e9c2b7d4f1a8e5c3b0d9f6'
      const password = 'pw-replay-secret-7'
      const token = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: 'broker', exp: 4102444800 })).toString('base64url')}.c2lnbmF0dXJlLXNpZ25hdHVyZS14eXo`
      const target = await startTestServer((req, res, body) => {
        if (req.url?.includes('/login'))
          return void res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ access_token: token, token_type: 'Bearer' }))
        const note =
          `key ${key} base64 ${mimeWrap(Buffer.from(`prefix-${key}`).toString('base64'), 20, '\r\n')} ` + `sent ${body}`
        res
          .writeHead(201, { 'content-type': 'application/json', 'x-echo-secret': key })
          .end(JSON.stringify({ id: 'sub-1', event: 'extracted', secret: { algorithm: 'sha256', key }, note }))
      })
      try {
        const run = {
          ...RUN,
          salesBaseUrl: target.url,
          webhookBaseUrl: target.url,
          authUrl: `${target.url}/api/v1/identifier`,
        }
        const d = reports(
          run,
          {
            method: 'POST',
            url: `${target.url}/api/webhook/subscription`,
            headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' },
            body: '{"event":"extracted","url":"http://127.0.0.1:9/x"}',
          },
          { status: 201 },
          tempDir('replay-secret'),
        )
        const env = {
          SALES_BASE_URL: target.url,
          WEBHOOK_BASE_URL: target.url,
          AUTH_URL: `${target.url}/api/v1/identifier`,
          AUTH_PASSWORD: password,
        }
        const r = await call(['WH-LIFE-001', '--reports', d, '--allow-writes'], env, d)
        expect(r.code, r.err).toBe(0)
        expect(target.requests.some((q) => q.method === 'POST' && q.url === '/api/webhook/subscription')).toBe(true)
        expect(r.out).toContain('< 201')
        expect(r.out).toContain('"secret": "[REDACTED]"')
        const printed = (r.out + r.err).replace(/\r|\n|  < /g, '')
        expect(printed).not.toContain(key)
        expect(printed).not.toContain(key.slice(8, 40))
        expect(printed).not.toContain(Buffer.from(key).toString('base64').slice(12, 40))
        expect(printed).not.toContain(password)
        expect(printed).not.toContain(token.split('.')[2])
      } finally {
        await target.close()
      }
    },
  )
})
