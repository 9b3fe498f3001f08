import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import { writeTargetEntries } from './runner/run/targets/entries'
import { writeLane } from './runner/run/targets/lanes'
import { targetProfilesFrom } from './runner/run/targets/profiles'
import { cliFileFilters } from './runner/run/guard/cli-filters'
import { INSTALLED, PROJECT_ROOT, userCacheDir } from './common/project-root'
import { moduleCachePath } from './common/module-cache'
import { newRunId } from './common/run-id'
import { applyRunPlan, plannedShardBlob } from './common/run-plan'
import { applyTiering } from './common/v8-tiering'

// the run plan of `ledger-conformance run` (LEDGER_RUN_PLAN, common/run-plan.ts): its folders, run id, seed, profile
applyRunPlan()
// a short, broad run: V8 optimises only what is really hot (common/v8-tiering.ts, docs/performance.md)
applyTiering()
const reports = resolve(process.env.REPORTS_DIR ?? 'reports')
// reports hold target data: created readable by this user only (folders 0700, files 0600; docs/reliability.md)
process.umask(0o077)
// One run id for the whole run: the global setup, the reporters and the workers (which inherit it) all read it, so
// every report of the run carries it and none of an earlier run is read as this one's (runner/run/results).
process.env.CONFORMANCE_RUN_ID ??= newRunId()

/**
 * What vitest runs, and how many workers:
 * - TARGET_PROFILES: every suite once per target, in this one process (docs/targets.md), 6 workers;
 * - one target: one generated lane (runner/run/targets/lanes.ts) holding the selected suites side by side, in ONE
 *   worker
 *   (docs/reliability.md#speed); one file per suite when the run is sharded or merged (vitest splits by file).
 */
function plan(): { include: string[]; lane: boolean } {
  let targets
  try {
    targets = targetProfilesFrom(process.env)
  } catch {
    // the global setup reports the configuration error before any request
    return { include: ['suites/**/*.test.ts'], lane: false }
  }
  if (targets) return { include: writeTargetEntries(PROJECT_ROOT, targets.keys), lane: false }
  // installed, the package writes nothing inside node_modules (a lane is a file under the project): one file per suite
  const perFile =
    INSTALLED ||
    process.argv.some(
      (a) => a === '--shard' || a.startsWith('--shard=') || a === '--merge-reports' || a.startsWith('--merge-reports='),
    ) ||
    process.env.CONFORMANCE_LANES === '0'
  const lane = perFile ? undefined : writeLane(PROJECT_ROOT, cliFileFilters(process.argv))
  return lane ? { include: lane, lane: true } : { include: ['suites/**/*.test.ts'], lane: false }
}

const run = plan()

/** The conformance run: every suite under suites/, against the configured target(s). */
export default defineConfig({
  // an installed package writes nothing inside node_modules: vitest's caches go to the user's cache folder
  ...(INSTALLED ? { cacheDir: userCacheDir() } : {}),
  test: {
    include: run.include,
    globalSetup: ['runner/vitest/global-setup.ts'],
    setupFiles: ['allure-vitest/setup', 'runner/vitest/worker-console.ts', 'runner/vitest/selected-blocks.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'threads',
    // The checks wait on the network, not the CPU. One target: its suites run side by side in one worker (a lane),
    // which imports and compiles the modules once; the target's limit (http.maxInFlight) bounds the requests, not
    // vitest. Several targets: 6 workers with modules shared between the files of a worker (isolate: false), and the
    // targets' blocks side by side in a file (helpers/checks/targets/for-target.ts). docs/reliability.md, npm run
    // bench.
    maxWorkers: run.lane ? 1 : 6,
    isolate: false,
    maxConcurrency: run.lane ? 1000 : 32,
    // transformed modules are kept on disk between runs (node_modules/.experimental-vitest-cache; keyed by
    // content, id and config; default in vitest 5): a warm run, and each target's copy of a suite, skip the transform
    // (one folder per state of the dependencies: common/module-cache.ts)
    experimental: {
      fsModuleCache: true,
      fsModuleCachePath: moduleCachePath(
        INSTALLED
          ? resolve(userCacheDir(), 'modules')
          : resolve(PROJECT_ROOT, 'node_modules', '.experimental-vitest-cache'),
        PROJECT_ROOT,
      ),
    },
    reporters: [
      // first: what the others print or write has been redacted (runner/vitest/redacting-reporter.ts)
      './runner/vitest/redacting-reporter.ts',
      // the suite's own console in place of vitest's: no banner, no line per test, no code frames (console-reporter.ts)
      './runner/vitest/console-reporter.ts',
      // junit.xml is written by the summary reporter, with the verdict and the reasons of skipped checks
      ['./runner/vitest/allure-reporter.ts', { resultsDir: `${reports}/allure-results` }],
      './runner/vitest/summary-reporter.ts',
      // run --shard i/n: the shard's blob too (after the redacting reporter), which ledger-conformance merge reads
      ...(plannedShardBlob()
        ? [['blob', { outputFile: plannedShardBlob()! }] as ['blob', { outputFile: string }]]
        : []),
    ],
  },
})
