import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { clearRunReports, linesOfRun, readTargetReports } from '../../../../runner/run/results/results'
import type { TrafficLine } from '../../../../helpers/client/http/traffic-file'
import { tempDir } from '../../../support/temp-dir'

describe('linesOfRun()', () => {
  it("keeps the run's own lines, or every line when the run id is unknown", () => {
    const lines = [{ runId: 'a' }, { runId: 'b' }, { runId: 'a' }] as TrafficLine[]
    expect(linesOfRun(lines, 'a')).toEqual([lines[0], lines[2]])
    expect(linesOfRun(lines, undefined)).toBe(lines)
  })
})

describe('clearRunReports()', () => {
  it(
    "removes an earlier run's reports (run.json, checks.json, verdict.json, matrix, junit.xml, per-target), and " +
      'nothing else',
    () => {
      const dir = tempDir('results')
      mkdirSync(join(dir, 'targets', 'acme'), { recursive: true })
      writeFileSync(join(dir, 'targets', 'acme', 'checks.json'), '{}')
      writeFileSync(join(dir, 'checks.json'), '{}')
      for (const f of ['junit.xml', 'run.json', 'verdict.json', 'conformance.md', 'conformance.html', 'mutation.json'])
        writeFileSync(join(dir, f), '{}')
      clearRunReports(dir)
      for (const f of ['checks.json', 'junit.xml', 'run.json', 'verdict.json', 'conformance.md', 'conformance.html'])
        expect(existsSync(join(dir, f)), f).toBe(false)
      expect(readTargetReports(join(dir, 'targets'))).toEqual({})
      expect(existsSync(join(dir, 'mutation.json'))).toBe(true)
      expect(() => clearRunReports(join(dir, 'missing'))).not.toThrow()
    },
  )
})
