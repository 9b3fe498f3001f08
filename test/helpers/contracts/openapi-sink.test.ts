import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openApiSink } from '../../../helpers/contracts/openapi-sink'
import type { TargetConfig } from '../../../helpers/config/types'
import type { Exchange } from '../../../helpers/http/recorder'
import { tempDir } from '../../support/temp-dir'

const DOC = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: { '/api/v1/things/{id}': { get: { operationId: 'get-thing', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'ok' } } } } },
}

function config(): TargetConfig {
  const dir = tempDir('sink')
  const file = join(dir, 'doc.json')
  writeFileSync(file, JSON.stringify(DOC))
  return { openapi: [file], openapiDocuments: { [file]: DOC }, deviations: {}, profilePath: join(dir, 'profile.json'), services: { salesBaseUrl: 'http://t.test', webhookBaseUrl: 'http://t.test' } } as unknown as TargetConfig
}

const exchange = (path: string, status: number): Exchange => ({
  at: '', runId: 'r', template: path, method: 'GET', url: `http://t.test${path}`, status, durationMs: 1,
  request: { headers: {} }, response: { headers: {}, body: '{}', contentType: 'application/json' },
})

describe('published-contract sink', () => {
  it('marks the 2xx exchanges a document describes as validated (the run counts them), and no other', async () => {
    const sink = openApiSink(config())!
    const described = exchange('/api/v1/things/7', 200)
    const elsewhere = exchange('/api/v1/other', 200)
    const refused = exchange('/api/v1/things/7', 404)
    for (const ex of [described, elsewhere, refused]) await sink(ex)
    expect(described.contract).toBe('validated')
    expect(elsewhere.contract).toBeUndefined()
    expect(refused.contract).toBeUndefined()
  })

  it('is absent when the profile names no document', () => {
    expect(openApiSink({ ...config(), openapi: [] } as TargetConfig)).toBeUndefined()
  })
})
