import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { DefectSet } from '../../reference/defects/catalogue'
import type { RunningReference } from '../../reference/server'
import {
  ConfigError,
  loadTargetConfig,
  withEmbeddedOrigin,
  withReferenceContract,
} from '../../common/config/target-config'
import type { TargetConfig } from '../../common/config/types'
import type { ContainerRun } from '../run/container/container-run'
import { containerTargetFromEnv, ContainerTargetError } from '../run/container/target-env'
import { guardRun } from '../run/guard/run-guard'
import { preflight, PreflightError } from '../run/preflight'
import {
  definitionsOf,
  OpenApiDocumentError,
  openApiSources,
  readDocuments,
} from '../../helpers/client/contracts/openapi-documents'
import { chaosFromEnv } from '../../reference/chaos/env'
import { reportsDir, targetReportsDir, trafficDir } from '../../common/report-paths'
import { earlyRunInfo, runInfo, type RunInfo } from '../run/results/run-info'
import { RUN_REPORT_FILES, RUN_REPORT_FOLDERS } from '../run/results/results'
import { restrictReports } from './redacting-reporter'
import { runRedactor } from '../../helpers/client/evidence/redact'
import { safeJson, safeText } from '../../helpers/client/evidence/neutralise'
import { guardStackTraces } from './stack-guard'
import { loadTargets, type NamedTarget } from '../run/targets/load'
import { runStopError, type RunStop } from '../run/verdict'
import { newRunId } from '../../common/run-id'
import { plannedTargets, type PlannedTarget } from '../../common/run-plan'

/**
 * Where this run records itself (reports/run.json) from its first moment, so that a run that stops (configuration,
 * preflight) is reported as itself, with its id and target, and its stop's kind and cause become the verdict.
 */
class RunRecord {
  constructor(
    private readonly dir: string,
    private info: RunInfo,
  ) {
    this.write()
  }

  update(info: RunInfo): void {
    this.info = { ...info, startedAt: this.info.startedAt }
    this.write()
  }

  /** Records the stop and ends the run with one message, without a stack trace of the suite's internals. */
  stop(kind: RunStop['kind'], message: string): never {
    const cause = safeText(message)
    this.info = { ...this.info, stop: { kind, cause } }
    this.write()
    throw runStopError(cause)
  }

  private write(): void {
    writeFileSync(join(this.dir, 'run.json'), `${safeJson(this.info)}\n`)
  }
}

function orStop<T>(rec: RunRecord, kind: RunStop['kind'], f: () => T, known: (e: unknown) => boolean, prefix = ''): T {
  try {
    return f()
  } catch (e) {
    if (known(e)) rec.stop(kind, `${prefix}${(e as Error).message}`)
    throw e
  }
}

const isConfigError = (e: unknown) => e instanceof ConfigError

/** The configured passwords go into the run's redactor before any request (the reporters hear of them too). */
function registerSecrets(config: TargetConfig): void {
  for (const u of Object.values(config.users)) runRedactor().addSecret(u?.password)
}

/** Starts the embedded reference service for the targets that have no URL of their own. */
async function startEmbedded(
  rec: RunRecord,
  config: TargetConfig,
  chaos: ReturnType<typeof chaosFromEnv>,
): Promise<RunningReference> {
  orStop(
    rec,
    'configuration',
    () => new DefectSet(config.reference.defects),
    () => true,
    'REFERENCE_DEFECTS: ',
  )
  try {
    // loaded only when a target is embedded: a run against a remote target does not pay for the service's modules
    const { startReference } = await import('../../reference/server')
    return await startReference({ ...config.reference, defects: config.reference.defects, ...(chaos ? { chaos } : {}) })
  } catch (e) {
    rec.stop('inconclusive', `Embedded reference service failed to start: ${(e as Error).message}`)
  }
}

/**
 * Clears every report of an earlier run (run.json, checks.json, the matrix, acceptance.json, traffic, targets/, the
 * HTML report); returns the folder.
 */
function resetReports(env: NodeJS.ProcessEnv): string {
  rmSync(trafficDir(env), { recursive: true, force: true })
  rmSync(targetReportsDir(env), { recursive: true, force: true })
  const dir = reportsDir(env)
  for (const f of RUN_REPORT_FILES) rmSync(join(dir, f), { force: true })
  for (const f of RUN_REPORT_FOLDERS) rmSync(join(dir, f), { recursive: true, force: true })
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  restrictReports(dir)
  return dir
}

/** The stop a failed preflight means: a §5 violation, a configuration error, or a target that could not be tested. */
function preflightStop(rec: RunRecord, e: unknown, prefix = ''): never {
  if (e instanceof PreflightError) rec.stop(e.kind, `${prefix}${e.message}`)
  rec.stop('inconclusive', `${prefix}preflight: ${(e as Error)?.message ?? String(e)}`)
}

/** One target: the profile (TARGET_PROFILE) plus the environment; embedded, container or external. */
async function setupOne(
  project: TestProject,
  env: NodeJS.ProcessEnv,
  rec: RunRecord,
  planned?: TargetConfig,
): Promise<() => Promise<void>> {
  let config = planned ?? orStop(rec, 'configuration', () => loadTargetConfig(env), isConfigError)
  const namedByProfile = config.openapi
  registerSecrets(config)
  rec.update(runInfo(config))
  let chaos
  try {
    await guardRun(project, config, env, process.argv)
    chaos = chaosFromEnv(env, config.embedded)
  } catch (e) {
    rec.stop('configuration', (e as Error).message)
  }
  let reference: RunningReference | undefined
  let container: ContainerRun | undefined
  const containerTarget = orStop(
    rec,
    'configuration',
    () => containerTargetFromEnv(env),
    (e) => e instanceof ContainerTargetError,
  )
  if (containerTarget) {
    // TARGET=container / TARGET_IMAGE: the service under test runs as a container for this run.
    if (containerTarget.reference)
      orStop(
        rec,
        'configuration',
        () => new DefectSet(config.reference.defects),
        () => true,
        'REFERENCE_DEFECTS: ',
      )
    try {
      // testcontainers takes a third of a second to load: only container runs pay for it
      const { startContainerForRun } = await import('../run/container/container-run')
      container = await startContainerForRun(containerTarget, config)
    } catch (e) {
      rec.stop('inconclusive', `Target container: ${(e as Error).message}`)
    }
    config = container.configure(config)
    if (containerTarget.reference) config = withReferenceContract(config)
  } else if (config.embedded) {
    reference = await startEmbedded(rec, config, chaos)
    config = withReferenceContract(withEmbeddedOrigin(config, reference.url))
  }
  // the reference's own document, named by no profile but by withReferenceContract: test/reference/openapi.test.ts
  // proves it a valid 3.1 document that openapi-backend loads, so it is only read here (no strict pass: about 1.5 CPU
  // s of ajv; and no openapi-backend in this thread: 0.2 s before the first request; docs/contracts.md "Cost")
  const ownDocument = namedByProfile === undefined && config.openapi !== undefined
  const info = {
    ...runInfo(config),
    ...(container
      ? { embedded: false, container: { image: container.image, id: container.containerId.slice(0, 12) } }
      : {}),
  }
  rec.update(info)
  let openapiDocuments: Record<string, unknown> = {}
  try {
    // the target's published documents (profile openapi) are read and are OpenAPI 3.x, or the run stops as
    // misconfigured;
    // their authoring errors are document warnings (listed in run.json, the console and the reports), never a stop
    const reading = { deadlineMs: config.http.preflightDeadlineMs, maxBytes: config.http.maxResponseBytes }
    if (ownDocument) openapiDocuments = definitionsOf(await readDocuments(openApiSources(config), reading))
    else {
      const loaded = await (await import('../../helpers/client/contracts/openapi')).OpenApiContracts.load(
        openApiSources(config),
        reading,
      )
      openapiDocuments = loaded.definitions
      // listed once, by the console reporter and the reports, from run.json
      if (loaded.warnings.length > 0) rec.update({ ...info, documentWarnings: loaded.warnings })
    }
  } catch (e) {
    await reference?.close()
    await container?.release()
    if (e instanceof OpenApiDocumentError) rec.stop('configuration', e.message)
    rec.stop('configuration', `openapi: ${(e as Error).message}`)
  }
  try {
    // an optional user that could not log in leaves the configuration here, with its reason
    config = await preflight(config)
  } catch (e) {
    await reference?.close()
    await container?.release()
    preflightStop(rec, e)
  }
  // the workers validate against the documents loaded here (helpers/client/contracts/openapi-sink.ts)
  if (Object.keys(openapiDocuments).length > 0) config = { ...config, openapiDocuments }
  project.provide('target', config)
  return async () => {
    await reference?.close()
    await container?.release()
  }
}

/**
 * Several targets (TARGET_PROFILES) in one run: each is guarded and preflighted, the embedded ones share one
 * reference service, and each gets its reports under reports/targets/<key>/ (docs/targets.md).
 */
async function setupMany(
  project: TestProject,
  env: NodeJS.ProcessEnv,
  targets: NamedTarget[],
  rec: RunRecord,
  dir: string,
): Promise<() => Promise<void>> {
  if (
    orStop(
      rec,
      'configuration',
      () => containerTargetFromEnv(env),
      (e) => e instanceof ContainerTargetError,
    )
  ) {
    rec.stop(
      'configuration',
      'TARGET=container / TARGET_IMAGE runs one target; unset TARGET_PROFILES (or run each profile on its own)',
    )
  }
  const firstEmbedded = targets.find((t) => t.config.embedded)
  const chaos = orStop(
    rec,
    'configuration',
    () => chaosFromEnv(env, firstEmbedded !== undefined),
    () => true,
  )
  for (const t of targets) registerSecrets(t.config)
  for (const t of targets) {
    try {
      await guardRun(project, t.config, env, process.argv)
    } catch (e) {
      rec.stop('configuration', `[${t.key}] ${(e as Error).message}`)
    }
  }
  const reference = firstEmbedded ? await startEmbedded(rec, firstEmbedded.config, chaos) : undefined
  const placed = targets.map((t) => ({
    key: t.key,
    config: t.config.embedded && reference ? withEmbeddedOrigin(t.config, reference.url) : t.config,
  }))
  const checked = await Promise.all(
    placed.map((t) =>
      preflight(t.config).then(
        (config) => ({ key: t.key, config }),
        (e: unknown) => ({ key: t.key, error: e }),
      ),
    ),
  )
  const failed = checked.filter((f): f is { key: string; error: unknown } => 'error' in f)
  const resolved = checked.filter((f): f is { key: string; config: TargetConfig } => 'config' in f)
  if (failed.length > 0) {
    await reference?.close()
    // the most telling kind: a configuration error, then a violation, then a target that could not be tested
    const kinds = failed.map((f) => (f.error instanceof PreflightError ? f.error.kind : 'inconclusive'))
    const kind = kinds.includes('configuration')
      ? 'configuration'
      : kinds.includes('violation')
        ? 'violation'
        : 'inconclusive'
    rec.stop(kind, failed.map((f) => `[${f.key}] ${(f.error as Error).message}`).join('\n'))
  }
  for (const t of resolved) {
    const own = targetReportsDir(env, t.key)
    mkdirSync(own, { recursive: true })
    writeFileSync(join(own, 'run.json'), `${JSON.stringify({ ...runInfo(t.config), target: t.key }, null, 2)}\n`)
  }
  project.provide('targets', Object.fromEntries(resolved.map((t) => [t.key, t.config])))
  return async () => {
    await reference?.close()
  }
}

/**
 * Resolves the target(s) (profile + environment), starts the embedded reference service when no
 * SALES_BASE_URL is set, runs the preflight, and provides the target(s) to every suite.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  guardStackTraces()
  const env = process.env
  // vitest.config.ts sets the run id for the whole run (reporters, workers); a run id of its own otherwise
  const runId = env.CONFORMANCE_RUN_ID ?? newRunId()
  const dir = resetReports(env)
  const rec = new RunRecord(dir, earlyRunInfo(env, runId))
  // the target(s) the CLI resolved (the run plan); loaded here only when no plan holds them (vitest started directly)
  const planned = plannedTargets(env)
  const targets = planned ? plannedMany(planned) : orStop(rec, 'configuration', () => loadTargets(env), isConfigError)
  return targets ? setupMany(project, env, targets, rec, dir) : setupOne(project, env, rec, planned?.[0]?.config)
}

/** The planned targets of a multi-target run (each has its key), undefined for a single target. */
function plannedMany(planned: PlannedTarget[]): NamedTarget[] | undefined {
  const named = planned.filter((t): t is NamedTarget => t.key !== undefined)
  return named.length > 0 ? named : undefined
}
