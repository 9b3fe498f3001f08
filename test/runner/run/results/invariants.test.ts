import type { TestCase } from 'vitest/node'
import { describe, expect, it } from 'vitest'
import { invariantOutcomes } from '../../../../runner/run/results/invariants'

/**
 * The part of a vitest TestCase invariantOutcomes reads: the check's id, its outcome, the invariants of its answers.
 */
function tc(
  id: string,
  state: 'passed' | 'failed' | 'skipped',
  violated: string[],
  evaluated: string[] = violated,
  blocked?: { reason: string },
): TestCase {
  const meta = {
    check: { id },
    ...(blocked ? { blocked } : {}),
    invariants: {
      evaluated: Object.fromEntries(evaluated.map((v) => [v, 1])),
      violated: violated.map((v) => ({ id: v, message: `${v} broken`, operation: 'sales.quote.get' })),
    },
  }
  return { name: id, meta: () => meta, result: () => ({ state }) } as unknown as TestCase
}

describe('invariantOutcomes: each model invariant as a check of its own', () => {
  const outcomes = invariantOutcomes([
    tc('SL-SCOPE-002', 'failed', ['SL-INV-006']),
    tc('SL-NEG-004', 'failed', ['SL-INV-002']),
    tc('SL-LIFE-001', 'passed', ['SL-INV-002'], ['SL-INV-002', 'SL-INV-001']),
    tc('SL-LIFE-004', 'skipped', ['SL-INV-008'], ['SL-INV-008'], { reason: 'earlier step failed' }),
    tc('SL-LIFE-003', 'failed', ['SL-INV-008']),
  ])
  const of = (id: string) => outcomes.find((o) => o.id === id)!

  it('fails an invariant broken in any answer, naming the checks that received it', () => {
    // the operations of the answers that broke it: the matrix marks them FAILED (runner/run/results/matrix.ts)
    expect(of('SL-INV-002')).toMatchObject({ status: 'failed', about: ['sales.quote.get'] })
    expect(of('SL-INV-001').about).toBeUndefined()
    expect(of('SL-INV-002').error).toMatch(/broken in the answers of: SL-LIFE-001, SL-NEG-004$/)
    expect(of('SL-INV-001')).toMatchObject({ status: 'passed', note: 'evaluated on 1 answer(s)' })
    expect(of('PL-INV-002').status).toBe('not-applicable')
  })

  it(
    'names the failed checks as the same finding when every answer that broke it was in a check that failed on its ' +
      'own',
    () => {
      expect(of('SL-INV-006')).toMatchObject({ status: 'failed', sameFindingAs: ['SL-SCOPE-002'] })
      expect(of('SL-INV-006').error).toMatch(/\(each failed or was blocked as well: the same finding\)$/)
      // a blocked check did not pass either
      expect(of('SL-INV-008')).toMatchObject({ status: 'failed', sameFindingAs: ['SL-LIFE-003', 'SL-LIFE-004'] })
      // broken in a check that passed too: a finding of its own
      expect(of('SL-INV-002').sameFindingAs).toBeUndefined()
    },
  )

  it(
    'names a failed check as the same finding when it failed on an answer of an operation that broke the invariant ' +
      "in that check's answers",
    () => {
      const withFinding = (t: TestCase, operation: string) =>
        ({
          ...t,
          meta: () => ({
            ...t.meta(),
            failure: {
              kind: 'failed',
              id: t.meta().check?.id,
              clause: 'c',
              requirement: 'r',
              expectation: { kind: 'condition', key: 'x' },
              expected: 'x',
              actual: 'y',
              operation,
              status: 200,
              answer: 'a',
              reproduce: [],
            },
          }),
        }) as unknown as TestCase
      const same = invariantOutcomes([
        withFinding(tc('PL-DATA-002', 'failed', ['PL-INV-001']), 'sales.quote.get'),
        tc('PL-PAY-001', 'passed', ['PL-INV-001']),
      ])
      expect(same.find((o) => o.id === 'PL-INV-001')).toMatchObject({
        status: 'failed',
        sameFindingAs: ['PL-DATA-002'],
      })
      expect(same.find((o) => o.id === 'PL-INV-001')!.error).toMatch(
        /PL-DATA-002 failed on an answer of the same operation: the same finding\)$/,
      )
      // failed on another operation than the one that broke the invariant: a finding of its own
      const other = invariantOutcomes([
        withFinding(tc('PL-DATA-002', 'failed', ['PL-INV-001']), 'sales.policy.invoices'),
        tc('PL-PAY-001', 'passed', ['PL-INV-001']),
      ])
      expect(other.find((o) => o.id === 'PL-INV-001')!.sameFindingAs).toBeUndefined()
    },
  )
})

describe('where an invariant is: the line of its declaration (checks.json, list)', () => {
  it(
    'every invariant of the model has its line in helpers/oracle/invariants.ts, the line that declares its ' + 'id',
    async () => {
      const { readFileSync } = await import('node:fs')
      const { join } = await import('node:path')
      const { PROJECT_ROOT } = await import('../../../../common/project-root')
      const { INVARIANTS } = await import('../../../../helpers/oracle/invariants')
      const { INVARIANTS_FILE, invariantLines } = await import('../../../../runner/run/results/invariants')
      const source = readFileSync(join(PROJECT_ROOT, INVARIANTS_FILE), 'utf8').split('\n')
      const outcomes = invariantOutcomes([])
      for (const inv of INVARIANTS) {
        const line = invariantLines().get(inv.id)!
        expect(source[line - 1], inv.id).toContain(`id: '${inv.id}'`)
        expect(outcomes.find((o) => o.id === inv.id)).toMatchObject({ file: INVARIANTS_FILE, line })
      }
      expect(invariantLines("const X = [\n  { id: 'ZZ-INV-001', spec: 'sales' },\n]").get('ZZ-INV-001')).toBe(2)
    },
  )
})

describe("checks.json: a check's outcome carries the line of its declaration", () => {
  it('file and line from the check meta, the line only when it is in the file reported', async () => {
    const { checkOutcomes } = await import('../../../../runner/vitest/summary-reporter')
    const fake = (id: string, at: { file: string; line: number }): TestCase =>
      ({
        name: `${id} r`,
        module: { moduleId: `${process.cwd()}/suites/sales/negatives.test.ts` },
        options: { mode: 'run' },
        diagnostic: () => ({ duration: 1 }),
        meta: () => ({
          check: { id, spec: 'sales', section: '§4', document: 'sales-service.md', requirement: 'r', at },
        }),
        result: () => ({ state: 'passed' }),
      }) as unknown as TestCase
    const out = checkOutcomes(
      [
        fake('SL-NEG-001', { file: 'suites/sales/negatives.test.ts', line: 42 }),
        fake('SL-NEG-002', { file: 'helpers/elsewhere.ts', line: 7 }),
      ],
      process.cwd(),
    )
    expect(out.find((o) => o.id === 'SL-NEG-001')).toMatchObject({ file: 'suites/sales/negatives.test.ts', line: 42 })
    expect(out.find((o) => o.id === 'SL-NEG-002')!.line).toBeUndefined()
  })
})
