import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import { writeTargetEntries } from './runner/targets/entries'
import { targetProfilesFrom } from './runner/targets/profiles'
import { PROJECT_ROOT } from './helpers/config'

const reports = resolve(process.env.REPORTS_DIR ?? 'reports')
// reports hold target data: created readable by this user only (folders 0700, files 0600; docs/reliability.md)
process.umask(0o077)
// One run id for the whole run: the global setup, the reporters and the workers (which inherit it) all read it, so
// every report of the run carries it and none of an earlier run is read as this one's (runner/reporting).
process.env.CONFORMANCE_RUN_ID ??= `run-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex')}`

/** TARGET_PROFILES: every suite once per target, in this one process (docs/targets.md). */
function include(): string[] {
  let targets
  try {
    targets = targetProfilesFrom(process.env)
  } catch {
    return ['suites/**/*.test.ts'] // the global setup reports the configuration error before any request
  }
  return targets ? writeTargetEntries(PROJECT_ROOT, targets.keys) : ['suites/**/*.test.ts']
}

/** The conformance run: every suite under suites/, against the configured target(s). */
export default defineConfig({
  test: {
    include: include(),
    globalSetup: ['runner/global-setup.ts'],
    setupFiles: ['allure-vitest/setup', 'runner/worker-console.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'threads',
    // The checks wait on the network, not the CPU: more workers than cores, and modules shared between the
    // files of a worker (suites keep no module-level state), cut the wall time (docs/reliability.md, npm run bench).
    maxWorkers: 6,
    isolate: false,
    // a multi-target run's blocks run side by side in a file (helpers/targets/for-target.ts): one per target
    maxConcurrency: 32,
    // transformed modules are kept on disk between runs (node_modules/.experimental-vitest-cache; keyed by
    // content, id and config; default in vitest 5): a warm run, and each target's copy of a suite, skip the transform
    experimental: { fsModuleCache: true },
    reporters: [
      // first: what the others print or write has been redacted (runner/reporting/redacting-reporter.ts)
      './runner/reporting/redacting-reporter.ts',
      'default',
      // junit.xml is written by the summary reporter, with the verdict and the reasons of skipped checks
      ['./runner/reporting/allure-reporter.ts', { resultsDir: `${reports}/allure-results` }],
      './runner/reporting/summary-reporter.ts',
    ],
  },
})
