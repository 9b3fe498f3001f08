import type { FailureRecord } from '../../../helpers/checks/task-meta'

/**
 * What a failure was, for telling one finding from several: the operation that answered, its status, and what was
 * expected (a status expectation by its classes, "status 2xx", or the expectation with ids and numbers masked).
 */
export interface Finding {
  operation: string
  status: number
  expected: string
  /**
   * The status classes a status expectation names, sorted (['2'] for 200, 201 or 2xx); absent for another expectation.
   */
  classes?: string[]
  /** The check that owns this requirement, when it is another check (FailureRecord.owner). */
  owner?: string
  /** The answer the check failed on (helpers/client/http/recorder.ts answerKey), when it was recorded. */
  answer?: string
}

/**
 * The finding of a failed requirement, from its record: none for an error, or a failure without a recorded answer of
 * a known operation. A pure function of the record: nothing is read back from a message.
 */
export function findingOf(r: FailureRecord | undefined): Finding | undefined {
  if (!r || r.kind !== 'failed' || !r.expectation || !r.answer || !r.operation || r.status === undefined)
    return undefined
  const e = r.expectation
  const expected = e.kind === 'status' ? `status ${e.classes.map((c) => `${c}xx`).join(' or ')}` : e.key
  return {
    operation: r.operation,
    status: r.status,
    expected,
    ...(e.kind === 'status' ? { classes: e.classes } : {}),
    ...(r.owner ? { owner: r.owner } : {}),
    answer: r.answer,
  }
}

/** A failed check, as the reconciliation of findings sees it. */
export interface FailedFinding {
  id: string
  /** The product of a per-product check (CheckMeta.product), when it has one. */
  product?: string
  finding: Finding
}

/** The check whose failure is the root of another's: the other is the same finding (CheckOutcome.sameFindingAs). */
export interface SameFinding {
  as: string
  /** One line for the reports: why it is the same finding. */
  why: string
}

const sameAnswer = (a: Finding, b: Finding) => a.operation === b.operation && a.status === b.status

/**
 * The same answer failing the same expectation. Two status expectations that differ are one finding only when the
 * answer is of a class neither expected: a 501 to every referral fails the check that expects the referral to succeed
 * and the cell that expects it refused alike, while a 200 to an invalid subscription (a refusal expected) is not the
 * finding of a 200 where a 201 was expected.
 */
function same(a: Finding, b: Finding): boolean {
  return sameAnswer(a, b) && (a.expected === b.expected || unexpectedByBoth(a, b))
}

/**
 * The same operation answered the same status to two checks, of a class neither expected: a 500 to the read of an
 * unknown subscription and to another tenant's read of one, or a 200 to an unknown policy's invoices and to another
 * tenant's. One wrong answer of one operation, whichever checks met it; a status of a class a check expected (a 200
 * where a 201 was expected) is not this rule's.
 */
function unexpectedByBoth(a: Finding, b: Finding): boolean {
  if (!sameAnswer(a, b)) return false
  const ca = a.classes
  const cb = b.classes
  const got = String(a.status)[0]!
  return !!ca && !!cb && !ca.includes(got) && !cb.includes(got)
}

/** The id of a per-product check without its product (SL-LIFE-004-home -> SL-LIFE-004); undefined for another check. */
function variantBase(f: FailedFinding): string | undefined {
  return f.product && f.id.endsWith(`-${f.product}`) ? f.id.slice(0, -f.product.length - 1) : undefined
}

/**
 * One defect, one finding (issue 13): among a run's failed checks, those whose failure is another failed check's.
 * - The owner's: a check failed where the check that owns that requirement (Finding.owner: the operation's owner for
 *   a status failure, or the one the assertion names) failed with the same answer (operation, status) and the same
 *   expectation. A state-table cell refused the update the lifecycle's SL-LIFE-004-home was refused as well.
 * - Another product's: the same per-product check (SL-LIFE-004-travel and -home) failed on the same operation with
 *   the same status. The expectation may differ, as the products' data do.
 * - An answer neither expected: two checks failed on the same operation with the same status, of a class neither
 *   check's status expectation names (unexpectedByBoth), the owner of neither: the first by id is the root.
 * The root is followed to the check that is no other's (the first product's, by id). The checks stay failed, and the
 * verdict counts them; the reports say which finding they share, and the mutation harness counts it once.
 */
export function sameFindings(failed: readonly FailedFinding[]): Map<string, SameFinding> {
  const byId = new Map(failed.map((f) => [f.id, f]))
  const direct = new Map<string, SameFinding>()
  for (const f of failed) {
    const owner = f.finding.owner ? byId.get(f.finding.owner) : undefined
    if (owner && same(owner.finding, f.finding)) {
      direct.set(f.id, {
        as: owner.id,
        why:
          `the requirement of ${owner.id}, which failed on the same answer (${f.finding.operation} ` +
          `-> ${f.finding.status})`,
      })
      continue
    }
    const base = variantBase(f)
    const first = base
      ? failed
          .filter((g) => variantBase(g) === base && sameAnswer(g.finding, f.finding))
          .sort((a, b) => a.id.localeCompare(b.id))[0]
      : undefined
    if (first && first.id !== f.id)
      direct.set(f.id, {
        as: first.id,
        why:
          `the same check for another product, which failed on the same operation with the same status ` +
          `(${f.finding.operation} -> ${f.finding.status})`,
      })
  }
  // among the checks that are no other's yet: an answer neither expected, to the first by id (no cycle: that one is a
  // root and the relation holds between all of its group)
  const roots = failed.filter((f) => !direct.has(f.id)).sort((a, b) => a.id.localeCompare(b.id))
  for (const f of roots) {
    const first = roots.find((g) => unexpectedByBoth(g.finding, f.finding))
    if (first && first.id !== f.id)
      direct.set(f.id, {
        as: first.id,
        why:
          `${first.id} failed on the same operation with the same status, which neither expected ` +
          `(${f.finding.operation} -> ${f.finding.status})`,
      })
  }
  // to the root: the check that is no other's finding (a chain stops at a check already seen)
  const out = new Map<string, SameFinding>()
  for (const [id, s] of direct) {
    let root = s
    const seen = new Set([id])
    for (let next = direct.get(root.as); next && !seen.has(root.as); next = direct.get(root.as)) {
      seen.add(root.as)
      root = { as: next.as, why: `${s.why}; ${root.as} is the same finding as ${next.as}` }
    }
    if (root.as !== id) out.set(id, root)
  }
  return out
}

/**
 * The failures that are findings of their own: less those that are the same finding as checks that failed or were
 * blocked in the same run (CheckOutcome.sameFindingAs). The console's count and the mutation harness's
 * failures-per-defect (scripts/mutation/distribution.ts) both use it.
 */
export function distinctFindings<T extends { id: string; sameFindingAs?: string[] }>(
  failed: readonly T[],
  blocked: Iterable<string> = [],
): T[] {
  const ids = new Set([...failed.map((f) => f.id), ...blocked])
  return failed.filter((f) => !(f.sameFindingAs?.length && f.sameFindingAs.every((id) => ids.has(id))))
}
