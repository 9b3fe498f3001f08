import { describe, expect, it } from 'vitest'
import type { RequirementsIndex } from '../../../../common/requirements'
import { coverageLines, requirementCoverage } from '../../../../runner/run/results/requirement-coverage'
import type { CheckOutcome } from '../../../../runner/run/results/results'
import { computeVerdict } from '../../../../runner/run/verdict'

const index: RequirementsIndex = {
  documents: {},
  requirements: [
    { id: 'REQ-A', document: 'sales-service.md', section: '§5', paraphrase: 'a', checks: ['AUTH-LOGIN'] },
    {
      id: 'REQ-ISO',
      document: 'sales-service.md',
      section: '§5',
      paraphrase: 'iso',
      checks: ['AUTH-TENANT-001', 'SL-NEG-010'],
    },
    {
      id: 'REQ-RIGHTS',
      document: 'sales-service.md',
      section: '§5',
      paraphrase: 'rights',
      checks: ['AUTH-TENANT', 'SL-INV'],
    },
    { id: 'REQ-CUST', document: 'sales-service.md', section: '§5', paraphrase: 'customer view', checks: ['PL-CUST'] },
    { id: 'REQ-OUT', document: 'sales-service.md', section: '§4', paraphrase: 'out of scope', checks: ['SL-LIFE'] },
  ],
}
const c = (id: string, status: CheckOutcome['status'], extra: Partial<CheckOutcome> = {}): CheckOutcome =>
  ({
    id,
    document: 'sales-service.md',
    section: '§5',
    requirement: 'r',
    title: id,
    file: 'suites/x.test.ts',
    status,
    durationMs: 1,
    deviations: [],
    ...extra,
  }) as CheckOutcome

describe('requirementCoverage()', () => {
  const checks = [
    c('AUTH-LOGIN-001', 'passed'),
    c('AUTH-TENANT-001', 'not-applicable', { note: 'not applicable: the profile names no users.otherTenant' }),
    c('SL-NEG-010', 'not-applicable', { note: 'not applicable: the profile names no users.otherTenant' }),
    c('AUTH-TENANT-002', 'passed'),
    c('PL-CUST-001', 'not-applicable', {
      note: 'not applicable: the tenant has no customer_identity feature (profile features.customer_identity)',
    }),
    // an invariant with nothing to judge neither brings a requirement into scope nor leaves it untested
    c('SL-INV-001', 'not-applicable', {
      file: 'helpers/oracle/invariants.ts',
      note: 'no answer gave it anything to judge',
    }),
  ]
  const cov = requirementCoverage(index, checks)

  it(
    'covered, partial, untested, with the profile field that would enable what did not run; out-of-scope ' +
      'requirements are not listed',
    () => {
      expect(cov.map((r) => [r.id, r.status, r.judged, r.checks, r.enable])).toEqual([
        ['REQ-A', 'covered', 1, 1, []],
        ['REQ-ISO', 'untested', 0, 2, ['the profile names no users.otherTenant']],
        ['REQ-RIGHTS', 'partial', 1, 2, ['the profile names no users.otherTenant']],
        // the tenant lacks the feature: the requirement does not apply to it, which is no gap of the run
        [
          'REQ-CUST',
          'not-applicable',
          0,
          1,
          ['the tenant has no customer_identity feature (profile features.customer_identity)'],
        ],
      ])
      expect(coverageLines(cov)[0]).toBe(
        'requirements 1 covered, 1 partially, 1 untested, 1 not applicable to the tenant (common/requirements.json)',
      )
      expect(coverageLines(cov)[1]).toBe(
        '  UNTESTED REQ-ISO sales-service.md §5: the profile names no users.otherTenant',
      )
    },
  )

  it('--strict: an untested requirement makes a run that would conform INCONCLUSIVE; a failure still wins', () => {
    const totals = { passed: 2, failed: 0, errored: 0, blocked: 0, skipped: 0, 'not-applicable': 2 }
    expect(computeVerdict({ totals, strictUntested: ['REQ-ISO'] })).toMatchObject({
      verdict: 'INCONCLUSIVE',
      exitCode: 3,
      cause: '--strict: 1 requirement(s) untested: REQ-ISO',
    })
    expect(computeVerdict({ totals }).verdict).toBe('CONFORMS')
    expect(computeVerdict({ totals: { ...totals, failed: 1 }, strictUntested: ['REQ-ISO'] }).verdict).toBe(
      'DOES NOT CONFORM',
    )
  })
})
