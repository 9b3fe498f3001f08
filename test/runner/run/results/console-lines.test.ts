import { describe, expect, it } from 'vitest'
import { CONSOLE_LINE_MAX, consoleLines, fit } from '../../../../runner/run/results/console-lines'
import { emptyTotals, runNotes, type CheckOutcome, type ChecksReport } from '../../../../runner/run/results/results'

const refused = {
  clause: 'sales-service.md §3',
  requirement: 'r',
  expected: 'status 2xx',
  actual: 'status 409',
  request: 'PUT http://t/q/1 {"a":1}',
  reproduce: [],
}
const outcome = (id: string, status: CheckOutcome['status'], extra: Partial<CheckOutcome> = {}): CheckOutcome => ({
  id,
  document: 'sales-service.md',
  section: '§3',
  requirement: `requirement of ${id}`,
  title: id,
  file: 'f',
  status,
  durationMs: 0,
  deviations: [],
  ...(status === 'failed' ? { failure: refused } : {}),
  ...extra,
})

function report(checks: CheckOutcome[]): ChecksReport {
  const totals = emptyTotals()
  for (const c of checks) totals[c.status] += 1
  return { run: undefined, totals, checks, operations: [] }
}

describe('console lines: failures that are one finding', () => {
  it('counts the distinct findings among the failed checks, and names the finding a failure shares', () => {
    const lines = consoleLines(
      report([
        outcome('SL-LIFE-004-home', 'failed'),
        outcome('SL-LIFE-004-travel', 'failed', { sameFindingAs: ['SL-LIFE-004-home'] }),
        outcome('SL-OPS-DRAFT-UPDATE', 'failed', { sameFindingAs: ['SL-LIFE-004-home'] }),
        outcome('SL-LIFE-005-home', 'blocked', {
          blocked: { reason: 'earlier step failed', owner: 'SL-LIFE-004-home' },
        }),
      ]),
      false,
    )
    expect(lines).toContain(
      'checks   0 passed, 3 failed (1 distinct finding(s)), 0 errored, 1 blocked, 0 not applicable, 0 skipped, 0 ' +
        'deviation(s)',
    )
    expect(lines).toContain(
      '  FAILED SL-OPS-DRAFT-UPDATE sales-service.md §3: expected status 2xx, got status 409 (PUT http://t/q/1) (the ' +
        'same finding as SL-LIFE-004-home)',
    )
    expect(lines).toContain(
      '  FAILED SL-LIFE-004-home sales-service.md §3: expected status 2xx, got status 409 (PUT http://t/q/1)',
    )
    // blocked checks by their root cause, one line
    expect(lines).toContain('  BLOCKED (1) setup failed; see SL-LIFE-004-home: SL-LIFE-005-home')
  })

  it('says nothing of findings when every failure is one of its own', () => {
    const lines = consoleLines(report([outcome('SL-NEG-002', 'failed'), outcome('SL-NEG-003', 'failed')]), false)
    expect(lines[0]).toBe(
      'checks   0 passed, 2 failed, 0 errored, 0 blocked, 0 not applicable, 0 skipped, 0 deviation(s)',
    )
  })
})

describe('console lines: notes of what the run did not probe', () => {
  it('each distinct note once, with the checks that gave it, before the verdict; no note, no line', () => {
    const checks = [
      outcome('AUTH-TOKEN-001', 'passed', { notes: ['expiry beyond the leeway not probed'] }),
      outcome('AUTH-TOKEN-002', 'passed', { notes: ['expiry beyond the leeway not probed'] }),
      outcome('SL-NEG-002', 'passed'),
    ]
    const notes = runNotes(checks)
    expect(notes).toEqual(['expiry beyond the leeway not probed: AUTH-TOKEN-001, AUTH-TOKEN-002'])
    const lines = consoleLines({ ...report(checks), notes, verdict: 'CONFORMS', label: 'CONFORMS' }, false)
    expect(lines.slice(-2)).toEqual([
      '  NOTE expiry beyond the leeway not probed: AUTH-TOKEN-001, AUTH-TOKEN-002',
      'verdict  CONFORMS',
    ])
    expect(runNotes([outcome('SL-NEG-002', 'passed')])).toEqual([])
    expect(consoleLines(report([outcome('SL-NEG-002', 'passed')]), false).some((l) => l.includes('NOTE'))).toBe(false)
  })
})

describe('console lines are cut to their maximum, the verdict line never', () => {
  it('cuts a long finding line, keeps a long verdict line whole (a stop has its whole cause there)', () => {
    const long = 'x'.repeat(CONSOLE_LINE_MAX + 50)
    expect(fit(`  FAILED ${long}`)).toHaveLength(CONSOLE_LINE_MAX)
    expect(fit(`verdict  DOES NOT CONFORM (${long})`)).toBe(`verdict  DOES NOT CONFORM (${long})`)
  })
})
