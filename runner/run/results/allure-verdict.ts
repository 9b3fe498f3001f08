import { randomUUID, createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { safeJson, safeText } from '../../../helpers/client/evidence/neutralise'
import type { ChecksReport } from './results'
import { verdictProperties } from './junit'

/** A value of a Java properties file on one line (Allure reads environment.properties). */
function prop(v: string): string {
  return safeText(v)
    .replace(/\\/g, '\\\\')
    .replace(/\r?\n/g, '\\n')
    .replace(/[=:]/g, (c) => `\\${c}`)
}

/**
 * The verdict in the Allure results of the run: environment.properties (shown as "Environment") and executor.json
 * (shown as "Executor", its build name is the verdict line). When the verdict is not CONFORMS and no check carries
 * the cause (the run stopped, or ran nothing), one result "verdict" with the cause: broken for a run that could not
 * test, failed for a target that violated a requirement before any check (sales §5 at login).
 */
export function writeAllureVerdict(resultsDir: string, report: ChecksReport, failedOrErrored: number): void {
  mkdirSync(resultsDir, { recursive: true })
  const props = verdictProperties(report)
  writeFileSync(
    join(resultsDir, 'environment.properties'),
    `${Object.entries(props)
      .map(([k, v]) => `${k}=${prop(v)}`)
      .join('\n')}\n`,
  )
  const run = report.run
  const executor = {
    name: 'ledger-conformance',
    type: 'ledger-conformance',
    buildName: `${props['verdict.line']}${run ? ` — run ${run.runId}` : ''}`,
    reportName: `Conformance ${props.verdict}`,
  }
  writeFileSync(join(resultsDir, 'executor.json'), `${safeJson(executor)}\n`)
  if (report.verdict === 'CONFORMS' || failedOrErrored > 0) return
  const now = Date.now()
  const name = `verdict ${props['verdict.line']}`
  const uuid = randomUUID()
  const result = {
    uuid,
    historyId: createHash('md5').update('ledger-conformance verdict').digest('hex'),
    testCaseId: createHash('md5').update('ledger-conformance verdict').digest('hex'),
    name,
    fullName: 'ledger-conformance run verdict',
    status: report.verdict === 'DOES NOT CONFORM' ? 'failed' : 'broken',
    statusDetails: { message: report.cause ?? props['verdict.line'], trace: '' },
    stage: 'finished',
    start: now,
    stop: now,
    labels: [
      { name: 'suite', value: 'ledger-conformance run' },
      ...(run ? [{ name: 'host', value: run.salesBaseUrl }] : []),
    ],
    parameters: [],
    links: [],
    steps: [],
    attachments: [],
  }
  writeFileSync(join(resultsDir, `${uuid}-result.json`), safeJson(result, { pretty: false }))
}
