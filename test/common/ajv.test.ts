import { describe, expect, it } from 'vitest'
import { createAjvFor, draftOf } from '../../common/ajv'

describe('ajv by the draft a schema declares', () => {
  it('reads the declared draft from $schema, draft-07 when none or an older one', () => {
    expect(draftOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('2020-12')
    expect(draftOf({ $schema: 'https://json-schema.org/draft/2019-09/schema#' })).toBe('2019-09')
    expect(draftOf({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('draft-07')
    expect(draftOf({})).toBe('draft-07')
    expect(draftOf(null)).toBe('draft-07')
  })

  it(
    'compiles a 2020-12 schema (the draft-07 ajv refuses its meta-schema) and checks it against its own ' +
      'meta-schema',
    () => {
      const schema = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { at: { type: 'string', format: 'date' } },
      }
      const v = createAjvFor(schema).compile(schema)
      expect(v({ at: '2026-01-31' })).toBe(true)
      expect(v({ at: 'soon' })).toBe(false)
      const tupleItems = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'array',
        items: [{ type: 'string' }],
      }
      expect(createAjvFor(tupleItems).validateSchema(tupleItems)).toBe(false)
      const draft07 = { ...tupleItems, $schema: 'http://json-schema.org/draft-07/schema#' }
      expect(createAjvFor(draft07).validateSchema(draft07)).toBe(true)
    },
  )

  it('runs patterns on the linear-time engine in every draft (a backreference is refused at compile)', () => {
    for (const $schema of [
      'https://json-schema.org/draft/2020-12/schema',
      'https://json-schema.org/draft/2019-09/schema',
      'http://json-schema.org/draft-07/schema#',
    ]) {
      const schema = { $schema, type: 'string', pattern: '^(a+)\\1$' }
      expect(() => createAjvFor(schema).compile(schema), $schema).toThrow()
    }
  })
})
