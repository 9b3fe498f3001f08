import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ConformanceRun } from '../harness/run-conformance'
import type { BlockedCheck, RunSummary } from './types'

const ANSI = /\u001b\[[0-9;]*m/g

const PREFLIGHT = /No check was run|no request was sent/

/** true when the line is the suite's own refusal to run (preflight or configuration). */
export function isPreflightStop(message: string | undefined): boolean {
  return message !== undefined && PREFLIGHT.test(message)
}

/** The one-line reason a run stopped before any check (preflight or configuration), if it says one. */
export function stopMessage(output: string): string | undefined {
  const lines = output
    .replace(ANSI, '')
    .split('\n')
    .map((l) => l.trim())
  const preflight = lines.find((l) => PREFLIGHT.test(l))
  if (preflight) return preflight.replace(/^Error:\s*/, '')
  const err = lines.find((l) => /^Error: /.test(l))
  return err?.replace(/^Error:\s*/, '')
}

/** The last lines of a run's console, ANSI colours removed. */
export function outputTail(output: string, lines = 25): string {
  return output.replace(ANSI, '').split('\n').slice(-lines).join('\n')
}

/**
 * Milliseconds from startedAtEpochMs to the end of the first failed check, from allure results; of one target's checks
 * only when `target` is given (a multi-target run files each target's results under its key: parentSuite).
 */
export function firstFailureMs(allureDir: string, startedAtEpochMs: number, target?: string): number | undefined {
  if (!existsSync(allureDir)) return undefined
  let first: number | undefined
  for (const f of readdirSync(allureDir)) {
    if (!f.endsWith('-result.json')) continue
    try {
      const r = JSON.parse(readFileSync(join(allureDir, f), 'utf8')) as {
        status?: string
        stop?: number
        labels?: { name: string; value: string }[]
      }
      if (target !== undefined && !r.labels?.some((l) => l.name === 'parentSuite' && l.value === target)) continue
      if ((r.status === 'failed' || r.status === 'broken') && typeof r.stop === 'number')
        first = Math.min(first ?? r.stop, r.stop)
    } catch {
      // a result file being written when the run was killed
    }
  }
  return first === undefined ? undefined : Math.max(0, first - startedAtEpochMs)
}

type Outcome = NonNullable<ConformanceRun['report']>['checks'][number]

/** A blocked check: checks.json status 'blocked', or (before that status) a skip whose note says 'blocked: '. */
export function isBlocked(c: Outcome): boolean {
  return (c.status as string) === 'blocked' || (c.status === 'skipped' && /^blocked: /.test(c.note ?? ''))
}

function blockedOf(c: Outcome): BlockedCheck {
  const b = (c as { blocked?: { owner?: string; operation?: string } }).blocked
  const owner = b?.owner ?? /owner ([^;)\s]+)/.exec(c.note ?? '')?.[1]
  const operation = b?.operation
  return { id: c.id, ...(owner ? { owner } : {}), ...(operation ? { operation } : {}) }
}

type Report = NonNullable<ConformanceRun['report']>

/** The summary of one target's checks (first: its first failure, when any failed). */
function summaryOf(
  run: ConformanceRun,
  checks: Outcome[],
  first: (failed: number) => number | undefined,
  exitCode = run.exitCode,
): RunSummary {
  const blocked = checks.filter(isBlocked).map((c) => blockedOf(c))
  // an errored check (a tool error, a timeout) under a defect or a variation counts like a failed one here: the run is
  // not green
  const failed = checks
    .filter((c) => c.status === 'failed' || c.status === 'errored')
    .map((c) => ({
      id: c.id,
      document: c.document,
      section: c.section,
      ...(c.error ? { error: c.error.replace(ANSI, '').slice(0, 600) } : {}),
      ...(c.sameFindingAs ? { sameFindingAs: c.sameFindingAs } : {}),
    }))
  const firstMs = failed.length > 0 ? first(failed.length) : undefined
  const stop = checks.length === 0 ? stopMessage(run.output) : undefined
  return {
    exitCode,
    checksRun: checks.length,
    failed,
    blocked,
    wallMs: run.wallMs,
    ...(firstMs !== undefined ? { firstFailureMs: firstMs } : {}),
    ...(stop ? { stopMessage: stop, stoppedByPreflight: isPreflightStop(stop) } : {}),
    outputTail: outputTail(run.output),
  }
}

/** Reduces a finished run (started with keepReports) to a summary, and removes its reports folder. */
export function summarize(run: ConformanceRun, startedAtEpochMs: number): RunSummary {
  const summary = summaryOf(run, run.report?.checks ?? [], () =>
    firstFailureMs(join(run.reportsDir, 'allure-results'), startedAtEpochMs),
  )
  rmSync(run.reportsDir, { recursive: true, force: true })
  return summary
}

/**
 * Reduces a finished multi-target run (started with keepReports) to a summary per target, in the order of `keys`
 * (undefined: the target has no report), and removes its reports folder. The exit code is the target's verdict's, the
 * wall time the run's.
 */
export function summarizeTargets(
  run: ConformanceRun,
  keys: string[],
  reports: (Report | undefined)[],
  startedAtEpochMs: number,
): (RunSummary | undefined)[] {
  const allure = join(run.reportsDir, 'allure-results')
  // a target's exit code is its own verdict's (one target's failure fails the whole run's vitest)
  const out = keys.map((key, i) => {
    const r = reports[i]
    return r
      ? summaryOf(run, r.checks, () => firstFailureMs(allure, startedAtEpochMs, key), r.exitCode ?? run.exitCode)
      : undefined
  })
  rmSync(run.reportsDir, { recursive: true, force: true })
  return out
}
