import { describe, expect, it } from 'vitest'
import { WEBHOOKS_DEFECTS } from '../../reference/defects/webhooks'
import { SHOWN_ELSEWHERE } from '../support/shown-elsewhere'
import { runConformance } from '../../scripts/harness/run-conformance'
import { defectBatches, expectCaught } from '../support/defect-batch'
import { MODEL_CASES, modelDefectsOf } from '../../scripts/explore/model-cases'
import { limiter } from '../support/limiter'

const S = 'suites/webhooks'
type Defect = keyof typeof WEBHOOKS_DEFECTS

/** Each webhook defect of the reference, the suite file that must catch it and the check that must fail. */
/**
 * `only`: a name pattern (vitest -t) that leaves out a group's representative (helpers/checks/group.ts), whose failure
 * would block the members: run alone, each member is seen failing against the defect.
 */
const CASES: { defect: Defect; file: string; mustFail: string[]; only?: string }[] = [
  { defect: 'webhooks-create-200', file: 'lifecycle', mustFail: ['WH-LIFE-001'] },
  { defect: 'webhooks-updated-at-missing', file: 'lifecycle', mustFail: ['WH-LIFE-001'] },
  { defect: 'webhooks-created-at-not-date-time', file: 'contracts', mustFail: ['WH-CON-002'] },
  {
    defect: 'webhooks-created-at-not-date-time',
    file: 'contracts',
    mustFail: ['WH-CON-003', 'WH-CON-004', 'WH-CON-005'],
    only: 'WH-CON-00[345]',
  },
  { defect: 'webhooks-unknown-id-500', file: 'errors', mustFail: ['WH-ERR-006'] },
  { defect: 'webhooks-unknown-id-500', file: 'errors', mustFail: ['WH-ERR-007', 'WH-ERR-008'], only: 'WH-ERR-00[78]' },
  { defect: 'webhooks-delete-success-false', file: 'lifecycle', mustFail: ['WH-LIFE-006'] },
  { defect: 'webhooks-delete-keeps', file: 'lifecycle', mustFail: ['WH-LIFE-007'] },
  { defect: 'webhooks-unknown-event-accepted', file: 'errors', mustFail: ['WH-ERR-004'] },
  { defect: 'webhooks-missing-url-accepted', file: 'errors', mustFail: ['WH-ERR-001'] },
  { defect: 'webhooks-invalid-json-500', file: 'errors', mustFail: ['WH-ERR-005'] },
  { defect: 'webhooks-put-invalid-event-applied', file: 'errors', mustFail: ['WH-ERR-009'] },
  { defect: 'webhooks-put-wipes-url', file: 'lifecycle', mustFail: ['WH-LIFE-005'] },
  // the state steps assert their own statuses (what the answers show is the invariants'): each is seen failing here
  { defect: 'webhooks-put-url-only-refused', file: 'state', mustFail: ['WH-STATE-002'] },
  { defect: 'webhooks-put-event-only-refused', file: 'state', mustFail: ['WH-STATE-003'] },
  { defect: 'webhooks-put-invalid-event-applied', file: 'state', mustFail: ['WH-STATE-004'] },
  { defect: 'webhooks-created-at-changes', file: 'lifecycle', mustFail: ['WH-LIFE-004'] },
  { defect: 'webhooks-list-not-scoped', file: 'isolation', mustFail: ['WH-ISO-001'] },
  { defect: 'webhooks-get-not-scoped', file: 'isolation', mustFail: ['WH-ISO-002'] },
  { defect: 'webhooks-events-missing-type', file: 'events', mustFail: ['WH-EVT-001'] },
  { defect: 'webhooks-event-description-empty', file: 'events', mustFail: ['WH-EVT-002'] },
  { defect: 'webhooks-example-payload-not-object', file: 'events', mustFail: ['WH-EVT-003'] },
  { defect: 'webhooks-example-payload-not-object', file: 'contracts', mustFail: ['WH-CON-001'] },
  { defect: 'webhooks-signature-wrong-secret', file: 'delivery', mustFail: ['WH-DLV-004'] },
  { defect: 'webhooks-signature-missing', file: 'delivery', mustFail: ['WH-DLV-004'] },
  { defect: 'webhooks-stale-timestamp', file: 'delivery', mustFail: ['WH-DLV-005'] },
  { defect: 'webhooks-notification-twice', file: 'delivery', mustFail: ['WH-DLV-003'] },
  { defect: 'webhooks-delivered-after-delete', file: 'delivery', mustFail: ['WH-DLV-006'] },
  { defect: 'webhooks-wrong-event-delivered', file: 'delivery', mustFail: ['WH-DLV-002'] },
  { defect: 'webhooks-no-delivery', file: 'delivery', mustFail: ['WH-DLV-001'] },
  { defect: 'webhooks-notifications-follow-old-url', file: 'delivery', mustFail: ['WH-DLV-007'] },
  { defect: 'webhooks-notifications-to-old-and-new-url', file: 'delivery', mustFail: ['WH-DLV-007'] },
  { defect: 'webhooks-notifications-follow-old-event', file: 'delivery', mustFail: ['WH-DLV-008'] },
  { defect: 'webhooks-duplicate-late', file: 'delivery', mustFail: ['WH-DLV-003'] },
  { defect: 'webhooks-delivered-after-delete-late', file: 'delivery', mustFail: ['WH-DLV-006'] },
  { defect: 'webhooks-id-reused', file: 'lifecycle', mustFail: ['WH-LIFE-001'] },
  { defect: 'webhooks-read-touches-updated-at', file: 'lifecycle', mustFail: ['WH-LIFE-002'] },
  { defect: 'webhooks-list-omits-extracted', file: 'lifecycle', mustFail: ['WH-LIFE-003'] },
  { defect: 'webhooks-list-shows-deleted', file: 'lifecycle', mustFail: ['WH-LIFE-008'] },
  { defect: 'webhooks-missing-event-defaulted', file: 'errors', mustFail: ['WH-ERR-002'] },
  { defect: 'webhooks-empty-object-accepted', file: 'errors', mustFail: ['WH-ERR-003'] },
  { defect: 'webhooks-delete-result-string', file: 'contracts', mustFail: ['WH-CON-006'] },
  { defect: 'webhooks-secret-missing', file: 'contracts', mustFail: ['WH-CON-007'] },
]

/** Two runs at a time (the machine has two cores): each case is one suite file against one defect. */
const limit = limiter(2)
/**
 * The cases of one suite file (and name pattern) run as one batch, each defect against a reference of its own
 * (test/support/defect-batch.ts).
 */
const outcome = defectBatches(
  CASES.map((c) => ({ defect: c.defect, file: `${S}/${c.file}.test.ts`, ...(c.only ? { only: c.only } : {}) })),
  limit,
)

describe('webhook defects are caught by the webhook suites', () => {
  it('every webhook defect of the catalogue has a case', () => {
    // the defects of issue 14 have their cases in scripts/explore/model-cases.ts (caught by the model's invariants)
    expect(
      [...new Set([...CASES.map((c) => c.defect), ...modelDefectsOf('webhooks', WEBHOOKS_DEFECTS)])].sort(),
    ).toEqual(Object.keys(WEBHOOKS_DEFECTS).sort())
  })

  it.concurrent('the webhook suites are green against the faithful reference', { timeout: 600_000 }, async () => {
    const run = await limit(() => runConformance({ files: [S] }))
    expect(run.failedIds, run.output.slice(-3000)).toEqual([])
    expect(run.exitCode).toBe(0)
    const ids = run.report?.checks.filter((c) => c.status === 'passed').map((c) => c.id) ?? []
    // every check of the webhook suites is shown to fail by at least one defect below
    // an invariant is judged on every answer, so one shown failing in any suite file (the run's history of
    // subscriptions: a concurrent check's) counts; checks another proof shows failing count too
    const model = MODEL_CASES.filter((c) => c.file.startsWith(S) || c.mustFail.every((id) => id.includes('-INV-')))
      .flatMap((c) => c.mustFail)
      .filter((id) => id.startsWith('WH-'))
    expect(
      [...new Set([...CASES.flatMap((c) => c.mustFail), ...model, ...Object.keys(SHOWN_ELSEWHERE)])].sort(),
    ).toEqual([...new Set(ids.filter((id) => id.startsWith('WH-')))].sort())
  })

  for (const c of CASES) {
    it.concurrent(`${c.defect} is caught by ${c.mustFail.join(', ')}${c.only ? ' (run alone)' : ''}`, {
      timeout: 600_000,
    }, async () => {
      const o = await outcome({ defect: c.defect, file: `${S}/${c.file}.test.ts`, ...(c.only ? { only: c.only } : {}) })
      expectCaught(o, c.mustFail)
      for (const id of c.mustFail)
        expect(o.checks.find((x) => x.id === id)?.error ?? '').toContain(`[${id}] webhook-subscriptions.md §`)
    })
  }
})
