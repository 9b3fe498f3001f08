import { describe, expect, it } from 'vitest'
import { repairDocument } from '../../../../helpers/client/contracts/openapi-repair'

const doc = (paths: Record<string, unknown>, components: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths,
  components,
})

describe('document warnings (lenient loading of published documents)', () => {
  it('maps a type alias to what it means, drops an unknown type and an unknown format, each with its pointer', () => {
    const d = doc({
      '/a': {
        get: {
          parameters: [{ name: 'p', in: 'query', schema: { type: 'bool' } }],
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { d: { type: 'date' }, x: { type: 'policy' }, f: { type: 'string', format: 'phone' } },
                  },
                },
              },
            },
          },
        },
      },
    })
    const { document, warnings } = repairDocument('doc.json', d)
    expect(warnings.map((w) => w.pointer)).toEqual([
      '#/paths/~1a/get/parameters/0/schema/type',
      '#/paths/~1a/get/responses/200/content/application~1json/schema/properties/d/type',
      '#/paths/~1a/get/responses/200/content/application~1json/schema/properties/x/type',
      '#/paths/~1a/get/responses/200/content/application~1json/schema/properties/f/format',
    ])
    const props = (document as any).paths['/a'].get.responses['200'].content['application/json'].schema.properties
    expect((document as any).paths['/a'].get.parameters[0].schema).toEqual({ type: 'boolean' })
    expect(props).toEqual({ d: { type: 'string', format: 'date' }, x: {}, f: { type: 'string' } })
    // the document given is not changed
    expect((d as any).paths['/a'].get.parameters[0].schema.type).toBe('bool')
  })

  it('gives a parameter without a schema an empty one, and replaces a $ref that names nothing', () => {
    const d = doc(
      {
        '/a/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true }, { $ref: '#/components/parameters/Gone' }],
            responses: {
              '200': { $ref: '#/components/responses/Nope' },
              '201': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } },
              },
            },
          },
        },
      },
      { schemas: { Here: { type: 'string' } } },
    )
    const { document, warnings } = repairDocument('doc.json', d)
    expect(warnings.map((w) => `${w.pointer}: ${w.message}`)).toEqual([
      '#/paths/~1a~1{id}/get/parameters/0: parameter "id" has neither schema nor content; only its presence is ' +
        'validated',
      '#/paths/~1a~1{id}/get/parameters/1: $ref "#/components/parameters/Gone" names nothing in the document; the ' +
        'part is not validated',
      '#/paths/~1a~1{id}/get/responses/200: $ref "#/components/responses/Nope" names nothing in the document; the ' +
        'part is not validated',
      '#/paths/~1a~1{id}/get/responses/201/content/application~1json/schema: $ref "#/components/schemas/Missing" ' +
        'names nothing in the document; the part is not validated',
    ])
    const get = (document as any).paths['/a/{id}'].get
    expect(get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: {} }])
    expect(get.responses['201'].content['application/json'].schema).toEqual({})
  })

  it('warns of nothing in a clean document and leaves it as it was', () => {
    const d = {
      ...doc(
        {
          '/a': {
            get: {
              responses: {
                '200': {
                  description: 'ok',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/Here' } } },
                },
              },
            },
          },
        },
        { schemas: { Here: { type: ['string', 'null'], format: 'uuid' } } },
      ),
      openapi: '3.1.0',
    }
    const { document, warnings } = repairDocument('doc.json', d)
    expect(warnings).toEqual([])
    expect(document).toEqual(d)
  })
})
