import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ConformanceRun } from '../harness/run-conformance'
import type { BlockedCheck, RunSummary } from './types'

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g

const PREFLIGHT = /No check was run|no request was sent/

/** true when the line is the suite's own refusal to run (preflight or configuration). */
export function isPreflightStop(message: string | undefined): boolean {
  return message !== undefined && PREFLIGHT.test(message)
}

/** The one-line reason a run stopped before any check (preflight or configuration), if it says one. */
export function stopMessage(output: string): string | undefined {
  const lines = output.replace(ANSI, '').split('\n').map((l) => l.trim())
  const preflight = lines.find((l) => PREFLIGHT.test(l))
  if (preflight) return preflight.replace(/^Error:\s*/, '')
  const err = lines.find((l) => /^Error: /.test(l))
  return err?.replace(/^Error:\s*/, '')
}

/** The last lines of a run's console, ANSI colours removed. */
export function outputTail(output: string, lines = 25): string {
  return output.replace(ANSI, '').split('\n').slice(-lines).join('\n')
}

/** Milliseconds from startedAtEpochMs to the end of the first failed check, from allure results. */
export function firstFailureMs(allureDir: string, startedAtEpochMs: number): number | undefined {
  if (!existsSync(allureDir)) return undefined
  let first: number | undefined
  for (const f of readdirSync(allureDir)) {
    if (!f.endsWith('-result.json')) continue
    try {
      const r = JSON.parse(readFileSync(join(allureDir, f), 'utf8')) as { status?: string; stop?: number }
      if ((r.status === 'failed' || r.status === 'broken') && typeof r.stop === 'number') first = Math.min(first ?? r.stop, r.stop)
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

/** Reduces a finished run (started with keepReports) to a summary, and removes its reports folder. */
export function summarize(run: ConformanceRun, startedAtEpochMs: number): RunSummary {
  const checks = run.report?.checks ?? []
  const blocked = checks.filter(isBlocked).map((c) => blockedOf(c))
  // an errored check (a tool error, a timeout) under a defect or a variation counts like a failed one here: the run is not green
  const failed = checks.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => ({ id: c.id, document: c.document, section: c.section, ...(c.error ? { error: c.error.replace(ANSI, '').slice(0, 600) } : {}), ...(c.sameFindingAs ? { sameFindingAs: c.sameFindingAs } : {}) }))
  const first = failed.length > 0 ? firstFailureMs(join(run.reportsDir, 'allure-results'), startedAtEpochMs) : undefined
  rmSync(run.reportsDir, { recursive: true, force: true })
  const stop = checks.length === 0 ? stopMessage(run.output) : undefined
  return {
    exitCode: run.exitCode,
    checksRun: checks.length,
    failed,
    blocked,
    wallMs: run.wallMs,
    ...(first !== undefined ? { firstFailureMs: first } : {}),
    ...(stop ? { stopMessage: stop, stoppedByPreflight: isPreflightStop(stop) } : {}),
    outputTail: outputTail(run.output),
  }
}
