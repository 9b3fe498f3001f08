import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runMutation, selection, writeMutationReport } from '../../scripts/mutation/harness'

describe('mutation harness end to end (3 defects, 1 variation, auth suite, in one batch)', () => {
  it('catches both defects, counts the one refused at login as stopped, raises no false alarm, and writes the ' +
    'reports', async () => {
    // one batch: the defect refused at login stops the multi-target run, so the batch's items run again one by one
    const report = await runMutation({
      parallel: 2,
      batch: 8,
      scope: 'suite',
      bar: 1,
      timeoutMs: 120_000,
      files: ['suites/auth'],
      defects: ['auth-expired-token-accepted', 'auth-login-wrong-password-accepted', 'auth-login-token-not-jwt'],
      variations: ['key-order'],
    })
    expect(report.baseline.verdict, report.baseline.outputTail).toBe('green')
    expect(report.defects.map((d) => [d.name, d.verdict])).toEqual([
      ['auth-expired-token-accepted', 'caught'],
      ['auth-login-wrong-password-accepted', 'caught'],
      ['auth-login-token-not-jwt', 'stopped'],
    ])
    expect(report.defects[0]!.newFailures.map((f) => f.id)).toContain('AUTH-TOKEN-001')
    expect(report.defects[1]!.newFailures.map((f) => f.id)).toContain('AUTH-LOGIN-002')
    expect(report.defects.slice(0, 2).every((d) => d.clauseMatched && d.wallMs > 0)).toBe(true)
    expect(report.defects[2]!.stopMessage).toMatch(/AUTH-LOGIN-005/)
    expect(report.controlFailures).toBeUndefined()
    expect(report.variations.map((v) => [v.name, v.verdict])).toEqual([['key-order', 'green']])
    expect(report.score).toEqual({ caught: 3, scored: 3, undetectable: 0, ratio: 1 })
    expect(report.passed).toBe(true)
    const dir = mkdtempSync(join(tmpdir(), 'lc-mutation-'))
    try {
      const files = writeMutationReport(report, dir)
      expect(JSON.parse(readFileSync(files.json, 'utf8')).score.ratio).toBe(1)
      expect(readFileSync(files.md, 'utf8')).toMatch(
        /\| auth-expired-token-accepted \| sales-service\.md §5 \| caught \|/,
      )
      expect(existsSync(files.md)).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 300_000)

  it('refuses unknown names before running anything', () => {
    expect(() => selection({ defects: ['no-such-defect'] })).toThrow(/unknown defect/)
    expect(() => selection({ variations: ['no-such-variation'] })).toThrow(/unknown variation/)
  })
})
