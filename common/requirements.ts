import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { formatAjvErrors } from './ajv'
import { cachedValidator } from './data/validator-cache'
import { PROJECT_ROOT } from './project-root'

/** One requirement of a specification, in the project's own words (common/requirements.json). */
export interface Requirement {
  id: string
  /** sales-service.md or webhook-subscriptions.md */
  document: string
  /** "§4" */
  section: string
  paraphrase: string
  /**
   * Check id prefixes; a check covers the requirement when its id starts with one and it cites document and section.
   */
  checks: string[]
}

export interface RequirementsIndex {
  documents: Record<string, { title: string; source: string }>
  requirements: Requirement[]
}

/** What a check says about itself (its meta): enough to match it to requirements. */
export interface CitingCheck {
  id: string
  document: string
  /** One section or several: "§4" or "§3, §4". */
  section: string
}

export const REQUIREMENTS_FILE = join(PROJECT_ROOT, 'common/requirements.json')

/** The index, validated against common/requirements.schema.json; throws naming the field when it is not. */
export function readRequirements(file: string = REQUIREMENTS_FILE): RequirementsIndex {
  const data = JSON.parse(readFileSync(file, 'utf8')) as unknown
  const schema = JSON.parse(readFileSync(join(PROJECT_ROOT, 'common/requirements.schema.json'), 'utf8')) as object
  // the project's own schema: its validator from the disk cache of generated code, not compiled at every run's end
  const validate = cachedValidator(schema)
  if (!validate(data)) throw new Error(`${file}: ${formatAjvErrors(validate.errors).join('; ')}`)
  return data as RequirementsIndex
}

/** The sections a check cites ("§3, §4" -> ["§3", "§4"]). */
export function citedSections(section: string): string[] {
  return section
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

export function covers(r: Requirement, c: CitingCheck): boolean {
  return (
    c.document === r.document &&
    citedSections(c.section).includes(r.section) &&
    r.checks.some((p) => c.id.startsWith(p))
  )
}

/** For each requirement, the ids of the checks that cover it (in the checks' order). */
export function coverage(index: RequirementsIndex, checks: readonly CitingCheck[]): Map<string, string[]> {
  return new Map(index.requirements.map((r) => [r.id, checks.filter((c) => covers(r, c)).map((c) => c.id)]))
}

/** The checks no requirement of the index covers (each should be added to a requirement, or get one). */
export function uncoveredChecks(index: RequirementsIndex, checks: readonly CitingCheck[]): CitingCheck[] {
  return checks.filter((c) => !index.requirements.some((r) => covers(r, c)))
}
