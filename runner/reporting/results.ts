import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { RunInfo } from './run-info'
import type { TrafficLine } from '../../helpers/reporting/traffic-file'

export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'not-applicable'

/** One check's outcome, as written to reports/checks.json. */
export interface CheckOutcome {
  id: string
  document: string
  section: string
  requirement: string
  title: string
  file: string
  status: CheckStatus
  durationMs: number
  error?: string
  note?: string
  deviations: { id: string; message: string; policy: string }[]
}

export interface ChecksReport {
  run: RunInfo | undefined
  totals: Record<CheckStatus, number> & { deviations: number }
  checks: CheckOutcome[]
  operations: { id: string; service: string; method: string; path: string; calls: number; checks: string[] }[]
}

export function readRunInfo(dir: string): RunInfo | undefined {
  const p = join(dir, 'run.json')
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as RunInfo) : undefined
}

/** All traffic lines of a run, measured (reports/traffic/*.jsonl). */
export function readTraffic(dir: string, runId?: string): TrafficLine[] {
  if (!existsSync(dir)) return []
  const lines: TrafficLine[] = []
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.jsonl')) continue
    for (const l of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!l.trim()) continue
      try {
        const t = JSON.parse(l) as TrafficLine
        if (!runId || t.runId === runId) lines.push(t)
      } catch {
        // a torn line from an interrupted worker is skipped
      }
    }
  }
  return lines
}

/** The lines of one run among traffic lines of several (all of them when the run id is unknown). */
export function linesOfRun(lines: TrafficLine[], runId: string | undefined): TrafficLine[] {
  return runId ? lines.filter((t) => t.runId === runId) : lines
}

/**
 * Removes the run reports a harness reads (checks.json, targets/) from a reports folder that is used again, so that a
 * run which stops before writing its own is never read as the earlier run's outcome.
 */
export function clearRunReports(dir: string): void {
  rmSync(join(dir, 'checks.json'), { force: true })
  rmSync(join(dir, 'targets'), { recursive: true, force: true })
}

/** A multi-target run's reports (<dir>/<key>/checks.json under reports/targets), by target key. */
export function readTargetReports(dir: string): Record<string, ChecksReport> {
  const out: Record<string, ChecksReport> = {}
  for (const key of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const file = join(dir, key, 'checks.json')
    if (existsSync(file)) out[key] = JSON.parse(readFileSync(file, 'utf8')) as ChecksReport
  }
  return out
}

/** The totals of several reports added up. */
export function sumTotals(reports: readonly ChecksReport[]): ChecksReport['totals'] {
  const all = { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0, deviations: 0 }
  for (const r of reports) for (const k of Object.keys(all) as (keyof typeof all)[]) all[k] += r.totals[k]
  return all
}
