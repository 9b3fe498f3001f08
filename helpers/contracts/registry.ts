import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import type { Ajv, ValidateFunction } from 'ajv'
import { PROJECT_ROOT } from '../config'
import { createAjv, formatAjvErrors } from './ajv'

export const CONTRACTS_DIR = resolve(PROJECT_ROOT, 'fixtures/contracts')

export interface ContractResult {
  valid: boolean
  errors: string[]
}

function listJson(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return listJson(p)
    return name.endsWith('.json') ? [p] : []
  })
}

/**
 * Response contracts: every JSON Schema under fixtures/contracts/, addressed by its path
 * without extension (e.g. "webhooks/subscription"). Leave $id out: a schema refers to a sibling
 * by file name ({"$ref": "subscription"} inside webhooks/ resolves to webhooks/subscription).
 */
export class ContractRegistry {
  private readonly ajv: Ajv
  private readonly validators = new Map<string, ValidateFunction>()

  constructor(dir: string = CONTRACTS_DIR) {
    this.ajv = createAjv()
    const files = listJson(dir)
    const byName = new Map<string, object>()
    for (const file of files) {
      const schema = JSON.parse(readFileSync(file, 'utf8')) as { $id?: string }
      const name = relative(dir, file).replace(/\\/g, '/').replace(/\.json$/, '')
      this.ajv.addSchema(schema, schema.$id ?? name)
      byName.set(name, schema)
    }
    for (const [name, schema] of byName) {
      const id = (schema as { $id?: string }).$id ?? name
      const v = this.ajv.getSchema(id)
      if (!v) throw new Error(`contract ${name} did not compile`)
      this.validators.set(name, v)
    }
  }

  names(): string[] {
    return [...this.validators.keys()].sort()
  }

  validate(name: string, data: unknown): ContractResult {
    const v = this.validators.get(name)
    if (!v) throw new Error(`unknown contract '${name}' (have: ${this.names().join(', ')})`)
    const valid = v(data) as boolean
    return { valid, errors: valid ? [] : formatAjvErrors(v.errors, '') }
  }
}
