import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractPolicy, openApiSink } from '../../../../helpers/client/contracts/openapi-sink'
import { invalidOnPurpose, runningContract, withRunningCheck } from '../../../../helpers/client/http/running-check'
import type { TargetConfig } from '../../../../common/config/types'
import type { Exchange } from '../../../../helpers/client/http/recorder'
import { tempDir } from '../../../support/temp-dir'

const DOC = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/api/v1/things/{id}': {
      get: {
        operationId: 'get-thing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
}

function config(doc: object = DOC): TargetConfig {
  const dir = tempDir('sink')
  const file = join(dir, 'doc.json')
  writeFileSync(file, JSON.stringify(doc))
  return {
    openapi: [file],
    openapiDocuments: { [file]: doc },
    deviations: {},
    profilePath: join(dir, 'profile.json'),
    services: { salesBaseUrl: 'http://t.test', webhookBaseUrl: 'http://t.test' },
  } as unknown as TargetConfig
}

const exchange = (path: string, status: number): Exchange => ({
  at: '',
  runId: 'r',
  template: path,
  method: 'GET',
  url: `http://t.test${path}`,
  status,
  durationMs: 1,
  request: { headers: {} },
  response: { headers: {}, body: '{}', contentType: 'application/json' },
})

describe('published-contract sink', () => {
  it('judges every exchange that got an answer, any status, and marks those no document describes', async () => {
    const sink = openApiSink(config())!
    const described = exchange('/api/v1/things/7', 200)
    const elsewhere = exchange('/api/v1/other', 200)
    const refused = exchange('/api/v1/things/7', 404)
    for (const ex of [described, elsewhere, refused]) await sink(ex)
    expect(described.contract).toBe('validated')
    expect(elsewhere.contract).toBe('not-described')
    expect(refused.contract).toBe('validated')
  })

  it(
    'notes each finding on the running check as a contract check CT-<operation>-<kind>, once per finding, and none ' +
      'of a request invalid on purpose',
    async () => {
      const sink = openApiSink(config())!
      const notes = await withRunningCheck('a check', async () => {
        await sink(exchange('/api/v1/things/x', 200)) // id not an integer: request
        await sink(exchange('/api/v1/things/y', 200)) // the same kind, another finding
        await sink(exchange('/api/v1/things/7', 404)) // undocumented status
        await sink(exchange('/api/v1/things/7', 404)) // the same finding again: kept once
        await invalidOnPurpose('the id is not an integer on purpose', () => sink(exchange('/api/v1/things/z', 200)))
        return runningContract()
      })
      expect(notes?.map((n) => `${n.id} ${n.policy} ${n.actual}`)).toEqual([
        'CT-get-thing-request fail request /path/id must be integer',
        'CT-get-thing-status warn status 404 is not documented (200)',
      ])
      expect(notes?.[0]).toMatchObject({
        operation: 'get-thing',
        kind: 'request',
        exchange: 'GET /api/v1/things/x (200)',
        pointer: expect.stringMatching(/doc\.json#\/paths\/~1api~1v1~1things~1\{id\}\/get/),
      })
    },
  )

  it(
    "judges the answer's headers as the recorder redacted them: CT-<operation>-response-headers, failed by " +
      'default',
    async () => {
      const doc = structuredClone(DOC) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> }
      doc.paths['/api/v1/things/{id}']!.get.responses['200'] = {
        description: 'ok',
        headers: {
          'X-Rate-Limit': { required: true, schema: { type: 'integer' } },
          'Set-Cookie': { schema: { type: 'string', pattern: '^s=' } },
        },
      }
      const sink = openApiSink(config(doc))!
      const answered = (headers: Record<string, string>): Exchange => ({
        ...exchange('/api/v1/things/7', 200),
        response: { headers, body: '{}', contentType: 'application/json' },
      })
      const notes = await withRunningCheck('a check', async () => {
        // as declared; the redacted cookie judged by its presence
        await sink(answered({ 'x-rate-limit': '5', 'set-cookie': '[REDACTED]' }))
        await sink(answered({ 'set-cookie': '[REDACTED]' }))
        await sink(answered({ 'x-rate-limit': 'many' }))
        return runningContract()
      })
      expect(notes?.map((n) => `${n.id} ${n.policy} ${n.actual}`)).toEqual([
        'CT-get-thing-response-headers fail response header X-Rate-Limit is required and missing',
        'CT-get-thing-response-headers fail response header X-Rate-Limit "many": / must be integer',
      ])
      expect(notes?.[1]).toMatchObject({
        kind: 'response-headers',
        pointer: expect.stringMatching(
          /doc\.json#\/paths\/~1api~1v1~1things~1\{id\}\/get\/responses\/200\/headers\/X-Rate-Limit \(#\/type\)$/,
        ),
      })
    },
  )

  it(
    'fails contract findings by default, warns with contract: "warn"; an undocumented status is a deviation unless ' +
      'asked',
    () => {
      expect(contractPolicy({ deviations: {} }, 'response')).toBe('fail')
      expect(contractPolicy({ deviations: {}, contract: 'warn' }, 'response')).toBe('warn')
      expect(contractPolicy({ deviations: { 'openapi-contract': 'warn' }, contract: 'fail' }, 'request')).toBe('warn')
      expect(contractPolicy({ deviations: {} }, 'status')).toBe('warn')
      expect(contractPolicy({ deviations: { 'openapi-undocumented-status': 'fail' } }, 'status')).toBe('fail')
    },
  )

  it('is absent when the profile names no document', () => {
    expect(openApiSink({ ...config(), openapi: [] } as TargetConfig)).toBeUndefined()
  })
})
