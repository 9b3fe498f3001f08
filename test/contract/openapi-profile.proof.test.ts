/**
 * Published-contract checks end to end (docs/contracts.md "Published contracts"): a profile whose `openapi`
 * document disagrees with the target (the new quote id served as an integer where the document says a UUID string)
 * gets a named finding on that operation, a deviation (warn) by default and a failure when the profile says so;
 * a profile naming a document that does not exist stops before any request with exit 2.
 */
import { readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../helpers/config'
import { EXIT } from '../../runner/verdict'
import { runConformance } from '../../scripts/harness/run-conformance'
import { profileDir } from '../support/profile-files'

const REFERENCE = resolve(PROJECT_ROOT, 'fixtures/targets/reference.json')
const FILES = ['suites/sales/lifecycle.test.ts']

/** Says create quote answers {policy: {id: <uuid string>}}: the reference answers an integer. */
const DISAGREEING = {
  openapi: '3.0.3',
  info: { title: 'a document that disagrees with the target', version: '1' },
  paths: {
    '/api/v1/ledger/sales/policies/create': {
      post: {
        operationId: 'quote-create',
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'the new quote', content: { 'application/json': { schema: { type: 'object', properties: { policy: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } } } } } } } },
      },
    },
  },
}

function profile(extra: Record<string, unknown>): string {
  const dir = profileDir({ 'doc.json': DISAGREEING, 'profile.json': { extends: REFERENCE, name: 'openapi-proof', ...extra } })
  return resolve(dir, 'profile.json')
}

describe('the profile field openapi', () => {
  it('names the operation a disagreeing document describes (a deviation, warn by default)', async () => {
    const run = await runConformance({ files: FILES, env: { TARGET_PROFILE: profile({ openapi: ['doc.json'] }) }, keepReports: true })
    const matrix = readFileSync(join(run.reportsDir, 'conformance.md'), 'utf8')
    rmSync(run.reportsDir, { recursive: true, force: true })
    expect(matrix).toMatch(/## Published-contract findings[\s\S]*\| `sales\.quote\.create` \| SL-LIFE-\S+ \| warn \| response of POST/)
    expect(run.failedIds).toEqual([])
    const deviations = (run.report?.checks ?? []).flatMap((c) => c.deviations.map((d) => ({ check: c.id, ...d })))
    const create = deviations.filter((d) => d.id === 'openapi-contract:sales.quote.create')
    expect(create.length).toBeGreaterThan(0)
    expect(create[0]).toMatchObject({ policy: 'warn', message: expect.stringMatching(/response of POST \/api\/v1\/ledger\/sales\/policies\/create \(200\): response \/policy\/id must be string; document .*doc\.json#\/paths\/~1api~1v1~1ledger~1sales~1policies~1create\/post\/responses\/200/) })
    expect(deviations.every((d) => d.id === 'openapi-contract:sales.quote.create')).toBe(true)
    expect(run.output).toContain('DEVIATION openapi-contract:sales.quote.create (warn)')
  }, 200_000)

  it('fails the checks that met the mismatch when deviations.openapi-contract is fail', async () => {
    const run = await runConformance({ files: FILES, env: { TARGET_PROFILE: profile({ openapi: ['doc.json'], deviations: { 'openapi-contract': 'fail' } }) } })
    expect(run.failedIds.length).toBeGreaterThan(0)
    expect(run.verdict?.exitCode).toBe(EXIT.doesNotConform)
  }, 200_000)

  it("finds nothing against the reference's own /openapi.json, even with the fail policy", async () => {
    const run = await runConformance({ files: FILES, env: { TARGET_PROFILE: profile({ openapi: ['{salesBaseUrl}/openapi.json'], deviations: { 'openapi-contract': 'fail' } }) } })
    expect(run.failedIds).toEqual([])
    expect(run.report?.totals.passed ?? 0).toBeGreaterThan(10)
    expect((run.report?.checks ?? []).flatMap((c) => c.deviations)).toEqual([])
  }, 200_000)

  it('stops with exit 2 naming a document that does not exist, before any request', async () => {
    const run = await runConformance({ files: FILES, env: { TARGET_PROFILE: profile({ openapi: ['no-such-document.json'] }) } })
    expect(run.verdict?.exitCode).toBe(EXIT.usage)
    expect(run.output).toMatch(/openapi: \S*no-such-document\.json: file not found/)
    expect(run.report?.checks.filter((c) => c.status === 'passed') ?? []).toEqual([])
  }, 200_000)
})
