import { defineConfig } from 'vitest/config'

/** The project's own tests: helpers, reference service, and the suite against defects. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default', './runner/reporting/closing-line-reporter.ts'],
  },
})
