import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { PROJECT_ROOT } from '../../../common/config/target-config'
import { formatAjvErrors } from '../../../common/ajv'
import { SchemaCompiler } from '../../../common/data/schema-compiler'
import { suiteFileOf } from '../targets/entries'
import { isLane, suitesOfLane } from '../targets/lanes'

export interface SuiteClasses {
  /** Suite files (relative to the project, forward slashes) that only read. */
  readOnly: string[]
}

const FILE = resolve(PROJECT_ROOT, 'fixtures/suite-classes.json')
const SCHEMA = resolve(PROJECT_ROOT, 'fixtures/suite-classes.schema.json')

/** Reads fixtures/suite-classes.json, validated by its schema. Throws naming the field. */
export function loadSuiteClasses(file = FILE): SuiteClasses {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { readOnly: { file: string }[] }
  const validate = new SchemaCompiler().compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object, { shipped: true })
  if (!validate(data))
    throw new Error(`${relative(PROJECT_ROOT, file)}: ${formatAjvErrors(validate.errors).join('; ')}`)
  return { readOnly: data.readOnly.map((e) => e.file) }
}

/** The project-relative, forward-slash form of a suite file path. */
export function suiteKey(file: string): string {
  return relative(PROJECT_ROOT, resolve(PROJECT_ROOT, file)).split('\\').join('/')
}

/**
 * The files among `files` that create or change data (every file not listed as read-only); a multi-target entry
 * counts as its suite, a lane (runner/run/targets/lanes.ts) as the suites it runs.
 */
export function writingFiles(files: string[], classes: SuiteClasses): string[] {
  const ro = new Set(classes.readOnly)
  const suites = files.flatMap((f) => (isLane(f) ? suitesOfLane(resolve(PROJECT_ROOT, f)) : [suiteFileOf(suiteKey(f))]))
  return [...new Set(suites)].filter((f) => !ro.has(f)).sort()
}
