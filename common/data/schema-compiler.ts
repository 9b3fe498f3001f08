import type { ValidateFunction } from 'ajv'
import { createAjvFor } from '../ajv'
import { cachedValidator } from './validator-cache'

/**
 * Compiled validators by schema text, shared by every suite context of a worker. This is the suite's one
 * deliberate module-level cache: compiling is the largest CPU cost of a run (a product schema takes tens of
 * milliseconds, and each suite file of each target would compile it again), and a compiled validator is a pure
 * function of the schema text, so sharing it changes no result. It only grows with distinct schemas.
 */
const compiled = new Map<string, ValidateFunction>()

/**
 * Compiles JSON Schemas by the draft each declares ($schema: 2020-12, 2019-09, else draft-07; all errors, formats): the
 * same schema, or an equal copy of it (the product
 * schema fetched again by another flow or target), gets the validator compiled the first time.
 * No meta-schema pass here: the schemes suite checks the target's schemas against their meta-schema.
 */
export class SchemaCompiler {
  private readonly byObject = new WeakMap<object, ValidateFunction>()

  /**
   * `shipped`: the schema is one the project ships (the profile schema, a fixture's): its validator comes from the
   * disk cache of generated code (common/data/validator-cache.ts) instead of being compiled at every run.
   */
  compile(schema: object, o: { shipped?: boolean } = {}): ValidateFunction {
    const known = this.byObject.get(schema)
    if (known) return known
    const text = JSON.stringify(schema)
    let v = compiled.get(text)
    if (!v) {
      // a fresh ajv per schema: two schemas that share an $id never clash
      v = o.shipped ? cachedValidator(schema, text) : createAjvFor(schema, { validateSchema: false }).compile(schema)
      compiled.set(text, v)
    }
    this.byObject.set(schema, v)
    return v
  }
}
