import { Ajv, type ErrorObject, type Options } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsImport from 'ajv-formats'
import { linearRegExp } from './linear-regexp'

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as unknown as (
  ajv: Ajv,
) => Ajv

/** Adds ajv-formats' formats (uuid, date-time, email, uri, ...) to an ajv made elsewhere (openapi-backend's). */
export function withFormats(ajv: Ajv): Ajv {
  return addFormats(ajv)
}

/**
 * ajv's logger for a target's documents: a format ajv-formats does not know (a vendor's "format": "iban") is ignored
 * by validation, as JSON Schema says; ajv's warning about it would reach the console once per schema compiled, so it
 * is dropped here on purpose. Other warnings and errors are passed on.
 */
export const DOCUMENT_AJV_LOGGER = {
  log: () => undefined,
  warn: (...args: unknown[]) => (/^unknown format /.test(String(args[0])) ? undefined : console.warn(...args)),
  error: (...args: unknown[]) => console.error(...args),
}

/**
 * A fresh ajv instance (draft-07, all errors, formats). One per use site; no shared state. Patterns run on the
 * linear-time engine (common/linear-regexp.ts): a schema from a target cannot hang validation.
 */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp }, ...options })
  addFormats(ajv)
  return ajv
}

/** The JSON Schema drafts a schema may declare in $schema that are compiled by their own rules. */
export type SchemaDraft = '2020-12' | '2019-09' | 'draft-07'

/** The draft a schema declares ($schema): 2020-12, 2019-09, else draft-07 (also for draft-06/04 and none). */
export function draftOf(schema: unknown): SchemaDraft {
  const declared = String((schema as { $schema?: unknown } | null)?.$schema ?? '')
  return declared.includes('2020-12') ? '2020-12' : declared.includes('2019-09') ? '2019-09' : 'draft-07'
}

/**
 * A fresh ajv for the draft the schema declares (Ajv2020, Ajv2019, else the draft-07 Ajv; all errors, formats):
 * every schema that comes from a target is compiled by its own draft, never as draft-07 (a 2020-12 product schema
 * compiled as draft-07 is refused, or its keywords ignored).
 */
export function createAjvFor(schema: unknown, options: Options = {}): Ajv {
  const draft = draftOf(schema)
  const o = { allErrors: true, strict: false, code: { regExp: linearRegExp }, ...options }
  if (draft === '2020-12') return addFormats(new Ajv2020(o) as unknown as Ajv)
  if (draft === '2019-09') return addFormats(new Ajv2019(o) as unknown as Ajv)
  return createAjv(options)
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
