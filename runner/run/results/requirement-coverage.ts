import { covers, type RequirementsIndex } from '../../../common/requirements'
import type { CheckOutcome, RequirementCoverage } from './results'

export type { RequirementCoverage }

const JUDGED = new Set(['passed', 'failed'])
const INVARIANTS_FILE = 'helpers/oracle/invariants.ts'
/** A not-applicable reason that is the tenant's lack of a feature the profile declares (features.<name>). */
const FEATURE = /\bfeatures\.\w+/

/**
 * How far a run tested each requirement of common/requirements.json (docs/reports.md "Requirement coverage"):
 * - covered: every check of the run that covers it ran and judged it (passed or failed);
 * - partial: some did, others were not applicable or blocked;
 * - untested: none did (every one not applicable, blocked or skipped): CONFORMS says nothing about it;
 * - not-applicable: none did, and only because the profile says the tenant lacks the feature (features.*): the
 *   requirement does not apply to this tenant, which is not a gap of the run (not counted as untested).
 * A requirement none of whose checks is in the run (a selection) is out of the run's scope and not listed.
 * `enable`: the distinct reasons of the checks that did not judge it; a not-applicable reason names the profile field
 * that would enable them (users.otherTenant, users.restricted, webhooks.receiver, features.*).
 */
export function requirementCoverage(index: RequirementsIndex, checks: readonly CheckOutcome[]): RequirementCoverage[] {
  const out: RequirementCoverage[] = []
  for (const r of index.requirements) {
    // a model invariant with nothing to judge only says what the other checks did not exercise: it neither brings a
    // requirement into the run's scope nor leaves it untested
    const mine = checks.filter((c) => covers(r, c) && !(c.file === INVARIANTS_FILE && !JUDGED.has(c.status)))
    if (mine.length === 0) continue
    const judged = mine.filter((c) => JUDGED.has(c.status)).length
    const enable = [...new Set(mine.filter((c) => !JUDGED.has(c.status)).map(reasonOf))].slice(0, 4)
    const absentFeature = mine.every(
      (c) => JUDGED.has(c.status) || (c.status === 'not-applicable' && FEATURE.test(c.note ?? '')),
    )
    const status =
      judged === mine.length ? 'covered' : judged > 0 ? 'partial' : absentFeature ? 'not-applicable' : 'untested'
    out.push({
      id: r.id,
      document: r.document,
      section: r.section,
      paraphrase: r.paraphrase,
      status,
      judged,
      checks: mine.length,
      enable,
    })
  }
  return out
}

function reasonOf(c: CheckOutcome): string {
  if (c.status === 'blocked') return `blocked: ${c.blocked?.reason ?? 'its setup failed'}`.slice(0, 200)
  return (c.note ?? c.status).replace(/^not applicable:\s*/, '').slice(0, 200)
}

/** Console lines: the untested requirements, each with what would enable it, then the partial ones in one line. */
export function coverageLines(cov: readonly RequirementCoverage[]): string[] {
  const untested = cov.filter((r) => r.status === 'untested')
  const partial = cov.filter((r) => r.status === 'partial')
  const absent = cov.filter((r) => r.status === 'not-applicable')
  const out = [
    `requirements ${cov.length - untested.length - partial.length - absent.length} covered, ${partial.length} ` +
      `partially, ${untested.length} untested${
        absent.length ? `, ${absent.length} not applicable to the tenant` : ''
      } (common/requirements.json)`,
  ]
  for (const r of untested) out.push(`  UNTESTED ${r.id} ${r.document} ${r.section}: ${r.enable.join('; ')}`)
  for (const r of absent) out.push(`  n/a      ${r.id} ${r.document} ${r.section}: ${r.enable.join('; ')}`)
  // the partly judged ones in one line: what would enable each is in checks.json and verdict.json (requirements)
  if (partial.length > 0)
    out.push(`  partially judged: ${partial.map((r) => `${r.id} (${r.judged} of ${r.checks})`).join(', ')}`)
  return out
}
