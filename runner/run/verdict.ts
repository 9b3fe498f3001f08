/**
 * The three verdicts of a run and their exit codes: the same for conformance, smoke, acceptance, sharded,
 * explore and every harness (README "Verdicts and exit codes"). A run that stopped on a usage or configuration error
 * tested nothing and is no verdict on the target: it says CONFIGURATION ERROR, exit 2 (never INCONCLUSIVE, which is 3).
 */
export type Verdict = 'CONFORMS' | 'DOES NOT CONFORM' | 'INCONCLUSIVE' | 'CONFIGURATION ERROR'

export const EXIT = {
  /** every check of the selection ran, none failed, none errored */
  conforms: 0,
  /** at least one requirement failed against the target */
  doesNotConform: 1,
  /** usage or configuration error (a bad profile, a selection that matches no check); no request was sent */
  usage: 2,
  /** the run could not test: unreachable target, tool error, checks that errored or timed out (a login refused is 2) */
  inconclusive: 3,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

export function exitCodeOf(verdict: Verdict): ExitCode {
  return verdict === 'CONFORMS'
    ? EXIT.conforms
    : verdict === 'DOES NOT CONFORM'
      ? EXIT.doesNotConform
      : verdict === 'CONFIGURATION ERROR'
        ? EXIT.usage
        : EXIT.inconclusive
}

/**
 * Why a run stopped before its checks (written by the global setup or the CLI into run.json):
 * - `configuration`: a bad profile, variable or selection; exit 2
 * - `violation`: the target broke a requirement before any check could run (a login answering a non-JWT token,
 *   sales §5); DOES NOT CONFORM, exit 1
 * - `inconclusive`: the target could not be tested (unreachable, login refused, a tool error); exit 3
 */
export interface RunStop {
  kind: 'configuration' | 'violation' | 'inconclusive'
  cause: string
}

/** The name of the error that ends a run the global setup stopped (after recording the stop in run.json). */
const RUN_STOPPED = 'RunStopped'

/** The error that ends a stopped run: its message is the cause, and no stack of the suite's internals. */
export function runStopError(cause: string): Error {
  const e = new Error(cause)
  e.name = RUN_STOPPED
  e.stack = cause
  return e
}

/** Whether an error is the one that ends a stopped run (runner/vitest/console-reporter.ts does not print it twice). */
export function isRunStop(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === RUN_STOPPED
}

/** The checks the run was asked to run, when fewer than the whole catalogue. */
export interface Selection {
  /** How it was asked for, e.g. "--check SL-LIFE" or "read-only suites (smoke)". */
  label: string
  /** Checks selected (what the run was meant to run). */
  selected: number
  /** Checks in the whole catalogue (0: not known, vitest run directly with --shard). */
  catalogue: number
  /**
   * Why the run is partial when it is not a selection of the CLI's (e.g. "vitest shard 1/4"); else "selection <label>".
   */
  why?: string
}

/**
 * "selection --check SL-LIFE", "vitest shard 1/4; selection --check SL-LIFE": why a run holds part of the catalogue.
 */
export function partialWhy(selection: Selection): string {
  return selection.why ?? `selection ${selection.label}`
}

/** What a verdict is computed from: the counts of the run's checks, the stop (if any) and the selection. */
export interface VerdictInput {
  totals: {
    passed: number
    failed: number
    errored?: number
    blocked?: number
    skipped: number
    'not-applicable': number
  }
  /** Ids of the failed, errored and blocked checks, for the cause (first few are named). */
  ids?: { failed?: string[]; errored?: string[]; blocked?: string[]; skipped?: string[] }
  stop?: RunStop | undefined
  selection?: Selection | undefined
  /** Errors outside any check (a suite file that did not load, a hook that threw). */
  runErrors?: string[]
  /** Parts of the run that could not run, each with its cause (a shard of a sharded run). */
  incomplete?: string[]
  /** --strict: these requirements (ids) went untested (runner/run/results/requirement-coverage.ts): INCONCLUSIVE. */
  strictUntested?: string[]
  /**
   * --strict: these applicable cells of the exercise model were not exercised
   * (runner/run/results/exercise-coverage.ts): INCONCLUSIVE.
   */
  strictUnexercised?: string[]
}

export interface RunVerdict {
  verdict: Verdict
  exitCode: ExitCode
  /** Why the verdict is not CONFORMS, or what a partial CONFORMS covered; absent for a full CONFORMS. */
  cause?: string
  /** The one line every report prints, e.g. "CONFORMS (partial: 22 of 299 checks; selection --check SL-LIFE)". */
  label: string
  selection?: Selection
}

const names = (ids: string[] | undefined, n: number): string => {
  const list = ids ?? []
  if (list.length === 0) return ''
  return `: ${list.slice(0, 5).join(', ')}${n > 5 ? ` and ${n - 5} more` : ''}`
}

/**
 * "partial: 22 of 299 checks; selection --check SL-LIFE" (or "; vitest shard 1/4") when the run holds less than the
 * whole catalogue. A shard's share is partial even when its count is not known to be smaller (docs/reports.md).
 */
export function partialNote(selection: Selection | undefined): string | undefined {
  if (!selection || (selection.selected >= selection.catalogue && !selection.why)) return undefined
  const of = selection.catalogue > 0 ? ` of ${selection.catalogue}` : ''
  return `partial: ${selection.selected}${of} checks; ${partialWhy(selection)}`
}

/**
 * The one verdict of a run, from its outcome. CONFORMS only when every selected check ran and none failed or
 * errored; a failed requirement (or a §5 violation at login) is DOES NOT CONFORM; anything that kept the run
 * from testing (a stop, an errored or blocked check, a check skipped without a reason, no check run at all) is
 * INCONCLUSIVE, naming the cause. A configuration stop is CONFIGURATION ERROR, exit code 2 (the README's table).
 */
export function computeVerdict(i: VerdictInput): RunVerdict {
  const t = i.totals
  const errored = t.errored ?? 0
  const blocked = t.blocked ?? 0
  const partial = partialNote(i.selection)
  const sel = i.selection ? { selection: i.selection } : {}
  const make = (verdict: Verdict, cause: string | undefined, exitCode: ExitCode = exitCodeOf(verdict)): RunVerdict => {
    const detail = [cause, partial].filter((x): x is string => !!x).join('; ')
    return {
      verdict,
      exitCode,
      ...(cause ? { cause } : partial ? { cause: partial } : {}),
      label: detail ? `${verdict} (${detail})` : verdict,
      ...sel,
    }
  }
  // nothing was tested: no "partial" note (it would count checks that never ran)
  if (i.stop?.kind === 'configuration')
    return {
      verdict: 'CONFIGURATION ERROR',
      exitCode: EXIT.usage,
      cause: i.stop.cause,
      label: `CONFIGURATION ERROR (${i.stop.cause})`,
      ...sel,
    }
  if (i.stop?.kind === 'violation') return make('DOES NOT CONFORM', i.stop.cause)
  if (i.stop) return make('INCONCLUSIVE', i.stop.cause)
  if (t.failed > 0) return make('DOES NOT CONFORM', `${t.failed} failed check(s)${names(i.ids?.failed, t.failed)}`)
  if (errored > 0)
    return make('INCONCLUSIVE', `${errored} check(s) errored or timed out${names(i.ids?.errored, errored)}`)
  if ((i.incomplete ?? []).length > 0) return make('INCONCLUSIVE', i.incomplete!.join('; '))
  if ((i.runErrors ?? []).length > 0) return make('INCONCLUSIVE', `error outside the checks: ${i.runErrors![0]}`)
  if (blocked > 0)
    return make('INCONCLUSIVE', `${blocked} check(s) blocked (their setup failed)${names(i.ids?.blocked, blocked)}`)
  if (t.skipped > 0)
    return make('INCONCLUSIVE', `${t.skipped} check(s) skipped without a reason${names(i.ids?.skipped, t.skipped)}`)
  const untested = i.strictUntested ?? []
  if (untested.length > 0 && t.passed > 0)
    return make(
      'INCONCLUSIVE',
      `--strict: ${untested.length} requirement(s) untested${names(untested, untested.length)}`,
    )
  const unexercised = i.strictUnexercised ?? []
  if (unexercised.length > 0 && t.passed > 0)
    return make(
      'INCONCLUSIVE',
      `--strict: ${unexercised.length} applicable exercise cell(s) not ` +
        `exercised${names(unexercised, unexercised.length)}`,
    )
  if (t.passed === 0) {
    return make(
      'INCONCLUSIVE',
      t['not-applicable'] > 0
        ? `no check ran: all ${t['not-applicable']} selected check(s) are not applicable`
        : 'no check ran',
    )
  }
  return make('CONFORMS', undefined)
}
