import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OPERATIONS } from '../../common/operations'
import { runConformance } from '../../scripts/harness/run-conformance'

describe('conformance matrix of a run', () => {
  it('is written at the end of a run, naming the operations whose checks failed', async () => {
    const run = await runConformance({
      files: ['suites/security'],
      defects: ['auth-token-not-required'],
      keepReports: true,
    })
    try {
      expect(run.failedIds.length).toBeGreaterThan(0)
      const md = readFileSync(join(run.reportsDir, 'conformance.md'), 'utf8')
      expect(md).toContain('# Conformance matrix — DOES NOT CONFORM')
      for (const op of OPERATIONS) expect(md).toContain(`\`${op.id}\``)
      expect(md).toMatch(/`sales\.quote\.create` \| POST \S+ \| FAILED \|/)
      expect(md).toContain('SEC-NOTOKEN-sales.quote.create')
      const html = readFileSync(join(run.reportsDir, 'conformance.html'), 'utf8')
      expect(html).toContain(`<span id="failed">${run.report?.totals.failed}</span>`)
    } finally {
      rmSync(run.reportsDir, { recursive: true, force: true })
    }
  })
})
