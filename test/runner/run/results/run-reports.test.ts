import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { junitXml } from '../../../../runner/run/results/junit'
import { emptyTotals, type CheckOutcome, type ChecksReport } from '../../../../runner/run/results/results'
import { earlyRunInfo } from '../../../../runner/run/results/run-info'
import { emptyReport, readVerdictFile, withVerdict, writeStoppedRun } from '../../../../runner/run/results/run-reports'
import { tempDir } from '../../../support/temp-dir'

const check = (id: string, status: CheckOutcome['status'], extra: Partial<CheckOutcome> = {}): CheckOutcome => ({
  id,
  document: 'sales-service.md',
  section: '§4',
  requirement: `req ${id}`,
  title: `${id} req`,
  file: 'suites/x.test.ts',
  status,
  durationMs: 5,
  deviations: [],
  ...extra,
})

function report(checks: CheckOutcome[]): ChecksReport {
  const totals = emptyTotals()
  for (const c of checks) totals[c.status] += 1
  return withVerdict({ ...emptyReport(earlyRunInfo({}, 'run-now')), totals, checks })
}

/** A reports folder as an earlier, green run left it. */
function staleFolder(): string {
  const dir = tempDir('stale')
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ runId: 'run-earlier' }))
  writeFileSync(join(dir, 'checks.json'), JSON.stringify({ run: { runId: 'run-earlier' }, verdict: 'CONFORMS' }))
  writeFileSync(join(dir, 'verdict.json'), JSON.stringify({ runId: 'run-earlier', verdict: 'CONFORMS', exitCode: 0 }))
  writeFileSync(join(dir, 'conformance.md'), '# Conformance matrix — CONFORMS\n')
  writeFileSync(join(dir, 'junit.xml'), '<testsuites tests="299"/>')
  mkdirSync(join(dir, 'allure-results'))
  writeFileSync(join(dir, 'allure-results', 'old-result.json'), '{"status":"passed"}')
  return dir
}

describe('junit.xml', () => {
  it('gives skipped checks their reason and every testsuite the verdict as properties', () => {
    const xml = junitXml(
      [
        {
          report: report([
            check('A-1', 'passed'),
            check('A-2', 'not-applicable', { note: 'not applicable: no restricted user' }),
            check('A-3', 'blocked', {
              blocked: {
                reason: 'creating the quote answered 500',
                operation: 'sales.quote.create',
                owner: 'SL-LIFE-001',
              },
            }),
          ]),
        },
      ],
      report([]),
    )
    expect(xml).toContain('<skipped message="not applicable: no restricted user"/>')
    expect(xml).toContain('<skipped message="blocked: creating the quote answered 500"/>')
    expect(xml).not.toContain('<skipped/>')
    expect(xml).toMatch(/<property name="verdict" value="INCONCLUSIVE"\/>/)
  })

  it('a failed requirement is a <failure>, an errored check an <error>', () => {
    // the message is the finding in one line, from the record's fields (checks.json `failure`), not read from the text
    const failure = {
      clause: 'sales-service.md §4',
      requirement: 'x',
      expected: 'status 200',
      actual: 'status 500',
      request: 'GET http://t/x',
      reproduce: [],
    }
    const r = report([
      check('A-1', 'failed', { error: '[A-1] sales-service.md §4\nrequirement: x\nexpected: status 200', failure }),
      check('A-2', 'errored', {
        error: '[A-2] sales-service.md §4\nrequirement: x\nerror: socket hang up',
        failure: { clause: 'sales-service.md §4', requirement: 'x', error: 'socket hang up', reproduce: [] },
      }),
    ])
    const xml = junitXml([{ report: r }], r)
    expect(xml).toContain(
      '<failure message="expected status 200, got status 500 (GET http://t/x)" type="requirement violated">',
    )
    expect(xml).toContain('<error message="socket hang up" type="check error">')
    expect(xml).toMatch(/<testsuites name="ledger-conformance" tests="2" failures="1" errors="1"/)
  })
})

describe('the reports of a run that stopped, in a folder an earlier run used', () => {
  it("carry this run's id, target and cause; none says CONFORMS; nothing of the earlier run is left", () => {
    const dir = staleFolder()
    const run = earlyRunInfo({ SALES_BASE_URL: 'http://127.0.0.1:1', TENANT: 'acme' }, 'run-now')
    writeStoppedRun(dir, run, { kind: 'inconclusive', cause: 'Target unreachable: SALES_BASE_URL=http://127.0.0.1:1' })
    const v = readVerdictFile(dir)!
    expect(v).toMatchObject({ runId: 'run-now', verdict: 'INCONCLUSIVE', exitCode: 3 })
    expect(v.target).toContain('http://127.0.0.1:1')
    const checks = JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as ChecksReport
    expect(checks).toMatchObject({
      verdict: 'INCONCLUSIVE',
      exitCode: 3,
      run: { runId: 'run-now', stop: { kind: 'inconclusive' } },
    })
    for (const f of ['conformance.md', 'conformance.html', 'junit.xml', 'checks.json', 'verdict.json', 'run.json']) {
      const text = readFileSync(join(dir, f), 'utf8')
      expect(text, f).toContain('run-now')
      expect(text, f).not.toContain('run-earlier')
      expect(text, f).not.toMatch(/"verdict": "CONFORMS"|— CONFORMS|value="CONFORMS"/)
    }
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/tests="1" failures="0" errors="1"/)
    const allure = readdirSync(join(dir, 'allure-results'))
    expect(allure).not.toContain('old-result.json')
    expect(allure).toEqual(expect.arrayContaining(['environment.properties', 'executor.json']))
    const result = allure.find((f) => f.endsWith('-result.json'))!
    expect(JSON.parse(readFileSync(join(dir, 'allure-results', result), 'utf8'))).toMatchObject({ status: 'broken' })
    expect(readFileSync(join(dir, 'allure-results', 'environment.properties'), 'utf8')).toContain(
      'verdict=INCONCLUSIVE',
    )
  })

  it('a configuration error is exit code 2; a §5 violation is DOES NOT CONFORM and Allure failed', () => {
    const dir = staleFolder()
    writeStoppedRun(dir, earlyRunInfo({}, 'run-cfg'), {
      kind: 'configuration',
      cause: 'users.restricted (RESTRICTED_PASSWORD): login refused',
    })
    expect(readVerdictFile(dir)).toMatchObject({
      runId: 'run-cfg',
      verdict: 'CONFIGURATION ERROR',
      exitCode: 2,
      label: expect.stringMatching(/^CONFIGURATION ERROR \(users\.restricted/),
    })
    writeStoppedRun(dir, earlyRunInfo({}, 'run-v'), {
      kind: 'violation',
      cause: 'sales-service.md §5: the login answered a token that is not a JWT',
    })
    expect(readVerdictFile(dir)).toMatchObject({ runId: 'run-v', verdict: 'DOES NOT CONFORM', exitCode: 1 })
    const result = readdirSync(join(dir, 'allure-results')).find((f) => f.endsWith('-result.json'))!
    expect(JSON.parse(readFileSync(join(dir, 'allure-results', result), 'utf8'))).toMatchObject({ status: 'failed' })
    expect(existsSync(join(dir, 'junit.xml'))).toBe(true)
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<failure message="sales-service.md §5')
  })
})
