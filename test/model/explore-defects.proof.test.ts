import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import { MAX_REPLAY } from '../../scripts/explore/defects'

/**
 * One defect per area (a subscription update, an operation in a state, a money operation on a policy) and one of issue
 * 29's situations (a recalculated quote issued, its policy read: PL-INV-003).
 */
const SUBSET = [
  'webhooks-put-resets-event',
  'sales-issued-can-decline',
  'policies-balance-ignores-termination',
  'sales-issue-uses-created-data',
]

/**
 * npm run explore:defects finds each defect of the subset against the embedded reference (seed 1, 300 steps), with a
 * replay of at most 12 steps that reproduces alone on a fresh reference, and exits 0; the full table is the script's
 * (docs/model.md "Measured").
 * At most 200 s of new sequences each: since explore also sends parallel steps (issue 41), seed 1 reaches a terminated
 * policy's totals after about 160 steps (80 s), where it took 15 before; with the six parallel steps (a quarter of the
 * draws) it first resets a subscription's event after 281 steps (154 s on a loaded machine).
 */
describe('npm run explore:defects', () => {
  it(`finds ${SUBSET.join(', ')} with replays of at most ${MAX_REPLAY} steps`, { timeout: 900_000 }, () => {
    const tsx = resolve(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs')
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' }
    for (const k of [
      'SALES_BASE_URL',
      'TARGET',
      'TARGET_IMAGE',
      'TARGET_PROFILE',
      'TENANT',
      'AUTH_PASSWORD',
      'REFERENCE_DEFECTS',
      'CONFORMANCE_SEED',
    ])
      delete env[k]
    const r = spawnSync(
      process.execPath,
      [
        tsx,
        'scripts/explore-defects.ts',
        '--seed',
        '1',
        '--steps',
        '300',
        '--time-limit-s',
        '200',
        '--defects',
        SUBSET.join(','),
      ],
      { cwd: PROJECT_ROOT, env, encoding: 'utf8', timeout: 890_000 },
    )
    expect(r.status, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-1000)}`).toBe(0)
    for (const d of SUBSET) {
      const row = r.stdout.split('\n').find((l) => l.startsWith(`| \`${d}\``))
      expect(row, r.stdout.slice(-3000)).toBeDefined()
      const cells = row!.split('|').map((c) => c.trim())
      expect(cells[3], row).toBe('yes')
      const replay = Number(cells[4])
      expect(replay, row).toBeGreaterThanOrEqual(1)
      expect(replay, row).toBeLessThanOrEqual(MAX_REPLAY)
      expect(cells[5], row).toMatch(/^(WH|SL|PL)-INV-\d{3}/)
      // the minimal sequence replayed alone on a fresh reference with the same defect broke an invariant again
      expect(cells[6], row).toBe('yes')
    }
  })
})
