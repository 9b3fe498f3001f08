import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { runConformance } from '../../scripts/harness/run-conformance'

const dir = mkdtempSync(join(tmpdir(), 'lc-wh-applicability-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('webhook checks a target cannot run are not applicable, with the reason', () => {
  it(
    'without a delivery trigger or another tenant user, the delivery and isolation checks are not applicable and ' +
      'the run is green',
    async () => {
      const base = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'fixtures/targets/reference.json'), 'utf8')) as Record<
        string,
        any
      >
      const { otherTenant: _omit, ...users } = base.users
      const path = join(dir, 'no-trigger.json')
      writeFileSync(
        path,
        JSON.stringify({
          ...base,
          $schema: undefined,
          name: 'no-trigger',
          users,
          extensions: { webhooks: { subscriberUrlBase: 'http://127.0.0.1:9/ledger-conformance' } },
        }),
      )
      const run = await runConformance({
        files: ['suites/webhooks/delivery.test.ts', 'suites/webhooks/isolation.test.ts'],
        env: { TARGET_PROFILE: path },
      })
      expect(run.failedIds, run.output.slice(-3000)).toEqual([])
      expect(run.exitCode).toBe(0)
      const checks = run.report?.checks ?? []
      const dlv = checks.filter((c) => c.id.startsWith('WH-DLV-'))
      const iso = checks.filter((c) => c.id.startsWith('WH-ISO-'))
      // every check of suites/webhooks/delivery.test.ts (WH-DLV-001..008, and WH-DLV-011: the data against its example)
      expect(dlv.map((c) => c.id).sort()).toEqual([
        ...Array.from({ length: 8 }, (_, i) => `WH-DLV-00${i + 1}`),
        'WH-DLV-011',
      ])
      expect(iso).toHaveLength(2)
      for (const c of dlv) expect(c.status, c.id).toBe('not-applicable')
      for (const c of iso) expect(c.status, c.id).toBe('not-applicable')
      expect(dlv[0]?.note).toMatch(/extensions\.webhooks\.delivery\.trigger/)
      expect(iso[0]?.note).toMatch(/users\.otherTenant/)
    },
  )
})
