/**
 * npm run flake -- --runs N: runs the whole suite N times against the faithful reference (2 at a time)
 * and reports every check whose outcome changed between runs, with the seeds of the runs where it did
 * not pass. Writes reports/flake.json and reports/flake.md; exits non-zero on any flaky check, any check
 * failing in every run, or any run that stopped before its checks.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { reportsDir } from '../common/report-paths'
import { runConformance } from './harness/run-conformance'
import { analyseFlakes, flakeMarkdown, flakePassed, type RunOutcomes } from './mutation/flake-outcomes'
import { mapPool } from './mutation/pool'
import { stopMessage } from './mutation/summarize'

const USAGE =
  'Usage: npm run flake -- [--runs 30] [--parallel 2] [--files suites/auth,...] [--timeout-s 300] [--out DIR]'

function int(name: string, s: string | undefined, fallback: number, min: number, max: number): number {
  if (s === undefined) return fallback
  const n = Number(s)
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`--${name}: expected an integer ${min}..${max}, got '${s}'\n${USAGE}`)
  return n
}

async function main(): Promise<number> {
  let v
  try {
    v = parseArgs({
      options: {
        runs: { type: 'string' },
        parallel: { type: 'string' },
        files: { type: 'string', multiple: true },
        'timeout-s': { type: 'string' },
        out: { type: 'string' },
      },
    }).values
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`)
    return 2
  }
  let runs: number, parallel: number, timeoutMs: number
  try {
    runs = int('runs', v.runs, 30, 1, 1000)
    parallel = int('parallel', v.parallel, 2, 1, 16)
    timeoutMs = int('timeout-s', v['timeout-s'], 300, 10, 3600) * 1000
  } catch (e) {
    console.error((e as Error).message)
    return 2
  }
  const files = v.files?.flatMap((f) => f.split(',')).filter(Boolean)
  const started = performance.now()
  let done = 0
  const results = await mapPool(
    Array.from({ length: runs }, (_, i) => i + 1),
    parallel,
    async (n): Promise<RunOutcomes> => {
      const run = await runConformance({ timeoutMs, ...(files?.length ? { files } : {}) })
      const outcomes: RunOutcomes['outcomes'] = {}
      const errors: RunOutcomes['errors'] = {}
      for (const c of run.report?.checks ?? []) {
        outcomes[c.id] = c.status
        if (c.error) errors[c.id] = c.error.split('\n').slice(0, 4).join(' / ').slice(0, 300)
      }
      // the run's own verdict says why it stopped (reports/verdict.json of this run); the console is the fallback
      const stop =
        Object.keys(outcomes).length === 0
          ? (run.verdict?.cause ?? stopMessage(run.output) ?? `no report (exit ${run.exitCode})`)
          : undefined
      done += 1
      const failed = Object.values(outcomes).filter((s) => s === 'failed').length
      console.log(
        `[${done}/${runs}] run ${n}: ${run.verdict?.verdict ?? 'no verdict'}, ${Object.keys(outcomes).length} ` +
          `checks, ${failed} failed, exit ${run.verdict?.exitCode ?? run.exitCode}, ` +
          `seed ${run.report?.run?.seed ?? '-'} (${(run.wallMs / 1000).toFixed(1)} s)`,
      )
      return {
        run: n,
        ...(run.report?.run?.seed !== undefined ? { seed: run.report.run.seed } : {}),
        exitCode: run.exitCode,
        outcomes,
        errors,
        ...(stop ? { stopMessage: stop } : {}),
        wallMs: run.wallMs,
      }
    },
  )
  const wallMs = Math.round(performance.now() - started)
  const analysis = analyseFlakes(results)
  const md = flakeMarkdown(analysis, wallMs, results, files?.length ? files.join(', ') : 'the whole suite')
  console.log(`\n${md}`)
  const dir = v.out ?? reportsDir()
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'flake.json'),
    `${JSON.stringify({ wallMs, analysis, runs: results.map(({ errors: _e, outcomes: _o, ...r }) => r) }, null, 2)}\n`,
  )
  writeFileSync(join(dir, 'flake.md'), md)
  console.log(`reports  ${join(dir, 'flake.json')}, ${join(dir, 'flake.md')}`)
  return flakePassed(analysis) ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e)
    process.exit(2)
  },
)
