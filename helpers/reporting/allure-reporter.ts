import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter'
import AllureVitestReporter, { type AllureVitestReporterConfig } from 'allure-vitest/reporter'
import type { Vitest } from 'vitest/node'
import { ALLURE_RESULTS_ENV } from './paths'

type WriterInput = Parameters<FileSystemWriter['writeResult']>[0]
type WithAttachments = { attachments?: { source: string }[]; steps?: WithAttachments[] }

function renameSources(item: WithAttachments, names: Map<string, string>): void {
  for (const a of item.attachments ?? []) a.source = names.get(a.source) ?? a.source
  for (const s of item.steps ?? []) renameSources(s, names)
}

/**
 * allure-results written without an fsync per file. The stock writer syncs every result and attachment
 * to disk on the main thread at the end of the run (about 1 s for one run of this suite, once per tenant
 * in a multi-tenant run); the results are read by `npm run report` right after, not kept across crashes.
 */
export class PlainAllureWriter extends FileSystemWriter {
  private madeDir = false
  /** Attachment file name given by Allure -> the name of the file a worker already wrote in this folder. */
  private readonly inPlace = new Map<string, string>()

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

  /** A file already in this folder (written by a worker) stays where it is; the result is pointed at it. */
  override writeAttachmentFromPath(name: string, from: string): void {
    if (dirname(resolve(from)) === resolve(this.dir)) this.inPlace.set(name, basename(from))
    else copyFileSync(from, this.path(name))
  }

  override writeResult(result: WriterInput): void {
    if (this.inPlace.size > 0) renameSources(result as unknown as WithAttachments, this.inPlace)
    writeFileSync(this.path(`${result.uuid}-result.json`), JSON.stringify(result))
  }

  override writeGroup(result: Parameters<FileSystemWriter['writeGroup']>[0]): void {
    writeFileSync(this.path(`${result.uuid}-container.json`), JSON.stringify(result))
  }
}

/**
 * allure-vitest's reporter with the plain writer (same files, same layout). The results folder starts empty at
 * each run: it holds this run's results only, instead of growing by thousands of files a run. The workers write the
 * exchange attachments into it themselves, while the checks wait on the network, instead of sending each one to
 * this process (base64 in the test's metadata) to be decoded and written after the last check.
 */
export default class AllureReporter extends AllureVitestReporter {
  private readonly resultsDir: string

  constructor(config: AllureVitestReporterConfig) {
    super(config)
    this.resultsDir = config.resultsDir ?? 'allure-results'
  }

  override onInit(vitest: Vitest): void {
    rmSync(this.resultsDir, { recursive: true, force: true })
    mkdirSync(this.resultsDir, { recursive: true })
    // the workers start after this and inherit it
    process.env[ALLURE_RESULTS_ENV] = resolve(this.resultsDir)
    super.onInit(vitest)
    const runtime = (this as unknown as { allureReporterRuntime?: { writer: FileSystemWriter } }).allureReporterRuntime
    if (runtime) runtime.writer = new PlainAllureWriter(this.resultsDir)
  }
}
