import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../common/config/target-config'
import type { TrafficLine } from '../../helpers/client/http/traffic-file'
import { runConformance, type ConformanceRun } from '../../scripts/harness/run-conformance'
import { INVARIANTS } from '../../helpers/oracle/invariants'
import { INVARIANTS_FILE } from '../../runner/run/results/invariants'
import { sumTotals } from '../../runner/run/results/results'
import { totalsLine } from '../../runner/run/results/totals-line'

const profiles = ['acme', 'globex'].map((t) => resolve(PROJECT_ROOT, `fixtures/targets/tenants/${t}.json`)).join(',')
const files = [
  'suites/webhooks/errors.test.ts',
  'suites/sales/lifecycle.test.ts',
  'suites/security/bearer-required.test.ts',
]

function traffic(dir: string): TrafficLine[] {
  const t = join(dir, 'traffic')
  // the traffic files (*.jsonl); the folder also holds the breaker's causes and the history checker's cost
  return readdirSync(t)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(join(t, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TrafficLine),
    )
}

describe('a multi-target run (TARGET_PROFILES) against a reference with a defect', () => {
  let run: ConformanceRun
  beforeAll(async () => {
    run = await runConformance({
      files,
      defects: ['webhooks-missing-url-accepted'],
      env: { TARGET_PROFILES: profiles, CONFORMANCE_RUN_ID: 'multi-test' },
      keepReports: true,
    })
  }, 240_000)
  afterAll(() => rmSync(run.reportsDir, { recursive: true, force: true }))

  it('fails the run and catches the defect in every target, each in its own report', () => {
    expect(run.exitCode).toBe(1)
    expect(Object.keys(run.targets).sort()).toEqual(['acme', 'globex'])
    for (const key of ['acme', 'globex']) {
      const r = run.targets[key]!
      expect(r.run?.runId).toBe(`multi-test-${key}`)
      expect(r.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['WH-ERR-001'])
      // every check comes from a suite file of the run, but the model's invariants, which are listed under the file
      // defining them
      expect(r.checks.filter((c) => !files.includes(c.file)).map((c) => `${c.id} ${c.file}`)).toEqual(
        INVARIANTS.map((i) => `${i.id} ${INVARIANTS_FILE}`),
      )
      expect(r.totals.passed).toBeGreaterThan(20)
    }
    expect(run.report).toBeUndefined()
  })

  it('prints a verdict per target and one closing line for all of them', () => {
    const [a, g] = [run.targets.acme!, run.targets.globex!]
    expect(run.output).toMatch(
      /\[acme\][\s\S]*verdict {2}DOES NOT CONFORM \(1 failed check\(s\): WH-ERR-001\)[\s\S]*\[globex\]/,
    )
    expect(run.output).toContain('targets  2: acme DOES NOT CONFORM, globex DOES NOT CONFORM')
    // one closing line for all targets, in the one set of categories (runner/run/results/totals-line.ts)
    const all = sumTotals([a, g])
    expect(all.failed).toBe(2)
    expect(run.output).toContain(`conformance: ${totalsLine(all)}`)
  })

  it("attributes every exchange to its target's run id and to the check that sent it", () => {
    const lines = traffic(run.reportsDir)
    expect(new Set(lines.map((l) => l.runId))).toEqual(new Set(['multi-test-acme', 'multi-test-globex']))
    // the checks of both targets run at once: each exchange must still name its own target's check
    const misattributed = lines.filter(
      (l) => l.test !== undefined && !l.test.startsWith(`${l.runId.replace('multi-test-', '')} > `),
    )
    expect(misattributed).toEqual([])
    // and every exchange sent by a check is labelled (only clean-up hooks may send unlabelled ones)
    const unlabelled = lines.filter((l) => l.test === undefined)
    expect(unlabelled.length).toBeLessThanOrEqual(lines.length * 0.1)
    for (const key of ['acme', 'globex']) {
      const ids = new Set(run.targets[key]!.checks.map((c) => c.id))
      const exercised = run.targets[key]!.operations.filter((o) => o.calls > 0)
      expect(exercised.length).toBeGreaterThan(5)
      expect(exercised.flatMap((o) => o.checks).every((id) => ids.has(id))).toBe(true)
      expect(exercised.find((o) => o.id === 'sales.quote.create')?.checks).toContain('SL-LIFE-002-home')
    }
  })

  it('files each exchange in the Allure result of the check of its own target', () => {
    type Step = { name: string }
    type Result = { labels: { name: string; value: string }[]; steps?: Step[] }
    const dir = join(run.reportsDir, 'allure-results')
    const results = readdirSync(dir)
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Result)
    const steps = new Map<string, number>()
    for (const r of results) {
      const label = (n: string) => r.labels.find((l) => l.name === n)?.value
      const key = `${label('parentSuite')} ${label('checkId')}`
      steps.set(key, (steps.get(key) ?? 0) + (r.steps ?? []).filter((s) => s.name.includes(' → ')).length)
    }
    // both targets run the same checks against the same service: the same exchanges, each in its own target's result
    const ids = run.targets.acme!.checks.map((c) => c.id)
    expect(ids.length).toBeGreaterThan(20)
    expect(ids.map((id) => steps.get(`globex ${id}`))).toEqual(ids.map((id) => steps.get(`acme ${id}`)))
    expect(ids.reduce((n, id) => n + (steps.get(`acme ${id}`) ?? 0), 0)).toBeGreaterThan(30)
  })

  it('runs the targets of a suite file side by side, each in its own order', () => {
    const lines = traffic(run.reportsDir).filter((l) => l.test?.includes('suites/sales/lifecycle.test.ts'))
    const span = (runId: string) => {
      const at = lines.filter((l) => l.runId === runId).map((l) => Date.parse(l.at))
      return [Math.min(...at), Math.max(...at)] as const
    }
    const [a0, a1] = span('multi-test-acme')
    const [g0, g1] = span('multi-test-globex')
    expect(g0).toBeLessThan(a1)
    expect(a0).toBeLessThan(g1)
  })
})
