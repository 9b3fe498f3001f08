import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runMutation, selection, writeMutationReport } from '../../scripts/mutation/harness'

describe('mutation harness end to end (2 defects, 1 variation, auth suite)', () => {
  it('catches both defects, raises no false alarm, and writes the reports', async () => {
    const report = await runMutation({
      parallel: 2,
      scope: 'suite',
      bar: 1,
      timeoutMs: 120_000,
      files: ['suites/auth'],
      defects: ['auth-expired-token-accepted', 'auth-login-wrong-password-accepted'],
      variations: ['key-order'],
    })
    expect(report.baseline.verdict, report.baseline.outputTail).toBe('green')
    expect(report.defects.map((d) => [d.name, d.verdict])).toEqual([
      ['auth-expired-token-accepted', 'caught'],
      ['auth-login-wrong-password-accepted', 'caught'],
    ])
    expect(report.defects[0]!.newFailures.map((f) => f.id)).toContain('AUTH-TOKEN-001')
    expect(report.defects[1]!.newFailures.map((f) => f.id)).toContain('AUTH-LOGIN-002')
    expect(report.defects.every((d) => d.clauseMatched && d.wallMs > 0)).toBe(true)
    expect(report.variations.map((v) => [v.name, v.verdict])).toEqual([['key-order', 'green']])
    expect(report.score).toEqual({ caught: 2, scored: 2, undetectable: 0, ratio: 1 })
    expect(report.passed).toBe(true)
    const dir = mkdtempSync(join(tmpdir(), 'lc-mutation-'))
    try {
      const files = writeMutationReport(report, dir)
      expect(JSON.parse(readFileSync(files.json, 'utf8')).score.ratio).toBe(1)
      expect(readFileSync(files.md, 'utf8')).toMatch(/\| auth-expired-token-accepted \| sales-service\.md §5 \| caught \|/)
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
