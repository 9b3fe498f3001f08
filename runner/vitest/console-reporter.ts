import type { SerializedError } from 'vitest'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import { reportsDir } from '../../common/report-paths'
import { safeText } from '../../helpers/client/evidence/neutralise'
import { isRunStop } from '../run/verdict'
import { readOwnRunInfo } from '../run/results/results'
import { fit } from '../run/results/console-lines'

type UserConsoleLog = Parameters<NonNullable<Reporter['onUserConsoleLog']>>[0]

/** The first line of an error's message: the console names it, the reports (checks.json, Allure) keep the rest. */
export function oneLine(e: unknown): string {
  const message = e && typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : String(e)
  const name =
    e && typeof e === 'object' && 'name' in e && typeof (e as { name: unknown }).name === 'string'
      ? (e as { name: string }).name
      : 'Error'
  return fit(`${name}: ${message.split('\n').find((l) => l.trim()) ?? ''}`)
}

/**
 * The suite's own console (docs/reports.md, "Console"), in place of vitest's: no banner, no line per test or file (no
 * `.lanes/...` paths), no code frames or stacks of the suite's source, no colour. During the run it prints nothing but
 * what a check logs; the summary reporter prints the run's one summary, with one line per failed or errored check
 * (runner/run/results/console-lines.ts). An error outside any check (a suite file that did not load, a hook, an error
 * of
 * vitest's own) is one line here; a run its global setup stopped and recorded is the summary's alone (vitest would add
 * "No test files found" and the cause again as an "Unhandled Error").
 */
export default class ConsoleReporter implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    const logger = vitest.logger
    const error = logger.error.bind(logger)
    // vitest follows the error it prints with two empty lines: not printed after a stop that was not printed either
    let stopped = false
    // what vitest prints of an error itself (a global setup that threw, a config error): one line, never a code frame
    logger.printError = (err) => {
      if (isRunStop(err)) stopped = true
      else error(safeText(oneLine(err)))
    }
    logger.error = (...args) =>
      stopped && args.length === 1 && args[0] === '\n\n' ? void (stopped = false) : error(...args)
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    // a check's own console output (already redacted: runner/vitest/redacting-reporter.ts,
    // runner/vitest/worker-console.ts)
    const out = log.type === 'stderr' ? process.stderr : process.stdout
    out.write(log.content.endsWith('\n') ? log.content : `${log.content}\n`)
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>): void {
    if (recordedStop()) return
    // errors outside any check, one line each (the verdict names them too: runner/run/results/run-reports.ts)
    const lines: string[] = []
    for (const m of modules) {
      for (const e of m.errors()) lines.push(`error in ${this.relative(m.moduleId)}: ${oneLine(e)}`)
      for (const s of m.children.allSuites())
        for (const e of s.errors()) lines.push(`error in ${s.fullName}: ${oneLine(e)}`)
    }
    for (const e of errors) lines.push(`error outside any check: ${oneLine(e)}`)
    if (lines.length > 0) process.stderr.write(`${safeText(lines.map(fit).join('\n'))}\n`)
  }

  private relative(id: string): string {
    const root = this.vitest?.config.root
    return root && id.startsWith(`${root}/`) ? id.slice(root.length + 1) : id
  }
}

/** Whether this run's run.json records a stop. */
function recordedStop(): boolean {
  return readOwnRunInfo(reportsDir(), process.env.CONFORMANCE_RUN_ID)?.stop !== undefined
}
