import type { TestModule } from 'vitest/node'
import type { Reporter } from 'vitest/reporters'

/** Prints the plain closing line "tests: N passed, N failed, N skipped" that CI reads. */
export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const n = { passed: 0, failed: 0, skipped: 0 }
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const s = t.result().state
        if (s === 'passed') n.passed += 1
        else if (s === 'failed') n.failed += 1
        else n.skipped += 1
      }
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) n.failed += 1
    }
    process.stdout.write(`\ntests: ${n.passed} passed, ${n.failed} failed, ${n.skipped} skipped\n`)
  }
}
