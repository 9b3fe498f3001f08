import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../../common/project-root'

interface Assertion {
  title: string
  status: string
  meta?: {
    blocked?: { reason: string; operation?: string; status?: number | string; owner?: string }
    invariants?: { violated: { id: string }[] }
    check?: { at?: { file: string; line: number } }
  }
  failureMessages?: string[]
}

/** Runs blocked.fixture.ts in a child vitest (its checks fail on purpose) and returns each check's outcome by id. */
function runFixture(): Map<string, Assertion> {
  const vitest = resolve(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs')
  const r = spawnSync(
    process.execPath,
    [vitest, 'run', '--config', 'test/helpers/checks/fixtures/vitest.fixture.config.ts'],
    { cwd: PROJECT_ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
  )
  const report = JSON.parse(r.stdout) as { testResults: { assertionResults: Assertion[] }[] }
  return new Map(report.testResults.flatMap((f) => f.assertionResults).map((a) => [a.title.split(' ')[0]!, a]))
}

describe('check(), lifecycle() and given(): a failed setup blocks, a failed assertion fails', () => {
  const runs = runFixture()

  it(
    'blocks a check whose given() failed, naming the operation, the status seen and the owner of its ' + 'requirement',
    () => {
      expect(runs.get('FX-SETUP-001')).toMatchObject({
        status: 'skipped',
        meta: { blocked: { operation: 'sales.quote.create', status: 500, owner: 'SL-LIFE-002-home' } },
      })
      expect(runs.get('FX-SETUP-001')!.meta!.blocked!.reason).toMatch(
        /^setup 'a quote' failed: sales flow step 'create quote'/,
      )
      // an expect* used inside given() blocks too; the operation comes from the response
      expect(runs.get('FX-SETUP-004')).toMatchObject({
        status: 'skipped',
        meta: { blocked: { operation: 'sales.policy.period-totals', status: 404, owner: 'PL-CON-002' } },
      })
    },
  )

  it(
    'never hides a failure: the check own assertion fails after a good setup, and a bug in a setup is an ' + 'error',
    () => {
      expect(runs.get('FX-SETUP-002')).toMatchObject({ status: 'failed' })
      expect(runs.get('FX-SETUP-002')!.meta!.blocked).toBeUndefined()
      expect(runs.get('FX-SETUP-003')).toMatchObject({ status: 'failed' })
      expect(runs.get('FX-SETUP-003')!.meta!.blocked).toBeUndefined()
    },
  )

  it('blocks the later steps of a lifecycle after a failed step, with that step as the owner', () => {
    expect(runs.get('FX-LIFE-001')!.status).toBe('failed')
    for (const id of ['FX-LIFE-002', 'FX-LIFE-003'])
      expect(runs.get(id)).toMatchObject({
        status: 'skipped',
        meta: { blocked: { reason: 'earlier step FX-LIFE-001 failed', owner: 'FX-LIFE-001' } },
      })
  })

  it('blocks the later steps of a lifecycle after a blocked step, by the same root cause', () => {
    const root = { operation: 'sales.quote.bind', status: 409, owner: 'SL-LIFE-009-travel' }
    expect(runs.get('FX-LIFE-011')).toMatchObject({ status: 'skipped', meta: { blocked: root } })
    expect(runs.get('FX-LIFE-012')).toMatchObject({ status: 'skipped', meta: { blocked: root } })
    expect(runs.get('FX-LIFE-012')!.meta!.blocked!.reason).toMatch(/^earlier step FX-LIFE-011 was blocked: /)
  })

  it(
    'records a broken invariant on the check that received the answer, which keeps the outcome of its own ' +
      'assertions',
    () => {
      // the invariant's own entry fails, naming the check (runner/run/results/invariants.ts); the check passes on its
      // own
      expect(runs.get('FX-INV-001')).toMatchObject({
        status: 'passed',
        meta: { invariants: { violated: [{ id: 'SL-INV-002' }] } },
      })
      expect(runs.get('FX-INV-002')).toMatchObject({
        status: 'failed',
        meta: { invariants: { violated: [{ id: 'SL-INV-002' }] } },
      })
      expect(runs.get('FX-INV-002')!.failureMessages!.join('\n')).toMatch(/expected: status 200\nactual:   status 500/)
      expect(runs.get('FX-INV-002')!.failureMessages!.join('\n')).not.toMatch(/\[SL-INV-002\]/)
    },
  )

  it(
    'records where each check is declared: the line of its check(...) or step(...) call, also in a loop and a ' +
      'blocked step',
    () => {
      const file = 'test/helpers/checks/fixtures/blocked.fixture.ts'
      const lines = readFileSync(resolve(PROJECT_ROOT, file), 'utf8').split('\n')
      const lineOf = (text: string) => lines.findIndex((l) => l.includes(text)) + 1
      expect(runs.get('FX-SETUP-001')!.meta!.check!.at).toEqual({ file, line: lineOf("check(meta('FX-SETUP-001')") })
      // a lifecycle's steps, the blocked ones too (they never run their body)
      expect(runs.get('FX-LIFE-001')!.meta!.check!.at).toEqual({ file, line: lineOf("step(meta('FX-LIFE-001')") })
      expect(runs.get('FX-LIFE-003')!.meta!.check!.at).toEqual({ file, line: lineOf("step(meta('FX-LIFE-003')") })
      // one check per product from one call: both at that call
      const loop = lineOf('check({ ...meta(`FX-LOC-${product}`)')
      expect(loop).toBeGreaterThan(0)
      for (const p of ['home', 'travel']) expect(runs.get(`FX-LOC-${p}`)!.meta!.check!.at).toEqual({ file, line: loop })
    },
  )
})
