import OpenAPIBackend from 'openapi-backend'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATIONS } from '../../common/operations'
import { startReference, type RunningReference } from '../../reference/server'

describe('the reference publishes its own OpenAPI 3.1 document (GET /openapi.json)', () => {
  let ref: RunningReference
  let doc: {
    openapi: string
    paths: Record<
      string,
      Record<
        string,
        {
          operationId?: string
          parameters?: { name: string; in: string; required?: boolean; schema?: Record<string, unknown> }[]
        }
      >
    >
  }
  beforeAll(async () => {
    ref = await startReference()
    const res = await fetch(`${ref.url}/openapi.json`)
    expect(res.status).toBe(200)
    doc = (await res.json()) as typeof doc
  })
  afterAll(() => ref?.close())

  it('is a valid OpenAPI 3.1 document (openapi-backend, strict)', async () => {
    expect(doc.openapi).toBe('3.1.0')
    const api = new OpenAPIBackend({
      definition: structuredClone(doc) as never,
      strict: true,
      validate: true,
      quick: false,
    })
    await expect(api.init()).resolves.toBeDefined()
  })

  it('holds every spec operation the reference serves, and nothing else', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId))
    expect(ids.sort()).toEqual(OPERATIONS.map((o) => o.id).sort())
  })

  it("types id path parameters in the reference's id style, request ids as UUIDs", () => {
    const get = doc.paths['/api/v1/ledger/sales/policies/{policyId}']!['get']!
    expect(get.parameters).toContainEqual(
      expect.objectContaining({
        name: 'policyId',
        in: 'path',
        required: true,
        schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
      }),
    )
    expect(get.parameters).toContainEqual(
      expect.objectContaining({ name: 'X-TENANT-ID', in: 'header', required: true }),
    )
    const status = doc.paths['/api/v1/ledger/requests/{requestId}']!['get']!
    expect(status.parameters).toContainEqual(
      expect.objectContaining({ name: 'requestId', schema: { type: 'string', format: 'uuid' } }),
    )
  })
})
