import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { _, type Ajv, type ValidateFunction } from 'ajv'
import standaloneModule from 'ajv/dist/standalone/index.js'
import { createAjvFor } from '../ajv'
import { linearRegExp } from '../linear-regexp'
import { INSTALLED, PROJECT_ROOT, userCacheDir } from '../project-root'

/**
 * Validators of the project's own schemas (the profile schema, the suite classes, the payload overrides), compiled once
 * and kept on disk as
 * ajv standalone code: compiling the profile schema is a quarter of a CPU second on the main thread before the run's
 * first request, evaluating its generated code a few milliseconds (docs/reliability.md#speed). Only schemas the
 * project ships go here: a schema a target serves is compiled in memory (common/data/schema-compiler.ts), so no target
 * can make the cache grow.
 *
 * A cached validator is the code ajv generated for the same schema text, draft, ajv and ajv-formats versions and
 * options: the file name is a hash of all of them, so any change compiles again. Files are written whole (a temporary
 * file renamed), readable by this user only. Anything wrong with the cache (unwritable, unreadable, a file that does
 * not evaluate) falls back to compiling in memory: the cache never changes a result.
 */

const requireFromProject = createRequire(join(PROJECT_ROOT, 'package.json'))
const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (
  ajv: unknown,
  v: ValidateFunction,
) => string
/** Bump when the way the code is generated or loaded changes. */
const CACHE_FORMAT = 1

/** The folder of the cached validators: under node_modules/.cache in a checkout, the user's cache folder installed. */
export function validatorCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return INSTALLED
    ? join(userCacheDir(env), 'validators')
    : join(PROJECT_ROOT, 'node_modules', '.cache', 'ledger-conformance', 'validators')
}

function versionOf(pkg: string): string {
  try {
    return (requireFromProject(`${pkg}/package.json`) as { version?: string }).version ?? '?'
  } catch {
    return '?'
  }
}

/**
 * The ajv options that shape generated code, as text: the plain values, and the code options by how they are written.
 */
function optionsText(opts: object): string {
  const plain = (o: object) =>
    Object.fromEntries(
      Object.entries(o).filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v)),
    )
  const code = ((opts as { code?: Record<string, unknown> }).code ?? {}) as Record<string, unknown>
  const regExp = code.regExp as { code?: string } | undefined
  return JSON.stringify([
    plain(opts),
    plain(code),
    regExp?.code ?? null,
    code.formats === undefined ? null : String(code.formats),
  ])
}

/** The cache key of a schema's validator: its text with everything else that shapes the generated code. */
export function validatorKey(schemaText: string, options: object): string {
  return createHash('sha256')
    .update(
      JSON.stringify([CACHE_FORMAT, versionOf('ajv'), versionOf('ajv-formats'), optionsText(options), schemaText]),
    )
    .digest('hex')
    .slice(0, 32)
}

/** Evaluates cached standalone code: its `require`s resolve from the project, its patterns run on linearRegExp. */
function load(code: string): ValidateFunction {
  const module: { exports: { default?: ValidateFunction } & Partial<ValidateFunction> } = { exports: {} }
  // new Function: the code ajv generated for a schema the project ships
  new Function('require', 'module', 'exports', 'linearRegExp', code)(
    requireFromProject,
    module,
    module.exports,
    linearRegExp,
  )
  const v = (module.exports.default ?? module.exports) as ValidateFunction
  if (typeof v !== 'function') throw new Error('cached validator: no function')
  return v
}

/** An ajv that keeps the code it generates (ajv standalone), with the options of every other validator. */
function sourceAjv(schema: object): Ajv {
  return createAjvFor(schema, {
    validateSchema: false,
    code: { source: true, regExp: linearRegExp, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  })
}

/** Compiles in memory and keeps the generated code for the next run. */
function compileAndKeep(ajv: Ajv, schema: object, file: string, dir: string): ValidateFunction {
  const v = ajv.compile(schema)
  try {
    const code = standaloneCode(ajv, v)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    writeFileSync(tmp, code, { mode: 0o600 })
    renameSync(tmp, file)
  } catch {
    // no cache this time (a read-only folder, say): the validator compiled in memory is the same
  }
  return v
}

/** The validator of a schema the project ships, from the disk cache when it holds it, else compiled and kept. */
export function cachedValidator(
  schema: object,
  schemaText: string = JSON.stringify(schema),
  dir: string = validatorCacheDir(),
): ValidateFunction {
  const ajv = sourceAjv(schema)
  const file = join(dir, `${validatorKey(schemaText, ajv.opts)}.cjs`)
  let code: string | undefined
  try {
    code = readFileSync(file, 'utf8')
  } catch {
    return compileAndKeep(ajv, schema, file, dir)
  }
  try {
    return load(code)
  } catch {
    return compileAndKeep(ajv, schema, file, dir)
  }
}
