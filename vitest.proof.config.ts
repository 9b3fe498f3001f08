import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The defect proofs first (each is a few minutes of conformance runs, and small files vitest would start last): the
 * shorter proofs then fill the other worker around them instead of one long file running alone at the end.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const long = (f: TestSpecification) => /defects\.proof\.test\.ts$/.test(f.moduleId)
    return [...sorted.filter(long), ...sorted.filter((f) => !long(f))]
  }
}

/**
 * `npm run test:proofs`: the slow proofs, files named `*.proof.test.ts`. Each runs the suite (or part of it)
 * as child processes: every named defect caught by its check, the container target, full and multi-target
 * runs, redaction with canaries, chaos side effects, the HTML report in headless Chromium, the installed
 * package. They start their own vitest runs.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.proof.test.ts'],
    testTimeout: 300_000,
    // two proof files at a time: much of a proof's time is waiting (tokens to expire, notifications, npm and docker,
    // the browser), and the defect proofs keep at most two conformance runs of their own at a time
    // (test/support/limiter.ts)
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    hookTimeout: 300_000,
    reporters: ['default', './runner/vitest/closing-line-reporter.ts'],
    // a private temp folder; the run fails when a proof leaves anything in it (test/support/temp-folder-setup.ts)
    globalSetup: ['test/support/temp-folder-setup.ts'],
  },
})
