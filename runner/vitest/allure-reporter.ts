import { readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter'
import AllureVitestReporter, { type AllureVitestReporterConfig } from 'allure-vitest/reporter'
import type { TestModule, Vitest } from 'vitest/node'
import { FileRecycler, purgeSpares, retireFiles } from '../../common/fs/recycled-files'
import { ALLURE_RESULTS_ENV } from '../../common/report-paths'
import { SKIP_REASON_LABEL } from '../../common/report-labels'
import { fileTaskOf, suiteFilesOf } from '../run/results/lane-files'
import { randomUUID } from 'node:crypto'
import { invariantAllureResult } from '../run/results/allure-invariants'
import { INVARIANTS_FILE } from '../run/results/invariants'
import { CONTRACT_FILE } from '../run/results/contract-checks'
import { casesByTarget, checkOutcomes } from './summary-reporter'

type WriterInput = Parameters<FileSystemWriter['writeResult']>[0]
type WithAttachments = { attachments?: { source: string }[]; steps?: WithAttachments[] }

function renameSources(item: WithAttachments, names: Map<string, string>): void {
  for (const a of item.attachments ?? []) a.source = names.get(a.source) ?? a.source
  for (const s of item.steps ?? []) renameSources(s, names)
}

/**
 * A skipped check's reason (not applicable, blocked) as its status message, from the label the check library set
 * (helpers/checks/check.ts SKIP_REASON_LABEL); the label itself is not kept.
 */
export function withSkipReason(result: {
  status?: string
  statusDetails?: { message?: string }
  labels?: { name: string; value: string }[]
}): void {
  const label = result.labels?.find((l) => l.name === SKIP_REASON_LABEL)
  if (!label) return
  result.labels = result.labels!.filter((l) => l.name !== SKIP_REASON_LABEL)
  if (result.status === 'skipped' && !result.statusDetails?.message)
    result.statusDetails = { ...result.statusDetails, message: label.value }
}

/**
 * allure-results written without an fsync per file. The stock writer syncs every result and attachment
 * to disk on the main thread at the end of the run (about 1 s for one run of this suite, once per tenant
 * in a multi-tenant run); the results are read by `npm run report` right after, not kept across crashes.
 */
export class PlainAllureWriter extends FileSystemWriter {
  /** Attachment file name given by Allure -> the name of the file a worker already wrote in this folder. */
  private readonly inPlace = new Map<string, string>()
  /** Writes over the previous run's files (common/fs/recycled-files.ts). */
  private readonly files: FileRecycler

  constructor(private readonly dir: string) {
    super({ resultsDir: dir })
    // the workers start elsewhere in the list of spares
    this.files = new FileRecycler(dir, 0.999)
  }

  override writeAttachment(name: string, content: Buffer): void {
    this.files.write(name, content)
  }

  /** A file already in this folder (written by a worker) stays where it is; the result is pointed at it. */
  override writeAttachmentFromPath(name: string, from: string): void {
    if (dirname(resolve(from)) === resolve(this.dir)) this.inPlace.set(name, basename(from))
    else this.files.write(name, readFileSync(from))
  }

  override writeResult(result: WriterInput): void {
    if (this.inPlace.size > 0) renameSources(result as unknown as WithAttachments, this.inPlace)
    withSkipReason(result)
    this.files.write(`${result.uuid}-result.json`, JSON.stringify(result))
  }

  override writeGroup(result: Parameters<FileSystemWriter['writeGroup']>[0]): void {
    this.files.write(`${result.uuid}-container.json`, JSON.stringify(result))
  }
}

/**
 * allure-vitest's reporter with the plain writer (same files, same layout). The results folder starts empty at
 * each run: it holds this run's results only, instead of growing by thousands of files a run. The previous run's
 * files are kept aside as spares and written over with this run's (common/fs/recycled-files.ts); the rest go at the
 * end. The workers write the exchange attachments into it themselves, while the checks wait on the network, instead
 * of sending each one to this process (base64 in the test's metadata) to be decoded and written after the last check.
 */
export default class AllureReporter extends AllureVitestReporter {
  private readonly resultsDir: string
  /** Suite files whose results are written. */
  private readonly written = new Set<string>()
  private root = process.cwd()

  constructor(config: AllureVitestReporterConfig) {
    super(config)
    this.resultsDir = config.resultsDir ?? 'allure-results'
  }

  override onInit(vitest: Vitest): void {
    this.root = vitest.config.root
    // the previous run's files become spares for this run's (common/fs/recycled-files.ts)
    retireFiles(this.resultsDir)
    // the workers start after this and inherit it
    process.env[ALLURE_RESULTS_ENV] = resolve(this.resultsDir)
    super.onInit(vitest)
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: FileSystemWriter } }).allureReporterRuntime
    if (runtime) runtime.writer = new PlainAllureWriter(this.resultsDir)
  }

  /**
   * A suite file's results are written when the file ends, while the other files still run, not all after the last
   * one: that wait was serial work on this thread (about 1 s for 4 tenants) with the workers already done.
   */
  onTestModuleEnd(module: TestModule): void {
    // the module's task tree: what allure-vitest reads at the end of the run too (vitest does not type it publicly)
    // a lane's suites are reported as the files they are (runner/run/results/lane-files.ts): same labels, same fullName
    for (const file of suiteFilesOf(fileTaskOf(module), this.root))
      this.handleTask(file as unknown as Parameters<AllureVitestReporter['handleTask']>[0])
    this.written.add(module.id)
  }

  /**
   * The model's invariants, which no test reports: one result each (per target), the same outcomes checks.json and
   * junit.xml list (runner/vitest/summary-reporter.ts checkOutcomes), written over the spares like the rest.
   */
  private writeInvariants(modules: ReadonlyArray<TestModule>): void {
    // a writer of its own: it lists the spares left now, after every other result (the main writer's list is older)
    const files = new FileRecycler(this.resultsDir, 0)
    const at = Date.now()
    for (const [target, cases] of casesByTarget(modules)) {
      // and the contract checks CT-<operation>-<kind> (runner/run/results/contract-checks.ts), reported the same way
      for (const c of checkOutcomes(cases, this.root).filter(
        (o) => o.file === INVARIANTS_FILE || o.file === CONTRACT_FILE,
      )) {
        const uuid = randomUUID()
        files.write(`${uuid}-result.json`, JSON.stringify(invariantAllureResult(c, uuid, at, target)))
      }
    }
  }

  override onTestRunEnd(tests: Parameters<AllureVitestReporter['onTestRunEnd']>[0]): void {
    const left = tests.filter((t) => !this.written.has(t.id))
    super.onTestRunEnd(
      left.flatMap((m) =>
        suiteFilesOf(fileTaskOf(m), this.root).map((task) =>
          task === fileTaskOf(m) ? m : ({ task } as unknown as (typeof left)[number]),
        ),
      ),
    )
    this.writeInvariants(tests)
    // every result is written: the spares nobody took go
    purgeSpares(this.resultsDir)
  }
}
