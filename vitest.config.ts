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
    reporters: [
      'default',
      ['junit', { outputFile: `${reports}/junit.xml`, suiteName: 'ledger-conformance' }],
      ['allure-vitest/reporter', { resultsDir: `${reports}/allure-results` }],
      './helpers/reporting/summary-reporter.ts',
    ],
  },
})
