import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter'
import AllureVitestReporter, { type AllureVitestReporterConfig } from 'allure-vitest/reporter'
import type { Vitest } from 'vitest/node'

type WriterInput = Parameters<FileSystemWriter['writeResult']>[0]

/**
 * allure-results written without an fsync per file. The stock writer syncs every result and attachment
 * to disk on the main thread at the end of the run (about 1 s for one run of this suite, once per tenant
 * in a multi-tenant run); the results are read by `npm run report` right after, not kept across crashes.
 */
export class PlainAllureWriter extends FileSystemWriter {
  private madeDir = false

  constructor(private readonly dir: string) {
    super({ resultsDir: dir })
  }

  private path(name: string): string {
    if (!this.madeDir) mkdirSync(this.dir, { recursive: true })
    this.madeDir = true
    return join(this.dir, name)
  }

  override writeAttachment(name: string, content: Buffer): void {
    writeFileSync(this.path(name), content)
  }

  override writeAttachmentFromPath(name: string, from: string): void {
    copyFileSync(from, this.path(name))
  }

  override writeResult(result: WriterInput): void {
    writeFileSync(this.path(`${result.uuid}-result.json`), JSON.stringify(result))
  }

  override writeGroup(result: Parameters<FileSystemWriter['writeGroup']>[0]): void {
    writeFileSync(this.path(`${result.uuid}-container.json`), JSON.stringify(result))
  }
}

/**
 * allure-vitest's reporter with the plain writer (same files, same layout). The results folder starts empty at
 * each run: it holds this run's results only, instead of growing by thousands of files a run.
 */
export default class AllureReporter extends AllureVitestReporter {
  private readonly resultsDir: string

  constructor(config: AllureVitestReporterConfig) {
    super(config)
    this.resultsDir = config.resultsDir ?? 'allure-results'
  }

  override onInit(vitest: Vitest): void {
    rmSync(this.resultsDir, { recursive: true, force: true })
    super.onInit(vitest)
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: FileSystemWriter } }).allureReporterRuntime
    if (runtime) runtime.writer = new PlainAllureWriter(this.resultsDir)
  }
}
