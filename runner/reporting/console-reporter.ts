import type { SerializedError } from 'vitest'
import { DefaultReporter, type TestModule, type Vitest } from 'vitest/node'
import { reportsDir } from '../../helpers/client/evidence/paths'
import { isRunStop } from '../verdict'
import { readOwnRunInfo } from './results'

/**
 * vitest's default console, quiet about a run that its global setup stopped and recorded (a profile a target refuses,
 * a password that cannot log in, an embedded reference that cannot start): the summary reporter prints that stop as
 * the run's verdict, with its cause. vitest would add "No test files found" (no file ran, though files were found)
 * and the cause again as an "Unhandled Error" with a banner. A stop the global setup did not record (it failed before
 * it could) still gets vitest's own output: the summary then says to look at it. vitest's own totals are not printed.
 */
export default class ConsoleReporter extends DefaultReporter {
  override onInit(vitest: Vitest): void {
    super.onInit(vitest)
    const logger = vitest.logger
    const printError = logger.printError.bind(logger)
    const error = logger.error.bind(logger)
    // vitest follows the error it prints with two empty lines: not printed after a stop that was not printed either
    let stopped = false
    logger.printError = (err, options) => (isRunStop(err) ? void (stopped = true) : printError(err, options))
    logger.error = (...args) => (stopped && args.length === 1 && args[0] === '\n\n' ? void (stopped = false) : error(...args))
  }

  /**
   * vitest's own totals ("Test Files 1 passed", "Tests 3 failed | 292 passed | 48 skipped") count vitest tests, not
   * checks: a blocked or not-applicable check is a "skipped" test there, an invariant is no test at all. The summary
   * reporter says the run's totals once, in the categories every report uses (runner/reporting/totals-line.ts).
   */
  override reportTestSummary(): void {}

  override onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>, reason: Parameters<DefaultReporter['onTestRunEnd']>[2]): void {
    if (recordedStop()) return
    super.onTestRunEnd(modules, errors, reason)
  }
}

/** Whether this run's run.json records a stop. */
function recordedStop(): boolean {
  return readOwnRunInfo(reportsDir(), process.env.CONFORMANCE_RUN_ID)?.stop !== undefined
}
