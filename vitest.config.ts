import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

const reports = resolve(process.env.REPORTS_DIR ?? 'reports')

/** The conformance run: every suite under suites/, against the configured target. */
export default defineConfig({
  test: {
    include: ['suites/**/*.test.ts'],
    globalSetup: ['helpers/global-setup.ts'],
    setupFiles: ['allure-vitest/setup'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'threads',
    // The checks wait on the network, not the CPU: more workers than cores, and modules shared between the
    // files of a worker (suites keep no module-level state), cut the wall time (docs/reliability.md, npm run bench).
    maxWorkers: 6,
    isolate: false,
    reporters: [
      'default',
      ['junit', { outputFile: `${reports}/junit.xml`, suiteName: 'ledger-conformance' }],
      ['allure-vitest/reporter', { resultsDir: `${reports}/allure-results` }],
      './helpers/reporting/summary-reporter.ts',
    ],
  },
})
