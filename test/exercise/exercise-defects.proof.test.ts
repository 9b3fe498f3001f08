import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { EXERCISE_DEFECTS } from '../../reference/defects/exercise'
import type { DefectName } from '../../reference/defects/catalogue'
import { runConformance } from '../../scripts/harness/run-conformance'
import { defectBatches, expectCaught } from '../support/defect-batch'
import { limiter } from '../support/limiter'
import { modelDefectsOf } from '../../scripts/explore/model-cases'

const S = 'suites/exercise'

/**
 * Each exercise defect (reference/defects/exercise.ts, issue 40), the suite file of suites/exercise that must catch it
 * and the checks that fail. Every one is caught by the default run (none of these checks is --thorough only).
 * `only`: a name pattern (vitest -t) that leaves out a group's representative, whose failure would block the members.
 */
const CASES: { defect: DefectName; file: string; mustFail: string[]; only?: string }[] = [
  { defect: 'exercise-renewal-stale-after-change', file: 'policy-states', mustFail: ['EX-REREAD-001'] },
  { defect: 'exercise-links-fail-after-mta', file: 'policy-states', mustFail: ['EX-REREAD-002'] },
  { defect: 'exercise-invoices-gone-after-termination', file: 'policy-states', mustFail: ['EX-REREAD-003'] },
  { defect: 'exercise-mta-on-terminated-accepted', file: 'policy-states', mustFail: ['EX-TERM-001'] },
  { defect: 'exercise-data-change-on-terminated-accepted', file: 'policy-states', mustFail: ['EX-TERM-002'] },
  // the policies area's own defect (test/policies/defects.proof.test.ts has its case there): a terminated policy quoted
  // again
  { defect: 'policies-termination-repeatable', file: 'policy-states', mustFail: ['EX-TERM-003'] },
  { defect: 'exercise-payment-on-terminated-refused', file: 'policy-states', mustFail: ['EX-TERM-004'] },
  { defect: 'exercise-payment-on-terminated-not-counted', file: 'policy-states', mustFail: ['EX-TERM-004'] },
  { defect: 'exercise-login-any-tenant-path', file: 'identity', mustFail: ['EX-ID-001'] },
  { defect: 'exercise-refresh-not-jwt', file: 'identity', mustFail: ['EX-ID-002'] },
  { defect: 'exercise-refresh-drops-rights', file: 'identity', mustFail: ['EX-ID-003'] },
  { defect: 'exercise-refresh-revokes-old-token', file: 'identity', mustFail: ['EX-ID-004'] },
  { defect: 'exercise-expired-accepted-on-payments', file: 'callers', mustFail: ['EX-EXPIRED-001'] },
  // the auth area's defect (its case is in test/reference/auth-defects.proof.test.ts): the webhook service's hour of
  // leeway
  { defect: 'auth-webhooks-expiry-leeway-hour', file: 'callers', mustFail: ['EX-EXPIRED-002'] },
  { defect: 'exercise-calculate-other-tenant', file: 'callers', mustFail: ['EX-FOREIGN-001'] },
  { defect: 'exercise-restricted-create-hidden-accepted', file: 'callers', mustFail: ['EX-RIGHTS-001'] },
  { defect: 'exercise-list-pages-overlap', file: 'volume', mustFail: ['EX-VOL-001'] },
  { defect: 'exercise-invoices-capped-at-ten', file: 'volume', mustFail: ['EX-VOL-002'] },
  { defect: 'exercise-fanout-one-per-url', file: 'fanout', mustFail: ['EX-FAN-001'] },
  { defect: 'exercise-fanout-subscribers-cached', file: 'fanout', mustFail: ['EX-FAN-001'] },
]

/**
 * The check ids declared in suites/exercise: literal ids, and the classes of ids made per operation (EX-EXPIRED-<op>).
 */
function declared(): { ids: string[]; classes: string[] } {
  const dir = resolve(PROJECT_ROOT, S)
  const text = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n')
  return {
    ids: [...text.matchAll(/\bid: '(EX-[A-Z]+-\d{3})'/g)].map((m) => m[1]!),
    classes: [...text.matchAll(/\bid: `(EX-[A-Z]+-)\$\{/g)].map((m) => m[1]!),
  }
}

const limit = limiter(2)
const outcome = defectBatches(
  CASES.map((c) => ({ defect: c.defect, file: `${S}/${c.file}.test.ts`, ...(c.only ? { only: c.only } : {}) })),
  limit,
)

describe('exercise defects are caught by the exercise suites (issue 40)', () => {
  it('every exercise defect of the catalogue has a case here', () => {
    expect(
      [
        ...new Set([
          ...CASES.map((c) => c.defect).filter((d) => d.startsWith('exercise-')),
          ...modelDefectsOf('exercise', EXERCISE_DEFECTS),
        ]),
      ].sort(),
    ).toEqual(Object.keys(EXERCISE_DEFECTS).sort())
  })

  it(
    'every check of the exercise suites is shown to fail against some defect (a per-operation class by any of its ' +
      'checks)',
    () => {
      const caught = new Set(CASES.flatMap((c) => c.mustFail))
      const { ids, classes } = declared()
      expect(ids.length).toBeGreaterThanOrEqual(16)
      expect(ids.filter((id) => !caught.has(id))).toEqual([])
      expect(classes.filter((k) => ![...caught].some((id) => id.startsWith(k)))).toEqual([])
    },
  )

  it.concurrent('the exercise suites are green against the faithful reference', { timeout: 600_000 }, async () => {
    const run = await limit(() => runConformance({ files: [S] }))
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    expect(run.exitCode).toBe(0)
  })

  for (const c of CASES) {
    it.concurrent(`${c.defect} is caught by ${c.mustFail.join(', ')}`, { timeout: 600_000 }, async () => {
      expectCaught(
        await outcome({ defect: c.defect, file: `${S}/${c.file}.test.ts`, ...(c.only ? { only: c.only } : {}) }),
        c.mustFail,
      )
    })
  }
})
