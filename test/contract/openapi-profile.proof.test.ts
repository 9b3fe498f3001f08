/**
 * Published-contract checks end to end (docs/contracts.md "Published contracts"): a profile whose `openapi`
 * document disagrees with the target (the new quote id served as an integer where the document says a UUID string)
 * gets the contract check CT-sales.quote.create-response (and a required response header it never sends,
 * CT-sales.quote.create-response-headers), failed by default (DOES NOT CONFORM) and a deviation with
 * `contract: "warn"`; a document's authoring errors are warnings; a document that does not exist stops before any
 * request with exit 2. The anchors' documents (both known defects of the extracts) are proved by
 * test/contract/prism.proof.test.ts.
 */
import { readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { EXIT } from '../../runner/run/verdict'
import { runConformance } from '../../scripts/harness/run-conformance'
import { profileDir } from '../support/profile-files'

const REFERENCE = resolve(PROJECT_ROOT, 'fixtures/targets/reference.json')
const FILES = ['suites/sales/lifecycle.test.ts']

/**
 * Says create quote answers {policy: {id: <uuid string>}} with a header X-Quote-Revision: the reference answers an
 * integer id and no such header.
 */
const DISAGREEING = {
  openapi: '3.0.3',
  info: { title: 'a document that disagrees with the target', version: '1' },
  paths: {
    '/api/v1/ledger/sales/policies/create': {
      post: {
        operationId: 'quote-create',
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        // a response header the reference never sends, declared required: CT-sales.quote.create-response-headers
        responses: {
          '200': {
            description: 'the new quote',
            headers: { 'X-Quote-Revision': { required: true, schema: { type: 'integer' } } },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { policy: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } } },
                },
              },
            },
          },
        },
      },
    },
  },
}

function profile(extra: Record<string, unknown>): string {
  const dir = profileDir({
    'doc.json': DISAGREEING,
    'profile.json': { extends: REFERENCE, name: 'openapi-proof', ...extra },
  })
  return resolve(dir, 'profile.json')
}

describe('the profile field openapi', () => {
  it('makes each finding kind on each operation a contract check of its own, failed by default; the check that sent ' +
    'the request does not fail', async () => {
    const run = await runConformance({
      files: FILES,
      env: { TARGET_PROFILE: profile({ openapi: ['doc.json'] }) },
      keepReports: true,
    })
    const matrix = readFileSync(join(run.reportsDir, 'conformance.md'), 'utf8')
    rmSync(run.reportsDir, { recursive: true, force: true })
    expect(run.failedIds).toEqual(['CT-sales.quote.create-response', 'CT-sales.quote.create-response-headers'])
    expect(run.verdict?.exitCode).toBe(EXIT.doesNotConform)
    const headers = run.report?.checks.find((c) => c.id === 'CT-sales.quote.create-response-headers')
    expect(headers?.error).toMatch(
      /^actual: response header X-Quote-Revision is required and missing\nexpected: the required header X-Quote-Revision\ndocument: \S*doc\.json\npointer: \S*doc\.json#\/paths\/~1api~1v1~1ledger~1sales~1policies~1create\/post\/responses\/200\/headers\/X-Quote-Revision\nexchange: POST \/api\/v1\/ledger\/sales\/policies\/create \(200\)/,
    )
    const ct = run.report?.checks.find((c) => c.id === 'CT-sales.quote.create-response')
    expect(ct?.error).toMatch(
      /^actual: response \/policy\/id must be string\nexpected: a body matching the declared schema .*\ndocument: \S*doc\.json\npointer: \S*doc\.json#\/paths\/~1api~1v1~1ledger~1sales~1policies~1create\/post\/responses\/200 .*\nexchange: POST \/api\/v1\/ledger\/sales\/policies\/create \(200\)/,
    )
    expect(ct?.about).toEqual(['sales.quote.create'])
    expect(matrix).toMatch(
      /## Published-contract findings[\s\S]*\| `sales\.quote\.create` \| CT-sales\.quote\.create-response \| fail \| response \/policy\/id must be string/,
    )
    // every other exchange of the file is on an operation the document does not hold: listed with its count
    expect(run.report?.contracts?.notDescribed?.['sales.quote.get']).toBeGreaterThan(0)
    expect(run.output).toMatch(/not in any document \(\d+ exchanges\): .*sales\.quote\.get x\d+/)
  }, 200_000)

  it('makes them deviations with contract: "warn" (CONFORMS)', async () => {
    const run = await runConformance({
      files: FILES,
      env: { TARGET_PROFILE: profile({ openapi: ['doc.json'], contract: 'warn' }) },
    })
    expect(run.failedIds).toEqual([])
    expect(run.verdict?.exitCode).toBe(EXIT.conforms)
    const ct = run.report?.checks.find((c) => c.id === 'CT-sales.quote.create-response')
    expect(ct).toMatchObject({
      status: 'passed',
      deviations: [{ id: 'openapi-contract:CT-sales.quote.create-response', policy: 'warn' }],
    })
    expect(run.output).toMatch(
      /CONTRACT DEVIATIONS \(\d+, warn; reports\/checks\.json\): .*CT-sales\.quote\.create-response/,
    )
  }, 200_000)

  it("finds nothing against the reference's own /openapi.json (contract fail)", async () => {
    const run = await runConformance({
      files: FILES,
      env: { TARGET_PROFILE: profile({ openapi: ['{salesBaseUrl}/openapi.json'] }) },
    })
    expect(run.failedIds).toEqual([])
    expect(run.report?.totals.passed ?? 0).toBeGreaterThan(10)
    expect((run.report?.checks ?? []).filter((c) => c.id.startsWith('CT-'))).toEqual([])
  }, 200_000)

  it('lists the authoring errors of a document as warnings and runs on; exit 2 only for a document that does not ' +
    'exist', async () => {
    const broken = structuredClone(DISAGREEING) as { paths: Record<string, { post: { parameters?: unknown[] } }> }
    broken.paths['/api/v1/ledger/sales/policies/create']!.post.parameters = [
      { name: 'dryRun', in: 'query', schema: { type: 'bool' } },
    ]
    const dir = profileDir({
      'broken.json': broken,
      'profile.json': { extends: REFERENCE, name: 'openapi-proof', openapi: ['broken.json'], contract: 'warn' },
    })
    const run = await runConformance({ files: FILES, env: { TARGET_PROFILE: resolve(dir, 'profile.json') } })
    rmSync(dir, { recursive: true, force: true })
    expect(run.verdict?.exitCode).toBe(EXIT.conforms)
    expect(run.output).toMatch(
      /WARNING \S*broken\.json#\/paths\/~1api~1v1~1ledger~1sales~1policies~1create\/post\/parameters\/0\/schema\/type: type "bool" is not a JSON Schema type/,
    )
    const missing = await runConformance({
      files: FILES,
      env: { TARGET_PROFILE: profile({ openapi: ['no-such-document.json'] }) },
    })
    expect(missing.verdict?.exitCode).toBe(EXIT.usage)
    expect(missing.output).toMatch(/openapi: \S*no-such-document\.json: file not found/)
    expect(missing.report?.checks.filter((c) => c.status === 'passed') ?? []).toEqual([])
  }, 300_000)
})
