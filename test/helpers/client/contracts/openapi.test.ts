import { existsSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OpenApiContracts, OpenApiDocumentError, resolveSource } from '../../../../helpers/client/contracts/openapi'
import { PROJECT_ROOT } from '../../../../common/config/target-config'
import { tempDir } from '../../../support/temp-dir'

const dir = tempDir('openapi')
function write(name: string, doc: unknown): string {
  const p = join(dir, name)
  writeFileSync(p, typeof doc === 'string' ? doc : JSON.stringify(doc))
  return p
}

/** A 3.1 document saying the quote id is an integer, and requiring withNotifications. */
const DOC = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/api/v1/ledger/sales/policies/{policyId}': {
      get: {
        operationId: 'get-quote-data',
        parameters: [
          { name: 'policyId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'withNotifications', in: 'query', required: true, schema: { type: 'boolean' } },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    data: {
                      type: 'object',
                      properties: { policy: { type: 'object', properties: { id: { type: 'integer' } } } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
}

const exchange = (id: unknown, url = 'http://t.test/api/v1/ledger/sales/policies/42?withNotifications=true') => ({
  method: 'GET',
  url,
  operationId: 'sales.quote.get',
  status: 200,
  requestHeaders: {},
  contentType: 'application/json',
  responseBody: JSON.stringify({ data: { policy: { id } } }),
})

describe('published-contract checks (openapi-backend)', () => {
  it(
    'names the operation, the side and the pointer of a field served as a string where the document says ' + 'integer',
    async () => {
      const c = await OpenApiContracts.load([write('doc.json', DOC)])
      expect(c.findings(exchange(42))).toEqual([])
      const [f, ...rest] = c.findings(exchange('42'))
      expect(rest).toEqual([])
      expect(f).toMatchObject({
        operation: 'sales.quote.get',
        side: 'response',
        message: 'response /data/policy/id must be integer',
      })
      expect(f!.pointer).toMatch(
        /doc\.json#\/paths\/~1api~1v1~1ledger~1sales~1policies~1\{policyId\}\/get\/responses\/200/,
      )
    },
  )

  it('finds a missing required query parameter and an undeclared status', async () => {
    const c = await OpenApiContracts.load([write('doc2.json', DOC)])
    const fs = c.findings({ ...exchange(42, 'http://t.test/api/v1/ledger/sales/policies/42'), status: 202 })
    expect(fs.map((f) => f.side).sort()).toEqual(['request', 'response'])
    expect(fs.find((f) => f.side === 'request')?.message).toMatch(/withNotifications/)
    expect(fs.find((f) => f.side === 'response')).toMatchObject({
      kind: 'status',
      message: 'status 202 is not documented (200)',
    })
    expect(fs.find((f) => f.side === 'request')).toMatchObject({ kind: 'request' })
  })

  it(
    "validates several operations with the validators compiled on one shared Ajv per context (the sink's quick " +
      'load): a body is never coerced like the parameters',
    async () => {
      const doc = {
        ...DOC,
        paths: {
          ...DOC.paths,
          '/api/v1/ledger/sales/policies/{policyId}/bind': {
            post: {
              operationId: 'bind',
              parameters: [{ name: 'policyId', in: 'path', required: true, schema: { type: 'integer' } }],
              requestBody: {
                content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } } } } },
              },
              responses: {
                '200': {
                  description: 'ok',
                  content: { 'application/json': { schema: { type: 'object', required: ['ok'] } } },
                },
              },
            },
          },
        },
      }
      const c = await OpenApiContracts.load([write('doc-shared.json', doc)], { quick: true })
      const bind = (body: unknown, response: unknown) => ({
        method: 'POST',
        url: 'http://t.test/api/v1/ledger/sales/policies/42/bind',
        operationId: 'sales.quote.bind',
        status: 200,
        requestHeaders: { 'content-type': 'application/json' },
        requestBody: JSON.stringify(body),
        contentType: 'application/json',
        responseBody: JSON.stringify(response),
      })
      for (let round = 0; round < 2; round++) {
        expect(c.findings(exchange(42))).toEqual([])
        expect(c.findings(exchange('42')).map((f) => f.message)).toEqual(['response /data/policy/id must be integer'])
        expect(c.findings(bind({ n: 1 }, { ok: true }))).toEqual([])
        expect(
          c
            .findings(bind({ n: '1' }, {}))
            .map((f) => f.message)
            .sort(),
        ).toEqual(['request /requestBody/n must be integer', "response / must have required property 'ok'"])
      }
    },
  )

  it(
    'judges the response headers declared for the status (required, simple style, coerced), Content-Type and ' +
      'redacted values aside, with the value neutralised',
    async () => {
      const doc = {
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {
          '/things/{id}': {
            get: {
              operationId: 'get-thing',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
              responses: {
                '200': {
                  description: 'ok',
                  headers: {
                    'X-Rate-Limit': { required: true, schema: { type: 'integer', minimum: 0 } },
                    'X-Flags': { schema: { type: 'array', items: { type: 'boolean' } } },
                    'X-Window': {
                      schema: {
                        type: 'object',
                        properties: { from: { type: 'integer' }, to: { type: 'integer' } },
                        required: ['from', 'to'],
                      },
                    },
                    'X-Span': { explode: true, schema: { type: 'object', properties: { a: { type: 'integer' } } } },
                    'X-Request-Id': { schema: { type: 'string', format: 'uuid' } },
                    'Set-Cookie': { schema: { type: 'string', pattern: '^session=' } },
                    'Content-Type': { required: true, schema: { type: 'integer' } },
                  },
                },
                '404': { description: 'none', headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } },
              },
            },
          },
        },
        components: { headers: { RetryAfter: { required: true, schema: { type: 'integer' } } } },
      }
      const c = await OpenApiContracts.load([write('headers.json', doc)])
      const ex = (responseHeaders: Record<string, string>, status = 200) => ({
        method: 'GET',
        url: 'http://t.test/things/1',
        status,
        requestHeaders: {},
        responseHeaders,
        contentType: 'text/plain',
        responseBody: 'x',
      })
      const ok = {
        'x-rate-limit': '10',
        'X-Flags': 'true,false',
        'x-window': 'from,1,to,2',
        'x-span': 'a=3',
        'x-request-id': '6f1c1e0e-8d2a-4b1f-9a43-3c2f3b7c6a10',
        'set-cookie': '[REDACTED]',
      }
      expect(c.findings(ex(ok))).toEqual([])
      const [missing, ...none] = c.findings(ex({}))
      expect(none).toEqual([])
      expect(missing).toMatchObject({
        operation: 'get-thing',
        kind: 'response-headers',
        side: 'response',
        message: 'response header X-Rate-Limit is required and missing',
        expected: 'the required header X-Rate-Limit',
      })
      expect(missing!.pointer).toMatch(
        /headers\.json#\/paths\/~1things~1\{id\}\/get\/responses\/200\/headers\/X-Rate-Limit$/,
      )
      const bad = c.findings(
        ex({
          ...ok,
          'x-rate-limit': '-1',
          'x-flags': 'true,maybe',
          'x-window': 'from,1,to,late',
          'x-span': 'a=b',
          'x-request-id': 'not-a-uuid\u001b[2J',
        }),
      )
      expect(bad.every((f) => f.kind === 'response-headers')).toBe(true)
      expect(bad.map((f) => f.message)).toEqual([
        'response header X-Rate-Limit "-1": / must be >= 0',
        'response header X-Flags "true,maybe": /1 must be boolean',
        'response header X-Window "from,1,to,late": /to must be integer',
        'response header X-Span "a=b": /a must be integer',
        'response header X-Request-Id "not-a-uuid\\u001b[2J": / must match format "uuid"',
      ])
      expect(bad[0]).toMatchObject({
        expected: 'header X-Rate-Limit matching its schema {"type":"integer","minimum":0}',
      })
      expect(bad[0]!.pointer).toMatch(/\/responses\/200\/headers\/X-Rate-Limit \(#\/minimum\)$/)
      // what came back is redacted before it is written anywhere (a token in a header value)
      const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ'
      const leaked = c.findings(ex({ ...ok, 'x-request-id': jwt }))
      expect(leaked.map((f) => f.message)).toEqual([
        'response header X-Request-Id "[REDACTED-JWT]": / must match format "uuid"',
      ])
      expect(JSON.stringify(leaked)).not.toContain(jwt.split('.')[1])
      // a header declared by $ref under another status
      expect(c.findings(ex({}, 404)).map((f) => f.message)).toEqual([
        'response header Retry-After is required and missing',
      ])
      expect(c.findings(ex({ 'retry-after': '120' }, 404))).toEqual([])
    },
  )

  it('loads a document from the JSON the global setup handed over, without fetching it again', async () => {
    const first = await OpenApiContracts.load([write('doc-given.json', DOC)])
    const source = 'http://127.0.0.1:9/never-fetched/openapi.json'
    const c = await OpenApiContracts.load([source], {
      quick: true,
      definitions: { [source]: first.definitions[join(dir, 'doc-given.json')] },
    })
    expect(c.findings(exchange(42))).toEqual([])
    expect(c.findings(exchange('42'))[0]?.pointer).toMatch(
      /^http:\/\/127\.0\.0\.1:9\/never-fetched\/openapi\.json#\/paths\//,
    )
    expect(c.definitions[source]).toEqual(DOC)
    expect(c.warnings).toEqual([])
  })

  it('ignores exchanges of paths no document holds', async () => {
    const c = await OpenApiContracts.load([write('doc3.json', DOC)])
    expect(c.findings({ ...exchange(1), url: 'http://t.test/api/webhook/events' })).toEqual([])
    expect(c.check({ ...exchange(1), url: 'http://t.test/api/webhook/events' })).toBeUndefined()
    expect(c.check(exchange(1))).toEqual([])
  })

  it(
    'refuses a missing file, a non-JSON/YAML file, a Swagger 2.0 and a non-OpenAPI document, naming the ' + 'source',
    async () => {
      await expect(OpenApiContracts.load([join(dir, 'nope.json')])).rejects.toThrow(/nope\.json: file not found/)
      await expect(OpenApiContracts.load([write('bad.json', '{ not json')])).rejects.toThrow(/bad\.json: is not JSON/)
      await expect(OpenApiContracts.load([write('bad.yaml', 'a: [unclosed\n  b: {')])).rejects.toThrow(
        /bad\.yaml: is neither JSON nor YAML/,
      )
      await expect(OpenApiContracts.load([write('swagger.json', { swagger: '2.0' })])).rejects.toThrow(
        /swagger\.json: is a Swagger 2\.0 document; .*convert it first/,
      )
      await expect(OpenApiContracts.load([write('other.json', { name: 'a package.json' })])).rejects.toThrow(
        /other\.json: is not an OpenAPI 3\.0 or 3\.1 document \(openapi: null\)/,
      )
      await expect(
        OpenApiContracts.load([write('nopaths.json', { openapi: '3.0.3', info: { title: 't', version: '1' } })]),
      ).rejects.toBeInstanceOf(OpenApiDocumentError)
    },
  )

  it('loads a document with what the OpenAPI schema refuses as warnings, not a stop', async () => {
    const c = await OpenApiContracts.load([
      write('invalid.json', {
        openapi: '3.0.3',
        info: { title: 't' },
        paths: { '/x': { get: { responses: { '200': { content: {} } } } } },
      }),
    ])
    expect(c.warnings.length).toBeGreaterThan(0)
    expect(c.warnings[0]).toMatchObject({
      source: expect.stringMatching(/invalid\.json$/),
      message: expect.stringMatching(/the OpenAPI schema refuses it/),
    })
  })

  it("loads YAML, and validates formats (uuid, date-time, email, int32) and the answer's media type", async () => {
    const yaml = [
      'openapi: 3.0.3',
      'info: { title: t, version: "1" }',
      'paths:',
      '  /r/{requestId}:',
      '    get:',
      '      parameters:',
      '        - { name: requestId, in: path, required: true, schema: { type: string, format: uuid } }',
      '      responses:',
      '        "200":',
      '          description: ok',
      '          content:',
      '            application/json:',
      '              schema: { type: object, properties: { at: { type: string, format: date-time }, mail: { type: ' +
        'string, format: email }, n: { type: integer, format: int32 } } }',
    ].join('\n')
    const c = await OpenApiContracts.load([write('doc.yaml', yaml)])
    const ex = (id: string, body: unknown, contentType = 'application/json') => ({
      method: 'GET',
      url: `http://t.test/r/${id}`,
      status: 200,
      requestHeaders: {},
      contentType,
      responseBody: JSON.stringify(body),
    })
    const uuid = '3f2504e0-4f89-41d3-9a0c-0305e82c3301'
    expect(c.findings(ex(uuid, { at: '2026-01-01T00:00:00Z', mail: 'a@b.test', n: 1 }))).toEqual([])
    expect(c.findings(ex('not-a-uuid', {})).map((f) => `${f.kind}: ${f.message}`)).toEqual([
      'request: request /path/requestId must match format "uuid"',
    ])
    expect(c.findings(ex(uuid, { at: 'yesterday' })).map((f) => f.message)).toEqual([
      'response /at must match format "date-time"',
    ])
    expect(c.findings(ex(uuid, { mail: 'nobody' })).map((f) => f.message)).toEqual([
      'response /mail must match format "email"',
    ])
    expect(c.findings(ex(uuid, { n: 2 ** 40 })).map((f) => f.message)).toEqual([
      'response /n must match format "int32"',
    ])
    expect(c.findings(ex(uuid, {}, 'application/pdf'))).toMatchObject([
      { kind: 'media-type', message: 'response Content-Type "application/pdf" is not declared (application/json)' },
    ])
  })

  it(
    'refuses a document URL that never answers, or answers past the size cap, within the deadline, naming the ' +
      'source',
    async () => {
      const server = createServer((req, res) => {
        if (req.url === '/huge') {
          res.writeHead(200, { 'content-type': 'application/json' })
          res.write(`{"pad":"${'x'.repeat(4096)}`)
          return // never ends: the cap stops it first
        }
        // /hang: headers never sent
      })
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      const { port } = server.address() as AddressInfo
      try {
        await expect(OpenApiContracts.load([`http://127.0.0.1:${port}/hang`], { deadlineMs: 300 })).rejects.toThrow(
          /\/hang: cannot be fetched \(no complete answer within 300 ms\)/,
        )
        await expect(
          OpenApiContracts.load([`http://127.0.0.1:${port}/huge`], { deadlineMs: 5000, maxBytes: 1024 }),
        ).rejects.toThrow(/\/huge: is larger than 1024 bytes/)
      } finally {
        server.closeAllConnections()
        server.close()
      }
    },
  )

  it(
    'loads the public sales document with its authoring errors as warnings (longPolling: "bool", type date, a ' +
      'parameter without a schema)',
    async () => {
      const source = resolve(PROJECT_ROOT, '../shared/anchors/sales-ledger.openapi.subset.json')
      if (!existsSync(source)) return
      const c = await OpenApiContracts.load([source])
      const lines = c.warnings.map((w) => `${w.pointer} ${w.message}`)
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^#\/paths\/~1api~1v1~1ledger~1sales~1policies~1actions~1\{id\}\/get\/parameters\/\d+\/schema\/type type "bool" is not a JSON Schema type; read as "boolean"$/,
        ),
      )
      expect(lines).toContainEqual(
        expect.stringMatching(
          /dueDate\/type type "date" is not a JSON Schema type; read as "string" with format "date"$/,
        ),
      )
      expect(lines).toContainEqual(
        expect.stringMatching(
          /custom-view~1installments\/get\/parameters\/\d+ parameter "policyId" has neither schema nor content/,
        ),
      )
      expect(new Set(lines).size).toBe(lines.length)
    },
  )

  it('resolves {salesBaseUrl} and relative files', () => {
    const vars = { salesBaseUrl: 'http://127.0.0.1:1', webhookBaseUrl: 'http://127.0.0.1:2', profileDir: '/p' }
    expect(resolveSource('{salesBaseUrl}/openapi.json', vars)).toBe('http://127.0.0.1:1/openapi.json')
    expect(resolveSource('docs/a.json', vars)).toBe('/p/docs/a.json')
  })
})

describe('request validation without openapi-backend parsing each request (docs/performance.md)', () => {
  /**
   * Path, query (array, non-exploded, JSON content), header, cookie and a JSON-only body: what parseRequest prepares.
   */
  const SHAPES = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/api/v1/things/{id}': {
        post: {
          operationId: 'post-thing',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
            { name: 'ids', in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
            {
              name: 'filter',
              in: 'query',
              content: { 'application/json': { schema: { type: 'object', required: ['x'] } } },
            },
            { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string', minLength: 3 } },
            { name: 'session', in: 'cookie', schema: { type: 'string', pattern: '^s-' } },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
              },
            },
          },
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  }
  const requests: { url: string; headers: Record<string, string>; body?: string }[] = [
    {
      url: 'http://t.test/api/v1/things/7?tags=a&ids=1,2&filter=%7B%22x%22%3A1%7D',
      headers: { 'X-Trace': 'abcd', Cookie: 'session=s-1', 'Content-Type': 'application/json' },
      body: '{"n":1}',
    },
    {
      url: 'http://t.test/api/v1/things/seven?tags=c&ids=1,z&filter=%7B%7D',
      headers: { 'x-trace': 'a', cookie: 'session=x', 'content-type': 'application/json' },
      body: '{"n":"1"}',
    },
    { url: 'http://t.test/api/v1/things/7/', headers: { 'content-type': 'application/json' }, body: '{not json' },
    { url: 'http://t.test/api/v1/things/7', headers: {}, body: '"5"' },
    { url: 'http://t.test/api/v1/things/7', headers: { 'content-type': 'text/plain' } },
  ]

  it('gives the same request findings as openapi-backend validateRequest for each shape of request', async () => {
    const source = write('shapes.json', SHAPES)
    const contracts = await OpenApiContracts.load([source])
    const { default: Backend } = (await import('openapi-backend')) as unknown as {
      default: new (
        o: object,
      ) => {
        init(): Promise<unknown>
        validateRequest(
          r: object,
          op: string,
        ): { errors?: { instancePath: string; message?: string; keyword: string }[] | null }
      }
    }
    const api = new Backend({
      definition: structuredClone(SHAPES),
      strict: false,
      validate: true,
      quick: true,
      ignoreTrailingSlashes: false,
      ajvOpts: { strict: false, logger: false, validateSchema: false },
    })
    await api.init()
    let compared = 0
    for (const r of requests) {
      const url = new URL(r.url)
      let body: unknown = r.body
      try {
        body = r.body === undefined ? undefined : JSON.parse(r.body)
      } catch {}
      const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), v]))
      const expected = (
        api.validateRequest(
          { method: 'post', path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body },
          'post-thing',
        ).errors ?? []
      ).map((e) => `request ${e.instancePath || '/'} ${e.message ?? e.keyword}`)
      const got = (
        contracts.check({ method: 'POST', url: r.url, requestHeaders: r.headers, requestBody: r.body }) ?? []
      )
        .filter((f) => f.kind === 'request')
        .map((f) => f.message.replace(/ \([^)]*\)$/, ''))
      expect(got).toEqual(expected.map((m) => m.replace(/ \([^)]*\)$/, '')))
      compared += expected.length
    }
    // the shapes do produce findings (a comparison of empty lists proves nothing)
    expect(compared).toBeGreaterThan(5)
  })
})
