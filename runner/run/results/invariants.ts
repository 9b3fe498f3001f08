import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TestCase } from 'vitest/node'
import { PROJECT_ROOT } from '../../../common/project-root'
import { INVARIANTS } from '../../../helpers/oracle/invariants'
import { SPEC } from '../../../common/spec'
import { REAL_WORLD_CLASSES } from '../../../helpers/oracle/real-world'
import type { CheckOutcome } from './results'
import { findingOf } from './findings'
import { failureFields } from './failure-fields'
import type { ViolationRecord } from '../../../helpers/checks/task-meta'

/** The file a model invariant's outcome names: where the invariants are defined (they belong to no suite file). */
export const INVARIANTS_FILE = 'helpers/oracle/invariants.ts'

/**
 * The line of each invariant's declaration in INVARIANTS_FILE (its id, clause and requirement), read from the source
 * the
 * package ships: where `list` and checks.json point for an invariant. The rule that judged a broken answer is named in
 * the failure itself (`judged by helpers/oracle/...:line`).
 */
export function invariantLines(
  source: string = readFileSync(join(PROJECT_ROOT, INVARIANTS_FILE), 'utf8'),
): Map<string, number> {
  const out = new Map<string, number>()
  source.split('\n').forEach((l, i) => {
    const m = /\bid:\s*'([A-Z]+-INV-\d+)'/.exec(l)
    if (m && !out.has(m[1]!)) out.set(m[1]!, i + 1)
  })
  return out
}

/**
 * Each invariant of the model (helpers/oracle/invariants.ts) as a check of its own in checks.json: failed when an
 * answer
 * any check received broke it (naming those checks; `about` the operations of those answers, which the matrix then
 * marks FAILED), passed when it was evaluated and never broken, not applicable when no
 * answer of the run gave it anything to judge.
 */
export function invariantOutcomes(cases: ReadonlyArray<TestCase>): CheckOutcome[] {
  const evaluated = new Map<string, number>()
  const violated = new Map<
    string,
    {
      checks: Set<string>
      message: string
      failure: ViolationRecord | undefined
      operations: Set<string>
      byCheck: Map<string, Set<string>>
    }
  >()
  const failedChecks = new Set<string>()
  /** The operation of the answer each failed check failed on (its finding), when it says one. */
  const failedOn = new Map<string, string>()
  /** Invariant id -> the resources whose history it could not decide (the linearizability checker's budget spent). */
  const undecided = new Map<string, Set<string>>()
  for (const tc of cases) {
    const inv = tc.meta().invariants
    if (!inv) continue
    const check = tc.meta().check?.id ?? tc.name
    // failed on its own, or blocked by a failure (its setup's): either way not a pass the invariant contradicts
    if (tc.result().state === 'failed' || tc.meta().blocked) failedChecks.add(check)
    const finding = findingOf(tc.meta().failure)
    if (tc.result().state === 'failed' && finding) failedOn.set(check, finding.operation)
    for (const [id, n] of Object.entries(inv.evaluated)) evaluated.set(id, (evaluated.get(id) ?? 0) + n)
    for (const u of inv.undecided ?? []) undecided.set(u.id, (undecided.get(u.id) ?? new Set<string>()).add(u.resource))
    for (const v of inv.violated) {
      const entry = violated.get(v.id) ?? {
        checks: new Set<string>(),
        message: v.message,
        failure: v.failure,
        operations: new Set<string>(),
        byCheck: new Map<string, Set<string>>(),
      }
      if (v.operation) {
        entry.operations.add(v.operation)
        entry.byCheck.set(check, (entry.byCheck.get(check) ?? new Set<string>()).add(v.operation))
      }
      entry.checks.add(check)
      violated.set(v.id, entry)
    }
  }
  const lines = invariantLines()
  const sent = realWorldDataSent(cases)
  return INVARIANTS.map((meta) => {
    const n = evaluated.get(meta.id) ?? 0
    // SL-INV-009 says which real-world data classes the run wrote (helpers/oracle/real-world.ts)
    const extra = meta.id === 'SL-INV-009' ? `; ${realWorldLine(sent)}` : ''
    const broken = violated.get(meta.id)
    const line = lines.get(meta.id)
    const base = {
      id: meta.id,
      document: SPEC[meta.spec],
      section: meta.section,
      requirement: meta.requirement,
      title: `${meta.id} ${meta.requirement}`,
      file: INVARIANTS_FILE,
      ...(line ? { line } : {}),
      durationMs: 0,
      deviations: [],
    }
    if (broken) {
      const checks = [...broken.checks].sort()
      // every answer that broke it was received by a check that failed (or was blocked by a failure): the same finding
      const every = checks.every((c) => failedChecks.has(c))
      // or a check failed on an answer of an operation that broke it in that check's own answers: the wrong answer that
      // check reported, judged again by the model (other checks that read the same wrong data passed without noticing)
      const onSame = every ? [] : checks.filter((c) => failedOn.has(c) && broken.byCheck.get(c)?.has(failedOn.get(c)!))
      const same = every ? checks : onSame.length > 0 ? onSame : undefined
      const why = every
        ? ' (each failed or was blocked as well: the same finding)'
        : same
          ? ` (${same.join(', ')} failed on an answer of the same operation: the same finding)`
          : ''
      return {
        ...base,
        status: 'failed' as const,
        error: `${broken.message}\nbroken in the answers of: ${checks.join(', ')}${why}`,
        failure: failureFields(`${base.document} ${base.section}`, base.requirement, broken.failure),
        note: `evaluated on ${n} answer(s)${extra}`,
        ...(broken.operations.size > 0 ? { about: [...broken.operations].sort() } : {}),
        ...(same ? { sameFindingAs: same } : {}),
      }
    }
    // a history the checker could not decide within its budget: not judged either way (INCONCLUSIVE), never a pass
    const open = undecided.get(meta.id)
    if (open)
      return {
        ...base,
        status: 'errored' as const,
        error:
          `undecided: the linearizability checker ran out of its budget on the history ` +
          `of ${[...open].slice(0, 5).join(', ')}${open.size > 5 ? ` and ${open.size - 5} more` : ''}; this ` +
          `invariant could not be judged there (INCONCLUSIVE, not a failure)`,
        note: `evaluated on ${n} answer(s)${extra}`,
      }
    if (n > 0) return { ...base, status: 'passed' as const, note: `evaluated on ${n} answer(s)${extra}` }
    // nothing to judge (a partial selection, a target without the feature): not applicable, with the reason; the
    // verdict does not count it as a selected check that was skipped (runner/run/verdict.ts)
    return {
      ...base,
      status: 'not-applicable' as const,
      note: `not applicable: no answer of this run gave it anything to judge${extra}`,
    }
  })
}

/** Real-world data class -> leaves of that class the run's requests wrote (every class listed, 0 when none was). */
export function realWorldDataSent(cases: ReadonlyArray<TestCase>): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(REAL_WORLD_CLASSES.map((c) => [c, 0]))
  for (const tc of cases)
    for (const [c, k] of Object.entries(tc.meta().invariants?.sent ?? {})) out[c] = (out[c] ?? 0) + k
  return out
}

/** "Real-world data sent: accents 12, cjk 4, ...; not sent: emoji." */
export function realWorldLine(sent: Record<string, number>): string {
  const some = Object.entries(sent).filter(([, k]) => k > 0)
  const none = Object.entries(sent)
    .filter(([, k]) => k === 0)
    .map(([c]) => c)
  return `Real-world data sent (leaves written): ${some.length > 0 ? some.map(([c, k]) => `${c} ${k}`).join(', ') : 'none'}${none.length > 0 ? `; not sent: ${none.join(', ')}` : ''}.`
}
