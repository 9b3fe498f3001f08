import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../../../common/config/target-config'
import { createAjv } from '../../../../common/ajv'
import { listFiles } from '../../../../common/fs/list-files'

// The project's own schemas (the fixtures', and the spec module's catalogues in common/) are compiled without a
// meta-schema pass at run time (SchemaCompiler); this is that pass.
describe("the fixtures' and the spec catalogues' JSON Schemas", () => {
  const schemas = [
    ...listFiles(`${PROJECT_ROOT}/fixtures`, '.schema.json'),
    ...listFiles(`${PROJECT_ROOT}/common`, '.schema.json'),
  ]

  it('are found', () => {
    expect(schemas.map((f) => relative(PROJECT_ROOT, f))).toEqual(
      expect.arrayContaining([
        'fixtures/targets/profile.schema.json',
        'common/operations.schema.json',
        'common/requirements.schema.json',
      ]),
    )
  })

  it.each(schemas.map((f) => [relative(PROJECT_ROOT, f), f]))('%s is a valid draft-07 schema', (_name, file) => {
    const ajv = createAjv()
    const schema = JSON.parse(readFileSync(file, 'utf8')) as object
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true)
  })
})
