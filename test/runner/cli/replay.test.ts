import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseReplayArgs, replay } from '../../../runner/cli/commands/replay'
import { tempDir } from '../../support/temp-dir'

const RUN = { runId: 'run-x', seed: 1, profile: 'reference', embedded: false, tenant: 'acme', user: 'broker@acme.test', salesBaseUrl: 'http://127.0.0.1:1', webhookBaseUrl: 'http://127.0.0.1:1', authUrl: 'http://127.0.0.1:1/api/v1/identifier', defects: [], startedAt: new Date(1000).toISOString() }

/** A reports folder with one failed check and its one recorded exchange (a GET with a bearer token). */
function reports(): string {
  const d = tempDir('replay')
  const check = { id: 'WH-LIFE-001', document: 'webhook-subscriptions.md', section: '§4', requirement: 'r', title: 'WH-LIFE-001 r', file: 'f', status: 'failed', durationMs: 1, deviations: [] }
  writeFileSync(join(d, 'checks.json'), JSON.stringify({ run: RUN, totals: {}, checks: [check], operations: [] }))
  mkdirSync(join(d, 'allure-results'))
  writeFileSync(join(d, 'allure-results', 'a-result.json'), JSON.stringify({ name: 'WH-LIFE-001 r', start: 2000, steps: [{ start: 2001, attachments: [{ name: 'exchange', source: 'x-attachment.json' }] }] }))
  writeFileSync(join(d, 'allure-results', 'x-attachment.json'), JSON.stringify({ request: { method: 'GET', url: 'http://127.0.0.1:1/api/webhook/subscription/1', headers: { authorization: 'Bearer [REDACTED]' } }, response: { status: 200 } }))
  return d
}

async function call(argv: string[], env: NodeJS.ProcessEnv, cwd: string) {
  let out = ''
  let err = ''
  const code = await replay(argv, (s) => (out += s), (s) => (err += s), env, cwd)
  return { code, out, err }
}

describe('ledger-conformance replay', () => {
  it('needs one check id and known options', () => {
    expect(parseReplayArgs([]).problem).toMatch(/which check\?/)
    expect(parseReplayArgs(['A', 'B']).problem).toMatch(/one check id at a time/)
    expect(parseReplayArgs(['A', '--allow-write']).problem).toBe("Unknown option '--allow-write'. Did you mean --allow-writes?")
    expect(parseReplayArgs(['A', '--reports=r', '--allow-writes'])).toEqual({ id: 'A', reports: 'r', allowWrites: true })
    expect(parseReplayArgs(['A', '--profile', 'p.jsonc', '--read-only'])).toEqual({ id: 'A', profile: 'p.jsonc', allowWrites: false, readOnly: true })
    expect(parseReplayArgs(['A', '--read-only', '--allow-writes']).problem).toMatch(/contradict each other/)
  })

  it('is a usage error (2) without reports, and for an unknown check id with the nearest one', async () => {
    const empty = tempDir('replay-empty')
    const none = await call(['WH-LIFE-001'], {}, empty)
    expect(none).toMatchObject({ code: 2, err: expect.stringMatching(/no reports of a run in reports \(no checks.json\)/) })
    const d = reports()
    const unknown = await call(['WH-LIFE-01', '--reports', d], {}, empty)
    expect(unknown).toMatchObject({ code: 2, err: expect.stringMatching(/no check 'WH-LIFE-01'.*Did you mean WH-LIFE-001\?/) })
  })

  it('refuses the embedded reference (2): it stopped with the run', async () => {
    const d = reports()
    const r = await call(['WH-LIFE-001', '--reports', d], { AUTH_PASSWORD: 'x' }, d)
    expect(r).toMatchObject({ code: 2, err: expect.stringMatching(/embedded reference, which stopped with the run/) })
  })

  it('says the target is unreachable (3) when the login gets no answer', async () => {
    const d = reports()
    const env = { SALES_BASE_URL: 'http://127.0.0.1:1', WEBHOOK_BASE_URL: 'http://127.0.0.1:1', AUTH_URL: 'http://127.0.0.1:1/api/v1/identifier', AUTH_PASSWORD: 'pw-secret-1' }
    const r = await call(['WH-LIFE-001', '--reports', d], env, d)
    expect(r).toMatchObject({ code: 3, err: expect.stringMatching(/target is unreachable/) })
    expect(r.out + r.err).not.toContain('pw-secret-1')
  })
})
