import type { CheckStatus } from '../../runner/run/results/results'

/** One run's outcome per check id (a run that stopped before any check has none). */
export interface RunOutcomes {
  run: number
  seed?: number
  exitCode: number | null
  outcomes: Record<string, CheckStatus>
  /** First lines of the failure per failed check. */
  errors: Record<string, string>
  stopMessage?: string
  wallMs: number
}

export interface FlakyCheck {
  id: string
  /** How many runs gave each outcome; 'absent' when the check did not run at all. */
  counts: Record<string, number>
  /** Runs (1-based) where it did not pass, with their seeds. */
  badRuns: { run: number; seed?: number; status: string; error?: string }[]
}

export interface FlakeAnalysis {
  runs: number
  /** Runs that stopped before any check or were killed. */
  brokenRuns: number[]
  /** Checks whose outcome changed between runs. */
  flaky: FlakyCheck[]
  /** Checks that failed in every run (a defect of the suite or the reference, not a flake). */
  alwaysFailed: string[]
  checks: number
}

/**
 * Compares the outcomes of runs that went through: a check is flaky when its outcome is not the
 * same in all of them (including present in some and absent in others).
 */
export function analyseFlakes(runs: readonly RunOutcomes[]): FlakeAnalysis {
  const complete = runs.filter((r) => Object.keys(r.outcomes).length > 0)
  const brokenRuns = runs.filter((r) => !complete.includes(r)).map((r) => r.run)
  const ids = [...new Set(complete.flatMap((r) => Object.keys(r.outcomes)))].sort()
  const flaky: FlakyCheck[] = []
  const alwaysFailed: string[] = []
  for (const id of ids) {
    const statuses = complete.map((r) => r.outcomes[id] ?? 'absent')
    const counts: Record<string, number> = {}
    for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1
    if (Object.keys(counts).length > 1) {
      const badRuns = complete
        .filter((r) => (r.outcomes[id] ?? 'absent') !== 'passed')
        .map((r) => ({
          run: r.run,
          ...(r.seed !== undefined ? { seed: r.seed } : {}),
          status: r.outcomes[id] ?? 'absent',
          ...(r.errors[id] ? { error: r.errors[id] } : {}),
        }))
      flaky.push({ id, counts, badRuns })
    } else if (statuses[0] === 'failed') alwaysFailed.push(id)
  }
  return { runs: runs.length, brokenRuns, flaky, alwaysFailed, checks: ids.length }
}

/** The flake check passes with no flaky check, no check failing every time and no broken run. */
export function flakePassed(a: FlakeAnalysis): boolean {
  return a.flaky.length === 0 && a.alwaysFailed.length === 0 && a.brokenRuns.length === 0
}

export function flakeMarkdown(
  a: FlakeAnalysis,
  wallMs: number,
  runs: readonly RunOutcomes[],
  what = 'the whole suite',
): string {
  const out = [
    '# Flake check',
    '',
    `${a.runs} run(s) of ${what} against the faithful reference, ${a.checks} checks, wall ` +
      `time ${(wallMs / 1000).toFixed(1)} s.`,
    '',
    `- flaky checks (outcome changed between runs): **${a.flaky.length}**`,
    `- checks failing in every run: **${a.alwaysFailed.length}**`,
    `- runs that stopped before any check: **${a.brokenRuns.length}**${
      a.brokenRuns.length ? ` (runs ${a.brokenRuns.join(', ')})` : ''
    }`,
    `- verdict: **${flakePassed(a) ? 'PASS' : 'FAIL'}**`,
  ]
  if (a.flaky.length > 0) {
    out.push('', '| check | outcomes | runs not passed (seed) |', '|---|---|---|')
    for (const f of a.flaky) {
      const counts = Object.entries(f.counts)
        .map(([s, n]) => `${s} ×${n}`)
        .join(', ')
      const bad = f.badRuns
        .map((b) => `#${b.run}${b.seed !== undefined ? ` (seed ${b.seed})` : ''} ${b.status}`)
        .join('; ')
      out.push(`| ${f.id} | ${counts} | ${bad} |`)
    }
  }
  if (a.alwaysFailed.length > 0) out.push('', `Failing in every run: ${a.alwaysFailed.join(', ')}`)
  const stopped = runs.filter((r) => r.stopMessage)
  if (stopped.length > 0) out.push('', ...stopped.map((r) => `- run ${r.run}: ${r.stopMessage}`))
  out.push('', 'Reproduce a run with its seed: `CONFORMANCE_SEED=<seed> npm run conformance`.')
  return `${out.join('\n')}\n`
}
