import type { TestCase } from 'vitest/node'
import { INVARIANTS } from '../../../helpers/oracle/invariants'
import { distinctFindings, findingOf } from './findings'
import type { CheckOutcome } from './results'

const INVARIANT_IDS: ReadonlySet<string> = new Set(INVARIANTS.map((i) => i.id))
const isInvariant = (id: string) => INVARIANT_IDS.has(id)

/**
 * Failures on one answer are one finding (issue 29, "one defect, one finding"): a check that failed on an answer, and
 * each invariant of the model that answer broke (or that broke on a later answer because of it: the answer its
 * expectation came from), are about the same answer. Three invariants broken by one read that sends numbers as strings
 * are one finding.
 *
 * `answers`: the answers each failed outcome is about (a check's failing answer, an invariant's breaking answers and
 * those their expectations came from; helpers/client/http/recorder.ts answerKey). Failures that share an answer,
 * directly or through another failure, form one group (an invariant broken by an expired token accepted on five
 * operations joins the five checks that failed on those answers). Among a group's failures that are
 * findings of their own, the first check by id (else the first invariant) is its root and the others say they are
 * the same finding as it. A failure that is already another's finding (CheckOutcome.sameFindingAs) links its group
 * but keeps its own `sameFindingAs`; the root has none, so every group still counts once and no cycle is made.
 */
export function withSharedAnswers(
  outcomes: CheckOutcome[],
  answers: ReadonlyMap<string, ReadonlySet<string>>,
): CheckOutcome[] {
  const failed = outcomes.filter((c) => c.status === 'failed')
  const blocked = outcomes.filter((c) => c.status === 'blocked').map((c) => c.id)
  const linked = failed.filter((c) => (answers.get(c.id)?.size ?? 0) > 0)
  const own = new Set(distinctFindings(linked, blocked).map((c) => c.id))
  // union-find over the failures, joined by the answers they share
  const parent = new Map(linked.map((c) => [c.id, c.id]))
  const find = (id: string): string => {
    let root = id
    while (parent.get(root) !== root) root = parent.get(root)!
    parent.set(id, root)
    return root
  }
  const byAnswer = new Map<string, string>()
  for (const c of linked) {
    for (const a of answers.get(c.id)!) {
      const other = byAnswer.get(a)
      if (other === undefined) byAnswer.set(a, c.id)
      else parent.set(find(c.id), find(other))
    }
  }
  // each group's failures of their own: the first check (else invariant) is its root, the others its findings
  const groups = new Map<string, string[]>()
  for (const id of own) groups.set(find(id), [...(groups.get(find(id)) ?? []), id])
  const rootOf = new Map<string, string>()
  for (const ids of groups.values()) {
    if (ids.length < 2) continue
    const sorted = [...ids].sort((a, b) => Number(isInvariant(a)) - Number(isInvariant(b)) || a.localeCompare(b))
    for (const id of sorted.slice(1)) rootOf.set(id, sorted[0]!)
  }
  if (rootOf.size === 0) return outcomes
  return outcomes.map((c) => {
    const root = c.status === 'failed' ? rootOf.get(c.id) : undefined
    return root
      ? {
          ...c,
          error:
            `${c.error ?? ''}\nthe same finding as ${root}: an answer it failed on is one ${root} failed on ` +
            `(directly, or through another failure on a shared answer)`,
          sameFindingAs: [root],
        }
      : c
  })
}

/**
 * The answers each failure of `cases` is about: a failed check's failing answer (its FailureRecord, TaskMeta.failure),
 * and each broken
 * invariant's breaking answers and those its expectations came from (TaskMeta.invariants), over every check that saw
 * one.
 */
export function answersOf(cases: ReadonlyArray<TestCase>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  const add = (id: string, answer: string) => out.set(id, (out.get(id) ?? new Set<string>()).add(answer))
  for (const tc of cases) {
    const { check, failure, invariants } = tc.meta()
    const answer = findingOf(failure)?.answer
    if (check && answer && tc.result().state === 'failed') add(check.id, answer)
    for (const v of invariants?.violated ?? []) for (const a of v.answers ?? []) add(v.id, a)
  }
  return out
}
