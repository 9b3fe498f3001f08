import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { PROJECT_ROOT } from '../../../common/config/target-config'
import type { ValidateFunction } from 'ajv'
import { createAjvFor, formatAjvErrors } from '../../../common/ajv'

export const PAYLOADS_DIR = resolve(PROJECT_ROOT, 'fixtures/payloads')

export interface PayloadOverrides {
  product: string
  description?: string
  set?: Record<string, unknown>
  update?: Record<string, unknown>
  invalid?: { pointer: string; value: unknown; field: string }
}

/** fixtures/payloads/<product>.json validated against payload-overrides.schema.json; {product} when there is none. */
export function loadPayloadOverrides(
  product: string,
  dir: string = PAYLOADS_DIR,
  compile: (schema: object) => ValidateFunction = (s) => createAjvFor(s).compile(s),
): PayloadOverrides {
  const file = resolve(dir, `${product}.json`)
  if (!/^[A-Za-z0-9_-]+$/.test(product) || !existsSync(file)) return { product }
  const schema = JSON.parse(readFileSync(resolve(dir, 'payload-overrides.schema.json'), 'utf8')) as object
  const data = JSON.parse(readFileSync(file, 'utf8')) as unknown
  const validate = compile(schema)
  if (!validate(data)) throw new Error(`${file}: ${formatAjvErrors(validate.errors).join('; ')}`)
  const o = data as PayloadOverrides
  if (o.product !== product) throw new Error(`${file}: product is '${o.product}', expected '${product}'`)
  return o
}
