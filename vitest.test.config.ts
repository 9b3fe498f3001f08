import { defineConfig } from 'vitest/config'

/**
 * `npm test`: the project's own FAST tests (helpers, reference service, reporters, harness logic); at most
 * 3 minutes on a 2-core machine. The slow proofs (`*.proof.test.ts`: every defect caught, containers, full
 * runs, the HTML report in a browser) run under `npm run test:proofs` (vitest.proof.config.ts); CI runs both.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.proof.test.ts', '**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // a private temp folder; the run fails when a test leaves anything in it (test/support/temp-folder-setup.ts)
    globalSetup: ['test/support/temp-folder-setup.ts'],
    reporters: ['default', './runner/vitest/closing-line-reporter.ts'],
  },
})
