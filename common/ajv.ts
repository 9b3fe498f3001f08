import { Ajv, type ErrorObject, type Options } from 'ajv'
import addFormatsImport from 'ajv-formats'
import { linearRegExp } from './linear-regexp'

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ??
  addFormatsImport) as unknown as (ajv: Ajv) => Ajv

/**
 * A fresh ajv instance (draft-07, all errors, formats). One per use site; no shared state. Patterns run on the
 * linear-time engine (common/linear-regexp.ts): a schema from a target cannot hang validation.
 */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp }, ...options })
  addFormats(ajv)
  return ajv
}

/** "/polling/maxDelayMs: must be <= 60000" style lines, one per ajv error. */
export function formatAjvErrors(errors: ErrorObject[] | null | undefined, root = ''): string[] {
  return (errors ?? []).map((e) => {
    let where = `${root}${e.instancePath}`
    if (e.keyword === 'additionalProperties') {
      where += `/${String((e.params as { additionalProperty?: string }).additionalProperty)}`
      return `${where || '/'}: unknown field`
    }
    if (e.keyword === 'required') {
      where += `/${String((e.params as { missingProperty?: string }).missingProperty)}`
      return `${where}: is required`
    }
    return `${where || '/'}: ${e.message ?? e.keyword}`
  })
}
