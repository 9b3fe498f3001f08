import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import type { Ajv, ValidateFunction } from 'ajv'
import { PROJECT_ROOT } from '../../../common/project-root'
import { listFiles } from '../../../common/fs/list-files'
import { createAjv, formatAjvErrors } from '../../../common/ajv'

export const CONTRACTS_DIR = resolve(PROJECT_ROOT, 'fixtures/contracts')

export interface ContractResult {
  valid: boolean
  errors: string[]
}

/**
 * Response contracts: every JSON Schema under fixtures/contracts/, addressed by its path
 * without extension (e.g. "webhooks/subscription"). Leave $id out: a schema refers to a sibling
 * by file name ({"$ref": "subscription"} inside webhooks/ resolves to webhooks/subscription).
 */
export class ContractRegistry {
  private readonly ajv: Ajv
  /** contract name -> the id it was added under; compiled on first use */
  private readonly ids = new Map<string, string>()
  private readonly validators = new Map<string, ValidateFunction>()

  constructor(dir: string = CONTRACTS_DIR) {
    // the project's contracts are checked against the meta-schema by their own test, not on every suite file
    this.ajv = createAjv({ validateSchema: false })
    for (const file of listFiles(dir, '.json')) {
      const schema = JSON.parse(readFileSync(file, 'utf8')) as { $id?: string }
      const name = relative(dir, file)
        .replace(/\\/g, '/')
        .replace(/\.json$/, '')
      const id = schema.$id ?? name
      this.ajv.addSchema(schema, id)
      this.ids.set(name, id)
    }
  }

  names(): string[] {
    return [...this.ids.keys()].sort()
  }

  /** Compiles every contract now (a broken contract fixture throws, naming it). */
  compileAll(): void {
    for (const name of this.ids.keys()) this.validator(name)
  }

  private validator(name: string): ValidateFunction {
    let v = this.validators.get(name)
    if (v) return v
    const id = this.ids.get(name)
    if (id === undefined) throw new Error(`unknown contract '${name}' (have: ${this.names().join(', ')})`)
    try {
      v = this.ajv.getSchema(id)
    } catch (e) {
      throw new Error(`contract ${name} did not compile: ${(e as Error).message}`)
    }
    if (!v) throw new Error(`contract ${name} did not compile`)
    this.validators.set(name, v)
    return v
  }

  validate(name: string, data: unknown): ContractResult {
    const v = this.validator(name)
    const valid = v(data) as boolean
    return { valid, errors: valid ? [] : formatAjvErrors(v.errors, '') }
  }
}

/**
 * The registry of a contracts folder, shared by the suite contexts of a worker: the contract files do not change
 * during a run, and each contract is then compiled once per worker instead of once per suite file and target
 * (the same deliberate cache as SchemaCompiler's; a validator is a pure function of its schema).
 */
const registries = new Map<string, ContractRegistry>()

export function contractRegistry(dir: string = CONTRACTS_DIR): ContractRegistry {
  let r = registries.get(dir)
  if (!r) {
    r = new ContractRegistry(dir)
    registries.set(dir, r)
  }
  return r
}
