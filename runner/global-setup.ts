import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { DefectSet } from '../reference/defects/catalogue'
import { startReference, type RunningReference } from '../reference/server'
import { ConfigError, loadTargetConfig, withEmbeddedOrigin } from '../helpers/config'
import type { TargetConfig } from '../helpers/config/types'
import type { ContainerRun } from './container/container-run'
import { containerTargetFromEnv, ContainerTargetError } from './container/target-env'
import { guardRun } from './guard/run-guard'
import { preflight, PreflightError } from './preflight'
import { chaosFromEnv } from '../reference/chaos/env'
import { reportsDir, targetReportsDir, trafficDir } from '../helpers/reporting/paths'
import { runInfo } from './reporting/run-info'
import { restrictReports } from './reporting/redacting-reporter'
import { runRedactor } from '../helpers/reporting/redact'
import { loadTargets, type NamedTarget } from './targets/load'

/** Stops the run with one message, without a stack trace of the suite's internals. */
function fatal(message: string): never {
  const e = new Error(message)
  e.stack = message
  throw e
}

function orFatal<T>(f: () => T, known: (e: unknown) => boolean, prefix = ''): T {
  try {
    return f()
  } catch (e) {
    if (known(e)) fatal(`${prefix}${(e as Error).message}`)
    throw e
  }
}

const isConfigError = (e: unknown) => e instanceof ConfigError

/** The configured passwords go into the run's redactor before any request (the reporters hear of them too). */
function registerSecrets(config: TargetConfig): void {
  for (const u of Object.values(config.users)) runRedactor().addSecret(u?.password)
}

/** Starts the embedded reference service for the targets that have no URL of their own. */
async function startEmbedded(config: TargetConfig, chaos: ReturnType<typeof chaosFromEnv>): Promise<RunningReference> {
  orFatal(() => new DefectSet(config.reference.defects), () => true, 'REFERENCE_DEFECTS: ')
  try {
    return await startReference({ ...config.reference, defects: config.reference.defects, ...(chaos ? { chaos } : {}) })
  } catch (e) {
    fatal(`Embedded reference service failed to start: ${(e as Error).message}`)
  }
}

/** Clears the traffic and per-target reports of an earlier run; returns the reports folder. */
function resetReports(env: NodeJS.ProcessEnv): string {
  rmSync(trafficDir(env), { recursive: true, force: true })
  rmSync(targetReportsDir(env), { recursive: true, force: true })
  const dir = reportsDir(env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  restrictReports(dir)
  return dir
}

/** One target: the profile (TARGET_PROFILE) plus the environment; embedded, container or external. */
async function setupOne(project: TestProject, env: NodeJS.ProcessEnv): Promise<() => Promise<void>> {
  let config = orFatal(() => loadTargetConfig(env), isConfigError)
  registerSecrets(config)
  let chaos
  try {
    await guardRun(project, config, env, process.argv)
    chaos = chaosFromEnv(env, config.embedded)
  } catch (e) {
    fatal((e as Error).message)
  }
  let reference: RunningReference | undefined
  let container: ContainerRun | undefined
  const containerTarget = orFatal(() => containerTargetFromEnv(env), (e) => e instanceof ContainerTargetError)
  if (containerTarget) {
    // TARGET=container / TARGET_IMAGE: the service under test runs as a container for this run.
    if (containerTarget.reference) orFatal(() => new DefectSet(config.reference.defects), () => true, 'REFERENCE_DEFECTS: ')
    try {
      // testcontainers takes a third of a second to load: only container runs pay for it
      const { startContainerForRun } = await import('./container/container-run')
      container = await startContainerForRun(containerTarget, config)
    } catch (e) {
      fatal(`Target container: ${(e as Error).message}`)
    }
    config = container.configure(config)
  } else if (config.embedded) {
    reference = await startEmbedded(config, chaos)
    config = withEmbeddedOrigin(config, reference.url)
  }
  try {
    await preflight(config)
  } catch (e) {
    await reference?.close()
    await container?.release()
    if (e instanceof PreflightError) fatal(e.message)
    throw e
  }
  const dir = resetReports(env)
  const info = { ...runInfo(config), ...(container ? { embedded: false, container: { image: container.image, id: container.containerId.slice(0, 12) } } : {}) }
  writeFileSync(join(dir, 'run.json'), `${JSON.stringify(info, null, 2)}\n`)
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
async function setupMany(project: TestProject, env: NodeJS.ProcessEnv, targets: NamedTarget[]): Promise<() => Promise<void>> {
  if (orFatal(() => containerTargetFromEnv(env), (e) => e instanceof ContainerTargetError)) {
    fatal('TARGET=container / TARGET_IMAGE runs one target; unset TARGET_PROFILES (or run each profile on its own)')
  }
  const firstEmbedded = targets.find((t) => t.config.embedded)
  const chaos = orFatal(() => chaosFromEnv(env, firstEmbedded !== undefined), () => true)
  for (const t of targets) registerSecrets(t.config)
  for (const t of targets) {
    try {
      await guardRun(project, t.config, env, process.argv)
    } catch (e) {
      fatal(`[${t.key}] ${(e as Error).message}`)
    }
  }
  const reference = firstEmbedded ? await startEmbedded(firstEmbedded.config, chaos) : undefined
  const resolved = targets.map((t) => ({ key: t.key, config: t.config.embedded && reference ? withEmbeddedOrigin(t.config, reference.url) : t.config }))
  const failures = await Promise.all(resolved.map((t) => preflight(t.config).then(() => undefined, (e: unknown) => ({ key: t.key, error: e }))))
  const failed = failures.filter((f) => f !== undefined)
  if (failed.length > 0) {
    await reference?.close()
    const unknown = failed.find((f) => !(f.error instanceof PreflightError))
    if (unknown) throw unknown.error
    fatal(failed.map((f) => `[${f.key}] ${(f.error as Error).message}`).join('\n'))
  }
  const dir = resetReports(env)
  // a single-target run's reports would be read as this run's
  for (const f of ['run.json', 'checks.json', 'conformance.md', 'conformance.html']) rmSync(join(dir, f), { force: true })
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
  const env = process.env
  const targets = orFatal(() => loadTargets(env), isConfigError)
  return targets ? setupMany(project, env, targets) : setupOne(project, env)
}
